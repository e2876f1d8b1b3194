"""undefined-name-in-graph: what counts as defined, where the module may define anything, and
which names the compiler never reads."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import pytest

from mslint.compiler_messages import message_table
from mslint.engine import check_files
from mslint.settings import Settings

Write = Callable[[str, str], Path]


def found(write: Write, source: str) -> list[tuple[int, str, str]]:
    path = write("net.py", source)
    report = check_files([path], Settings(select=("undefined-name-in-graph",)))
    return [(d.line, d.message.split("`")[1], str(d.severity)) for d in report.diagnostics]


def test_a_name_in_a_function_graph_code_calls_is_a_warning(write: Write) -> None:
    source = """
        from mindspore import nn

        def helper(x):
            return x * missing

        class Net(nn.Cell):
            def construct(self, x):
                return helper(x) + other
    """
    assert found(write, source) == [(4, "missing", "warning"), (8, "other", "error")]


_GRAPH_PROJECT = """
    import mindspore as ms
    from mindspore import nn
    {mode}

    def helper(x):
        return x * missing

    def guarded(x):
        return x * also_missing

    class Gate(nn.Cell):
        def construct(self, inputs):
            return inputs * gate_scale

    class Net(nn.Cell):
        def __init__(self, flag):
            super().__init__()
            self.gate = Gate()
            self.flag = flag

        def construct(self, x):
            y = helper(x) + self.gate(x)
            if self.flag:
                y = guarded(y)
            return y
"""


def test_a_function_the_graph_surely_reads_in_a_graph_mode_program_is_an_error(write: Write) -> None:
    source = _GRAPH_PROJECT.format(mode="ms.set_context(mode=ms.GRAPH_MODE)")
    # `guarded` is read only where `flag` is true, and no instance shows its value: a warning.
    assert found(write, source) == [
        (6, "missing", "error"),
        (9, "also_missing", "warning"),
        (13, "gate_scale", "error"),
    ]


@pytest.mark.parametrize("mode", ["", "ms.set_context(mode=ms.PYNATIVE_MODE if FAST else ms.GRAPH_MODE)"])
def test_without_graph_mode_selected_a_called_function_stays_a_warning(write: Write, mode: str) -> None:
    source = _GRAPH_PROJECT.format(mode=mode)
    assert found(write, source) == [
        (6, "missing", "warning"),
        (9, "also_missing", "warning"),
        (13, "gate_scale", "warning"),
    ]


def test_a_module_that_sets_graph_mode_for_the_script_importing_it(write: Write) -> None:
    files = [
        write("config.py", "import mindspore as ms\n\ndef setup():\n    ms.set_context(mode=0)\n"),
        write("train.py", "import config\nfrom net import Net\n\nconfig.setup()\nNet(False)\n"),
        write("net.py", _GRAPH_PROJECT.format(mode="")),
    ]
    # train.py builds Net(False): the call of `guarded` is never read, nor is `guarded`.
    report = check_files(files, Settings(select=("undefined-name-in-graph",)))
    assert [(d.line, d.message.split("`")[1], str(d.severity)) for d in report.diagnostics] == [
        (6, "missing", "error"),
        (13, "gate_scale", "error"),
    ]


def test_a_call_after_a_test_on_python_values_that_returns_is_not_surely_read(write: Write) -> None:
    source = """
        import mindspore as ms
        from mindspore import nn
        ms.set_context(mode=ms.GRAPH_MODE)

        def helper(x):
            return x * missing

        class Net(nn.Cell):
            def construct(self, x, skip=True):
                if skip:
                    return x
                return helper(x)
    """
    assert found(write, source) == [(6, "missing", "warning")]


@pytest.mark.parametrize(
    "definition",
    ["from mindspore.ops import *", "globals()['scale'] = 2", "exec('scale = 2')", "import builtins"],
)
def test_a_module_that_may_define_unseen_names_is_not_flagged(write: Write, definition: str) -> None:
    source = f"""
        from mindspore import nn
        {definition}

        class Net(nn.Cell):
            def construct(self, x):
                return x * scale
    """
    assert found(write, source) == []


def test_every_way_a_module_binds_a_name(write: Write) -> None:
    source = """
        from mindspore import nn
        import mindspore.ops as ops
        try:
            from math import tau
        except ImportError as error:
            CAUGHT = error
        with open(__file__) as handle:
            pass
        while False:
            LOOPED = 1
        match 1:
            case [*rest]:
                pass

        def declares():
            global DECLARED
            DECLARED = 1

        class Net(nn.Cell):
            def construct(self, x, *extra, **options):
                y = (z := x)
                bound = (tau, extra, options, CAUGHT, handle, LOOPED, rest, DECLARED, y, z, Net)
                return ops.relu(x), bound
    """
    assert found(write, source) == []


def test_a_method_sees_its_enclosing_function_not_its_class_body(write: Write) -> None:
    source = """
        from mindspore import nn

        def make(scale):
            class Net(nn.Cell):
                offset = 1

                def construct(self, x):
                    return x * scale + offset

            return Net()
    """
    assert found(write, source) == [(8, "offset", "error")]


def test_a_branch_on_an_attribute_of_self_is_not_read(write: Write) -> None:
    source = """
        from mindspore import nn

        class Net(nn.Cell):
            def construct(self, x, flag=False):
                if self.debug and x.shape[0] > 1:
                    return x * debug_scale
                if flag:
                    return x * flag_scale
                return x
    """
    # `flag` is read (its default is a constant no call is shown to change: a warning that says so)
    assert found(write, source) == [(8, "flag_scale", "warning")]


def test_decorators_defaults_and_annotations_are_not_read(write: Write) -> None:
    source = """
        from mindspore import nn, jit

        @jit
        def step(x: Missing, scale=0.5) -> AlsoMissing:
            return x * scale
    """
    assert found(write, source) == []


def test_the_compilers_message_is_mapped_to_the_rule() -> None:
    rules, measured = message_table("2.10.0").rules_for(
        "error", "NameError: The name 'total' is not defined, or not supported in graph mode."
    )
    assert measured and "undefined-name-in-graph" in rules


def test_a_function_a_jit_entry_surely_calls_is_an_error_in_any_mode(write: Write) -> None:
    source = """
        import mindspore as ms

        def helper(x):
            return x * missing

        @ms.jit
        def step(x):
            return helper(x)
    """
    assert found(write, source) == [(4, "missing", "error")]


@pytest.mark.parametrize("mode, severity", [("PYNATIVE_MODE", "warning"), ("GRAPH_MODE", "error")])
def test_a_name_in_construct_of_a_program_that_selects_pynative_is_a_warning(
    write: Write, mode: str, severity: str
) -> None:
    # PyNative raises NameError only when the line runs; the mode is selected in a function the
    # entry script calls (ACL-DGReID's DefaultTrainer.__init__), and another script imports the
    # Cell too, so it is not PyNative-only (no finding at all).
    files = [
        write(
            "net.py",
            "from mindspore import nn\n\n\nclass Net(nn.Cell):\n"
            "    def construct(self, x):\n        return x * scale\n",
        ),
        write("engine.py", f"import mindspore as ms\n\n\ndef setup():\n    ms.set_context(mode=ms.{mode})\n"),
        write("train.py", "import engine\nfrom net import Net\n\nengine.setup()\nNet()\n"),
        write("export.py", "from net import Net\n\nNet()\n"),
    ]
    report = check_files(files, Settings(select=("undefined-name-in-graph",)))
    assert [(Path(d.path).name, d.line, str(d.severity)) for d in report.diagnostics] == [("net.py", 6, severity)]
