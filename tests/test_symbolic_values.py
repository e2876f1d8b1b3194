"""Origins (mslint.model.symbolic): what a value is known to be relative to a graph value, at one program point."""

from __future__ import annotations

import ast

import pytest

from mslint.model.abstract import AbstractScalar, AbstractTensor, Kind, literal
from mslint.model.scope import GraphFunction, graph_functions
from mslint.model.symbolic import LITERAL, Origin, is_graph, is_none, is_number, source
from tests.test_semantic_model import project_of

NET = """
import mindspore as ms
import numpy as np
from mindspore import mint, nn, ops


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor(np.ones(3), ms.float32))

    def construct(self, x, n):
        return {expression}


net = Net()
net(ms.Tensor(np.ones((2, 3)), ms.float32), 2)
"""

ROW = Origin("x", rank=-1, dtype="")


def construct_of(write, expression: str) -> tuple[GraphFunction, ast.expr]:
    project = project_of(write, NET.format(expression=expression))
    function = next(f for f in graph_functions(project) if f.ref.display_name == "Net.construct")
    returned = next(n for n in ast.walk(function.node) if isinstance(n, ast.Return))
    assert returned.value is not None
    return function, returned.value


def at_entry(function: GraphFunction, known: dict[str, tuple[AbstractScalar | AbstractTensor, Origin | None]]):
    """An evaluator where ``known`` names have the given values and origins, and every other graph value is a source."""
    return function.evaluator_at(
        values={name: value for name, (value, _) in known.items()},
        origins={name: origin for name, (_, origin) in known.items()},
        is_source=lambda expr: function.kind(expr) is Kind.GRAPH,
    )


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("x", source("x")),
        ("self.w", source("self.w")),
        ("-x", source("x")),
        ("x[0]", ROW),
        ("x[0, 1]", Origin("x", rank=-2, dtype="")),
        ("x[0:1]", Origin("x", rank=0, extent="smaller", dtype="")),
        ("x[:, 1:3]", Origin("x", rank=0, extent="smaller", dtype="")),
        ("x[slice(0, 1)]", Origin("x", rank=0, extent="smaller", dtype="")),
        ("x[:n]", Origin("x", rank=0, extent="smaller", dtype="")),
        ("x[:]", source("x")),
        ("x[...]", source("x")),
        ("x[0:x.shape[0]]", None),
        ("x[n]", None),
        ("x.sum(axis=1)", Origin("x", rank=-1)),
        ("ops.sum(x, 1)", Origin("x", rank=-1)),
        ("x.sum(axis=1, keepdims=True)", Origin("x", rank=0)),
        ("x.sum()", Origin(rank=0)),
        ("x.any()", Origin(rank=0, dtype="bool")),
        ("ops.unsqueeze(x, 0)", Origin("x", rank=1, dtype="")),
        ("x.expand_dims(0)", Origin("x", rank=1, dtype="")),
        ("ops.concat((x, x))", Origin("x", rank=0, extent="larger", dtype="")),
        ("ops.concat((x[0:1], x))", Origin("x", rank=0, dtype="")),
        ("ops.stack((x, x))", Origin("x", rank=1, dtype="")),
        ("x.astype(ms.int32)", Origin("x", rank=0, extent="same", dtype="int32")),
        ("ops.cast(x[0], ms.float16)", Origin("x", rank=-1, dtype="float16")),
        ("x.astype(ms.bool)", Origin("x", rank=0, extent="same", dtype="bool")),
        ("x.astype(ms.int4)", None),
        ("ops.zeros_like(x)", source("x")),
        ("ops.zeros((2, 3))", Origin(rank=2, dims=(2, 3), dtype="float32")),
        ("mint.ones(2, 3, dtype=ms.int32)", Origin(rank=2, dims=(2, 3), dtype="int32")),
        ("ops.full((4,), 1.0)", Origin(rank=1, dims=(4,))),
        ("x * 2", Origin("x", rank=0, extent="same")),
        ("2.5 * x[0]", Origin("x", rank=-1)),
        ("x * n", None),
        ("list(x)", Origin(item=ROW)),
        ("tuple(x)[0]", ROW),
        ("[r * 2 for r in x]", Origin(item=Origin("x", rank=-1))),
        ("{i: r for i, r in enumerate(x)}", Origin(item=ROW)),
        ("[r for r in x for s in x]", None),
        ("ops.relu(x)", None),
        ("x.reshape(2, 3)", None),
        ("3", LITERAL),
        ("None", LITERAL),
        ("'text'", None),
    ],
)
def test_each_expression_has_the_origin_its_operations_give(write, expression, expected) -> None:
    function, expr = construct_of(write, expression)
    assert at_entry(function, {}).origin(expr) == expected


@pytest.mark.parametrize("expression", ["x", "x[0]", "x[0:1]", "x.astype(ms.int32)", "ops.zeros((2, 3))", "x * 2"])
def test_a_program_point_adds_origins_and_leaves_values_as_the_function_infers_them(write, expression) -> None:
    function, expr = construct_of(write, expression)
    assert at_entry(function, {}).value(expr) == function.value(expr)


@pytest.mark.parametrize(
    ("expression", "dtype"),
    [("x.astype(ms.bool_)", "bool"), ("x.astype(ms.bool)", "bool"), ("ops.cast(x, ms.uint8)", "uint8")],
)
def test_the_model_and_the_origins_read_one_table_of_dtypes(write, expression, dtype) -> None:
    function, expr = construct_of(write, expression)
    value = function.value(expr)
    assert isinstance(value, AbstractTensor) and value.dtype == dtype
    origin = at_entry(function, {}).origin(expr)
    assert origin is not None and origin.dtype == dtype


def test_a_literal_is_a_number_or_none_and_a_graph_value_is_neither(write) -> None:
    function, expr = construct_of(write, "(3, None, x, [r for r in x])")
    assert isinstance(expr, ast.Tuple)
    evaluator = at_entry(function, {})
    number, none, tensor, rows = ((evaluator.value(e), evaluator.origin(e)) for e in expr.elts)
    assert is_number(*number) and not is_none(*number) and not is_graph(*number)
    assert is_none(*none) and not is_number(*none) and not is_graph(*none)
    assert is_graph(*tensor) and not is_number(*tensor) and not is_none(*tensor)
    assert not is_graph(*rows), "a list of rows is a container"


def test_names_the_point_binds_have_its_origins_and_values(write) -> None:
    function, expr = construct_of(write, "(y[0], z[0], k + 1, x[0:k])")
    assert isinstance(expr, ast.Tuple)
    tensor = AbstractTensor(Kind.GRAPH)
    evaluator = at_entry(function, {"y": (tensor, ROW), "z": (tensor, None), "k": (literal(1), LITERAL)})
    y, z, k, sliced = expr.elts
    assert evaluator.origin(y) == Origin("x", rank=-2, dtype=""), "a row of a row"
    assert evaluator.origin(z) is None, "a name the point binds without an origin is not followed"
    assert evaluator.origin(k) == LITERAL and evaluator.value(k) == literal(2), "numbers computed from literals"
    assert is_number(evaluator.value(k), evaluator.origin(k))
    assert evaluator.origin(sliced) == Origin("x", rank=0, extent="smaller", dtype=""), "k is 1 here"


def test_a_graph_value_that_is_not_a_source_is_not_followed(write) -> None:
    function, expr = construct_of(write, "x[0]")
    evaluator = function.evaluator_at({}, {}, is_source=lambda expr: False)
    assert evaluator.origin(expr) is None
    assert evaluator.value(expr) == function.value(expr)
