"""The tensors and numpy arrays a Python program makes, with their shapes and dtypes.

Programs call their networks on inputs they build right before: ``x = Tensor(np.ones([2, 2],
np.int32)); net(x)``, ``net(ops.randn(2, 3, 32, 32))``. MindSpore compiles the network for those
inputs, so their shape and dtype are the graph's: a ``not x`` on that ``x`` fails because it has
four elements. This module reads them off the creating call, where its sizes are literals:
numpy's ``ones``/``zeros``/``empty``/``full``, ``random.randn``/``rand``/``randint``/
``uniform``/``normal``, ``array`` of a nested list; MindSpore's ``Tensor`` (of such an array, a
number or a list), ``Parameter`` of such a tensor or of ``initializer(init, shape, dtype)``, its
``ops``/``mint`` creations; and ``.astype(dtype)`` on either. Anything
else gives None: the caller's own, shapeless value stands.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass, replace

from mslint.model.abstract import AbstractAny, AbstractInstance, AbstractTensor, AbstractValue, Kind, Shape, literal
from mslint.model.binder import literal_value
from mslint.model.dtypes import DTYPES
from mslint.model.transfer import Operands, method_result

Qualname = Callable[[ast.expr], "str | None"]
ValueOf = Callable[[ast.expr], AbstractValue]
_DEPTH = 4
"""How many names and calls deep a creation is followed (``x = Tensor(a)``, ``a = np.ones(...)``)."""


@dataclass(frozen=True)
class AbstractArray(AbstractInstance):
    """A numpy array, with its dtype and shape where the code shows them."""

    dtype: str | None = None
    shape: Shape = None


def numpy_array(dtype: str | None = None, shape: Shape = None) -> AbstractArray:
    return AbstractArray(Kind.CONSTANT, "numpy.ndarray", dtype=dtype, shape=shape)


# numpy's creations by name: where the shape is (the first argument, or every positional one),
# which argument gives the dtype, and the dtype without one.
_NUMPY_SHAPED = {"ones": 1, "zeros": 1, "empty": 1, "full": 2}
_NUMPY_SIZED = {"randn": "float64", "rand": "float64"}
_NUMPY_SIZE_KEYWORD = {"random": ("size", 0, "float64"), "random_sample": ("size", 0, "float64")}
_NUMPY_SIZE_KEYWORD |= {"uniform": ("size", 2, "float64"), "normal": ("size", 2, "float64")}
_NUMPY_SIZE_KEYWORD |= {"randint": ("size", 2, "int64")}
_MINDSPORE_SIZED = {"randn": "float32", "rand": "float32"}
_MINDSPORE_SHAPED = {"ones": "float32", "zeros": "float32"}


def created_value(call: ast.Call, qualname: Qualname, value_of: ValueOf) -> AbstractValue | None:
    """The array or tensor ``call`` makes, with its dtype and shape; None for any other call."""
    func = call.func
    name = qualname(func)
    if name is None:
        if isinstance(func, ast.Attribute) and func.attr == "astype" and len(call.args) == 1:
            return _cast(value_of(func.value), _dtype(call.args[0], qualname))
        if isinstance(func, ast.Attribute) and func.attr == "reshape" and call.args and not call.keywords:
            return _reshaped(value_of(func.value), call.args)
        return None
    module, _, last = name.rpartition(".")
    if module in ("numpy", "numpy.random"):
        return _numpy(call, last, qualname)
    if module.startswith("mindspore") and last in ("Tensor", "tensor", "Parameter") and call.args:
        made = _tensor(call, qualname, value_of)
        return replace(made, parameter=True) if last == "Parameter" else made
    if module.startswith("mindspore") and last == "initializer" and len(call.args) > 1:
        given = _keyword(call, "dtype") or (call.args[2] if len(call.args) > 2 else None)
        return AbstractTensor(Kind.GRAPH, "float32" if given is None else _dtype(given, qualname), _sizes(call.args[1]))
    if module.startswith(("mindspore.ops", "mindspore.mint")):
        return _mindspore_creation(call, last, qualname)
    return None


def created_by(
    expr: ast.expr, qualname: Qualname, binding: Callable[[str], ast.expr | None] = lambda name: None, depth: int = 0
) -> AbstractValue | None:
    """What ``expr`` makes, its data made in place (``Parameter(Tensor(np.zeros((2, 3))))``) or
    read from a name whose expression ``binding`` gives (the block's last ``x = ...`` before a call)."""
    if isinstance(expr, ast.Name):
        expr = binding(expr.id) or expr
    if not isinstance(expr, ast.Call) or depth > _DEPTH:
        return None
    return created_value(
        expr, qualname, lambda e: created_by(e, qualname, binding, depth + 1) or AbstractAny(Kind.UNKNOWN)
    )


def _numpy(call: ast.Call, name: str, qualname: Qualname) -> AbstractValue | None:
    given = _keyword(call, "dtype")
    if name in _NUMPY_SHAPED and call.args:
        position = _NUMPY_SHAPED[name]
        dtype_expr = given or (call.args[position] if len(call.args) > position else None)
        default = _literal_dtype(call.args[1], "64") if name == "full" and len(call.args) > 1 else "float64"
        dtype = default if dtype_expr is None else _dtype(dtype_expr, qualname)
        return numpy_array(dtype, _sizes(call.args[0]))
    if name in _NUMPY_SIZED:
        sizes = _sizes(ast.Tuple(elts=call.args, ctx=ast.Load())) if call.args else ()
        return numpy_array(_NUMPY_SIZED[name], sizes)
    if name in _NUMPY_SIZE_KEYWORD:
        keyword, position, dtype = _NUMPY_SIZE_KEYWORD[name]
        size = _keyword(call, keyword) or (call.args[position] if len(call.args) > position else None)
        return numpy_array(dtype, None if size is None else _sizes(size))
    if name == "arange" and call.args and len(call.args) <= 3:
        bounds = [literal_value(a) for a in call.args]
        ints = [b for b in bounds if isinstance(b, int) and not isinstance(b, bool)]
        count = len(range(*ints)) if len(ints) == len(bounds) and (len(ints) < 3 or ints[2]) else None
        dtype = _dtype(given, qualname) if given is not None else "int64" if count is not None else None
        return numpy_array(dtype, None if count is None else (count,))
    if name == "array" and call.args and given is None:
        data = literal_value(call.args[0])
        return numpy_array(_literal_dtype(call.args[0], "64"), _nested_shape(data))
    return None


def _tensor(call: ast.Call, qualname: Qualname, value_of: ValueOf) -> AbstractTensor:
    """``Tensor(data, dtype)``: of an array, its shape and dtype (``dtype`` converts); of a
    number or a list, float32 for floats and int64 for ints."""
    given = _keyword(call, "dtype") or (call.args[1] if len(call.args) > 1 else None)
    dtype = None if given is None else _dtype(given, qualname)
    data = value_of(call.args[0])
    if isinstance(data, AbstractArray):
        return AbstractTensor(Kind.GRAPH, data.dtype if given is None else dtype, data.shape)
    if isinstance(data, AbstractTensor):
        return AbstractTensor(Kind.GRAPH, data.dtype if given is None else dtype, data.shape)
    literal = literal_value(call.args[0])
    shape = _nested_shape(literal)
    if shape is None:
        return AbstractTensor(Kind.GRAPH, dtype)
    return AbstractTensor(Kind.GRAPH, dtype if given is not None else _literal_dtype(call.args[0], "32"), shape)


def _mindspore_creation(call: ast.Call, name: str, qualname: Qualname) -> AbstractValue | None:
    given = _keyword(call, "dtype")
    if name in _MINDSPORE_SIZED:
        sizes_given = call.args[0] if len(call.args) == 1 and isinstance(call.args[0], (ast.Tuple, ast.List)) else None
        sizes = _sizes(sizes_given or ast.Tuple(elts=call.args, ctx=ast.Load()))
        return AbstractTensor(Kind.GRAPH, _MINDSPORE_SIZED[name] if given is None else _dtype(given, qualname), sizes)
    if name == "randint" and len(call.args) > 2:  # randint(low, high, size)
        return AbstractTensor(Kind.GRAPH, "int64" if given is None else _dtype(given, qualname), _sizes(call.args[2]))
    if name in _MINDSPORE_SHAPED and call.args:
        dtype_expr = given or (call.args[1] if len(call.args) > 1 and name.startswith(("ones", "zeros")) else None)
        dtype = _MINDSPORE_SHAPED[name] if dtype_expr is None else _dtype(dtype_expr, qualname)
        return AbstractTensor(Kind.GRAPH, dtype, _sizes(call.args[0]))
    return None


def _reshaped(value: AbstractValue, sizes: list[ast.expr]) -> AbstractValue | None:
    """``a.reshape(2, 3)`` or ``a.reshape((2, -1))`` of an array or a tensor of a known shape."""
    made = value if isinstance(value, AbstractTensor) else None
    if isinstance(value, AbstractArray):
        made = AbstractTensor(Kind.GRAPH, value.dtype, value.shape)
    if made is None:
        return None
    result = method_result("reshape", Operands([made, *(literal(literal_value(s)) for s in sizes)], {}, made.kind))
    shape = result.shape if isinstance(result, AbstractTensor) else None
    return numpy_array(made.dtype, shape) if isinstance(value, AbstractArray) else replace(made, shape=shape)


def _cast(value: AbstractValue, dtype: str | None) -> AbstractValue | None:
    if isinstance(value, AbstractArray):
        return numpy_array(dtype, value.shape)
    if isinstance(value, AbstractTensor):
        return AbstractTensor(value.kind, dtype, value.shape)
    return None


def _keyword(call: ast.Call, name: str) -> ast.expr | None:
    return next((k.value for k in call.keywords if k.arg == name), None)


def _dtype(expr: ast.expr, qualname: Qualname) -> str | None:
    """The dtype ``np.float32``, ``ms.int32``, ``"float32"`` or ``float`` names."""
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        name = expr.value
    else:
        full = qualname(expr) or ""
        name = {"builtins.float": "float64", "builtins.int": "int64", "builtins.bool": "bool"}.get(full, full)
        name = name.rsplit(".", 1)[-1]
    name = name.rstrip("_")
    return name if name in DTYPES else None


def _sizes(expr: ast.expr) -> Shape:
    """A literal shape: ``(2, 3)``, ``[4]``, ``5``."""
    value = literal_value(expr)
    if _is_size(value):
        assert isinstance(value, int)
        return (value,)
    if isinstance(value, (tuple, list)) and all(
        isinstance(d, int) and not isinstance(d, bool) and d >= 0 for d in value
    ):
        return tuple(value)
    return None


def _is_size(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _nested_shape(data: object) -> Shape:
    """The shape of a number or a nested list of numbers of equal lengths; None for anything else."""
    if isinstance(data, (bool, int, float)):
        return ()
    if not isinstance(data, (list, tuple)) or not data:
        return None
    inner = [_nested_shape(item) for item in data]
    if inner[0] is None or any(shape != inner[0] for shape in inner):
        return None
    return (len(data), *inner[0])


def _literal_dtype(expr: ast.expr, width: str) -> str | None:
    """The dtype of a literal's numbers: bool, int or float of ``width`` bits (numpy's 64,
    MindSpore's ``Tensor`` of a Python list 32 for floats and 64 for ints)."""
    numbers = [n.value for n in ast.walk(expr) if isinstance(n, ast.Constant)]
    if not numbers or not all(isinstance(n, (bool, int, float)) for n in numbers):
        return None
    if all(isinstance(n, bool) for n in numbers):
        return "bool"
    if any(isinstance(n, float) for n in numbers):
        return f"float{width}"
    return "int64"
