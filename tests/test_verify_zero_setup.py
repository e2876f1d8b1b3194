"""``mslint verify`` says what it compiled and why it could not: multi-line compiler messages,
failing example factories, builds that raise, packages that are not installed."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from mslint.compiler_messages import message_line
from mslint.verify.compiler_output import error_locations, error_problems, user_file_filter
from tests.report_helpers import entry, report_json

if TYPE_CHECKING:
    from mslint.verify.targets import Target

Run = Callable[..., tuple[int, str, str]]
Write = Callable[[str, str], Path]

UNSUPPORTED = (
    "Unsupported op [Format] on CPU, Please confirm whether the device target setting is correct, or refer to "
    "'mindspore.ops' at https://www.mindspore.cn to query the operator support list."
)
UNSUPPORTED_FORMAT = """
----------------------------------------------------
- Kernel select failed:
----------------------------------------------------
{unsupported}

----------------------------------------------------
- The Function Call Stack: (For framework developers)
----------------------------------------------------
In file {path}:7, 14~30/        print('x={{}}'.format(x))/
In file {path}:6~9, 4~16/    def construct(self, x):/

node: @kernel_graph0:CNode_5{{[0]: ValueNode<Primitive> Format, [1]: ValueNode<StringImm> x={{}}}}

----------------------------------------------------
- C++ Call Stack: (For framework developers)
----------------------------------------------------
mindspore/ccsrc/plugin/cpu/cpu_device_context.cc:469 SetOperatorInfo
"""
"""What MindSpore 2.10 on CPU says of ``print('x={}'.format(x))`` in STRICT (``str(error)``)."""

FORMAT_NET = """
from mindspore import nn


class Net(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        print('x={}'.format(x))
        return x
"""


def compiles(report: dict[str, Any]) -> list[tuple[str, str, str | None]]:
    return [(c["level"], c["status"], c["stopped"]) for c in report["compiles"]]


def test_the_line_that_says_what_failed_is_the_message(tmp_path: Path) -> None:
    path = tmp_path / "net.py"
    path.write_text("\n" * 10)
    text = UNSUPPORTED_FORMAT.format(path=path, unsupported=UNSUPPORTED)
    said = "Unsupported op [Format] on CPU, Please confirm whether the device target setting is correct"
    assert message_line(text).startswith(said)
    assert message_line(f"RuntimeError: {text}").startswith(f"RuntimeError: {said}")
    assert message_line("ValueError: For 'Conv2D', the 'pad' must be zero\nmore") == (
        "ValueError: For 'Conv2D', the 'pad' must be zero"
    )
    assert message_line("RuntimeError: ------") == "RuntimeError: ------", "no better line: the first, as it is"
    assert message_line("") == ""
    traceback_only = "\n------\n- The Traceback of Net Construct Code:\n------\n# 0 In file net.py:28, 8~30\n"
    assert message_line(traceback_only) == "", "an assert without a message says nothing more than its type"
    is_user_file = user_file_filter([])
    # the Function Call Stack lists the failing node first: the innermost line comes last here
    assert error_locations(text, is_user_file) == ((str(path), 6), (str(path), 7))
    traceback = f'Traceback (most recent call last):\n  File "x.py", line 1\nRuntimeError: {text}'
    [problem] = error_problems(traceback, is_user_file)
    assert problem.message.startswith(f"RuntimeError: {said}") and problem.locations[-1] == (str(path), 7)


def test_an_example_compile_credits_the_entry_it_built(tmp_path: Path, run: Run, write: Write) -> None:
    """The report gives an entry the compiles of the example factory that built it (by what
    the compile says it compiled), not only those of its own class."""
    net = write("pkg/net.py", FORMAT_NET)
    results = tmp_path / "verify.json"
    compiled = {"path": str(net.resolve()), "name": "Net", "line": 4}
    results.write_text(
        json.dumps(
            {
                "findings": [],
                "compiler_only": [],
                "compiles": [
                    {"path": str(tmp_path / "ex.py"), "name": "make", "example": True, "level": level}
                    | {"status": "compiled", "reason": None, "stopped": None, "compiled": compiled}
                    for level in ("strict", "lax")
                ],
            }
        )
    )
    document = report_json(run, str(tmp_path / "pkg"), "--verify-results", str(results))
    verified = entry(document, "Net.construct")["verified"]
    assert verified is not None and verified["lax"]["status"] == "compiles"


def test_a_missing_package_is_a_stub_and_using_it_is_recorded(tmp_path: Path) -> None:
    """Without MindSpore: the finder serves stubs for a package that is not installed, and
    records what touches them while it watches."""
    (tmp_path / "user_module.py").write_text(
        textwrap.dedent(
            """
            from not_installed_anywhere.coco import COCO
            import not_installed_anywhere


            class Loader(COCO):
                def __init__(self, path):
                    super().__init__(path)
                    self.bar = not_installed_anywhere.tqdm(range(3))


            LOADER = Loader("annotations.json")
            """
        )
    )
    program = textwrap.dedent(
        f"""
        import sys
        from mslint.verify.stubs import MissingPackages
        sys.path.insert(0, {str(tmp_path)!r})
        missing = MissingPackages()
        for _ in range(3):
            try:
                import user_module
                break
            except ModuleNotFoundError as error:
                assert missing.stub(error), error
        assert missing.names == ["not_installed_anywhere"], missing.names
        assert missing.touched == set(), "nothing is recorded outside the compile"
        missing.watching = True
        user_module.LOADER.bar.update(1)
        assert not hasattr(user_module.not_installed_anywhere, "_private")
        used = {{"not_installed_anywhere.tqdm", "not_installed_anywhere.tqdm.update"}}
        assert missing.touched == used, missing.touched
        try:
            import numpy_not_installed_either
        except ModuleNotFoundError as error:
            assert missing.stub(error)
        try:
            import mslint.no_such_module
        except ModuleNotFoundError as error:
            assert not missing.stub(error), "an installed package that fails is not stubbed"
        print("ok")
        """
    )
    result = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60)
    assert result.stdout.strip() == "ok", result.stderr


def test_a_stub_decorator_gives_back_what_it_decorates(tmp_path: Path) -> None:
    """Without MindSpore: a registry's decorator from a package that is not installed leaves the
    user's class and function in place (it made them stub objects: verify crashed with
    "AttributeError: __qualname__" on the Cell, or the import raised "not callable"), and a
    stub object is still no other callable."""
    (tmp_path / "registered.py").write_text(
        textwrap.dedent(
            """
            from not_installed_anywhere.registry import MODELS, register_model


            @register_model
            class Net:
                pass


            @MODELS.register_module()
            def make():
                return Net()


            PROGRESS = MODELS.progress(range(3))
            """
        )
    )
    program = textwrap.dedent(
        f"""
        import sys
        from mslint.verify.stubs import MissingPackages
        sys.path.insert(0, {str(tmp_path)!r})
        missing = MissingPackages()
        for _ in range(2):
            try:
                import registered
                break
            except ModuleNotFoundError as error:
                assert missing.stub(error), error
        assert registered.Net.__qualname__ == "Net", registered.Net
        assert isinstance(registered.make(), registered.Net)
        try:
            registered.PROGRESS(1)
        except TypeError as error:
            assert str(error) == "'progress' object is not callable", error
        else:
            raise AssertionError("a stub object called on a number")
        print("ok")
        """
    )
    result = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60)
    assert result.stdout.strip() == "ok", result.stderr


@pytest.mark.mindspore
def test_a_multi_line_compiler_error_is_read_whole(
    write: Write, run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    net = write("net.py", FORMAT_NET)
    monkeypatch.chdir(tmp_path)
    code, out, err = run("verify", "--no-compare", "--format", "json", str(net))
    assert code in (0, 1), err
    report = json.loads(out)
    [finding] = report["findings"]
    assert finding["verdict"] == "confirmed"
    [error] = [e for e in finding["evidence"] if e["kind"] == "error"]
    assert error["message"].startswith("RuntimeError: Unsupported op [Format] on CPU"), error["message"]
    assert error["locations"][-1] == {"path": str(net.resolve()), "line": 6}, "the line of the failing node"


@pytest.mark.mindspore
def test_a_failing_example_and_a_failing_build_say_so(
    write: Write, run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(
        "net.py",
        """
        import numpy as np
        from mindspore import nn


        class Net(nn.Cell):
            def __init__(self, width):
                super().__init__()
                self.conv = nn.Conv2d(3, width, 3, padding=1)

            def construct(self, x):
                return np.exp(x)
        """,
    )
    write(
        "ex.py",
        """
        from net import Net


        def make():
            return Net(), ()


        def make_padded():
            return Net(4), ()
        """,
    )
    monkeypatch.chdir(tmp_path)
    code, out, err = run("verify", "--no-compare", "--format", "json", "net.py", "--example", "ex.py:make")
    report = json.loads(out)
    assert code == 0, "nothing confirmed"
    assert compiles(report) == [("strict", "not-verifiable", None), ("lax", "not-verifiable", None)], err
    reason = report["findings"][0]["reason"]
    assert reason == (
        "--example ex.py:make: example factory make() raised TypeError: "
        "Net.__init__() missing 1 required positional argument: 'width'"
    )
    _, out, err = run("verify", "--no-compare", "--format", "json", "net.py", "--example", "ex.py:make_padded")
    report = json.loads(out)
    assert compiles(report) == [("strict", "build-failed", "build"), ("lax", "build-failed", "build")], err
    assert all(c["compiled"]["name"] == "Net" for c in report["compiles"])
    _, text, _ = run("verify", "--no-compare", "--no-cache", "net.py", "--example", "ex.py:make_padded")
    assert "0 of 2 compiles succeeded on CPU, 2 failed building the entry." in text
    assert "Not compiled:" not in text


@pytest.mark.mindspore
def test_a_package_that_is_not_installed_is_stubbed(
    write: Write, run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(
        "net.py",
        """
        import numpy as np
        from mindspore import nn
        from not_installed_anywhere.coco import COCO
        import not_installed_anywhere


        class Net(nn.Cell):  # mslint: inputs=float32[2,3]
            def __init__(self):
                super().__init__()
                self.bar = not_installed_anywhere.tqdm(range(3))

            def construct(self, x):
                return np.exp(x)


        class UsesIt(nn.Cell):  # mslint: inputs=float32[2,3]
            def construct(self, x):
                not_installed_anywhere.write("step")
                return np.exp(x)
        """,
    )
    monkeypatch.chdir(tmp_path)
    _, out, err = run("verify", "--no-compare", "--format", "json", "net.py")
    report = json.loads(out)
    verdicts = {f["line"]: (f["verdict"], f["reason"]) for f in report["findings"]}
    note = "imported with a stub for not_installed_anywhere (not installed here; the compiled code does not use it)"
    assert verdicts[13] == ("confirmed", note), err
    assert verdicts[19] == (
        "not-verifiable",
        "the graph code uses not_installed_anywhere.write, which is not installed here (imported as a stub)",
    )
    assert {c["name"]: c["stubbed"] for c in report["compiles"]} == {
        "Net": ["not_installed_anywhere"],
        "UsesIt": ["not_installed_anywhere"],
    }


@pytest.mark.mindspore
def test_the_report_credits_an_entry_compiled_by_an_example(
    write: Write, run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write("pkg/net.py", FORMAT_NET.replace("  # mslint: inputs=float32[2,3]", ""))
    write(
        "ex.py",
        """
        import mindspore as ms
        import numpy as np
        from pkg.net import Net


        def make():
            return Net(), (ms.Tensor(np.ones((2, 3)), ms.float32),)
        """,
    )
    write("pkg/__init__.py", "")
    monkeypatch.chdir(tmp_path)
    _, out, err = run("verify", "--no-compare", "--format", "json", "pkg", "--example", "ex.py:make")
    Path("verify.json").write_text(out)
    document = report_json(run, "pkg", "--verify-results", "verify.json")
    verified = entry(document, "Net.construct")["verified"]
    assert verified is not None, err
    assert (verified["strict"]["status"], verified["lax"]["status"]) == ("fails", "falls-back")
    assert verified["strict"]["evidence"][0]["message"].startswith("RuntimeError: Unsupported op [Format] on CPU")


FIRST_LAYERS = """
import numpy as np
from mindspore import nn, ops


class Stem(nn.Cell):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, 3, stride=2)

    def construct(self, x):
        return self.conv(x)


class Strided(nn.Cell):
    def __init__(self, in_channels=3):
        super().__init__()
        self.stem = Stem(in_channels, 8)
        layers = []
        for _ in range(5):
            layers.append(nn.Conv2d(8, 8, 3, stride=2, pad_mode="valid"))
        self.body = nn.SequentialCell(layers)

    def construct(self, x):
        x = self.body(self.stem(x))
        return np.exp(ops.mean(x, (2, 3)))


class Mlp(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.SequentialCell([nn.Dense(16, 4), nn.ReLU()])

    def construct(self, x):
        return np.exp(self.fc(x))


class Tagger(nn.Cell):
    def __init__(self, vocab):
        super().__init__()
        self.embed = nn.Embedding(vocab, 4)

    def construct(self, ids):
        return np.exp(self.embed(ids))


class TwoInputs(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(4, 4)

    def construct(self, x, mask):
        return np.exp(self.fc(x) * mask)


class TooStrided(nn.Cell):
    def __init__(self):
        super().__init__()
        layers = [nn.Conv2d(3, 8, 3, stride=2, pad_mode="valid")]
        for _ in range(8):
            layers.append(nn.Conv2d(8, 8, 3, stride=2, pad_mode="valid"))
        self.body = nn.SequentialCell(layers)

    def construct(self, x):
        return np.exp(self.body(x))
"""

TRAIN = """
from nets import Tagger

tagger = Tagger(100)
"""


def test_inputs_are_synthesised_from_the_first_layer(tmp_path: Path, write: Write) -> None:
    """Without MindSpore: the candidates each Cell gets, and the constructor arguments of the
    program's own call."""
    from mslint.engine import load_project
    from mslint.settings import Settings
    from mslint.verify.targets import targets_of

    write("nets.py", FIRST_LAYERS)
    write("train.py", TRAIN)
    project = load_project(sorted(tmp_path.glob("*.py")), Settings(root=tmp_path)).project
    targets = {t.name: t for t in targets_of(project, Settings(root=tmp_path))}
    strided = targets["Strided"]
    assert (strided.inputs, strided.candidates, strided.synthesised) == (
        "float32[2,3,32,32]",
        ("float32[2,3,64,64]", "float32[2,3,224,224]"),
        True,
    ), "through a Cell of the project, with the default of in_channels"
    assert (targets["Mlp"].inputs, targets["Mlp"].candidates) == ("float32[2,16]", ("float32[2,8,16]",))
    tagger = targets["Tagger"]
    built = ("int32[2,8]", {"vocab": 100}, "Tagger(100) at train.py:3")
    assert (tagger.inputs, tagger.kwargs, tagger.built_at) == built
    assert targets["TwoInputs"].unbuildable is not None and "no input specs" in targets["TwoInputs"].unbuildable


@pytest.mark.mindspore
def test_synthesised_inputs_compile_and_show_examples_round_trip(
    write: Write, run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write("nets.py", FIRST_LAYERS)
    write("train.py", TRAIN)
    monkeypatch.chdir(tmp_path)
    options = ["--no-compare", "--no-cache", "--format", "json"]
    code, out, err = run("verify", *options, "--show-examples", "examples.py", "nets.py", "train.py")
    assert code == 0, err  # confirmed fallbacks in LAX are warnings
    assert "mslint: wrote examples.py: 3 example factories" in err
    report = json.loads(out)
    ran = [c for c in report["compiles"] if c["name"] != "TooStrided"]
    inputs = {c["name"]: c["inputs"] for c in ran}
    assert inputs == {"Strided": "float32[2,3,224,224]", "Mlp": "float32[2,16]", "Tagger": "int32[2,8]"}, err
    assert all(c["status"] == "compiled" for c in ran), report["compiles"]
    reasons = {f["line"]: (f["verdict"], f["reason"]) for f in report["findings"]}
    assert reasons[25] == (
        "confirmed",
        "compiled Strided() on inputs float32[2,3,224,224], synthesised from its first layer",
    ), "32 and 64 are too small for its strides: the compile on each failed at a shape"
    assert reasons[43] == (
        "confirmed",
        "compiled Tagger(vocab=100) as built by Tagger(100) at train.py:3 on inputs int32[2,8], "
        "synthesised from its first layer",
    )
    assert reasons[52][0] == "not-verifiable" and "no input specs for TwoInputs.construct(x, mask)" in reasons[52][1]
    assert reasons[64] == (
        "not-verifiable",
        "the compile on synthesised inputs float32[2,3,224,224] failed at a shape (ValueError: For 'Conv2d', input "
        "shape's h and w after padding must be greater than or equal to kernel_size's h and w respectively.): give "
        "input specs or an --example factory",
    ), "no image of the candidates passes nine strides: the error is the inputs', not the program's"
    examples = ["--example", "examples.py:strided", "--example", "examples.py:mlp", "--example", "examples.py:tagger"]
    _, again, err = run("verify", *options, "nets.py", *examples)
    replayed = json.loads(again)
    by_examples = [c for c in replayed["compiles"] if c["example"]]
    assert {c["compiled"]["name"]: c["inputs"] for c in by_examples} == inputs, err
    assert len(by_examples) == 6 and all(c["status"] == "compiled" for c in by_examples)
    assert not any(c["name"] in inputs for c in replayed["compiles"] if not c["example"]), "the examples built them"
    verdicts = {f["line"]: (f["verdict"], f["reason"]) for f in replayed["findings"]}
    assert {line: verdicts[line] for line in (25, 34, 43)} == {line: ("confirmed", None) for line in (25, 34, 43)}


def test_the_examples_file_builds_what_was_compiled_from_specs(tmp_path: Path, write: Write) -> None:
    """Without MindSpore: one factory per entry compiled from specs (not an example's, not one
    that could not be built), importable from any folder, with its arguments and inputs."""
    from mslint.verify.examples_file import examples_file
    from mslint.verify.runner import Job, Outcome

    nets = write("pkg/nets.py", "class Net: ...\n\n\ndef step(x, n): ...\n")
    write("pkg/__init__.py", "")
    outcomes = [
        Outcome(Job(nets, "Net", "strict", kwargs={"width": 8}), "compiled", inputs="float32[2,3], float32[N,4]"),
        Outcome(Job(nets, "Net", "lax", kwargs={"width": 8}), "compiled", inputs="float32[2,3], float32[N,4]"),
        Outcome(Job(nets, "step", "lax"), "build-failed", inputs="int32[2], 3"),
        Outcome(Job(nets, "Other", "lax"), "not-verifiable", "no input specs"),
        Outcome(Job(tmp_path / "ex.py", "make", "lax", factory=True), "compiled", inputs="float32[2]"),
    ]
    text, count = examples_file(outcomes)
    assert count == 2
    assert f"sys.path.insert(0, {str(tmp_path)!r})" in text
    built = "from pkg.nets import Net\n\n    return Net(width=8), (ms.Tensor(np.arange(1, 7).reshape((2, 3)) % 7, "
    assert built in text
    assert "ms.Tensor(shape=[None, 4], dtype=ms.float32),)" in text
    called = "return step, (ms.Tensor(np.arange(1, 3).reshape((2,)) % 7, dtype=ms.int32), 3,)"
    assert f"from pkg.nets import step\n\n    {called}" in text, "a function is returned, not called"
    functions = [n.name for n in ast.parse(text).body if isinstance(n, ast.FunctionDef)]
    assert functions == ["net", "step"]


CALLED = """
import numpy as np
from mindspore import nn, ops


class Block(nn.Cell):
    def __init__(self, channels):
        super().__init__()
        self.scale = channels

    def construct(self, x):
        return np.exp(x * self.scale)


if __name__ == "__main__":
    dummy = ops.randn(2, 4, 8)
    block = Block(4)
    print(block(dummy))
"""


def test_the_program_s_own_call_gives_arguments_and_inputs(tmp_path: Path, write: Write) -> None:
    """Without MindSpore: ``block = Block(4)`` then ``block(dummy)`` on ``ops.randn(2, 4, 8)``."""
    from mslint.engine import load_project
    from mslint.settings import Settings
    from mslint.verify.targets import targets_of

    write("called.py", CALLED)
    project = load_project([tmp_path / "called.py"], Settings(root=tmp_path)).project
    [block] = targets_of(project, Settings(root=tmp_path))
    assert (block.inputs, block.kwargs, block.built_at, block.synthesised) == (
        "float32[2,4,8]",
        {"channels": 4},
        "Block(4) at called.py:16",
        False,
    )


@pytest.mark.mindspore
def test_an_entry_is_compiled_as_the_program_builds_and_calls_it(
    write: Write, run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write("called.py", CALLED)
    monkeypatch.chdir(tmp_path)
    _, out, err = run("verify", "--no-compare", "--no-cache", "--format", "json", "called.py")
    report = json.loads(out)
    assert [(c["status"], c["inputs"]) for c in report["compiles"]] == [("compiled", "float32[2,4,8]")] * 2, err
    [finding] = report["findings"]
    assert (finding["line"], finding["verdict"], finding["reason"]) == (
        11,
        "confirmed",
        "compiled Block(channels=4) as built by Block(4) at called.py:16 on inputs float32[2,4,8]",
    )


FACTORY = """
import numpy as np
from mindspore import nn


class Block(nn.Cell):
    def __init__(self, dim, act="exp", scale=1):
        super().__init__()
        self.dense = nn.Dense(dim, dim)
        self.scale = scale

    def construct(self, x):
        return np.exp(self.dense(x) * self.scale)


def small(**kw):
    return Block(dim=64, **kw)


class Head(nn.Cell):
    def __init__(self, dim, classes):
        super().__init__()
        self.dense = nn.Dense(dim, classes)

    def construct(self, x):
        return self.dense(x)


class Net(nn.Cell):
    def __init__(self, width):
        super().__init__()
        self.head = Head(width, classes=10)

    def construct(self, x):
        return self.head(x)


if __name__ == "__main__":
    block = small(scale=3)
    net = Net(32)
"""


def test_factories_and_parents_give_the_arguments_they_pass(tmp_path: Path, write: Write) -> None:
    """Without MindSpore: ``Block`` is built only by ``small(scale=3)`` (``Block(dim=64, **kw)``),
    ``Head`` only by ``Net(32)``'s ``__init__``; a parameter no call gives keeps its default."""
    from mslint.engine import load_project
    from mslint.settings import Settings
    from mslint.verify.targets import targets_of

    write("factory.py", FACTORY)
    project = load_project([tmp_path / "factory.py"], Settings(root=tmp_path)).project
    built = {t.name: (t.kwargs, t.built_at, t.inputs) for t in targets_of(project, Settings(root=tmp_path))}
    assert built == {
        "Block": (
            {"dim": 64, "act": "exp", "scale": 3},
            "small(scale=3) at factory.py:38, through Block(dim=64, **kw) at factory.py:16",
            "float32[2,64]",
        ),
        "Head": (
            {"dim": 32, "classes": 10},
            "Net(32) at factory.py:39, through Head(width, classes=10) at factory.py:31",
            "float32[2,32]",
        ),
        "Net": ({"width": 32}, "Net(32) at factory.py:39", "float32[2,32]"),
    }


def test_instances_that_disagree_are_built_as_the_first_unless_it_is_not_known(tmp_path: Path, write: Write) -> None:
    """``Block`` built by ``small()`` with dim 64, then with a dim not known: the first instance is
    compiled, and said to be; with the first not known either, the entry is not built."""
    from mslint.engine import load_project
    from mslint.settings import Settings
    from mslint.verify.targets import targets_of

    def block(text: str) -> Target:
        write("factory.py", text)
        project = load_project([tmp_path / "factory.py"], Settings(root=tmp_path)).project
        return next(t for t in targets_of(project, Settings(root=tmp_path)) if t.name == "Block")

    other = FACTORY.replace("    net = Net(32)", "    net = Net(32)\n    other = Block(dim=width())")
    first = block(other)
    assert (first.kwargs, first.built_at) == (
        {"dim": 64, "act": "exp", "scale": 3},
        "small(scale=3) at factory.py:38, through Block(dim=64, **kw) at factory.py:16 (its first instance)",
    )
    unknown = block(other.replace("Block(dim=64, **kw)", "Block(dim=width(), **kw)"))
    assert unknown.kwargs == {} and unknown.unbuildable is not None and "Block(dim)" in unknown.unbuildable


LOOPS = """
import numpy as np
from mindspore import nn


class Block(nn.Cell):
    def __init__(self, dim, kernel):
        super().__init__()
        if not isinstance(kernel, tuple):
            raise TypeError("kernel is a tuple")
        self.dense = nn.Dense(dim, dim)

    def construct(self, x):
        return np.exp(self.dense(x))


class Head(nn.Cell):
    def __init__(self, index, width, depth):
        super().__init__()
        self.dense = nn.Dense(width, 2)

    def construct(self, x):
        return self.dense(x)


class Net(nn.Cell):
    def __init__(self, dims=None, kernels=((3, 3), (5, 5)), depths=[2, 3]):
        super().__init__()
        if dims is None:
            dims = (8, 16)
        self.blocks = nn.CellList()
        for i in range(len(dims)):
            self.blocks.append(Block(dims[i], kernel=kernels[i]))
        self.heads = nn.CellList([Head(i, dim * 2, depths[-1]) for i, dim in enumerate(dims) for _ in range(3)])
        self.tails = [Head(0, dim, depth) for dim, depth in zip(dims, depths)]
        self.tail = Tail(index=1, width=dims[1], depth=2)


class Tail(Head):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)

    def construct(self, x):
        return self.dense(x)


def tiny(**kwargs):
    return Net(**kwargs)


MODELS = [tiny]  # handed on: its calls are not all known, its first instance is
net = tiny()
"""


def test_children_built_in_a_loop_are_built_as_its_first_iteration_builds_them(tmp_path: Path, write: Write) -> None:
    """Without MindSpore: ``for i in range(len(dims))``, ``enumerate``, ``zip``, nested
    comprehensions, a known index, arithmetic and ``if dims is None: dims = ...``: each child as its parent's
    loop first builds it, in the first instance of the parent, built by a factory handed on."""
    from mslint.engine import load_project
    from mslint.model.project import ClassRef
    from mslint.settings import Settings
    from mslint.verify.constructions import Constructions
    from mslint.verify.targets import targets_of

    write("loops.py", LOOPS)
    project = load_project([tmp_path / "loops.py"], Settings(root=tmp_path)).project
    built = {t.name: (t.kwargs, t.built_at) for t in targets_of(project, Settings(root=tmp_path))}
    assert built["Block"] == (
        {"dim": 8, "kernel": (3, 3)},
        "tiny() at loops.py:51, through Net(**kwargs) at loops.py:47, Block(dims[i], kernel=kernels[i]) at loops.py:32"
        " (its first instance)",
    )
    # what ``Tail(**kwargs)`` collects is given to it, not left out
    [module] = project.checked_modules
    tail = ClassRef(module, module.classes["Tail"])
    init = project.find_method(tail, "__init__")
    construction = Constructions(project).of(tail, init.node if init else None)
    assert construction is not None and construction.kwargs == {"index": 1, "width": 16, "depth": 2}
    assert built["Head"] == (
        {"index": 0, "width": 16, "depth": 3},
        "tiny() at loops.py:51, through Net(**kwargs) at loops.py:47, Head(i, dim * 2, depths[-1]) at loops.py:33"
        " (its first instance)",
    )


@pytest.mark.mindspore
def test_a_child_built_in_a_loop_compiles_with_its_tuple_argument(
    write: Write, run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``Block(dims[i], kernel=kernels[i])``: built with ``kernel=(3, 3)``, a tuple in the compiling process too."""
    write("loops.py", LOOPS)
    monkeypatch.chdir(tmp_path)
    _, out, err = run("verify", "--no-compare", "--no-cache", "--format", "json", "--select", "MS101", "loops.py")
    report = json.loads(out)
    assert [(c["status"], c["inputs"]) for c in report["compiles"]] == [("compiled", "float32[2,8]")] * 2, err
    [finding] = report["findings"]
    assert (finding["line"], finding["verdict"]) == (13, "confirmed"), finding
    assert finding["reason"].startswith("compiled Block(dim=8, kernel=(3, 3)) as built by tiny() at loops.py:51"), (
        finding
    )


def test_constructor_arguments_reach_the_compiling_process_with_their_types() -> None:
    """Tuples stay tuples (and sets, bytes, dicts with other keys...) on their way to the compile
    process as JSON, and the result cache tells a tuple from a list."""
    from mslint.verify.literals_json import kwargs_from_json
    from mslint.verify.runner import Job, _job_json

    kwargs = {"patch": (4, 4), "dims": [1, (2.5, None)], "table": {1: b"x", (2,): frozenset({"a"})}, "z": 1j}
    sent = json.loads(json.dumps(_job_json(Job(Path("m.py"), "Net", "strict", "", kwargs))))
    received = kwargs_from_json(sent["kwargs"])
    assert received == kwargs and repr(received) == repr(kwargs)
    with pytest.raises(ValueError):
        kwargs_from_json({"patch": {"os.system": ["true"]}})


@pytest.mark.mindspore
def test_an_entry_built_only_by_a_factory_is_compiled_as_the_factory_builds_it(
    write: Write, run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write("factory.py", FACTORY.replace("    net = Net(32)\n", ""))
    monkeypatch.chdir(tmp_path)
    _, out, err = run("verify", "--no-compare", "--no-cache", "--format", "json", "factory.py")
    report = json.loads(out)
    assert [(c["status"], c["inputs"]) for c in report["compiles"]] == [("compiled", "float32[2,64]")] * 2, err
    [finding] = report["findings"]
    assert (finding["line"], finding["verdict"]) == (12, "confirmed"), finding
    assert finding["reason"].startswith(
        "compiled Block(dim=64, act='exp', scale=3) as built by small(scale=3) at factory.py:38, "
        "through Block(dim=64, **kw) at factory.py:16"
    ), finding


REGISTRY = """
import numpy as np
from mindspore import nn


class Block(nn.Cell):
    def __init__(self, dim, scale=1):
        super().__init__()
        self.dense = nn.Dense(dim, dim)
        self.scale = scale

    def construct(self, x):
        if self.scale > 2:
            return np.exp(self.dense(x))
        return self.dense(x)


LAYERS = {"block": Block}
MODELS = {}


def register_model(fn):
    MODELS[fn.__name__] = fn
    return fn


class Tiny(nn.Cell):
    def __init__(self, width, use_np=False):
        super().__init__()
        self.dense = nn.Dense(width, 2)
        self.use_np = use_np

    def construct(self, x):
        if self.use_np:
            return np.exp(self.dense(x))
        return self.dense(x)


@register_model
def tiny_np(**kwargs):
    return Tiny(width=16, **kwargs)


def create_model(name, **kwargs):
    return MODELS[name](**kwargs)


if __name__ == "__main__":
    layer = LAYERS["block"](64, scale=3)
    model = create_model("tiny_np", use_np=True)
"""

CONFIGS = """
from types import SimpleNamespace

import numpy as np
from mindspore import nn


class Net(nn.Cell):
    def __init__(self, cfg):
        super().__init__()
        self.dense = nn.Dense(cfg["dim"], cfg["dim"])
        self.use_np = cfg["use_np"]

    def construct(self, x):
        if self.use_np:
            return np.exp(self.dense(x))
        return self.dense(x)


class Other(nn.Cell):
    def __init__(self, dim, use_np):
        super().__init__()
        self.dense = nn.Dense(dim, dim)
        self.use_np = use_np

    def construct(self, x):
        if self.use_np:
            return np.exp(self.dense(x))
        return self.dense(x)


def build(opts):
    return Other(opts.dim, opts.use_np)


CONFIG = {"dim": 8, "use_np": True}
OPTS = SimpleNamespace(dim=12, use_np=True)

if __name__ == "__main__":
    net = Net(CONFIG)
    other = build(OPTS)
"""


def _built(tmp_path: Path, write: Write, name: str, text: str) -> dict[str, tuple[dict[str, Any], str | None, str]]:
    from mslint.engine import load_project
    from mslint.settings import Settings
    from mslint.verify.targets import targets_of

    write(name, text)
    project = load_project([tmp_path / name], Settings(root=tmp_path)).project
    return {t.name: (t.kwargs, t.built_at, t.inputs) for t in targets_of(project, Settings(root=tmp_path))}


HELPER = """
import mindspore.nn as nn


class Bottleneck(nn.Cell):
    def __init__(self, in_channels, channels, stride=1):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, channels, 3, stride=stride)

    def construct(self, x):
        return self.conv(x)


class ResNet(nn.Cell):
    def __init__(self, block, layers):
        super().__init__()
        self.in_channels = 16
        self.stem = nn.Conv2d(3, 16, 3)
        self.layer1 = self._make_layer(block, 32, layers[0])
        self.layer2 = self._make_layer(block, 64, layers[1], stride=2)

    def _make_layer(self, block, channels, blocks, stride=1):
        layers = [block(self.in_channels, channels, stride)]
        self.in_channels = channels
        for _ in range(1, blocks):
            layers.append(block(self.in_channels, channels))
        return nn.SequentialCell(layers)

    def construct(self, x):
        return self.layer2(self.layer1(self.stem(x)))


def resnet():
    return ResNet(Bottleneck, [2, 2])
"""


def test_a_class_handed_to_a_helper_of_the_constructor_is_built_by_its_calls(tmp_path: Path, write: Write) -> None:
    """Without MindSpore: ``self._make_layer(block, 32, layers[0])`` hands the class to a method
    that builds it; its first instance is the helper's first call's, given the helper's arguments
    and ``self.in_channels`` as the constructor set it before that call."""
    kwargs, built_at, inputs = _built(tmp_path, write, "helper.py", HELPER)["Bottleneck"]
    assert kwargs == {"in_channels": 16, "channels": 32, "stride": 1}
    assert built_at == "block(self.in_channels, channels, stride) at helper.py:22 (its first instance)"
    assert inputs == "float32[2,16,32,32]"


DOWNSAMPLED = """
import mindspore.nn as nn


class Bottleneck(nn.Cell):
    expansion = 4

    def __init__(self, in_channels, channels, stride=1, downsample=None):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, channels * Bottleneck.expansion, 1, stride=stride)
        self.downsample = downsample

    def construct(self, x):
        return self.conv(x) + (self.downsample(x) if self.downsample else x)


class ResNet(nn.Cell):
    def __init__(self, block, layers):
        super().__init__()
        self.in_channels = 16
        self.layer1 = self._make_layer(block, 16, layers[0])
        self.layer2 = self._make_layer(block, 32, layers[1], stride=2)

    def _make_layer(self, block, channels, blocks, stride=1):
        if stride != 1 or self.in_channels != channels * block.expansion:
            self.downsample = nn.Conv2d(self.in_channels, channels * block.expansion, 1, stride=stride)
        layers = [block(self.in_channels, channels, downsample=self.downsample, stride=stride)]
        self.in_channels = channels * block.expansion
        return nn.SequentialCell(layers)

    def construct(self, x):
        return self.layer2(self.layer1(x))


def resnet():
    return ResNet(Bottleneck, [2, 2])
"""


def test_a_helper_sets_what_it_hands_on_in_the_branch_its_first_call_takes(tmp_path: Path, write: Write) -> None:
    """Without MindSpore: ``_make_layer`` sets ``self.downsample`` under a test its first call
    decides (``16 != 16 * block.expansion``, the class attribute of the class handed in), so the
    first ``Bottleneck`` is built with that convolution, not with its default None; where the
    test reads what is not known, it claims no value and the default stays."""
    kwargs, _, _ = _built(tmp_path, write, "downsampled.py", DOWNSAMPLED)["Bottleneck"]
    assert repr(kwargs["downsample"]) == "__import__('mindspore.nn', fromlist=['Conv2d']).Conv2d(16, 64, 1, stride=1)"
    undecided = DOWNSAMPLED.replace("if stride != 1 or", "if unknown_flag() and")
    kwargs, _, _ = _built(tmp_path, write, "undecided.py", undecided)["Bottleneck"]
    assert "downsample" not in kwargs


GROUPED = """
import mindspore.nn as nn


class Attention(nn.Cell):
    def __init__(self, dim):
        super().__init__()
        self.fc = nn.Dense(dim, dim)

    def construct(self, x):
        return self.fc(x)


class GroupAttention(nn.Cell):
    def __init__(self, dim, ws=1):
        assert ws != 1
        super().__init__()
        self.fc = nn.Dense(dim, dim * ws)

    def construct(self, x):
        return self.fc(x)


class GroupBlock(nn.Cell):
    def __init__(self, dim, ws=1):
        super().__init__()
        if ws == 1:
            self.attn = Attention(dim)
        else:
            self.attn = GroupAttention(dim, ws)

    def construct(self, x):
        return self.attn(x)


class Net(nn.Cell):
    def __init__(self, dims=(8, 16), wss=(7, 5)):
        super().__init__()
        self.blocks = nn.SequentialCell(
            [GroupBlock(dim=int(dims[0] * 2 ** i), ws=1 if i % 2 == 0 else wss[0]) for i in range(2)]
        )
        self.last = GroupBlock(dims[1], wss[1])

    def construct(self, x):
        return self.blocks(x)


def net():
    return Net()
"""


def test_a_first_instance_is_one_whose_branch_the_host_takes(tmp_path: Path, write: Write) -> None:
    """Without MindSpore: the first ``GroupBlock`` is given ``ws=1`` (a conditional expression
    decided on the loop's first iteration), so the ``GroupAttention`` of its ``else:`` is not
    built there (it was, with ``ws=1``, which it refuses) but by the loop's second iteration,
    given ``dim=16``, ``ws=7``, before the last ``GroupBlock``; given ``ws=7`` first
    (``wss[0]``), the first ``GroupBlock`` builds it, ``2 ** i`` computed."""
    built = _built(tmp_path, write, "grouped.py", GROUPED)
    assert built["GroupBlock"][0] == {"dim": 8, "ws": 1}
    kwargs, built_at, _ = built["GroupAttention"]
    assert kwargs == {"dim": 16, "ws": 7}
    assert built_at == (
        "Net() at grouped.py:48, through GroupBlock(dim=int(dims[0] * 2 ** i), ws=1 if i % 2 == 0 else wss[0]) "
        "at grouped.py:39, GroupAttention(dim, ws) at grouped.py:29 (its first instance)"
    )
    built = _built(tmp_path, write, "windowed.py", GROUPED.replace("i % 2 == 0", "i % 2 == 1"))
    assert built["GroupAttention"][0] == {"dim": 8, "ws": 7}


DEFAULTED_PARENT = """
import mindspore.nn as nn


class Block(nn.Cell):
    def __init__(self, dim, heads):
        super().__init__()
        self.fc = nn.Dense(dim, dim * heads)

    def construct(self, x):
        return self.fc(x)


class Net(nn.Cell):
    def __init__(self, embed_dim=48, heads=2, act=nn.GELU):
        super().__init__()
        self.block = Block(embed_dim, heads)
        self.act = act()

    def construct(self, x):
        return self.act(self.block(x))


MODELS = {"net": Net}
"""


def test_a_parent_no_call_of_which_is_followed_builds_its_children_with_its_defaults(
    tmp_path: Path, write: Write
) -> None:
    """Without MindSpore: ``Net`` is only handed on (to a registry no lookup of which is read);
    verify builds it with its defaults, and so the ``Block`` it builds, as that ``Net`` builds it."""
    built = _built(tmp_path, write, "defaulted.py", DEFAULTED_PARENT)
    assert built["Block"] == (
        {"dim": 48, "heads": 2},
        "Block(embed_dim, heads) at defaulted.py:16 (its first instance)",
        "float32[2,48]",
    )
    assert built["Net"] == ({}, None, "float32[2,48]")


def test_registries_give_the_arguments_of_their_lookups(tmp_path: Path, write: Write) -> None:
    """Without MindSpore: ``LAYERS["block"](64, scale=3)`` builds ``Block``; ``create_model("tiny_np",
    use_np=True)`` builds ``Tiny`` through the registered factory, and ``where`` names each call
    on the way."""
    assert _built(tmp_path, write, "registry.py", REGISTRY) == {
        "Block": ({"dim": 64, "scale": 3}, 'LAYERS["block"](64, scale=3) at registry.py:48', "float32[2,64]"),
        "Tiny": (
            {"width": 16, "use_np": True},
            'create_model("tiny_np", use_np=True) at registry.py:49, through MODELS[name](**kwargs) at '
            "registry.py:44, Tiny(width=16, **kwargs) at registry.py:40",
            "float32[2,16]",
        ),
    }


def test_configurations_give_their_fields(tmp_path: Path, write: Write) -> None:
    """Without MindSpore: ``Net(CONFIG)`` reading ``cfg["dim"]`` is given the dict itself (its
    first layer sized from it); ``build(OPTS)`` passing ``opts.dim`` gives the namespace's fields."""
    assert _built(tmp_path, write, "configs.py", CONFIGS) == {
        "Net": ({"cfg": {"dim": 8, "use_np": True}}, "Net(CONFIG) at configs.py:39", "float32[2,8]"),
        "Other": (
            {"dim": 12, "use_np": True},
            "build(OPTS) at configs.py:40, through Other(opts.dim, opts.use_np) at configs.py:32",
            "float32[2,12]",
        ),
    }


def test_a_configuration_read_by_attribute_or_changed_is_not_rebuilt(tmp_path: Path, write: Write) -> None:
    """A namespace passed whole is read by attribute (a dict would not serve), and a dict whose
    field ``__init__`` changes is not one configuration: neither entry is built."""
    by_attribute = CONFIGS.replace('cfg["dim"], cfg["dim"]', "cfg.dim, cfg.dim").replace('cfg["use_np"]', "cfg.use_np")
    changed = CONFIGS.replace('self.use_np = cfg["use_np"]', 'cfg["dim"] = 4\n        self.use_np = True')
    for name, text in (("attribute.py", by_attribute), ("changed.py", changed)):
        kwargs, built_at, _ = _built(tmp_path, write, name, text)["Net"]
        assert (kwargs, built_at) == ({}, None), name


@pytest.mark.mindspore
@pytest.mark.parametrize("name", ["registry", "configs"])
def test_an_entry_built_by_a_registry_or_a_configuration_is_compiled_so(
    name: str, write: Write, run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each ``np.exp`` is in a branch only the program's instance compiles (``scale=3``,
    ``use_np=True``; the defaults skip it): confirmed only where verify built the instance so."""
    write(f"{name}.py", REGISTRY if name == "registry" else CONFIGS)
    monkeypatch.chdir(tmp_path)
    _, out, err = run("verify", "--no-compare", "--no-cache", "--format", "json", f"{name}.py")
    report = json.loads(out)
    assert {c["status"] for c in report["compiles"]} == {"compiled"} and len(report["compiles"]) == 4, err
    verdicts = [(f["line"], f["verdict"], f["reason"].split(" on inputs")[0]) for f in report["findings"]]
    assert verdicts == (
        [
            (
                13,
                "confirmed",
                'compiled Block(dim=64, scale=3) as built by LAYERS["block"](64, scale=3) at registry.py:48',
            ),
            (
                34,
                "confirmed",
                'compiled Tiny(width=16, use_np=True) as built by create_model("tiny_np", use_np=True) at '
                "registry.py:49, through MODELS[name](**kwargs) at registry.py:44, Tiny(width=16, **kwargs) at "
                "registry.py:40",
            ),
        ]
        if name == "registry"
        else [
            (15, "confirmed", "compiled Net(cfg={'dim': 8, 'use_np': True}) as built by Net(CONFIG) at configs.py:39"),
            (
                27,
                "confirmed",
                "compiled Other(dim=12, use_np=True) as built by build(OPTS) at configs.py:40, "
                "through Other(opts.dim, opts.use_np) at configs.py:32",
            ),
        ]
    ), err


TOKENS = """
import mindspore
import numpy as np
from mindspore import nn, ops


class Embed(nn.Cell):
    def __init__(self, in_chans=3, dim=8):
        super().__init__()
        self.proj = nn.Conv2d(in_chans, dim, 4, stride=4)

    def construct(self, x):
        return self.proj(x)


class Tokens(nn.Cell):
    def __init__(self, embed_layer=Embed):
        super().__init__()
        self.embed = embed_layer(in_chans=5)

    def features(self, x):
        return self.embed(x)

    def construct(self, x):
        return np.exp(self.features(x))


class Normed(nn.Cell):
    def __init__(self, dim=16):
        super().__init__()
        self.norm = nn.LayerNorm((dim,))

    def construct(self, x):
        return self.norm(x)


def pointwise(in_channels, out_channels=1):
    return nn.Conv2d(in_channels, out_channels, 1)


class Gate(nn.Cell):
    def __init__(self):
        super().__init__()
        self.body = nn.SequentialCell()
        self.body.append(pointwise(6))

    def construct(self, x):
        return np.exp(self.body(x))


class Head(nn.Cell):
    def __init__(self, dim=16):
        super().__init__()
        self.qkv = nn.Dense(dim, dim * 3)

    def construct(self, x):
        b, n, c = x.shape
        return np.exp(self.qkv(x).reshape(b, n * 3 * c))


class Small(nn.Cell):
    def __init__(self, dim):
        super().__init__()
        self.fc = nn.Dense(dim, 4)

    def construct(self, x):
        return np.exp(self.fc(x))


def small():
    model = Small(dim=6)
    return model


if __name__ == "__main__":
    net = small()
    net(ops.ones((3, 6), mindspore.float32))
"""


def test_first_layers_behind_a_method_a_default_class_or_a_sequence_of_tokens(tmp_path: Path, write: Write) -> None:
    """Without MindSpore: ``construct`` hands its input to another method, whose layer a
    parameter's default class makes (``embed_layer=Embed`` given ``in_chans=5``); a
    ``LayerNorm((16,))`` takes tokens; an empty ``SequentialCell`` is what it is given by
    ``append``, here what a function returns; a ``Dense`` whose input ``b, n, c = x.shape`` reads
    takes tokens; an instance that a factory returns is called on what the ``__main__`` block calls
    the factory's result on."""
    built = _built(tmp_path, write, "tokens.py", TOKENS)
    assert {name: inputs for name, (_, _, inputs) in built.items()} == {
        "Embed": "float32[2,5,32,32]",  # as Tokens, built with its defaults, builds it
        "Tokens": "float32[2,5,32,32]",
        "Normed": "float32[2,8,16]",
        "Gate": "float32[2,6,32,32]",
        "Head": "float32[2,8,16]",
        "Small": "float32[3,6]",
    }
    assert built["Small"][1] == "Small(dim=6) at tokens.py:70", "called through the factory that returns it"


@pytest.mark.mindspore
def test_first_layers_found_further_compile_on_their_inputs(
    write: Write, run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``b, n, c = x.shape`` is given tokens (on ``float32[2,16]`` MindSpore fails: ``TupleGetItem
    evaluator index should be in range``); ``Gate``'s ``SequentialCell`` is
    built by ``append`` of what a function returns; ``Small`` is compiled on what the
    ``__main__`` block gives its factory's result. Each ``np.exp`` is confirmed (``Normed`` has
    none: not compiled)."""
    write("tokens.py", TOKENS)
    monkeypatch.chdir(tmp_path)
    _, out, err = run("verify", "--no-compare", "--no-cache", "--format", "json", "tokens.py")
    report = json.loads(out)
    inputs = {c["name"]: c["inputs"] for c in report["compiles"]}
    assert inputs == {
        "Tokens": "float32[2,5,32,32]",
        "Gate": "float32[2,6,32,32]",
        "Head": "float32[2,8,16]",
        "Small": "float32[3,6]",
    }, err
    confirmed = [(line, "confirmed") for line in (24, 47, 57, 66)]
    assert [(f["line"], f["verdict"]) for f in report["findings"]] == confirmed, err


DEFAULTS = """
from mindspore import nn


class Net(nn.Cell):
    def __init__(self, dim=4):
        super().__init__()
        self.fc = nn.Dense(dim, 2)

    def construct(self, x):
        return self.fc(x)


class Plain(nn.Cell):
    def __init__(self, dim=4):
        super().__init__()
        self.fc = nn.Dense(dim, 2)

    def construct(self, x):
        return self.fc(x)


if __name__ == "__main__":
    net = Net(dim=6)
    plain = Plain()
"""


def test_the_program_s_arguments_are_kept_where_init_needs_none(tmp_path: Path, write: Write) -> None:
    """Without MindSpore: ``Net(dim=6)`` with no call of the instance builds ``Net`` with
    ``dim=6`` although every parameter has a default; ``Plain()`` gives nothing: built with its
    defaults, not claimed as the program's call."""
    assert _built(tmp_path, write, "defaults.py", DEFAULTS) == {
        "Net": ({"dim": 6}, "Net(dim=6) at defaults.py:23", "float32[2,6]"),
        "Plain": ({}, None, "float32[2,4]"),
    }


INHERITED = """
import mindspore as ms
import numpy as np
from mindspore import nn, ops


class Base(nn.Cell):
    def __init__(self, dim, heads=2):
        super().__init__()
        self.fc = nn.Dense(dim, dim * heads)


class Child(Base):
    def __init__(self, dim=6):
        super().__init__(dim)

    def construct(self, x):
        return self.fc(x)


class Passed(Base):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)

    def construct(self, x):
        return self.fc(x)


class Swish(nn.Cell):
    def __init__(self):
        super().__init__()
        self.sigmoid = nn.Sigmoid()

    def construct(self, x):
        return np.exp(x * self.sigmoid(x))


class Flat(nn.Cell):
    def construct(self, x):
        return x.flatten(start_dim=2).transpose(0, 2, 1)


class Scaled(nn.Cell):
    def __init__(self, dim=4):
        super().__init__()
        self.gamma = ms.Parameter(ops.ones((dim,)))

    def construct(self, x):
        return x * self.gamma


class Residual(nn.Cell):
    def __init__(self, m=None):
        super().__init__()
        self.m = m

    def construct(self, x):
        return x + self.m(x)


if __name__ == "__main__":
    passed = Passed(dim=5)
"""


def test_base_class_layers_and_cells_without_weights_are_synthesised(tmp_path: Path, write: Write) -> None:
    """Without MindSpore: a layer assigned in the base class's ``__init__`` is the first layer,
    sized by what ``super().__init__`` passes it (``dim``, or the keywords ``**kwargs`` carries);
    a Cell holding no weight (an activation, a reshape) is tried on default shapes, a guess;
    one with a ``Parameter`` or a Cell handed in (``self.m = m``) is not."""
    from mslint.engine import load_project
    from mslint.settings import Settings
    from mslint.verify.synthesis import DEFAULT_INPUTS
    from mslint.verify.targets import targets_of

    write("inherited.py", INHERITED)
    project = load_project([tmp_path / "inherited.py"], Settings(root=tmp_path)).project
    targets = {t.name: t for t in targets_of(project, Settings(root=tmp_path))}
    assert (targets["Child"].inputs, targets["Child"].guessed) == ("float32[2,6]", False)
    assert targets["Passed"].inputs == "float32[2,5]"
    for name in ("Swish", "Flat"):
        target = targets[name]
        assert ((target.inputs, *target.candidates), target.synthesised, target.guessed) == (DEFAULT_INPUTS, True, True)
    for name in ("Scaled", "Residual"):
        assert targets[name].unbuildable is not None, name


@pytest.mark.mindspore
def test_a_cell_without_weights_compiles_on_a_guess_that_says_so(
    write: Write, run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``Swish``'s ``np.exp`` is confirmed on the default image shape, and the verdict says the
    inputs were a guess; ``Flat`` has no finding."""
    write("inherited.py", INHERITED)
    monkeypatch.chdir(tmp_path)
    _, out, err = run("verify", "--no-compare", "--no-cache", "--format", "json", "inherited.py")
    report = json.loads(out)
    swish = next(f for f in report["findings"] if f["line"] == 34)
    assert swish["verdict"] == "confirmed", err
    assert "a guess: it holds no weight that sets their shape" in json.dumps(swish), swish


HANDED = """
import numpy as np
from mindspore import nn


class Plain(nn.Cell):
    def __init__(self, dim):
        super().__init__()
        self.fc = nn.Dense(dim, dim)

    def construct(self, x):
        return self.fc(x)


class Net(nn.Cell):
    def __init__(self, block, dim, act=None):
        super().__init__()
        self.block = block(dim)
        self.act = act()

    def construct(self, x):
        return np.exp(self.act(self.block(x)))


def small(dim=6, act_layer=nn.ReLU):
    return Net(Plain, dim, act=act_layer)


if __name__ == "__main__":
    net = small()
"""


def test_classes_handed_to_a_constructor_are_references(tmp_path: Path, write: Write) -> None:
    """Without MindSpore: ``Net(Plain, dim, act=act_layer)`` in a factory whose default is
    ``nn.ReLU`` builds ``Net`` with references to both classes (the project's by its file), and
    a reference travels to the compiling process as JSON and back."""
    from mslint.verify.literals_json import kwargs_from_json, kwargs_to_json
    from mslint.verify.references import Reference

    kwargs, built_at, inputs = _built(tmp_path, write, "handed.py", HANDED)["Net"]
    handed = str((tmp_path / "handed.py").resolve())
    assert kwargs == {"block": Reference(handed, "Plain"), "dim": 6, "act": Reference("mindspore.nn", "ReLU")}
    assert (built_at, inputs) == (
        "small() at handed.py:29, through Net(Plain, dim, act=act_layer) at handed.py:25 (its first instance)",
        "float32[2,6]",
    )
    assert kwargs_from_json(json.loads(json.dumps(kwargs_to_json(kwargs)))) == kwargs
    with pytest.raises(ValueError):
        kwargs_from_json({"block": {"reference": ["m.py"]}})


@pytest.mark.mindspore
def test_an_entry_built_with_classes_handed_to_it_compiles(
    write: Write, run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The references are imported where the Cell is built (``act=None`` would fail building it):
    the ``np.exp`` is confirmed, and the verdict names the classes; ``--show-examples`` writes
    a factory that imports them, which confirms it again through ``--example``."""
    write("handed.py", HANDED)
    monkeypatch.chdir(tmp_path)
    arguments = ("verify", "--no-compare", "--no-cache", "--format", "json", "handed.py")
    _, out, err = run(*arguments, "--show-examples", "examples.py")
    report = json.loads(out)
    [finding] = [f for f in report["findings"] if f["line"] == 21]
    assert finding["verdict"] == "confirmed", err
    assert finding["reason"].startswith(
        "compiled Net(block=Plain, dim=6, act=mindspore.nn.ReLU) as built by small()"
    ), finding
    _, out, err = run(*arguments, "--example", "examples.py:net")
    [finding] = [f for f in json.loads(out)["findings"] if f["line"] == 21]
    assert finding["verdict"] == "confirmed", err


POOLED = """
from mindspore import nn


class Gate(nn.Cell):
    def __init__(self, channels=5):
        super().__init__()
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.conv = nn.Conv2d(channels, 2, 1)

    def construct(self, x):
        att = self.pool(x)
        return self.conv(att)


class Squeezed(nn.Cell):
    def __init__(self, channels=5):
        super().__init__()
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Dense(channels, 2)

    def construct(self, x):
        y = self.pool(x).view(x.shape[0], -1)
        return self.fc(y)
"""


def test_a_pooling_first_is_sized_by_the_layer_after_it(tmp_path: Path, write: Write) -> None:
    """Without MindSpore: ``att = self.pool(x)`` then ``self.conv(att)``: a pooling keeps the
    channels, the convolution after it sizes the input; where the pooled value is reshaped
    first (``.view(...)``), the layer after it says nothing of the input."""
    built = _built(tmp_path, write, "pooled.py", POOLED)
    assert built["Gate"][2] == "float32[2,5,32,32]"
    assert built["Squeezed"][2] == ""


NOT_FOLLOWED = """
from mindspore import nn


class Block(nn.Cell):
    def __init__(self, dim):
        super().__init__()
        self.fc = nn.Dense(dim, dim)

    def construct(self, x):
        return self.fc(x)


class Unused(nn.Cell):
    def __init__(self, dim):
        super().__init__()
        self.fc = nn.Dense(dim, dim)

    def construct(self, x):
        return self.fc(x)


class Net(nn.Cell):
    def __init__(self, dim=16):
        super().__init__()
        self.dim = dim
        self.block = Block(round(self.dim / 3))

    def construct(self, x):
        return self.block(x)
"""


def test_the_reason_names_what_the_program_s_calls_do_not_give(tmp_path: Path, write: Write) -> None:
    """Without MindSpore: ``Block(round(self.dim / 3))`` is its first instance, whose ``dim`` mslint
    does not follow; ``Unused`` is never built: each reason says which."""
    from mslint.engine import load_project
    from mslint.settings import Settings
    from mslint.verify.targets import targets_of

    write("followed.py", NOT_FOLLOWED)
    project = load_project([tmp_path / "followed.py"], Settings(root=tmp_path)).project
    reasons = {t.name: t.unbuildable for t in targets_of(project, Settings(root=tmp_path))}
    assert (
        "no constructor arguments for Block(dim) (its first instance, Block(round(self.dim / 3)) at followed.py:26, "
        "gives dim what mslint does not follow): add"
    ) in str(reasons["Block"])
    assert "Unused(dim) (no call of the program that builds it can be followed" in str(reasons["Unused"])


TABLES = """
import mindspore.nn as nn

DEPTHS = {"s": [2, 3], "l": [4, 6]}
WIDTHS = {"s": 16, "l": 32}
CHANGED = {"s": 8}
CHANGED["s"] = 12


class Stage(nn.Cell):
    def __init__(self, width, depth):
        super().__init__()
        self.fc = nn.Dense(width, width)
        self.depth = depth

    def construct(self, x):
        return self.fc(x)


class Net(nn.Cell):
    def __init__(self, widths, depths):
        super().__init__()
        self.stage = Stage(widths, depths[0])

    def construct(self, x):
        return self.stage(x)


class Other(nn.Cell):
    def __init__(self, width):
        super().__init__()
        self.fc = nn.Dense(width, width)

    def construct(self, x):
        return self.fc(x)


def small():
    return Net(WIDTHS["s"], depths=DEPTHS["s"])


net = small()
other = Other(CHANGED["s"])
"""


def test_a_table_of_the_module_read_by_a_literal_key_gives_its_item(tmp_path: Path, write: Write) -> None:
    """Without MindSpore: ``Net(WIDTHS["s"], depths=DEPTHS["s"])`` builds ``Net`` and its ``Stage``
    with the table's items; a table the module changes (``CHANGED["s"] = 12``) is not read."""
    from mslint.engine import load_project
    from mslint.settings import Settings
    from mslint.verify.targets import targets_of

    write("tables.py", TABLES)
    project = load_project([tmp_path / "tables.py"], Settings(root=tmp_path)).project
    built = {t.name: t for t in targets_of(project, Settings(root=tmp_path))}
    assert built["Net"].kwargs == {"widths": 16, "depths": [2, 3]}
    assert built["Stage"].kwargs == {"width": 16, "depth": 2}
    assert "CHANGED" in (built["Other"].unbuildable or ""), built["Other"]


BRANCHES = """
import mindspore.nn as nn


class Hybrid(nn.Cell):
    def __init__(self, backbone, dim):
        super().__init__()
        self.backbone = backbone
        self.proj = nn.Dense(4, dim)

    def construct(self, x):
        return self.proj(self.backbone(x))


class Patches(nn.Cell):
    def __init__(self, in_chans, dim):
        super().__init__()
        self.proj = nn.Conv2d(in_chans, dim, 4, stride=4)

    def construct(self, x):
        return self.proj(x)


class Net(nn.Cell):
    def __init__(self, in_chans=3, dim=8, backbone=None):
        super().__init__()
        if backbone is not None:
            self.embed = Hybrid(backbone, dim)
        else:
            self.embed = Patches(in_chans, dim)

    def construct(self, x):
        return self.embed(x)


class Rebound(nn.Cell):
    def __init__(self, in_chans=3, dim=8, backbone=None):
        super().__init__()
        backbone = backbone or nn.Dense(5, 4)
        if backbone is not None:
            self.embed = Hybrid(backbone, dim)
        else:
            self.embed = Patches(in_chans, dim)

    def construct(self, x):
        return self.embed(x)


net = Net(in_chans=5)
"""


def test_the_branch_the_arguments_decide_gives_the_first_layer(tmp_path: Path, write: Write) -> None:
    """Without MindSpore: ``if backbone is not None: ... else: self.embed = Patches(...)``, built
    with ``backbone`` None, reads ``Patches``; given a value that is not None, the other branch;
    a parameter bound again in the body decides nothing (the first assignment is read, as before)."""
    from mslint.engine import load_project
    from mslint.model.project import ClassRef
    from mslint.settings import Settings
    from mslint.verify.synthesis import synthesised_inputs

    write("branches.py", BRANCHES)
    project = load_project([tmp_path / "branches.py"], Settings(root=tmp_path)).project
    [module] = project.checked_modules
    net, rebound = (ClassRef(module, module.classes[name]) for name in ("Net", "Rebound"))
    assert synthesised_inputs(project, net, {"in_chans": 5})[0] == "float32[2,5,32,32]"
    assert synthesised_inputs(project, net, {"in_chans": 5, "backbone": [4]}) == []
    assert synthesised_inputs(project, rebound, {}) == []


LOOPED = """
import mindspore.nn as nn


class Block(nn.Cell):
    def __init__(self, dim=4):
        super().__init__()
        self.dense = nn.Dense(dim, dim)

    def construct(self, x):
        return self.dense(x)


class Chain(nn.Cell):
    def __init__(self, blocks):
        super().__init__()
        self.blocks = blocks

    def construct(self, x):
        for block in self.blocks:
            x = block(x)
        return x


class Stack(nn.Cell):
    def __init__(self, dim=6):
        super().__init__()
        self.layers = nn.CellList([Block(dim) for _ in range(2)])

    def construct(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


class Shadowed(nn.Cell):
    def __init__(self, dim=6, dims=(16, 32)):
        super().__init__()
        self.blocks = nn.CellList([Block(dim) for dim in dims])

    def construct(self, x):
        for block in self.blocks:
            x = block(x)
        return x
"""


def test_the_first_layer_of_cells_a_loop_meets(tmp_path: Path, write: Write) -> None:
    """Without MindSpore: ``for block in self.blocks: x = block(x)`` meets the first Cell of the
    list handed in (``Chain([Block(), Block()])``, rules/python-container-of-cells/bad_given.py),
    or of a ``CellList`` built by a comprehension, whose variables are not the constructor's."""
    from mslint.engine import load_project
    from mslint.model.project import ClassRef
    from mslint.settings import Settings
    from mslint.verify.references import Built, Reference
    from mslint.verify.synthesis import synthesised_inputs

    path = write("looped.py", LOOPED)
    project = load_project([path], Settings(root=tmp_path)).project
    [module] = project.checked_modules
    chain, stack, shadowed = (ClassRef(module, module.classes[name]) for name in ("Chain", "Stack", "Shadowed"))
    block = Built(Reference(str(path.resolve()), "Block"))
    assert synthesised_inputs(project, chain, {"blocks": [block, block]}) == ["float32[2,4]", "float32[2,8,4]"]
    assert synthesised_inputs(project, chain, {"blocks": [Built(block.callee, (8,))]})[0] == "float32[2,8]"
    assert synthesised_inputs(project, stack, {})[0] == "float32[2,6]"
    assert synthesised_inputs(project, shadowed, {}) == []


RANKS = """
import mindspore.nn as nn


class Grid(nn.Cell):
    def __init__(self, dim=16):
        super().__init__()
        self.norm = nn.LayerNorm((dim,))

    def construct(self, x):
        B, H, W, C = x.shape
        return self.norm(x).reshape(B, H * W, C)


class Tokens(nn.Cell):
    def __init__(self, dim=16):
        super().__init__()
        self.fc = nn.Dense(dim, dim)

    def construct(self, x):
        B, N, C = x.shape
        return self.fc(x)


class Rebound(nn.Cell):
    def __init__(self, dim=16):
        super().__init__()
        self.fc = nn.Dense(dim, dim)

    def construct(self, x):
        x = self.fc(x)
        B, H, W, C = x.shape
        return x


class Sized(nn.Cell):
    def __init__(self, dim=16):
        super().__init__()
        self.fc = nn.Dense(dim, dim)

    def construct(self, x, H, W):
        B, N, C = x.shape
        return self.fc(x).transpose(0, 2, 1).reshape(B, C, H, W)


class Masked(nn.Cell):
    def __init__(self, dim=16):
        super().__init__()
        self.fc = nn.Dense(dim, dim)

    def construct(self, x, mask, W):
        return self.fc(x) * mask[0] + W


class Reshaped(nn.Cell):
    def __init__(self, dim=16):
        super().__init__()
        self.conv = nn.Conv2d(dim, dim, 1)

    def construct(self, x):
        b, n, c = x.shape
        x = x.reshape(b, 4, 4, c).transpose(0, 3, 1, 2)
        return self.conv(x)
"""


def test_the_rank_construct_reads_off_its_input(tmp_path: Path, write: Write) -> None:
    """Without MindSpore: ``B, H, W, C = x.shape`` wants four dimensions, where the first
    ``LayerNorm`` alone suggests tokens of three; ``B, N, C`` wants tokens, not vectors, and no
    image for a first ``Conv2d`` (the input is reshaped before it: not read here). The shape of
    what ``x`` is bound to later says nothing of the input. ``construct(self, x, H, W)``, ``H``
    and ``W`` read only as sizes, takes tokens of an ``H`` by ``W`` grid."""
    from mslint.engine import load_project
    from mslint.model.project import ClassRef
    from mslint.settings import Settings
    from mslint.verify.synthesis import synthesised_inputs

    path = write("ranks.py", RANKS)
    project = load_project([path], Settings(root=tmp_path)).project
    [module] = project.checked_modules
    grid, tokens, rebound, reshaped, sized, masked = (
        ClassRef(module, module.classes[name]) for name in ("Grid", "Tokens", "Rebound", "Reshaped", "Sized", "Masked")
    )
    assert synthesised_inputs(project, grid, {})[0] == "float32[2,8,8,16]"
    assert synthesised_inputs(project, tokens, {}) == ["float32[2,8,16]"]
    assert synthesised_inputs(project, rebound, {}) == ["float32[2,16]", "float32[2,8,16]"]
    assert synthesised_inputs(project, reshaped, {}) == [], "tokens reshaped into an image: no image fits"
    assert synthesised_inputs(project, sized, {})[0] == "float32[2,64,16], 8, 8", "tokens of a grid, and its sides"
    assert synthesised_inputs(project, masked, {}) == [], "an item of mask is read: a tensor, not a size"


INTS = """
import mindspore.nn as nn


class Mlp(nn.Cell):
    def __init__(self, dim, hidden):
        super().__init__()
        self.fc = nn.Dense(dim, hidden)

    def construct(self, x):
        return self.fc(x)


class Shift(nn.Cell):
    def __init__(self, step):
        super().__init__()
        self.step = step

    def construct(self, x):
        return x + self.step


class Net(nn.Cell):
    def __init__(self, dims=(6, 12), ratio=2.5):
        super().__init__()
        self.mlp = Mlp(dims[0], int(ratio * dims[0]))
        self.shift = Shift(int(ratio - 5))

    def construct(self, x):
        return self.shift(self.mlp(x))


net = Net()
"""


def test_int_of_a_known_number_is_that_integer(tmp_path: Path, write: Write) -> None:
    """Without MindSpore: ``Mlp(dims[0], int(ratio * dims[0]))`` builds ``Mlp`` with ``hidden=15``;
    ``int`` truncates toward zero as Python's does (``int(ratio - 5)``, ``int(-2.5)``, is -2)."""
    from mslint.engine import load_project
    from mslint.settings import Settings
    from mslint.verify.targets import targets_of

    write("ints.py", INTS)
    project = load_project([tmp_path / "ints.py"], Settings(root=tmp_path)).project
    built = {t.name: t.kwargs for t in targets_of(project, Settings(root=tmp_path))}
    assert (built["Mlp"], built["Shift"]) == ({"dim": 6, "hidden": 15}, {"step": -2})
