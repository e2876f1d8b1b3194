"""Graph scope across files: base Cells and helpers in other modules, relative and absolute imports."""

from __future__ import annotations

from pathlib import Path

import pytest

from mslint.engine import check_files, load_project
from mslint.settings import Settings
from tests.examples import expected_findings

PROJECT = Path(__file__).parent / "data" / "crossfile"
ALL_FILES = sorted(PROJECT.rglob("*.py"))


def findings(paths: list[Path]) -> set[tuple[str, int, str]]:
    report = check_files(paths, Settings())
    return {(Path(d.path).name, d.line, d.symbol) for d in report.diagnostics}


def markers(paths: list[Path]) -> set[tuple[str, int, str]]:
    return {(p.name, line, symbol) for p in paths for line, symbol in expected_findings(p)}


def test_whole_project_matches_markers() -> None:
    assert findings(ALL_FILES) == markers(ALL_FILES)


@pytest.mark.parametrize("name", ["zoo/model.py", "zoo/layers/relative.py"])
def test_one_file_resolves_its_base_cell_from_disk(name: str) -> None:
    path = PROJECT / name
    assert findings([path]) == markers([path])


def test_helper_is_graph_code_only_when_a_caller_is_in_the_run() -> None:
    helpers = PROJECT / "zoo/layers/helpers.py"
    assert findings([helpers]) == set()
    caller = PROJECT / "zoo/layers/relative.py"
    assert ("helpers.py", 5, "third-party-call-in-graph") in findings([helpers, caller])


def test_entry_is_named_in_the_message() -> None:
    report = check_files(ALL_FILES, Settings())
    helper = next(d for d in report.diagnostics if d.path.endswith("helpers.py"))
    assert helper.entry == "RelativeBlock.construct"
    assert helper.entry_path is not None and helper.entry_path.endswith("relative.py")
    assert helper.message.endswith("(reached from RelativeBlock.construct)")


def test_sibling_package_of_a_script_folder_is_the_projects_own(write) -> None:
    """nerf's layout: ``src/`` and ``src/models/`` are packages and the scripts run from ``src/``,
    so ``from nerf_utils.sampler import sample`` in ``src/models/renderer.py`` is
    ``src/nerf_utils/sampler.py``: graph code, not a third-party call. Without the script, only a
    ``sys.path`` that holds ``src/`` runs the import: the module around the importer is still the
    one meant, never a third-party package of that name."""
    write("src/__init__.py", "")
    write("src/models/__init__.py", "")
    write("src/nerf_utils/__init__.py", "")
    sampler = write(
        "src/nerf_utils/sampler.py",
        """
        import numpy as np


        def sample(x):
            return np.sort(x)
        """,
    )
    renderer = write(
        "src/models/renderer.py",
        """
        from mindspore import nn
        from nerf_utils.sampler import sample


        class Renderer(nn.Cell):
            def construct(self, x):
                return sample(x)
        """,
    )
    assert findings([renderer, sampler]) == {("sampler.py", 5, "third-party-call-in-graph")}
    write("src/train.py", 'if __name__ == "__main__":\n    pass\n')
    assert findings([renderer, sampler]) == {("sampler.py", 5, "third-party-call-in-graph")}


def test_a_relative_import_whose_module_the_run_lacks_is_the_projects_own(write) -> None:
    """RAUM-Net's vendored copy of mindcv left its ``layers`` package out: ``from .layers import
    Pool`` names the project's own Cell, which mslint cannot see, never a third-party call. An
    absolute import of a module nowhere in the run is still a library's."""
    net = write(
        "models/net.py",
        """
        import numpy as np
        from mindspore import nn
        from .layers import Pool


        class Net(nn.Cell):
            def construct(self, x):
                return Pool()(x) + np.sqrt(x)
        """,
    )
    assert findings([net]) == {("net.py", 8, "third-party-call-in-graph")}
    unknown = write("models/other.py", net.read_text().replace("from .layers", "from vendored_layers"))
    assert findings([unknown]) == {("other.py", 8, "third-party-call-in-graph")}
    assert len(check_files([unknown], Settings()).diagnostics) == 2


def test_a_convolution_named_only_through_a_star_import_is_still_checked(write) -> None:
    """The module's text never names the convolution: a `*` import binds the other module's alias."""
    layers = write("layers.py", "from mindspore import nn\nfrom mindspore.nn import Conv2d as Layer\n")
    net = write("net.py", "from mindspore import nn\nfrom layers import *\n\nblock = Layer(3, 8, 3, padding=1)\n")
    report = check_files([layers, net], Settings(root=net.parent))
    assert [(Path(d.path).name, d.line, d.symbol) for d in report.diagnostics] == [
        ("net.py", 4, "conv-padding-without-pad-mode")
    ]


PIPELINE = """
import mindspore as ms
import mindspore.dataset as ds
from mindspore import ops


def normalize(x):
    return ops.div(ms.Tensor(x) - 6.0, 6.0).asnumpy()


def create_dataset(data):
    return data.map(operations=normalize, input_columns="x", python_multiprocessing=True)
"""


SPAWNING_SCRIPT = """
import mindspore.dataset as ds

from data import create_dataset

ds.config.set_multiprocessing_start_method("spawn")
"""


def test_a_network_operator_in_a_map_is_fine_where_another_file_sets_spawn(write) -> None:
    """MindSpore runs such a `map` in spawned workers only where the program sets `spawn`: in any
    module of it, but not in a project beside it."""
    data = write("app/data.py", PIPELINE)
    train = write("app/train.py", SPAWNING_SCRIPT)
    beside = [write("other/data.py", PIPELINE), write("other/train.py", SPAWNING_SCRIPT.replace('"spawn"', '"fork"'))]
    settings = Settings(root=data.parent.parent)
    assert [d.symbol for d in check_files([data], settings).diagnostics] == ["ms-op-in-data-pipeline"]
    assert check_files([data, train], settings).diagnostics == []
    together = check_files([data, train, *beside], settings).diagnostics
    assert [(d.path, d.symbol) for d in together] == [(str(beside[0]), "ms-op-in-data-pipeline")]


UNSEEDED_TRAINING = """
from mindspore import nn
from mindspore.communication import init

from src.dataset import create_dataset


def main():
    init()
    return create_dataset(), nn.Dense(4, 4)
"""


def test_a_seed_in_a_project_beside_does_not_seed_this_one(write) -> None:
    """Many projects side by side (a model zoo): a seeded program elsewhere in the run seeds no replica here."""
    write("zoo/seeded/src/dataset.py", "def create_dataset():\n    return []\n")
    write("zoo/seeded/train.py", UNSEEDED_TRAINING + "\nimport mindspore\n\nmindspore.set_seed(1)\n")
    write("zoo/plain/src/dataset.py", "def create_dataset():\n    return []\n")
    plain = write("zoo/plain/train.py", UNSEEDED_TRAINING)
    root = plain.parent.parent
    found = check_files(sorted(root.rglob("*.py")), Settings(root=root)).diagnostics
    assert [(d.path, d.symbol) for d in found] == [(str(plain), "distributed-without-seed")]


def test_a_seed_in_the_script_that_imports_a_namespace_module_counts(write) -> None:
    """``from src.dataset import ...`` beside a folder ``src`` without ``__init__.py``: the module
    calls itself ``dataset``, and the script that imports it under the longer name seeds it."""
    dataset = write("app/src/dataset.py", "from mindspore.communication import init\n\n\ndef setup():\n    init()\n")
    write("app/train.py", "import mindspore\n\nfrom src.dataset import setup\n\nmindspore.set_seed(1)\nsetup()\n")
    root = dataset.parent.parent
    assert check_files(sorted(root.rglob("*.py")), Settings(root=root)).diagnostics == []


def test_a_project_marker_inside_the_tree_does_not_hide_the_modules_around_it(write) -> None:
    """``src/plug_in/sampler/setup.py`` builds an extension; ``src/train.py`` still puts ``src`` on
    ``sys.path``, so ``model.block`` is ``src/model/block.py``. The same name in a project beside
    it is not looked at."""
    write("zoo/other/src/model/block.py", "def Pad(n):\n    return n\n")
    block = write("zoo/app/src/model/block.py", "from mindspore import nn\n\n\nclass Pad(nn.Cell):\n    pass\n")
    write("zoo/app/src/plug_in/sampler/setup.py", "from setuptools import setup\n\nsetup()\n")
    sampler = write("zoo/app/src/plug_in/sampler/sampler.py", "from model.block import Pad\n")
    root = sampler.parents[4]
    # Checked from elsewhere (no configuration around the zoo): the markers bound the imports' search.
    project = load_project(sorted(root.rglob("*.py")), Settings(root=root / "elsewhere")).project
    importer = next(m for m in project.modules if m.path == sampler)
    found = project.module_named("model.block", importer)
    assert found is not None and found.path == block


@pytest.mark.parametrize("package", ["regular", "namespace"])
@pytest.mark.parametrize(
    ("folder", "helper_read", "reported"),
    [
        ("venv/lib/python3.11/site-packages", False, ["third-party-call-in-graph"]),
        ("checkout", True, []),
    ],
)
def test_code_checked_where_it_is_installed_reads_only_its_own_package(
    write, folder: str, helper_read: bool, reported: list[str], package: str
) -> None:
    """A package checked in ``site-packages`` finds its own modules there, but another library
    installed beside it is an installed library, known by its names as from anywhere else; in a
    checkout the same folder is the project's own package, read to follow the call."""
    helper = write(f"{folder}/helper/__init__.py", "import numpy\n\n\ndef scale(x):\n    return numpy.asarray(x)\n")
    base = write(f"{folder}/pkg/base.py", "from mindspore import nn\n\n\nclass Base(nn.Cell):\n    pass\n")
    if package == "regular":
        write(f"{folder}/pkg/__init__.py", "")
    net = write(
        f"{folder}/pkg/net.py",
        "from pkg.base import Base\nfrom helper import scale\n\n\n"
        "class Net(Base):\n    def construct(self, x):\n        return scale(x)\n",
    )
    report = check_files([net], Settings(root=net.parents[1]))
    assert report.context_files == ([base, helper] if helper_read else [base])
    assert [d.symbol for d in report.diagnostics] == reported
