"""The shapes and dtypes :mod:`mslint.model.created_tensors` reads off a program's creations are
those numpy and MindSpore give when the creation runs."""

from __future__ import annotations

import ast

import pytest

from mslint.model.abstract import AbstractTensor, AbstractValue, Kind
from mslint.model.created_tensors import AbstractArray, created_by

IMPORTS = {"np": "numpy", "ms": "mindspore", "Tensor": "mindspore.Tensor", "Parameter": "mindspore.Parameter"}
IMPORTS |= {"ops": "mindspore.ops", "mint": "mindspore.mint", "initializer": "mindspore.common.initializer.initializer"}

CREATIONS = [
    "np.ones((2, 3))",
    "np.ones([2, 2], np.int32)",
    "np.zeros(4, dtype=np.float16)",
    "np.full((2, 2), 3)",
    "np.full((2, 2), 3.0)",
    "np.random.randn(2, 3)",
    "np.random.rand(3)",
    "np.random.randint(0, 5, (2, 3))",
    "np.random.uniform(0, 1, size=(4, 2))",
    "np.arange(6)",
    "np.arange(1, 7, 2)",
    "np.arange(6).reshape(2, 3)",
    "np.arange(12).reshape((3, -1))",
    "np.array([[1, 2], [3, 4]])",
    "np.array([1.0, 2.0])",
    "np.random.randn(2, 3).astype(np.float32)",
    "Tensor(np.ones([2, 2]), ms.int32)",
    "Tensor(np.ones((2, 3), np.float32))",
    "Tensor(np.random.randn(3, 4).astype(np.float16))",
    "Tensor([1, 2, 3])",
    "Tensor([[1.0, 2.0]])",
    "Tensor(2.0)",
    "Tensor(True)",
    "Tensor(np.arange(6).reshape(2, 3))",
    "Tensor(np.ones((2, 3)), dtype=ms.float16)",
    "ops.ones((2, 3))",
    "ops.zeros((2, 3), ms.int32)",
    "ops.randn(2, 3)",
    "ops.rand((4,))",
    "ops.randint(0, 10, (2, 5))",
    "mint.ones((3, 2))",
    "Parameter(Tensor(np.zeros((5,), np.int32)), name='b')",
    "Parameter(initializer('normal', (8, 5)), name='w')",
    "Parameter(initializer('zeros', [3], ms.float16), name='z')",
]


def _qualname(expr: ast.expr) -> str | None:
    parts = []
    while isinstance(expr, ast.Attribute):
        parts.append(expr.attr)
        expr = expr.value
    if not isinstance(expr, ast.Name) or expr.id not in IMPORTS:
        return None
    return ".".join([IMPORTS[expr.id], *reversed(parts)])


def mslint_reads(source: str) -> AbstractValue | None:
    return created_by(ast.parse(source, mode="eval").body, _qualname)


@pytest.mark.parametrize("source", CREATIONS)
def test_a_creation_has_a_shape_and_dtype(source: str) -> None:
    made = mslint_reads(source)
    assert isinstance(made, (AbstractArray, AbstractTensor)), source
    assert made.dtype is not None and made.shape is not None and None not in made.shape, made
    assert isinstance(made, AbstractArray) == source.startswith("np."), "numpy makes arrays, MindSpore tensors"


@pytest.mark.mindspore
@pytest.mark.parametrize("source", CREATIONS)
def test_the_shape_and_dtype_are_those_the_creation_gives(source: str) -> None:
    import mindspore
    import numpy
    from mindspore import mint, ops
    from mindspore.common.initializer import initializer

    names = {"np": numpy, "ms": mindspore, "Tensor": mindspore.Tensor, "Parameter": mindspore.Parameter}
    made = eval(source, {**names, "ops": ops, "mint": mint, "initializer": initializer})
    dtype = str(made.dtype).lower().replace("bool_", "bool")
    expected = (tuple(made.shape), dtype)
    found = mslint_reads(source)
    assert isinstance(found, (AbstractArray, AbstractTensor))
    assert (found.shape, found.dtype) == expected, source
    if isinstance(found, AbstractTensor):
        assert found.kind is Kind.GRAPH and found.parameter == source.startswith("Parameter")
