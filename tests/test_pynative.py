"""PyNative-only code: the ``pynative`` setting and the scripts that set PyNative mode."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from mslint.engine import check_files
from mslint.incremental import check_incrementally
from mslint.settings import Settings, load_settings
from tests.examples import expected_findings

ZOO = Path(__file__).parent / "data" / "pynative_zoo"
ZOO_FILES = sorted(ZOO.rglob("*.py"))
_WITHOUT_PYNATIVE = re.compile(r"#\s*expect-without-pynative:\s*([\w\-]+)")

NUMPY_CELL = """
import numpy as np
from mindspore import nn


class Net(nn.Cell):
    def construct(self, x):
        return np.tanh(x)
"""


def findings(paths: list[Path], settings: Settings) -> set[tuple[str, int, str]]:
    return {(Path(d.path).name, d.line, d.symbol) for d in check_files(paths, settings).diagnostics}


def markers(paths: list[Path], pattern: re.Pattern[str] | None = None) -> set[tuple[str, int, str]]:
    if pattern is None:
        return {(p.name, line, symbol) for p in paths for line, symbol in expected_findings(p)}
    return {
        (p.name, number, match.group(1))
        for p in paths
        for number, line in enumerate(p.read_text().splitlines(), start=1)
        for match in [pattern.search(line)]
        if match
    }


def test_zoo_with_its_setting_reports_only_graph_code() -> None:
    assert findings(ZOO_FILES, load_settings(ZOO / "pyproject.toml")) == markers(ZOO_FILES)


def test_zoo_without_the_setting_reports_its_pynative_tree() -> None:
    in_zoo_package = [p for p in ZOO_FILES if "zoo" in p.relative_to(ZOO).parts]
    expected = markers(ZOO_FILES) | markers(in_zoo_package, _WITHOUT_PYNATIVE)
    assert findings(ZOO_FILES, Settings(root=ZOO)) == expected


def test_zoo_demo_blocks_are_graph_code_without_their_pynative_script() -> None:
    blocks = ZOO / "demo_blocks.py"
    assert findings([blocks], Settings(root=ZOO)) == markers([blocks], _WITHOUT_PYNATIVE)


def test_shared_helper_is_reported_from_the_graph_cell() -> None:
    report = check_files(ZOO_FILES, load_settings(ZOO / "pyproject.toml"))
    helper = next(d for d in report.diagnostics if d.path.endswith("utils.py"))
    assert helper.entry == "LlamaModel.construct"


def test_zoo_setting_through_the_command_line(run) -> None:
    code, out, _ = run("check", "--no-cache", "--format", "json", str(ZOO))
    assert code == 1
    assert {(Path(d["path"]).name, d["line"], d["symbol"]) for d in json.loads(out)} == markers(ZOO_FILES)


def _package(write, pynative_source: str, graph_source: str = "") -> list[Path]:
    """pkg/pynative/net.py and pkg/graph.py under the test folder, with pkg/helpers.py."""
    write("pkg/__init__.py", "")
    write("pkg/pynative/__init__.py", "")
    helpers = """
    import numpy as np


    def shared(x):
        return np.tanh(x)


    def eager_only(x):
        return np.sinh(x)
    """
    return [
        write("pkg/helpers.py", helpers),
        write("pkg/pynative/net.py", pynative_source),
        write("pkg/graph.py", graph_source or "x = 1\n"),
    ]


PYNATIVE_NET = """
from mindspore import nn

from pkg.helpers import eager_only, shared


class EagerNet(nn.Cell):
    def construct(self, x):
        print(x.asnumpy())
        return shared(eager_only(x))
"""


@pytest.mark.parametrize(
    "entry",
    [
        "pkg/pynative",
        "pynative",
        "pkg/pynative/*",
        "pkg/pynative/**",
        "*/net.py",
        "net.py",
        "pkg.pynative.net:EagerNet",
    ],
)
def test_setting_names_the_pynative_cells(write, tmp_path: Path, entry: str) -> None:
    paths = _package(write, PYNATIVE_NET)
    assert findings(paths, Settings(root=tmp_path)) != set()
    assert findings(paths, Settings(root=tmp_path, pynative=(entry,))) == set()


@pytest.mark.parametrize("entry", ["pkg/pynativ", "other", "pkg.pynative.net:Other", "pkg.graph:EagerNet"])
def test_setting_that_names_other_code_changes_nothing(write, tmp_path: Path, entry: str) -> None:
    paths = _package(write, PYNATIVE_NET)
    assert findings(paths, Settings(root=tmp_path, pynative=(entry,))) == findings(paths, Settings(root=tmp_path))


def test_helper_reached_from_a_graph_cell_too_stays_reported(write, tmp_path: Path) -> None:
    graph = """
    from mindspore import nn

    from pkg.helpers import shared


    class GraphNet(nn.Cell):
        def construct(self, x):
            return shared(x)
    """
    paths = _package(write, PYNATIVE_NET, graph)
    report = check_files(paths, Settings(root=tmp_path, pynative=("pkg/pynative",)))
    assert [(Path(d.path).name, d.line, d.entry) for d in report.diagnostics] == [
        ("helpers.py", 5, "GraphNet.construct")
    ]


def test_pynative_cell_used_by_a_graph_cell_is_graph_code(write, tmp_path: Path) -> None:
    graph = """
    from mindspore import nn

    from pkg.pynative.net import EagerNet


    class GraphNet(nn.Cell):
        def __init__(self):
            super().__init__()
            self.eager = EagerNet()

        def construct(self, x):
            return self.eager(x)
    """
    paths = _package(write, PYNATIVE_NET, graph)
    report = check_files(paths, Settings(root=tmp_path, pynative=("pkg/pynative",)))
    assert {d.entry for d in report.diagnostics} == {"GraphNet.construct"}
    assert {(Path(d.path).name, d.line) for d in report.diagnostics} == {
        ("net.py", 8),
        ("helpers.py", 5),
        ("helpers.py", 9),
    }


@pytest.mark.parametrize(
    "source",
    [
        """
        import mindspore as ms
        import numpy as np

        @ms.jit
        def step(x):
            return np.tanh(x)
        """,
        """
        import mindspore as ms
        import numpy as np
        from mindspore import nn

        class CompiledNet(nn.Cell):
            @ms.jit
            def construct(self, x):
                return np.tanh(x)
        """,
    ],
)
def test_jit_in_pynative_code_still_compiles(write, tmp_path: Path, source: str) -> None:
    paths = _package(write, source)
    found = findings(paths, Settings(root=tmp_path, pynative=("pkg/pynative",)))
    assert {(name, symbol) for name, _, symbol in found} == {("net.py", "third-party-call-in-graph")}


SCRIPT = """
{imports}
from net import Net


def main():
    {call}
    return Net()
"""


@pytest.mark.parametrize(
    ("imports", "call"),
    [
        ("import mindspore as ms", "ms.set_context(mode=ms.PYNATIVE_MODE)"),
        ("from mindspore import context", "context.set_context(mode=context.PYNATIVE_MODE)"),
        ("import mindspore as ms", "ms.set_context(mode=1)"),
        ("import mindspore", "mindspore.set_context(mode=1, device_target='CPU')"),
        ("from mindspore import PYNATIVE_MODE, set_context", "set_context(mode=PYNATIVE_MODE)"),
        ("", "import mindspore as ms\n    ms.set_context(mode=ms.PYNATIVE_MODE)"),
    ],
)
def test_script_that_sets_pynative_mode_makes_its_cells_eager(write, imports: str, call: str) -> None:
    net = write("net.py", NUMPY_CELL)
    script = write("train.py", SCRIPT.format(imports=imports, call=call))
    assert findings([net], Settings()) == {("net.py", 7, "third-party-call-in-graph")}
    assert findings([net, script], Settings()) == set()


@pytest.mark.parametrize(
    "call",
    [
        "ms.set_context(mode=ms.GRAPH_MODE)",
        "ms.set_context(mode=0)",
        "ms.set_context(mode=ms.PYNATIVE_MODE)\n    ms.set_context(mode=ms.GRAPH_MODE)",
        "ms.set_context(mode=ms.PYNATIVE_MODE)\n    ms.set_context(mode=mode)",
        "ms.set_context(mode=ms.PYNATIVE_MODE)\n    ms.set_context(**options)",
        "ms.set_context(mode=ms.PYNATIVE_MODE)\n    ms.jit(Net())",
        "ms.set_context(device_target='CPU')",
    ],
)
def test_script_with_any_doubt_keeps_its_cells_graph_code(write, call: str) -> None:
    net = write("net.py", NUMPY_CELL)
    script = write("train.py", SCRIPT.format(imports="import mindspore as ms", call=call))
    assert findings([net, script], Settings()) == {("net.py", 7, "third-party-call-in-graph")}


@pytest.mark.parametrize(
    ("name", "source"),
    [
        ("env.py", "import mindspore as ms\n\ndef init():\n    ms.set_context(mode=ms.GRAPH_MODE)\n"),
        ("env.py", "import mindspore as ms\n\n@ms.jit\ndef step(x):\n    return x\n"),
        ("test_net.py", "from net import Net\n\ndef test_net():\n    Net()\n"),
    ],
)
def test_other_modules_can_keep_cells_graph_code(write, name: str, source: str) -> None:
    net = write("net.py", NUMPY_CELL)
    call = "ms.set_context(mode=ms.PYNATIVE_MODE)"
    script = write("train.py", SCRIPT.format(imports="import mindspore as ms\nimport env", call=call))
    write("env.py", "")
    other = write(name, source)
    assert findings([net, script, other], Settings()) == {("net.py", 7, "third-party-call-in-graph")}


_RUN_MAIN = '\nif __name__ == "__main__":\n    main()\n'


@pytest.mark.parametrize(
    ("name", "source", "kept"),
    [
        ("eval.py", 'from net import Net\n\nif __name__ == "__main__":\n    print(Net())\n', False),
        ("test_tank.py", 'from net import Net\n\nif __name__ == "__main__":\n    print(Net())\n', False),
        ("show.py", "from net import Net\n\nprint(Net())\n", False),
        (
            "eval.py",
            'import mindspore as ms\nfrom net import Net\n\nif __name__ == "__main__":\n    ms.jit(Net())\n',
            True,
        ),
        ("test_net.py", "from net import Net\n\n\ndef test_net():\n    Net()\n", True),
    ],
)
def test_a_script_in_the_default_mode_runs_eagerly_beside_a_pynative_one(
    write, name: str, source: str, kept: bool
) -> None:
    """MVSNet's ``eval.py``, beside its PyNative ``train.py``, selects no mode: MindSpore's
    default, PyNative, runs it (``get_context("mode")`` is 1 in 2.10). ``jit`` and a pytest
    module still compile the Cell."""
    net = write("net.py", NUMPY_CELL)
    call = "ms.set_context(mode=ms.PYNATIVE_MODE)"
    script = write("train.py", SCRIPT.format(imports="import mindspore as ms", call=call) + _RUN_MAIN)
    other = write(name, source)
    expected = {("net.py", 7, "third-party-call-in-graph")} if kept else set()
    assert findings([net, script, other], Settings()) == expected


def test_a_script_in_the_default_mode_keeps_its_own_cells_graph_code(write) -> None:
    """A model file with its own demo is graph code, whatever the scripts beside it import."""
    net = write("net.py", NUMPY_CELL)
    call = "ms.set_context(mode=ms.PYNATIVE_MODE)"
    script = write("train.py", SCRIPT.format(imports="import mindspore as ms", call=call) + _RUN_MAIN)
    demo = write(
        "demo.py", NUMPY_CELL.replace("Net", "Demo") + '\nimport net\n\nif __name__ == "__main__":\n    Demo()\n'
    )
    assert findings([net, script, demo], Settings()) == {("demo.py", 7, "third-party-call-in-graph")}


def test_changing_the_setting_is_not_served_from_the_cache(write, run, tmp_path: Path) -> None:
    paths = _package(write, PYNATIVE_NET)
    write("pyproject.toml", "[tool.mslint]\npynative = ['pkg/pynative']\n")
    assert run("check", str(tmp_path))[0] == 0
    write("pyproject.toml", "[tool.mslint]\nselect = ['ALL']\n")
    code, out, _ = run("check", str(tmp_path))
    assert code == 1 and str(paths[1].relative_to(tmp_path)) in out


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("'pkg/pynative'", "[tool.mslint] pynative must be a list of strings"),
        ("['pkg.net:']", "pynative entries are path patterns or 'package.module:Cell', not 'pkg.net:'"),
        ("[':Net']", "pynative entries are path patterns or 'package.module:Cell', not ':Net'"),
    ],
)
def test_bad_setting_is_one_line_with_exit_2(write, run, tmp_path: Path, value: str, message: str) -> None:
    write("pyproject.toml", f"[tool.mslint]\npynative = {value}\n")
    code, out, err = run("check", str(write("net.py", NUMPY_CELL)))
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and message in err


def test_script_reaches_cells_in_a_folder_without_init(write) -> None:
    """vogue's layout: ``from models.generator import Generator`` beside the script, where
    ``models/`` has no ``__init__.py`` and the module calls itself ``generator``."""
    net = write("models/generator.py", NUMPY_CELL)
    script = SCRIPT.format(imports="import mindspore as ms", call="ms.set_context(mode=ms.PYNATIVE_MODE)")
    script_path = write("train.py", script.replace("from net import Net", "from models.generator import Net"))
    assert findings([net], Settings()) == {("generator.py", 7, "third-party-call-in-graph")}
    assert findings([net, script_path], Settings()) == set()


def test_script_in_a_package_reaches_cells_through_its_own_folder(write) -> None:
    """detr's layout: ``src/`` and ``src/models/`` are packages, and ``src/train.py`` (run
    from ``src/``) imports ``from models.net import Net``, which Python finds beside the script."""
    write("src/__init__.py", "")
    write("src/models/__init__.py", "")
    net = write("src/models/net.py", NUMPY_CELL)
    script = SCRIPT.format(imports="import mindspore as ms", call="ms.set_context(mode=ms.PYNATIVE_MODE)")
    script = script.replace("from net import Net", "from models.net import Net")
    script_path = write("src/train.py", script + '\n\nif __name__ == "__main__":\n    main()\n')
    assert findings([net], Settings()) == {("net.py", 7, "third-party-call-in-graph")}
    assert findings([net, script_path], Settings()) == set()


def test_modules_that_import_each_other_are_pynative_together(write) -> None:
    """ICON's layout: a package whose ``__init__.py`` imports its submodule, which imports the
    package back; only the PyNative script imports either from outside."""
    write("lib/__init__.py", "from .net import Net\n")
    net = write("lib/net.py", "import lib.util\n" + NUMPY_CELL)
    write("lib/util.py", "")
    script = SCRIPT.format(imports="import mindspore as ms", call="ms.set_context(mode=ms.PYNATIVE_MODE)")
    script_path = write("train.py", script.replace("from net import Net", "from lib.net import Net"))
    assert findings([net], Settings()) == {("net.py", 9, "third-party-call-in-graph")}
    assert findings([net, script_path], Settings()) == set()


NESTED_NET = """
import numpy as np
from mindspore import nn


class Inner(nn.Cell):
    def construct(self, x):
        return np.tanh(x)


class Outer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.inner = Inner()

    def construct(self, x):
        return np.exp(self.inner(x))
"""
INNER_ONLY = {("net.py", 7, "third-party-call-in-graph")}
OUTER_TOO = INNER_ONLY | {("net.py", 16, "third-party-call-in-graph")}

GRAPH_SCRIPT = """
import mindspore as ms
from mindspore import nn
from net import Outer


def main(x):
    ms.set_context(mode=ms.GRAPH_MODE)
    net = Outer()
    ms.load_param_into_net(net, ms.load_checkpoint("net.ckpt"))
    net.set_train(False)
    {use}
"""


def _moco(write, use: str, net_source: str = NESTED_NET) -> list[Path]:
    """MoCo's layout: a PyNative training script and a GRAPH_MODE script beside it that both
    build the network; the GRAPH one uses it as ``use`` says."""
    net = write("net.py", net_source)
    call = "ms.set_context(mode=ms.PYNATIVE_MODE)"
    train = write("train.py", SCRIPT.format(imports="import mindspore as ms", call=call).replace("Net", "Outer"))
    return [net, train, write("infer.py", GRAPH_SCRIPT.format(use=use))]


@pytest.mark.parametrize(
    "use",
    [
        "return net.inner(x)",
        "return ms.Model(net.inner).predict(x)",
        "params = net.trainable_params()\n    return nn.Momentum(params, 0.1, 0.9)",
        "ms.save_checkpoint(net, 'copy.ckpt')\n    return net.inner(x)",
    ],
)
def test_graph_script_that_runs_only_a_sub_cell_leaves_the_cell_eager(write, use: str) -> None:
    """MoCo's infer.py sets GRAPH_MODE, builds ModelMoCo and runs only ``model.encoder_q``."""
    paths = _moco(write, use)
    assert findings(paths[:1], Settings()) == OUTER_TOO
    assert findings(paths, Settings()) == INNER_ONLY


@pytest.mark.parametrize(
    "use",
    [
        "return net(x)",
        "return net.construct(x)",
        "net.compile(x)",
        "return ms.Model(net).predict(x)",
        "return nn.TrainOneStepCell(net, nn.Momentum(net.trainable_params(), 0.1, 0.9))(x)",
        "return ms.value_and_grad(net)(x)",
        "return ms.jit(net)(x)",
        "return nn.WithLossCell(net, nn.MSELoss())(x, x)",
        "kept = net\n    return kept(x)",
        "cells = [net]\n    return cells[0](x)",
        "holder.net = net",
        "return net",
        "return net.set_train(True)(x)",
        "run(net)",
        "net = Outer()\n    return net(x)",
    ],
)
def test_graph_script_that_may_call_the_cell_keeps_it_graph_code(write, use: str) -> None:
    assert findings(_moco(write, use), Settings()) == OUTER_TOO


def test_cell_reached_another_way_stays_graph_code(write) -> None:
    """A factory of the Cell's module, or a module that imports the GRAPH script, may hand it
    the Cell to call."""
    factory = NESTED_NET + "\n\ndef build():\n    return Outer()\n"
    assert findings(_moco(write, "return net.inner(x)", factory), Settings()) == OUTER_TOO
    paths = _moco(write, "return net.inner(x)")
    runner = write("runner.py", "import infer\n")
    assert findings([*paths, runner], Settings()) == OUTER_TOO


def test_graph_script_building_the_cell_at_top_level_leaves_it_eager(write) -> None:
    paths = _moco(write, "")
    top_level = "import mindspore as ms\nfrom net import Outer\n\nms.set_context(mode=ms.GRAPH_MODE)\nnet = Outer()\n"
    script = write("infer.py", top_level + "print(net.inner(ms.Tensor([1.0])))\n")
    assert findings([*paths[:2], script], Settings()) == INNER_ONLY
    write("infer.py", top_level + "print(net(ms.Tensor([1.0])))\n")
    assert findings([*paths[:2], script], Settings()) == OUTER_TOO


ATTACK = """
import numpy as np
import mindspore as ms
from mindspore import nn


class AttackLoss(nn.Cell):
    def construct(self, x):
        return np.tanh(x)


class Attack:
    def train(self, x):
        return AttackLoss()(x)
"""
LOSS_LINE = {("attack.py", 8, "third-party-call-in-graph")}
RE_EXPORT = 'from .attack import Attack\n\n__all__ = ["Attack"]\n'
PYNATIVE_ATTACK = """
import mindspore as ms
from lib.attack import Attack

ms.set_context(mode=ms.PYNATIVE_MODE)
Attack().train(ms.Tensor([1.0]))
"""
GRAPH_USER = """
import mindspore as ms
import lib
{imports}

ms.set_context(mode=ms.GRAPH_MODE)
{use}
"""


SAME_NAME = """
def step(holder, x):
    return holder.train(x)


step(lib.Attack(), ms.Tensor([1.0]))
"""
UNSEEN_CALLER = """
@functools.lru_cache
def run():
    return lib.Attack().train(ms.Tensor([1.0]))
"""
SUBCLASS = """
class Mine(lib.Attack):
    def step(self, x):
        return self.train(x)


Mine().step(ms.Tensor([1.0]))
"""


def _re_exported(write, imports: str, use: str, attack: str = ATTACK) -> list[Path]:
    """mindarmour's layout: the package re-exports the attack, a PyNative example runs it, and
    GRAPH_MODE scripts import the package (which runs its ``__init__.py``) for other code."""
    return [
        write("lib/__init__.py", RE_EXPORT),
        write("lib/attack.py", attack),
        write("shadow.py", PYNATIVE_ATTACK),
        write("lenet.py", GRAPH_USER.format(imports=imports, use=use)),
    ]


@pytest.mark.parametrize(
    ("imports", "use"),
    [
        ("", "print(lib.__all__)"),
        ("from lib import Attack", "print(Attack.__doc__)"),
        ("from lib.attack import Attack as Kept", ""),
        ("", "def train(x):\n    return x"),
    ],
)
def test_a_cell_only_pynative_code_names_is_eager_though_graph_scripts_import_it(write, imports: str, use: str) -> None:
    """mindarmour's ShadowModelLoss: ``ShadowModelAttack.train_shadow_model`` builds it, and only
    the PyNative ``cifar_shadow_attack.py`` calls that method; the package's ``__init__.py``
    re-exports the class, and the GRAPH_MODE tests and examples import the package."""
    paths = _re_exported(write, imports, use)
    assert findings(paths[1:2], Settings()) == LOSS_LINE
    assert findings(paths, Settings()) == set()


@pytest.mark.parametrize(
    ("imports", "use", "attack"),
    [
        pytest.param("", "lib.Attack().train(ms.Tensor([1.0]))", ATTACK, id="through the package"),
        pytest.param("from lib import Attack as A", "A().train(ms.Tensor([1.0]))", ATTACK, id="under an alias"),
        pytest.param("", 'getattr(lib, "Attack")().train(ms.Tensor([1.0]))', ATTACK, id="by a string"),
        pytest.param("", SAME_NAME, ATTACK, id="a method of the same name"),
        pytest.param("", SUBCLASS, ATTACK, id="a subclass"),
        pytest.param(
            "",
            "lib.Attack()",
            ATTACK.replace("class Attack:", "class Attack(ms.train.Model):"),
            id="a method a base class may call",
        ),
        pytest.param(
            "", "", ATTACK.replace("    def train(self, x):", "    @ms.jit\n    def train(self, x):"), id="a jit method"
        ),
        pytest.param("", "def test_attack():\n    lib.Attack().train(ms.Tensor([1.0]))", ATTACK, id="a pytest test"),
        pytest.param("import functools", UNSEEN_CALLER, ATTACK, id="a decorated function"),
        pytest.param("", "def run():\n    lib.Attack().train(ms.Tensor([1.0]))", ATTACK, id="a function nothing calls"),
        pytest.param("", "", ATTACK.replace("return AttackLoss()(x)", "return x"), id="a Cell nothing builds"),
    ],
)
def test_a_cell_graph_code_may_reach_by_its_name_stays_graph_code(write, imports: str, use: str, attack: str) -> None:
    assert findings(_re_exported(write, imports, use, attack), Settings()) >= LOSS_LINE


RE_EXPORT_PROJECT = Path(__file__).parent / "data" / "pynative_re_export"


def test_a_re_exported_cell_that_only_a_pynative_script_runs_is_eager() -> None:
    """The project's README says how it is laid out, and what MindSpore 2.10 does with each script."""
    paths = sorted(RE_EXPORT_PROJECT.rglob("*.py"))
    assert findings(paths, Settings(root=RE_EXPORT_PROJECT)) == markers(paths)
    attacks = RE_EXPORT_PROJECT / "lib" / "attacks.py"
    assert findings([attacks], Settings(root=RE_EXPORT_PROJECT)) == {
        ("attacks.py", 15, "tensor-to-host-in-graph"),
        ("attacks.py", 27, "tensor-to-host-in-graph"),
    }


UNIMPORTED_LAYER = """
import numpy as np
from mindspore import nn

from net import Net


class Layer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.net = Net()

    def construct(self, x):
        return self.net(np.exp(x))
"""


@pytest.mark.parametrize(
    ("layer", "graph_script", "expected"),
    [
        pytest.param(UNIMPORTED_LAYER, None, set(), id="written on PyNative-only code"),
        pytest.param(
            UNIMPORTED_LAYER,
            "import mindspore as ms\nfrom net import Net\n\nms.set_context(mode=ms.GRAPH_MODE)\nNet()\n",
            {("layer.py", 13, "third-party-call-in-graph"), ("net.py", 7, "third-party-call-in-graph")},
            id="on code a GRAPH_MODE script runs too",
        ),
        pytest.param(
            UNIMPORTED_LAYER.replace("from net import Net", "from mindspore.nn import ReLU as Net"),
            None,
            {("layer.py", 13, "third-party-call-in-graph")},
            id="on no project code",
        ),
        pytest.param(
            UNIMPORTED_LAYER + '\n\nif __name__ == "__main__":\n    Layer()\n',
            None,
            {("layer.py", 13, "third-party-call-in-graph"), ("net.py", 7, "third-party-call-in-graph")},
            id="a script that selects no mode",
        ),
        pytest.param(
            UNIMPORTED_LAYER + "\n\nLayer()\n",
            None,
            {("layer.py", 13, "third-party-call-in-graph"), ("net.py", 7, "third-party-call-in-graph")},
            id="a script without a guard",
        ),
    ],
)
def test_a_module_nothing_imports_takes_the_mode_of_the_code_it_is_written_on(
    write, layer: str, graph_script: str | None, expected: set[tuple[str, int, str]]
) -> None:
    """ICON's seg3d_lossless.py lost its import; MoCo's split_batchnorm.py uses no project code."""
    net = write("net.py", NUMPY_CELL)
    script = write(
        "train.py", SCRIPT.format(imports="import mindspore as ms", call="ms.set_context(mode=ms.PYNATIVE_MODE)")
    )
    paths = [net, script, write("layer.py", layer)]
    if graph_script is not None:
        paths.append(write("infer.py", graph_script))
    assert findings(paths, Settings()) == expected


DATAUTIL_PYNATIVE = """
import mindspore as ms

ms.set_context(mode=ms.PYNATIVE_MODE)


def load():
    return [1.0, 2.0]
"""
DATAUTIL_PYNATIVE_WHEN_RUN = """
import mindspore as ms


def load():
    return [1.0, 2.0]


if __name__ == "__main__":
    ms.set_context(mode=ms.PYNATIVE_MODE)
"""
EVAL_SCRIPT = (
    NUMPY_CELL
    + """

if __name__ == "__main__":
    from datautil import load

    print(Net()(load()))
"""
)


@pytest.mark.parametrize(("datautil", "reported"), [(DATAUTIL_PYNATIVE, False), (DATAUTIL_PYNATIVE_WHEN_RUN, True)])
def test_a_module_that_selects_pynative_when_imported_makes_its_importing_script_pynative(
    write, datautil: str, reported: bool
) -> None:
    """A project's ``datautil.py`` sets PyNative at import time and its ``eval.py`` imports it:
    eval.py's Cells run eagerly. A mode set under ``__main__`` is not set by the import."""
    paths = [write("datautil.py", datautil), write("eval.py", EVAL_SCRIPT)]
    found = findings(paths, Settings())
    assert (("eval.py", 7, "third-party-call-in-graph") in found) is reported


@pytest.mark.parametrize(
    ("setup", "reported"),
    [
        ("from .env import setup_env\n\nsetup_env()\n", False),
        ("from .env import setup_env\n", True),
        ("from . import env\n\nif __name__ == '__main__':\n    env.setup_env()\n", True),
    ],
)
def test_a_package_that_selects_pynative_through_a_function_when_imported(write, setup: str, reported: bool) -> None:
    """``src/__init__.py`` calls ``setup_env()`` at import time, whose body selects PyNative: the
    script that imports ``src.model`` runs its Cells eagerly. Defining the function, or calling
    it under ``__main__``, selects nothing."""
    env = "from mindspore import context\n\n\ndef setup_env():\n    context.set_context(mode=context.PYNATIVE_MODE)\n"
    paths = [
        write("src/__init__.py", setup),
        write("src/env.py", env),
        write("src/model.py", NUMPY_CELL),
        write("train.py", "from src.model import Net\n\nif __name__ == '__main__':\n    print(Net())\n"),
    ]
    found = findings(paths, Settings())
    assert any(path == "model.py" and symbol == "third-party-call-in-graph" for path, _, symbol in found) is reported


def test_the_modes_a_module_selects_when_imported_are_found_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Scripts importing a module that selects PyNative when imported: what each module selects
    at import is found once, not again for every script whose imports reach it."""
    from mslint.model import pynative

    (tmp_path / "setup_env.py").write_text("import mindspore as ms\nms.set_context(mode=ms.PYNATIVE_MODE)\n")
    (tmp_path / "nets.py").write_text(NUMPY_CELL)
    scripts = [tmp_path / f"script{i}.py" for i in range(6)]
    for script in scripts:
        script.write_text("import setup_env\nimport nets\n\nif __name__ == '__main__':\n    nets.Net()(1)\n")
    asked: list[str] = []
    counted = pynative._modes_at_import
    monkeypatch.setattr(
        pynative, "_modes_at_import", lambda module, project: asked.append(module.name) or counted(module, project)
    )
    paths = sorted(tmp_path.glob("*.py"))
    assert not findings(paths, Settings(root=tmp_path))  # nets.py runs only in PyNative: no finding
    assert len(asked) == len(set(asked)) == len(paths)


CONFIG_PROJECT = Path(__file__).parent / "data" / "config_file_mode"


def test_a_configuration_file_that_selects_pynative_makes_the_program_pynative(tmp_path: Path) -> None:
    """train.py sets the mode its YAML file gives (``mode: 1``), found through the default of its
    ``--config`` option; the same program whose file says ``mode: 0`` runs Net as a graph."""
    shutil.copytree(CONFIG_PROJECT, tmp_path / "project")
    paths = sorted((tmp_path / "project").glob("*.py"))
    exported = ("export.py", 10, "third-party-call-in-graph")  # a graph script of its own
    assert findings(paths, Settings(root=tmp_path / "project")) == {exported}
    config = tmp_path / "project" / "configs" / "train.yaml"
    config.write_text(config.read_text().replace("mode: 1", "mode: 0"))
    expected = {exported, ("net.py", 7, "third-party-call-in-graph")}
    assert findings(paths, Settings(root=tmp_path / "project")) == expected


CONFIG_SCRIPT = """
import json
import shutil
import yaml
import mindspore as ms
from easydict import EasyDict
from net import Net


def main():
    {body}
    return Net()
"""


@pytest.mark.parametrize(
    ("body", "files", "pynative"),
    [
        ('config = json.load(open("config.json"))\n    ms.set_context(mode=config["mode"])', {}, True),
        (
            'with open("config.yaml") as f:\n        cfg = EasyDict(yaml.load(f, Loader=yaml.SafeLoader))\n'
            "    ms.set_context(mode=cfg.mode)",
            {},
            True,
        ),
        ('config = json.load(open("config.json"))\n    ms.set_context(mode=config.get("mode"))', {}, True),
        # the file's mode, or one the program may have put in its place
        (
            'config = json.load(open("config.json"))\n    config["mode"] = 0\n    ms.set_context(mode=config["mode"])',
            {},
            False,
        ),
        (
            'config = json.load(open("config.json"))\n    merge(config)\n    ms.set_context(mode=config["mode"])',
            {},
            False,
        ),
        ('config = json.load(open("other.json"))\n    ms.set_context(mode=config["mode"])', {}, False),  # no file
        (
            'config = yaml.load(open("config.yaml"), Loader=yaml.Loader)\n    ms.set_context(mode=config["mode"])',
            {"config.yaml": "!!python/object/apply:os.system ['true']\n"},  # read by no loader that runs code
            False,
        ),
    ],
)
def test_the_mode_a_configuration_file_gives(write, body: str, files: dict[str, str], pynative: bool) -> None:
    net = write("net.py", NUMPY_CELL)
    write("config.json", '{"mode": 1}')
    write("config.yaml", "mode: 1\n")
    for name, text in files.items():
        write(name, text)
    script = write("train.py", CONFIG_SCRIPT.format(body=body))
    expected = set() if pynative else {("net.py", 7, "third-party-call-in-graph")}
    assert findings([net, script], Settings()) == expected


ARGPARSE_PROJECT = Path(__file__).parent / "data" / "argparse_mode"


def test_an_option_whose_default_selects_pynative_makes_the_program_pynative(tmp_path: Path) -> None:
    """train.py sets the mode its ``--mode`` option gives, 1 by default: a plain run is PyNative, and
    Net's numpy runs eagerly (``--mode 0`` on the command line would compile it). With a default of
    0 the program is not PyNative, and Net's line is found."""
    shutil.copytree(ARGPARSE_PROJECT, tmp_path / "project")
    paths = sorted((tmp_path / "project").glob("*.py"))
    exported = ("export.py", 10, "third-party-call-in-graph")  # a graph script of its own
    assert findings(paths, Settings(root=tmp_path / "project")) == {exported}
    train = tmp_path / "project" / "train.py"
    train.write_text(train.read_text().replace("default=1", "default=0"))
    expected = {exported, ("net.py", 7, "third-party-call-in-graph")}
    assert findings(paths, Settings(root=tmp_path / "project")) == expected


OPTION_SCRIPT = """
import argparse
import mindspore as ms
from net import Net

{top}

def main():
    {body}
    ms.set_context(mode=args.mode)
    return Net()
"""

_PARSER = 'parser = argparse.ArgumentParser()\n    parser.add_argument("--mode", {option})\n    '


@pytest.mark.parametrize(
    ("top", "body", "pynative"),
    [
        ("", _PARSER.format(option="type=int, default=1") + "args = parser.parse_args()", True),
        ("", _PARSER.format(option='type=int, default="1"') + "args = parser.parse_args(args=[])", True),
        ("", _PARSER.format(option='dest="mode", default=1') + "args = parser.parse_args([])", True),
        ("", _PARSER.format(option="type=int, default=ms.PYNATIVE_MODE") + "args = parser.parse_args()", True),
        (
            "\n".join(
                [
                    "parser = argparse.ArgumentParser()",
                    'parser.add_argument("-m", "--mode", default=1)',  # at the top level, read in main()
                    "args = parser.parse_args()",
                ]
            ),
            "pass",
            True,
        ),
        # a default that is not PyNative, or an option the program gives or changes itself
        ("", _PARSER.format(option="type=int, default=0") + "args = parser.parse_args([])", False),
        ("", _PARSER.format(option="type=int, default=1") + 'args = parser.parse_args(["--mode", "0"])', False),
        ("", _PARSER.format(option="type=int, default=1") + "args = parser.parse_args()\n    args.mode = 0", False),
        ("", _PARSER.format(option="type=int") + "args = parser.parse_args()", False),
        ("", _PARSER.format(option="type=int, default=1") + "args = get_args()", False),
    ],
)
def test_the_mode_an_option_default_gives(write, top: str, body: str, pynative: bool) -> None:
    net = write("net.py", NUMPY_CELL)
    script = write("train.py", OPTION_SCRIPT.format(top=top, body=body))
    expected = set() if pynative else {("net.py", 7, "third-party-call-in-graph")}
    assert findings([net, script], Settings()) == expected


CHOICE_PROJECT = Path(__file__).parent / "data" / "config_choice_mode"
_UNSET = ("net.py", 6, "unsupported-attribute-in-graph")


def severities(paths: list[Path], settings: Settings) -> set[tuple[str, int, str, str]]:
    return {(Path(d.path).name, d.line, d.symbol, str(d.severity)) for d in check_files(paths, settings).diagnostics}


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (None, set()),  # PyNative_Mode: Net runs eagerly
        (("configs/train.yaml", "PyNative_Mode", "GRAPH_MODE"), {(*_UNSET, "error")}),
        # no file named: the condition is undecided, and one of its outcomes is PyNative
        (("train.py", 'default="configs/train.yaml"', "required=True"), {(*_UNSET, "warning")}),
    ],
)
def test_a_mode_chosen_by_a_comparison_of_a_configuration_passed_to_a_function(
    tmp_path: Path, edit: tuple[str, str, str] | None, expected: set[tuple[str, int, str, str]]
) -> None:
    """env.init_env(cfg) compares cfg.system.context_mode with a string and selects the mode it
    finds; train.py passes it the YAML file its --config option names by default."""
    project = tmp_path / "project"
    shutil.copytree(CHOICE_PROJECT, project)
    if edit is not None:
        name, old, new = edit
        (project / name).write_text((project / name).read_text().replace(old, new))
    exported = ("export.py", 9, "unsupported-attribute-in-graph", "error")  # a graph script of its own
    assert severities(sorted(project.glob("*.py")), Settings(root=project)) == expected | {exported}


UNSET_CELL = """
from mindspore import nn


class Net(nn.Cell):
    def construct(self, x):
        return x * self.scale
"""

CHOICE_SCRIPT = """
import json
import mindspore as ms
from net import Net


def main():
    cfg = json.load(open({file!r}))
    {body}
    return Net()
"""


@pytest.mark.parametrize(
    "body",
    [
        'mode = {"graph": 0, "pynative": 1}[cfg["mode"]]\n    ms.set_context(mode=mode)',
        'if cfg["mode"] == "pynative":\n        ms.set_context(mode=1)\n    else:\n        ms.set_context(mode=0)',
        'ms.set_context(mode=ms.PYNATIVE_MODE if cfg["mode"] in ("pynative", "eager") else ms.GRAPH_MODE)',
        'ms.set_context(mode=ms.GRAPH_MODE if cfg.get("mode") != "pynative" else ms.PYNATIVE_MODE)',
        'ms.set_context(mode=ms.GRAPH_MODE if cfg["mode"].upper().startswith("GRAPH") else ms.PYNATIVE_MODE)',
        'ms.set_context(mode=ms.PYNATIVE_MODE if cfg["mode"].endswith("native") else ms.GRAPH_MODE)',
    ],
)
@pytest.mark.parametrize(
    ("file", "severity"),
    # a section where a string is compared: undecided
    [("pynative.json", None), ("graph.json", "error"), ("missing.json", "warning"), ("section.json", "warning")],
)
def test_the_mode_a_choice_on_a_configuration_field_gives(write, body: str, file: str, severity: str | None) -> None:
    net = write("net.py", UNSET_CELL)
    write("pynative.json", '{"mode": "pynative"}')
    write("graph.json", '{"mode": "graph"}')
    write("section.json", '{"mode": {"name": "pynative"}}')
    script = write("train.py", CHOICE_SCRIPT.format(file=file, body=body))
    expected = set() if severity is None else {("net.py", 6, "unsupported-attribute-in-graph", severity)}
    assert severities([net, script], Settings()) == expected


HELPER_OPTIONS_SCRIPT = """
import argparse
import mindspore as ms
from net import Net


def main(args):
    mode = ms.GRAPH_MODE if args.graph_mode else ms.PYNATIVE_MODE
    ms.set_context(mode=mode)
    return Net()


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--graph_mode", default={default}, type=bool)
    return parser.parse_args({given})


if __name__ == "__main__":
    main({options})
"""


@pytest.mark.parametrize(
    ("default", "given", "options", "severity"),
    [
        ("False", "args=[]", "parse_args()", None),
        ("True", "args=[]", "parse_args()", "error"),
        ("True", "", "parse_args()", "error"),  # graph by default: a command line may change it
        ("True", "args=[]", "get_options()", "warning"),  # options mslint cannot read: undecided
    ],
)
def test_the_mode_a_choice_on_options_a_helper_parses_gives(
    write, default: str, given: str, options: str, severity: str | None
) -> None:
    """ecg's train.py: ``main(parse_args())`` where ``parse_args`` returns ``parser.parse_args(args=[])``."""
    net = write("net.py", UNSET_CELL)
    script = write("train.py", HELPER_OPTIONS_SCRIPT.format(default=default, given=given, options=options))
    expected = set() if severity is None else {("net.py", 6, "unsupported-attribute-in-graph", severity)}
    assert severities([net, script], Settings()) == expected


REBOUND_OPTIONS_SCRIPT = """
import argparse
import mindspore as ms
from net import Net


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", default={default})
    parser.add_argument("--config", default="config.yaml")
    args = parser.parse_args()
    ms.set_context(mode=ms.GRAPH_MODE if args.mode == "GRAPH" else ms.PYNATIVE_MODE)
    args = load_config(args.config)
    return Net()
"""


@pytest.mark.parametrize(("default", "severity"), [('"PYNATIVE"', None), ('"GRAPH"', "error")])
def test_the_mode_a_choice_on_options_read_before_they_are_rebound_gives(
    write, default: str, severity: str | None
) -> None:
    """MindMoMaOrb's finetune.py: ``args`` is the parsed options where the mode is chosen, a
    configuration after."""
    net = write("net.py", UNSET_CELL)
    script = write("train.py", REBOUND_OPTIONS_SCRIPT.format(default=default))
    expected = set() if severity is None else {("net.py", 6, "unsupported-attribute-in-graph", severity)}
    assert severities([net, script], Settings()) == expected


BOUND_OPTIONS_SCRIPT = """
import argparse
import mindspore as ms
from net import Net


def get_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", default={default}, choices=["GRAPH", "PYNATIVE"])
    return parser.parse_args()


def main():
    args = get_args()
    ms.set_context(mode=ms.GRAPH_MODE if args.mode.upper().startswith("GRAPH") else ms.PYNATIVE_MODE)
    return Net()
"""


@pytest.mark.parametrize(("default", "severity"), [('"PYNATIVE"', None), ('"GRAPH"', "error")])
def test_the_mode_a_choice_on_options_bound_from_a_helper_gives(write, default: str, severity: str | None) -> None:
    """NowCastNet's train.py: ``args = get_args()``, then a test of ``args.mode``; a graph default
    that the command line may change counts as no known mode."""
    net = write("net.py", UNSET_CELL)
    script = write("train.py", BOUND_OPTIONS_SCRIPT.format(default=default))
    expected = set() if severity is None else {("net.py", 6, "unsupported-attribute-in-graph", severity)}
    assert severities([net, script], Settings()) == expected


_TRAIN_SCRIPT = """cd "$(dirname "$0")/.." || exit
nohup python train.py \\
    --config configs/train.yaml > train.log 2>&1 &
"""
_GRAPH_SCRIPT = "mpirun -n 8 python ../train.py --config=../configs/graph.yaml --device_target CPU\n"


@pytest.mark.parametrize(
    ("scripts", "expected"),
    [
        ({"scripts/run_train.sh": _TRAIN_SCRIPT}, set()),  # configs/train.yaml: PyNative
        ({"scripts/run_distributed.sh": _GRAPH_SCRIPT}, {(*_UNSET, "error")}),
        # two runs in two modes, a file the shell works out, another program's run: undecided
        ({"scripts/run_train.sh": _TRAIN_SCRIPT, "run_distributed.sh": _GRAPH_SCRIPT}, {(*_UNSET, "warning")}),
        ({"scripts/run_train.sh": 'python train.py --config "$CONFIG"\n'}, {(*_UNSET, "warning")}),
        ({"scripts/run_eval.sh": "python eval.py --config configs/train.yaml\n"}, {(*_UNSET, "warning")}),
    ],
    ids=["pynative", "graph", "both", "shell-variable", "another-program"],
)
def test_a_configuration_named_by_launch_scripts_chooses_the_mode(
    tmp_path: Path, scripts: dict[str, str], expected: set[tuple[str, int, str, str]]
) -> None:
    """train.py's ``--config`` has no default: the launch scripts that run it name the file (read
    with shlex, never run), each as the shell splits its words, relative to the program's folder or
    to the script's own."""
    project = tmp_path / "project"
    shutil.copytree(CHOICE_PROJECT, project)
    train = project / "train.py"
    train.write_text(train.read_text().replace('default="configs/train.yaml"', "required=True"))
    config = (project / "configs" / "train.yaml").read_text()
    (project / "configs" / "graph.yaml").write_text(config.replace("PyNative_Mode", "GRAPH_MODE"))
    for name, text in scripts.items():
        (project / name).parent.mkdir(exist_ok=True)
        (project / name).write_text(text)
    exported = ("export.py", 9, "unsupported-attribute-in-graph", "error")  # a graph script of its own
    assert severities(sorted(project.glob("*.py")), Settings(root=project)) == expected | {exported}


@pytest.mark.parametrize(
    ("modes", "expected"),
    [((1,), set()), ((0,), {(*_UNSET, "error")}), ((1, 0), {(*_UNSET, "warning")})],
    ids=["pynative", "graph", "both"],
)
def test_a_mode_number_in_configurations_named_by_launch_scripts(
    tmp_path: Path, modes: tuple[int, ...], expected: set[tuple[str, int, str, str]]
) -> None:
    """``set_context(mode=config["context"]["mode"])`` of the file each launch script names: files
    of two modes leave the mode to the run, undecided."""
    project = tmp_path / "project"
    shutil.copytree(CONFIG_PROJECT, project)
    (project / "net.py").write_text(UNSET_CELL.lstrip())
    train = project / "train.py"
    train.write_text(train.read_text().replace('default="configs/train.yaml"', "required=True"))
    config = (project / "configs" / "train.yaml").read_text()
    for mode in modes:
        (project / "configs" / f"mode{mode}.yaml").write_text(config.replace("mode: 1", f"mode: {mode}"))
        (project / f"run_mode{mode}.sh").write_text(f"python train.py --config configs/mode{mode}.yaml\n")
    found = severities([project / "net.py", project / "train.py"], Settings(root=project))
    assert found == expected


MOVED_SCRIPT = """
from mindspore import context

from models.segmentation import {name}


def main():
    context.set_context(mode=context.PYNATIVE_MODE)
    print({name}())


if __name__ == "__main__":
    main()
"""
MOVED_HEAD = """
import numpy as np
from mindspore import nn


class SegHead(nn.Cell):
    def construct(self, x):
        return np.tanh(x)
"""


@pytest.mark.parametrize(
    ("imported", "reported"),
    [("SegHead", set()), ("MaskHead", {("segmentation.py", 7, "third-party-call-in-graph")})],
)
def test_a_module_a_pynative_script_imports_from_its_former_place_is_pynative(
    write, tmp_path: Path, imported: str, reported: set[tuple[str, int, str]]
) -> None:
    """``from models.segmentation import SegHead`` where the project's ``models`` package has no
    ``segmentation`` and the module lies beside the script (detr's infer.py): the script shows
    the module is meant to run with it, in PyNative. Not where the module does not define what
    the script imports (a module of that name that is not the one meant). Split into components
    (nothing imports segmentation.py by its own path), the two are still analysed together."""
    paths = [
        write("src/models/__init__.py", ""),
        write("src/segmentation.py", MOVED_HEAD),
        write("src/infer.py", MOVED_SCRIPT.format(name=imported)),
    ]
    report = check_incrementally(paths, Settings(root=tmp_path), cache=None)
    assert {(Path(d.path).name, d.line, d.symbol) for d in report.diagnostics} == reported
