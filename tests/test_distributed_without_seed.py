"""distributed-without-seed across files and import forms (lint only: the rules/ examples run msrun)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from mslint.engine import check_files
from mslint.settings import Settings

Write = Callable[[str, str], Path]

NETWORK = "\nfrom mindspore import nn\n\nnet = nn.Dense(4, 4)\n"
"""Weights the program builds, appended to a script: a program that makes none has nothing to seed."""


def flagged(paths: list[Path]) -> set[tuple[str, int]]:
    report = check_files(paths, Settings(select=("distributed-without-seed",)))
    return {(Path(d.path).name, d.line) for d in report.diagnostics}


@pytest.mark.parametrize(
    ("imports", "call"),
    [
        ("import mindspore as ms", "ms.communication.init()"),
        ("from mindspore.communication import management", "management.init()"),
        ("import mindspore.communication", "mindspore.communication.init()"),
    ],
)
def test_import_forms(write: Write, imports: str, call: str) -> None:
    path = write("train.py", f"{imports}\n\ndef main():\n    {call}\n{NETWORK}")
    assert flagged([path]) == {("train.py", 4)}


@pytest.mark.parametrize(
    "seed",
    [
        "import numpy as np\n    np.random.seed(1)",
        "import mindspore.common\n    mindspore.common.set_seed(1)",
        "from mindspore import context\n    context.set_auto_parallel_context(parameter_broadcast=True)",
    ],
)
def test_seeds_imported_inside_the_function(write: Write, seed: str) -> None:
    path = write("train.py", f"def main():\n    from mindspore.communication import init\n    init()\n    {seed}\n")
    assert flagged([path]) == set()


def test_broadcast_turned_off_is_no_seed(write: Write) -> None:
    source = """
        import mindspore as ms
        from mindspore.communication import init

        init()
        ms.set_auto_parallel_context(parameter_broadcast=False)
        net = ms.nn.Dense(4, 4)
    """
    assert flagged([write("train.py", source)]) == {("train.py", 4)}


def test_seed_in_the_script_that_imports_the_init_helper(write: Write) -> None:
    helper = write("dist.py", "from mindspore.communication import init\n\ndef setup():\n    init()\n")
    script = write("train.py", "import mindspore as ms\nfrom dist import setup\n\nsetup()\nms.set_seed(1)\n")
    other = write("run.py", "from dist import setup\n\nsetup()\n" + NETWORK)
    assert flagged([helper, script, other]) == set()
    assert flagged([helper, other]) == {("dist.py", 4)}


def test_seed_in_an_unrelated_script_does_not_count(write: Write) -> None:
    seeded = write("a.py", "import mindspore as ms\nimport utils\n\nms.set_seed(1)\n")
    unseeded = write("b.py", "from mindspore.communication import init\nimport utils\n\ninit()\n" + NETWORK)
    utils = write("utils.py", "WIDTH = 4\n")
    assert flagged([seeded, unseeded, utils]) == {("b.py", 4)}


def test_seed_in_a_package_helper_read_from_disk(write: Write) -> None:
    write("pkg/__init__.py", "")
    write("pkg/seeding.py", "import mindspore\n\ndef seed_all(seed):\n    mindspore.set_seed(seed)\n")
    source = "from mindspore.communication import init\nfrom .seeding import seed_all\n\ninit()\n"
    script = write("pkg/train.py", source)
    assert flagged([script]) == set()


def test_a_seed_that_depends_on_the_rank_does_not_count(write: Write) -> None:
    """mindcv's pattern: `utils.set_seed(seed, rank)`, star-imported from `utils/random.py`,
    runs `ms.set_seed(seed + rank)`."""
    write("utils/__init__.py", "from .random import *\n")
    write("utils/random.py", "import mindspore as ms\n\ndef set_seed(seed=42, rank=0):\n    ms.set_seed(seed + rank)\n")
    train = write(
        "train.py",
        "from mindspore.communication import get_rank, init\nfrom utils import set_seed\n\n"
        "def main():\n    init()\n    set_seed(42, get_rank())\n",
    )
    assert flagged([train]) == {("train.py", 5)}
    report = check_files([train], Settings(select=("distributed-without-seed",)))
    assert "seeds each rank differently, `set_seed(42, get_rank())` (train.py:6)" in report.diagnostics[0].message


@pytest.mark.parametrize(
    ("seed", "flags"),
    [
        ("from mindcv.utils import set_seed\n    set_seed(args.seed)", False),
        ("import mindcv.utils\n    mindcv.utils.set_seed(1)", False),
        ("from mindcv.utils import set_seed\n    set_seed(args.seed + rank)", True),
        ("from mindcv.utils import seed_all\n    seed_all(1)", True),
    ],
)
def test_another_librarys_set_seed_helper_counts(write: Write, seed: str, flags: bool) -> None:
    """mindcv.utils.set_seed calls mindspore.set_seed: a library's helper of that name is a seed."""
    path = write(
        "train.py", f"from mindspore.communication import init\n\ndef main(args, rank):\n    {seed}\n    init()\n"
    )
    assert bool(flagged([path])) is flags


@pytest.mark.parametrize(
    ("name", "body", "flags"),
    [
        ("eval.py", "init()\nnet = build()\n", False),
        ("predict_batch.py", "init()\n", False),
        ("export.py", "init()\n", False),
        ("tests/test_collectives.py", "init()\n", False),
        ("train.py", "init()\n", True),
        ("run.py", "init()\n", True),
        ("eval.py", "init()\nmodel.train(1, data)\n", True),
        ("eval.py", "init()\nstep = ms.value_and_grad(loss_fn)\n", True),
    ],
)
def test_scripts_named_as_not_training_are_not_flagged(write: Write, name: str, body: str, flags: bool) -> None:
    path = write(name, f"import mindspore as ms\nfrom mindspore.communication import init\n{body}{NETWORK}")
    assert bool(flagged([path])) is flags


def test_a_helper_run_by_a_training_script_is_flagged(write: Write) -> None:
    helper = write("dist.py", "from mindspore.communication import init\n\ndef setup():\n    init()\n")
    evaluation = write("eval.py", "from dist import setup\n\nsetup()\n")
    training = write("train.py", "from dist import setup\n\nsetup()\n" + NETWORK)
    assert flagged([helper, evaluation]) == set()
    assert flagged([helper, evaluation, training]) == {("dist.py", 4)}


@pytest.mark.parametrize(
    ("made", "flags"),
    [
        ("", False),  # d2l's allreduce.py: a tensor summed across ranks
        (
            "class Scale(nn.Cell):\n    def __init__(self):\n        super().__init__()\n        self.mul = ops.Mul()\n"
            "\nnet = Scale()\n",
            False,
        ),  # d2l's alltoall.py: a Cell that holds primitives only
        (
            "class Scale(nn.Cell):\n    def __init__(self):\n        super().__init__()\n"
            "        self.w = ms.Parameter(ms.Tensor(np.ones(2, np.float32)))\n\nnet = Scale()\n",
            True,
        ),
        ("net = nn.SequentialCell([nn.ReLU()])\n", True),  # a container may hold what it is given
        ("w = initializer('normal', (2, 2))\n", True),
        ("class Head(nn.Dense):\n    pass\n", True),
        ("import mindcv\nnet = mindcv.create_model('resnet18')\n", True),  # another library's network
        ("import os\n", True),  # another module: it may build one
    ],
)
def test_a_program_that_makes_no_weights_has_nothing_to_seed(write: Write, made: str, flags: bool) -> None:
    """Communication demos (d2l's chapter 12) make no Parameter: no weights differ between the
    ranks. Anything that makes one, or another library that may, keeps the finding."""
    source = (
        "import mindspore as ms\nimport numpy as np\nfrom mindspore import nn, ops\n"
        "from mindspore.common.initializer import initializer\nfrom mindspore.communication import init\n\n"
        f"init()\ndata = ops.AllReduce()(ms.Tensor(np.ones((1, 2), np.float32)))\n{made}"
    )
    assert bool(flagged([write("demo.py", source)])) is flags
