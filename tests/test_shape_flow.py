"""Shapes and dtypes flow from what the program builds and calls: the inputs a call site makes,
the arguments layers and primitives on ``self`` were built with, Parameters' data, indexing and
sub-Cells (:mod:`mslint.model.transfer`, :mod:`mslint.model.layer_transfer`,
:mod:`mslint.model.created_tensors`)."""

from __future__ import annotations

import pytest

from mslint.model.abstract import AbstractTensor, AbstractValue, Kind
from mslint.model.module import ModuleInfo
from mslint.model.project import Project
from mslint.model.scope import graph_functions
from tests.test_semantic_model import project_of

MODULE = """
import mindspore as ms
import numpy as np
from mindspore import Parameter, Tensor, mint, nn, ops
from mindspore.common.initializer import initializer


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 16, 3, stride=2)
        self.valid = nn.Conv2d(3, 4, 3, pad_mode="valid")
        self.pool = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()
        self.embed = nn.Embedding(100, 32)
        self.sum = ops.ReduceSum(keep_dims=True)
        self.matmul = ops.MatMul(transpose_b=True)
        self.cast = ops.Cast()
        self.w = Parameter(initializer("normal", (8, 5)), name="w")
        self.b = Parameter(Tensor(np.zeros((5,), np.int32)), name="b")

    def construct(self, x, ids):
        out = {expression}
        return out


net = Net()
net(Tensor(np.random.randn(2, 3, 8, 8).astype(np.float32)), ops.randint(0, 100, (2, 7)))
"""


def value_of(write, expression: str) -> AbstractValue:
    project = project_of(write, MODULE.replace("{expression}", expression))
    (construct,) = [f for f in graph_functions(project) if f.ref.display_name == "Net.construct"]
    return construct.name_values["out"]


@pytest.mark.parametrize(
    ("expression", "dtype", "shape"),
    [
        ("x", "float32", (2, 3, 8, 8)),
        ("ids", "int64", (2, 7)),
        ("self.conv(x)", "float32", (2, 16, 4, 4)),
        ("self.valid(x)", "float32", (2, 4, 6, 6)),
        ("self.pool(x)", "float32", (2, 3, 4, 4)),
        ("self.flatten(x)", "float32", (2, 192)),
        ("self.embed(ids)", "float32", (2, 7, 32)),
        ("self.sum(x, 1)", "float32", (2, 1, 8, 8)),
        ("self.matmul(x[0, 0], x[1, 1])", "float32", (8, 8)),
        ("self.cast(x, ms.float16)", "float16", (2, 3, 8, 8)),
        ("self.w", "float32", (8, 5)),
        ("ops.matmul(x, self.w)", "float32", (2, 3, 8, 5)),
        ("self.b + 1", "int32", (5,)),
        ("x[:, 0]", "float32", (2, 8, 8)),
        ("x[..., 1:3, None]", "float32", (2, 3, 8, 2, 1)),
        ("x.reshape(2, -1)", "float32", (2, 192)),
        ("x.transpose(0, 2, 3, 1)", "float32", (2, 8, 8, 3)),
        ("x[0, 0].transpose(0, 1)", "float32", (8, 8)),
        ("mint.transpose(x, 1, 3)", "float32", (2, 8, 8, 3)),
        ("ops.concat((x, x), axis=1)", "float32", (2, 6, 8, 8)),
        ("ops.stack((x, x))", "float32", (2, 2, 3, 8, 8)),
        ("x.mean(axis=(2, 3))", "float32", (2, 3)),
        ("x.sum(-1, keepdims=True) > 0", "bool", (2, 3, 8, 1)),
        ("ops.expand_dims(x, 0).squeeze(0)", "float32", (2, 3, 8, 8)),
    ],
)
def test_a_value_has_the_shape_and_dtype_the_compiler_infers(write, expression: str, dtype: str, shape) -> None:
    value = value_of(write, expression)
    assert isinstance(value, AbstractTensor) and (value.kind, value.dtype, value.shape) == (Kind.GRAPH, dtype, shape)


@pytest.mark.parametrize(
    "expression",
    [
        "ops.unique(x)[0]",
        "x[ids]",
        "self.conv(ids.astype(ms.float32))",
        "x.reshape(ids.shape[0], -1, 5)",
        "x.transpose(0, 1, 2, 7)",
        "x.transpose(0, 1, 2, -5)",
    ],
    ids=["data-dependent", "gathered", "wrong-rank", "not-divisible", "axis-past-rank", "axis-before-rank"],
)
def test_an_operation_mslint_cannot_follow_gives_no_shape(write, expression: str) -> None:
    value = value_of(write, expression)
    assert not isinstance(value, AbstractTensor) or value.shape is None or None in value.shape, value


def test_a_reshape_to_sizes_computed_at_compile_time_has_their_rank(write) -> None:
    """``x.reshape(n * c, h * w)`` on an input of unknown shape: two dimensions, of sizes not known
    (so that ``.transpose(1, 0)`` after it is the 2-D swap, not a rank error)."""
    project = project_of(
        write,
        """
from mindspore import nn


class Net(nn.Cell):
    def construct(self, x):
        n, c, h, w = x.shape
        out = x.reshape(n * c, h * w)
        return out.transpose(1, 0)
""",
    )
    (construct,) = graph_functions(project)
    assert construct.name_values["out"] == AbstractTensor(Kind.GRAPH, None, (None, None))


def test_a_cell_or_function_a_test_defines_gets_the_inputs_the_test_calls_it_on(write) -> None:
    """A test defines its Cell or ``@jit`` function in its own body and calls it right after:
    that call gives the inputs."""
    project = project_of(
        write,
        """
import mindspore as ms
import numpy as np
from mindspore import Tensor, jit, nn


def test_cell():
    class Net(nn.Cell):
        def construct(self, x):
            return x

    x = Tensor(np.ones([2, 2]), ms.int32)
    net = Net()
    net(x)


def test_function():
    @jit
    def func(x):
        return x

    func(Tensor(np.arange(6).reshape(2, 3)))
""",
    )
    inputs = {f.ref.display_name: f.parameter_values["x"] for f in graph_functions(project)}
    assert inputs == {
        "Net.construct": AbstractTensor(Kind.GRAPH, "int32", (2, 2)),
        "func": AbstractTensor(Kind.GRAPH, "int64", (2, 3)),
    }


KEPT_NETWORK = """
import mindspore as ms
import numpy as np
from mindspore import Tensor, nn


class Net(nn.Cell):
    def construct(self, x):
        return x


class Other(nn.Cell):
    def construct(self, x):
        return x


class TrainStep(nn.Cell):
    def __init__(self, network):
        super().__init__()
        self.network = network

    def construct(self, x):
        return self.network(x)


def train():
    step = TrainStep(Net())
    step(Tensor(np.ones((2, 3)), ms.float32))
    {other}
"""


@pytest.mark.parametrize(
    ("other", "reached"),
    [
        ("", {"Net.construct"}),
        ("TrainStep(Other())", {"Net.construct", "Other.construct"}),
        ("TrainStep(nn.Dense(3, 3))", set()),
    ],
    ids=["one-class", "two-classes", "a-library-cell-too"],
)
def test_a_cell_kept_from_a_constructor_argument_gets_the_inputs_its_keeper_passes(
    write, other: str, reached: set[str]
) -> None:
    """``self.network = network`` in ``TrainStep.__init__``: ``self.network(x)`` calls the Cells the
    program builds ``TrainStep`` with (MindSpore 2.10 compiles ``Net`` with ``x``'s shape:
    rules/ambiguous-tensor-conversion/bad_call_sites.py); where one call passes a Cell of the
    library, what the attribute holds is not all known, and no project Cell is reached from it."""
    project = project_of(write, KEPT_NETWORK.replace("{other}", other))
    inputs = {
        f.ref.display_name: f.parameter_values["x"]
        for f in graph_functions(project)
        if f.entry.display_name == "TrainStep.construct" and f.ref.display_name != "TrainStep.construct"
    }
    assert inputs == dict.fromkeys(reached, AbstractTensor(Kind.GRAPH, "float32", (2, 3)))


def test_a_jit_helper_that_graph_code_calls_gets_its_callers_inputs(write) -> None:
    """A ``@jit`` helper that a helper of a ``@jit`` entry calls is compiled into the entry's graph,
    with what the entry passes (MindSpore 2.10 rejects ``max(x, 1)`` there on the (2, 3) input, STRICT
    and LAX): the helper's call of it is graph code's, not a call from Python, and the helper,
    started after the entries Python calls, keeps that shape rather than a guess of its own."""
    write("__init__.py", "")
    helpers = write(
        "helpers.py",
        """
import mindspore as ms


@ms.jit
def scaled(x):
    if x.sum() > 0:
        return max(x, 1)
    return x


def helper(x):
    return scaled(x)
""",
    )
    net = write(
        "net.py",
        """
import mindspore as ms
import numpy as np
from mindspore import Tensor
from .helpers import helper


@ms.jit
def entry(x):
    y = x * 2
    return helper(y)


entry(Tensor(np.ones((2, 3)), ms.float32))
""",
    )
    project = Project()
    for path in (helpers, net):
        project.add(ModuleInfo.parse(path, path.read_text(), checked=True))
    inputs = {f.ref.display_name: f.parameter_values["x"] for f in graph_functions(project)}
    assert inputs["scaled"] == AbstractTensor(Kind.GRAPH, "float32", (2, 3))


SEQUENCE = """
from collections import OrderedDict

import numpy as np
from mindspore import Tensor, nn


class Body(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 10)

    def construct(self, x):
        return self.dense(x)


class Head(nn.Cell):
    def construct(self, y):
        return y


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        {build}

    def construct(self, x):
        out = self.seq(x)
        return out


net = Net()
net(Tensor(np.ones((2, 4), np.float32)))
"""


@pytest.mark.parametrize(
    "build",
    [
        "self.seq = nn.SequentialCell([Body(), Head()])",
        "self.seq = nn.SequentialCell(Body(), nn.ReLU(), Head())",
        'self.seq = nn.SequentialCell(OrderedDict([("body", nn.Dense(4, 10)), ("head", Head())]))',
        "layers = [nn.Dense(4, 10)]\n        layers.append(Head())\n        self.seq = nn.SequentialCell(*layers)",
    ],
    ids=["list", "one-by-one", "ordered-dict", "grown-list"],
)
def test_each_item_of_a_sequential_cell_is_given_what_the_one_before_returned(write, build: str) -> None:
    """``nn.SequentialCell`` runs its items one after the other: ``Head`` gets the (2, 10) output of
    the Dense before it, not the (2, 4) input (MindSpore 2.10 then refuses ``if y > 0`` in ``Head``:
    rules/ambiguous-tensor-conversion/bad_call_sites.py), and the call returns what ``Head`` does."""
    project = project_of(write, SEQUENCE.replace("{build}", build))
    functions = {f.ref.display_name: f for f in graph_functions(project)}
    tensor = AbstractTensor(Kind.GRAPH, "float32", (2, 10))
    assert functions["Head.construct"].parameter_values["y"] == tensor
    assert functions["Net.construct"].name_values["out"] == tensor


def test_a_list_grown_in_a_loop_gives_no_order(write) -> None:
    """``layers.append(Head())`` in a loop adds an item an unknown number of times: the items are
    not chained, and ``Head`` is not given a shape the program may not give it."""
    build = "\n        ".join(
        [
            "layers = [nn.Dense(4, 10)]",
            "for _ in range(2):",
            "    layers.append(Head())",
            "self.seq = nn.SequentialCell(*layers)",
        ]
    )
    project = project_of(write, SEQUENCE.replace("{build}", build))
    functions = {f.ref.display_name: f for f in graph_functions(project)}
    assert functions["Head.construct"].parameter_values["y"] != AbstractTensor(Kind.GRAPH, "float32", (2, 10))


LOOP = """
import numpy as np
from mindspore import Tensor, nn


class Head(nn.Cell):
    def construct(self, y):
        return y


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.stack = nn.CellList([nn.Dense(4, 10), Head()])

    def construct(self, x):
        for cell in self.stack:
            x = cell(x)
        return x


net = Net()
net(Tensor(np.ones((2, 4), np.float32)))
"""


def test_a_loop_over_a_cell_list_gives_each_item_what_the_one_before_returned(write) -> None:
    """``for cell in self.stack: x = cell(x)`` calls the items one after the other: ``Head`` gets the
    Dense's (2, 10) output, not the (2, 4) input joined with it (MindSpore 2.10 then refuses
    ``if y > 0`` in ``Head``: rules/ambiguous-tensor-conversion/bad_call_sites.py)."""
    project = project_of(write, LOOP)
    functions = {f.ref.display_name: f for f in graph_functions(project)}
    assert functions["Head.construct"].parameter_values["y"] == AbstractTensor(Kind.GRAPH, "float32", (2, 10))


CHAINED = """
import mindspore as ms
import numpy as np
from mindspore import Tensor, nn


class Scores(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(4, 10)

    def construct(self, x):
        return self.fc(x), x


class Gate(nn.Cell):
    def construct(self, y):
        return y


def main():
    scores = Scores()
    gate = Gate()
    x = Tensor(np.ones((2, 4), np.float32))
    {calls}
"""


@pytest.mark.parametrize(
    ("calls", "given"),
    [
        ("gate(scores(x)[0])", AbstractTensor(Kind.GRAPH, "float32", (2, 10))),
        ("gate(scores(x)[1])", AbstractTensor(Kind.GRAPH, "float32", (2, 4))),
        ("out = scores(x)\n    gate(out[0])", None),
        ("logits, _ = scores(x)\n    gate(logits)", AbstractTensor(Kind.GRAPH, "float32", (2, 10))),
        ("logits, _ = scores(x)\n    logits = 3\n    gate(logits)", None),
        ("grad_fn = ms.value_and_grad(scores)\n    loss, _ = grad_fn(x)\n    gate(loss)", None),
    ],
    ids=["nested", "second-item", "name-indexed", "unpacked", "rebound", "through-a-wrapper"],
)
def test_a_cell_the_program_calls_on_another_cell_s_output_gets_it(write, calls: str, given) -> None:
    """What a call of an instance returns to Python is what its ``construct`` returns for that
    call's inputs: a Cell called on it gets that tensor (MindSpore 2.10 compiles ``Gate`` with the
    (2, 10) output: rules/ambiguous-tensor-conversion/bad_call_sites.py). A name rebound since, an
    indexed name (not followed) and a wrapper's call (whose result is its own) give nothing."""
    project = project_of(write, CHAINED.replace("{calls}", calls))
    (gate,) = [f for f in graph_functions(project) if f.ref.display_name == "Gate.construct"]
    value = gate.parameter_values["y"]
    if given is None:
        assert not (isinstance(value, AbstractTensor) and value.shape is not None)
    else:
        assert value == given


REPEATED = """
import numpy as np
from mindspore import Tensor, nn


class Refine(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, {features})

    def construct(self, y):
        return self.dense(y)


class Net(nn.Cell):
    def __init__(self, depth):
        super().__init__()
        {build}

    def construct(self, x):
        out = self.seq(x)
        return out


net = Net(3)
net(Tensor(np.ones((2, 4), np.float32)))
"""


@pytest.mark.parametrize(
    ("build", "features", "given"),
    [
        ("self.seq = nn.SequentialCell(*[Refine() for _ in range(depth)])", 4, (2, 4)),
        ("self.seq = nn.SequentialCell([Refine() for _ in range(depth)])", 4, (2, 4)),
        ("layers = [Refine() for i in range(depth)]\n        self.seq = nn.SequentialCell(*layers)", 4, (2, 4)),
        (
            "layers = []\n        for _ in range(depth):\n            layers.append(Refine())\n"
            "        self.seq = nn.SequentialCell(layers)",
            4,
            (2, 4),
        ),
        # an item that changes the shape is given what it may be given: its input or its output
        ("self.seq = nn.SequentialCell(*[Refine() for _ in range(depth)])", 8, (2, None)),
    ],
    ids=["spread", "list", "named-list", "appended-in-a-loop", "changing-shape"],
)
def test_an_item_a_sequential_cell_repeats_is_given_what_the_items_before_it_return(
    write, build: str, features: int, given
) -> None:
    """``nn.SequentialCell(*[Refine() for _ in range(depth)])`` runs ``Refine`` an unknown number of
    times, each on what the one before returned: it is reached from ``Net`` with the input joined
    with its own output (MindSpore 2.10 then refuses ``if y > 0`` in it for a (2, 4) input and
    compiles it for a (1,) one: rules/ambiguous-tensor-conversion/*_call_sites.py), and the call
    returns that join."""
    source = REPEATED.replace("{build}", build).replace("{features}", str(features))
    project = project_of(write, source)
    functions = {f.ref.display_name: f for f in graph_functions(project)}
    tensor = AbstractTensor(Kind.GRAPH, "float32", given)
    assert functions["Refine.construct"].entry.display_name == "Net.construct"
    assert functions["Refine.construct"].parameter_values["y"] == tensor
    assert functions["Net.construct"].name_values["out"] == tensor


def test_a_comprehension_with_a_condition_gives_no_repeated_item(write) -> None:
    build = "self.seq = nn.SequentialCell(*[Refine() for i in range(depth) if i])"
    project = project_of(write, REPEATED.replace("{build}", build).replace("{features}", "4"))
    functions = {f.ref.display_name: f for f in graph_functions(project)}
    assert functions["Refine.construct"].entry.display_name == "Refine.construct"
