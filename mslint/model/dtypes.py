"""MindSpore's dtypes, as graph code names them (``ms.float32``, ``mstype.int64``, ``mindspore.bool_``)."""

from __future__ import annotations

import ast
from typing import Callable

from mslint.model.project import is_mindspore_name

DTYPES = frozenset(
    {"bool_", "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"}
    | {"float16", "float32", "float64", "bfloat16", "complex64", "complex128"}
)
"""The dtypes of MindSpore 2.10 (``dir(mindspore)``): ``bool`` is an alias of ``bool_``."""


def dtype_named(expr: ast.expr, qualname: Callable[[ast.expr], str | None]) -> str | None:
    """The dtype ``expr`` names, ``qualname`` resolving it (``ms.int32`` -> ``int32``, ``ms.bool_`` -> ``bool``)."""
    name = qualname(expr)
    last = name.rsplit(".", 1)[-1] if name and is_mindspore_name(name) else ""
    return last.rstrip("_") if last in DTYPES else None
