"""set_inputs: a Cell is compiled for the tensors ``net.set_inputs(...)`` gives, dynamic dimensions included."""

from __future__ import annotations

import pytest

from mslint.model.abstract import AbstractTensor, Kind
from mslint.model.call_sites import input_spec
from mslint.model.scope import graph_functions
from tests.test_semantic_model import project_of

PROGRAM = """
import numpy as np
import mindspore as ms
from mindspore import Tensor, nn


class Net(nn.Cell):
    def construct(self, x):
        return x * 2


net = Net()
{before}
net(Tensor(np.ones((2, 3), np.float32)))
{after}
"""
CALLED = AbstractTensor(Kind.GRAPH, "float32", (2, 3))


@pytest.mark.parametrize(
    ("before", "after", "expected"),
    [
        (
            "net.set_inputs(Tensor(shape=[2, None], dtype=ms.float32))",
            "",
            AbstractTensor(Kind.GRAPH, "float32", (2, None), dynamic=True),
        ),
        (
            "net.set_inputs(Tensor(shape=(-1, 3), dtype=ms.float16))",
            "",
            AbstractTensor(Kind.GRAPH, "float16", (None, 3), dynamic=True),
        ),
        (
            "net.set_inputs(Tensor(shape=None, dtype=ms.int32))",
            "",
            AbstractTensor(Kind.GRAPH, "int32", None, dynamic=True),
        ),
        ("net.set_inputs(Tensor(shape=[2, 3], dtype=ms.float32))", "", AbstractTensor(Kind.GRAPH, "float32", (2, 3))),
        ("net.set_inputs(Tensor(np.ones((2, 3)), dtype=ms.float32))", "", CALLED),
        ("", "net.set_inputs(Tensor(shape=[2, None], dtype=ms.float32))", CALLED),
    ],
    ids=["none-dimension", "minus-one", "dynamic-rank", "static", "with-data", "after-the-call"],
)
def test_the_inputs_set_are_what_the_instance_is_compiled_for(write, before: str, after: str, expected) -> None:
    (construct,) = graph_functions(project_of(write, PROGRAM.format(before=before, after=after)))
    assert construct.parameter_values["x"] == expected


def test_a_dynamic_dimension_is_named_in_an_input_spec() -> None:
    assert input_spec(AbstractTensor(Kind.GRAPH, "float32", (2, None), dynamic=True)) == "float32[2,N]"
    assert input_spec(AbstractTensor(Kind.GRAPH, "float32", (2, None))) is None, "a dimension not known"
