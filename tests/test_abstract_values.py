"""The abstract values of graph code: what mslint infers each expression is, and from where."""

from __future__ import annotations

import ast

import pytest

from mslint.model.abstract import (
    NOT_KNOWN,
    AbstractAny,
    AbstractDict,
    AbstractInstance,
    AbstractScalar,
    AbstractSequence,
    AbstractTensor,
    AbstractValue,
    Construction,
    Kind,
    is_0d_tensor,
    is_runtime_number,
    join,
    literal,
    sequence,
    widened,
)
from mslint.model.scope import GraphFunction, graph_functions
from tests.test_semantic_model import project_of

NET = """
import mindspore as ms
import numpy as np
from mindspore import nn, ops


def make_conv():
    return nn.Conv2d(3, 3, 3)


class Block(nn.Cell):
    def construct(self, x, n):
        return x * n, (x.shape[0], n + 1)


class Net(nn.Cell):{spec}
    def __init__(self):
        super().__init__()
        self.block = Block()
        self.k = 4
        self.w = ms.Parameter(ms.Tensor(np.ones(3), ms.float32))
        self.t = ms.Tensor(np.ones(3))
        self.dense = nn.Dense(3, 3)
        self.conv = make_conv()
        self.relu = ops.ReLU()

    def construct(self, x, n=2):
        half = x.astype(ms.float16)
        whole = ops.cast(x, ms.int32)
        shape = x.shape
        rows = shape[0]
        total = rows * self.k + 1
        y, (first, second) = self.block(x, 3)
        dense = self.dense(x)
        conv = self.conv(x)
        relu = self.relu(x)
        number = int(x.sum())
        parts = ops.split(x, 1)
        pair = (x, 1)
        count = len(pair)
        weight = self.w
        table = self.t
        return half, whole, shape, rows, total, y, first, second, dense, conv, relu, number, parts, count, weight, table
{calls}
"""


def construct_of(write, spec: str = "", calls: str = "") -> GraphFunction:
    functions = {f.ref.display_name: f for f in graph_functions(project_of(write, NET.format(spec=spec, calls=calls)))}
    return functions["Net.construct"]


def test_each_name_has_the_value_the_compiler_infers(write) -> None:
    values = construct_of(write, calls="net = Net()\nnet(ms.Tensor(np.ones((2, 3))))").name_values
    assert values["x"] == AbstractTensor(Kind.GRAPH, "float64", (2, 3)), "numpy's ones are float64"
    assert values["n"] == AbstractScalar(Kind.CONSTANT, "int", 2), "a literal default"
    assert values["half"] == AbstractTensor(Kind.GRAPH, "float16", (2, 3))
    assert values["whole"] == AbstractTensor(Kind.GRAPH, "int32", (2, 3))
    assert values["rows"] == literal(2), "an item of a shape"
    assert values["total"] == literal(9)
    assert values["y"] == AbstractTensor(Kind.GRAPH, "float64", (2, 3)), "what the sub-Cell returns"
    assert values["first"] == literal(2), "the sub-Cell is evaluated for its input's shape"
    assert values["second"] == AbstractScalar(Kind.CONSTANT, "int"), "but not for each constant it is given"
    assert values["dense"] == AbstractTensor(Kind.GRAPH, "float64", (2, 3)), "nn.Dense(3, 3)"
    assert values["relu"] == AbstractTensor(Kind.GRAPH, "float64", (2, 3)), "ops.ReLU()"
    assert values["conv"] == AbstractTensor(Kind.GRAPH, "float64"), "a Conv2d of a helper, on a 2-D input"
    assert values["number"] == AbstractScalar(Kind.GRAPH, "int"), "a Python int computed at run time"
    assert values["parts"] == AbstractAny(Kind.GRAPH), "split gives a tuple of tensors, not one"
    assert values["count"] == AbstractScalar(Kind.CONSTANT, "int", 2)
    assert values["weight"] == AbstractTensor(Kind.GRAPH, "float32", (3,), parameter=True), "its data's shape"
    assert values["table"] == AbstractTensor(Kind.CONSTANT), "a tensor set in __init__ is folded"


def test_self_attributes_are_instances_of_what_init_makes(write) -> None:
    function = construct_of(write)
    attribute = {
        node.attr: function.value(node)
        for node in ast.walk(function.node)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self"
    }
    assert attribute["block"] == AbstractInstance(Kind.CONSTANT, "mod.Block", cell=True)
    built = Construction((literal(3), literal(3)))
    assert attribute["dense"] == AbstractInstance(Kind.CONSTANT, "mindspore.nn.Dense", cell=True, construction=built)
    assert attribute["conv"] == AbstractInstance(Kind.CONSTANT, "mindspore.nn.Conv2d", cell=True), "made by a helper"
    assert attribute["relu"] == AbstractInstance(Kind.CONSTANT, "mindspore.ops.ReLU", construction=Construction())
    assert attribute["k"] == AbstractScalar(Kind.CONSTANT, "int", 4)


@pytest.mark.parametrize(
    ("spec", "calls", "expected"),
    [
        # no call shown: a Python int, of a value its callers choose (not that of the default)
        ("", "", AbstractScalar(Kind.CONSTANT, "int")),
        ("", "net = Net()\nnet(ms.Tensor(np.ones(2)))", AbstractScalar(Kind.CONSTANT, "int", 2)),
        ("", "net = Net()\nnet(ms.Tensor(np.ones(2)), 5)", AbstractScalar(Kind.CONSTANT, "int")),
        ("", "net = Net()\nnet(ms.Tensor(np.ones(2)), ms.Tensor(5))", AbstractTensor(Kind.GRAPH, None, ())),
        ("  # mslint: inputs=float32[2,3], 7", "", literal(7)),
    ],
    ids=["default-no-call", "default-at-a-call", "python-number-at-a-call", "tensor-at-a-call", "input-spec-constant"],
)
def test_a_parameter_is_its_default_joined_with_what_callers_give_or_what_its_spec_says(
    write, spec, calls, expected
) -> None:
    assert construct_of(write, spec, calls).parameter_values["n"] == expected


def test_an_input_spec_gives_the_dtype_and_shape_and_the_shape_is_a_tuple_of_known_ints(write) -> None:
    function = construct_of(write, spec="  # mslint: inputs=float32[2,3]")
    assert function.parameter_values["x"] == AbstractTensor(Kind.GRAPH, "float32", (2, 3))
    values = function.name_values
    assert values["shape"] == sequence("tuple", (literal(2), literal(3)))
    assert values["rows"] == literal(2)
    assert values["total"] == literal(9), "2 * self.k + 1, folded"
    assert values["half"] == AbstractTensor(Kind.GRAPH, "float16", (2, 3)), "a cast keeps the shape"


def test_a_spread_at_a_call_says_nothing_but_the_body_shows_a_tensor(write) -> None:
    function = construct_of(write, calls="net = Net()\ndata = load()\nnet(*data)")
    assert function.parameter_values["n"] == literal(2), "the default stands"
    assert function.parameter_values["x"] == AbstractTensor(Kind.GRAPH), "construct reads `x.astype`"
    (block,) = [f for f in graph_functions(function.project) if f.ref.display_name == "Block.construct"]
    assert block.parameter_values["n"] == literal(3), "what Net passes the sub-Cell"


@pytest.mark.parametrize(
    ("first", "second", "expected"),
    [
        (literal(3), literal(3), literal(3)),
        (literal(3), literal(4), AbstractScalar(Kind.CONSTANT, "int")),
        (literal(3), literal(3.0), AbstractAny(Kind.CONSTANT)),
        (
            AbstractTensor(Kind.GRAPH, "float32", (2, 3)),
            AbstractTensor(Kind.GRAPH, "float16", (2, 4)),
            AbstractTensor(Kind.GRAPH, None, (2, None)),
        ),
        (
            AbstractTensor(Kind.GRAPH, "float32", (2,)),
            AbstractTensor(Kind.GRAPH, "float32", (2, 3)),
            AbstractTensor(Kind.GRAPH, "float32"),
        ),
        (AbstractTensor(Kind.GRAPH), literal(1), AbstractAny(Kind.GRAPH)),
        (AbstractAny(Kind.UNKNOWN), literal(1), AbstractAny(Kind.UNKNOWN)),
        (literal((1, 2)), literal((1, 3)), sequence("tuple", (literal(1), AbstractScalar(Kind.CONSTANT, "int")))),
        (
            AbstractTensor(Kind.GRAPH, "float32", (2, None), dynamic=True),
            AbstractTensor(Kind.GRAPH, "float32", (2, 3)),
            AbstractTensor(Kind.GRAPH, "float32", (2, None), dynamic=True),  # one of the graphs compiled
        ),
    ],
    ids=[
        "same",
        "two-ints",
        "int-and-float",
        "dtypes-and-dims",
        "ranks",
        "tensor-and-number",
        "unknown",
        "tuples",
        "dynamic-and-static",
    ],
)
def test_join_keeps_what_both_values_share(
    first: AbstractValue, second: AbstractValue, expected: AbstractValue
) -> None:
    assert join(first, second) == expected
    assert join(second, first) == expected


def test_a_tuple_of_two_lengths_joins_into_one_of_unknown_length() -> None:
    joined = join(literal((1, 2)), literal((1, 2, 3)))
    assert isinstance(joined, AbstractSequence) and joined.items is None
    assert joined.element() == AbstractScalar(Kind.CONSTANT, "int")


def test_widened_drops_constant_values_but_not_types_or_shapes() -> None:
    assert widened(literal(3)) == AbstractScalar(Kind.CONSTANT, "int", NOT_KNOWN)
    assert widened(literal(None)) == literal(None)
    assert widened(AbstractTensor(Kind.GRAPH, "float32", (2, 3))) == AbstractTensor(Kind.GRAPH, "float32", (2, 3))


ZERO_D = """
import mindspore as ms
from mindspore import nn, ops


class Net(nn.Cell):
    def construct(self, x, *rest, **options):
        total = x.sum()
        cast = x.mean().astype(ms.int32)
        bound = min(total, 3)
        count = 8
        count = min(count, total)
        number = int(total) * 2 + 1
        numbers = (number, 4)
        rows = x.sum(0)
        return total, cast, bound, count, number, numbers, rows, rest, options
"""


def test_reductions_over_every_axis_are_0d_and_numbers_made_from_them_are_runtime_numbers(write) -> None:
    (function,) = graph_functions(project_of(write, ZERO_D))
    values = function.name_values
    for zero_d in ("total", "cast", "bound", "count"):
        assert is_0d_tensor(values[zero_d]), zero_d
    assert not is_0d_tensor(values["rows"]), "a reduction over one axis"
    assert is_runtime_number(values["number"]) and is_runtime_number(values["numbers"])
    assert not is_runtime_number(values["total"])
    assert isinstance(values["rest"], AbstractSequence) and isinstance(values["options"], AbstractDict)


def test_reshape_and_transpose_give_the_rank_of_their_axes(write) -> None:
    """``self.reshape(x, (1, h, -1))`` through a primitive made in ``__init__``, ``ops.reshape``,
    ``x.view(-1)``, ``ops.Transpose`` and ``x.permute``: the sizes the target names, the input's
    sizes in the permuted order where the input's shape is known, and -1 or a size computed at run
    time as not known."""
    project = project_of(
        write,
        """
        from mindspore import nn, ops


        class Net(nn.Cell):  # mslint: inputs=float32[2,3,4]
            def __init__(self):
                super().__init__()
                self.reshape = ops.Reshape()
                self.transpose = ops.Transpose()

            def construct(self, x, y):
                h = x.shape[1]
                flat = self.reshape(x, (1, h, -1))
                same = ops.reshape(y, (2, 12))
                line = x.view(-1)
                moved = self.transpose(x, (2, 0, 1))
                unknown = y.permute(1, 0)
                return flat, same, line, moved, unknown
        """,
    )
    (function,) = [f for f in graph_functions(project) if f.ref.display_name == "Net.construct"]
    shapes = {name: value.shape for name, value in function.name_values.items() if isinstance(value, AbstractTensor)}
    assert shapes["flat"] == (1, 3, 8), "-1 takes the elements the known sizes leave"
    assert shapes["same"] == (2, 12)
    assert shapes["line"] == (24,)
    assert shapes["moved"] == (4, 2, 3)
    assert shapes["unknown"] == (None, None), "y's shape is not known: only the rank"
    assert function.name_values["flat"] == AbstractTensor(Kind.GRAPH, "float32", (1, 3, 8)), "the dtype is kept"


def test_a_list_or_tuple_times_a_known_int_holds_its_items_repeated(write) -> None:
    """``[False] * depth``: what a constructor builds per layer, indexed per layer in ``construct``."""
    (function,) = graph_functions(
        project_of(
            write,
            """
            from mindspore import nn


            class Net(nn.Cell):  # mslint: inputs=float32[2,3]
                def construct(self, x, depth=3):
                    flags = [False] * depth
                    pairs = 2 * (1, x)
                    none = [True] * 0
                    unknown = [False] * x.shape[0] * 10000
                    return flags, pairs, none, unknown
            """,
        )
    )
    values = function.name_values
    assert values["flags"] == literal([False, False, False])
    pair = values["pairs"]
    assert isinstance(pair, AbstractSequence) and pair.type == "tuple" and pair.items is not None
    assert [item == literal(1) for item in pair.items] == [True, False, True, False]
    assert values["none"] == literal([])
    assert values["unknown"] == AbstractAny(Kind.CONSTANT), "20,000 items: not spelled out"


MODULE_OBJECTS = """
import mindspore as ms
from mindspore import ops
from mindspore.ops import operations as P

x = ms.Tensor([1.0], ms.float32)
grad = ops.GradOperation(get_by_list=False, sens_param=True)
rebound = ops.ReLU()
rebound = ops.Sigmoid()


@ms.jit
def backward():
    filled = ops.Fill()(ops.DType()(x), ops.Shape()(x), 1.0)
    half = P.Cast()(x, ms.float16)
    return x, grad, rebound, filled, half
"""


def test_a_jit_function_reads_the_objects_the_module_builds_and_calls_primitives_built_inline(write) -> None:
    (function,) = graph_functions(project_of(write, MODULE_OBJECTS))
    x, grad, rebound, filled, half = function.returned_value.items
    assert x == AbstractTensor(Kind.CONSTANT, "float32"), "a tensor of the module is a constant of the graph"
    built = Construction((), (("get_by_list", literal(False)), ("sens_param", literal(True))))
    assert grad == AbstractInstance(Kind.CONSTANT, "mindspore.ops.GradOperation", construction=built)
    assert rebound == AbstractAny(Kind.CONSTANT), "a name the module binds twice holds either"
    assert filled == AbstractTensor(Kind.CONSTANT), "what a primitive built where it is called gives"
    assert half == AbstractTensor(Kind.CONSTANT, "float16"), "its transfer function: a cast"


DICT_CALLS = """
from mindspore import nn


class Net(nn.Cell):
    def construct(self, x):
        named = dict(features=x, scores=x * 2)
        empty = dict()
        empty["x"] = x
        return named, empty
"""


def test_a_call_of_dict_is_a_dict_as_a_display_is(write) -> None:
    (function,) = graph_functions(project_of(write, DICT_CALLS))
    values = function.name_values
    assert isinstance(values["named"], AbstractDict) and isinstance(values["empty"], AbstractDict)
