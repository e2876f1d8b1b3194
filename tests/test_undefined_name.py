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
    assert found(write, source) == [(8, "flag_scale", "error")]


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
