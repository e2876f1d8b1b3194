"""Input specs such as ``float32[N,3,224,224], int32[N], 3``: tensors by dtype and shape (no
data), and Python constants, which MindSpore compiles into the graph (``net(x, 3)``)."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Callable, Union

_INPUTS_COMMENT = re.compile(r"#\s*mslint:\s*inputs=(.*)$")
_TENSOR = re.compile(r"([A-Za-z_]\w*)\s*\[([^\]]*)\]")
_OPENING, _CLOSING = "([{", ")]}"


@dataclass(frozen=True)
class TensorSpec:
    dtype: str
    shape: tuple[int | None, ...]
    """Dimensions; ``None`` for a named or ``None`` dimension, which compiles as dynamic."""


@dataclass(frozen=True)
class ConstantSpec:
    value: object
    """A Python literal: a number, a string, a bool, None, or a tuple or list of them."""


InputSpec = Union[TensorSpec, ConstantSpec]


def inputs_comment(
    line: Callable[[int], str], node: ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef
) -> str | None:
    """The ``# mslint: inputs=...`` text on a definition's decorator or header lines (``line``
    gives the text of a 1-based line number)."""
    for number in [d.lineno for d in node.decorator_list] + [node.lineno]:
        match = _INPUTS_COMMENT.search(line(number))
        if match:
            return match.group(1).strip()
    return None


def parse_input_specs(text: str) -> list[InputSpec]:
    """Parse a comma-separated list of ``dtype[dims]`` and Python literals; raise ValueError on
    malformed text."""
    return [_parse_item(item) for item in _items(text.strip())] if text.strip() else []


def _items(text: str) -> list[str]:
    """The top-level comma-separated items (commas inside brackets or strings belong to their item)."""
    items, depth, start, quote = [], 0, 0, ""
    for position, character in enumerate(text):
        if quote:
            quote = "" if character == quote else quote
        elif character in "'\"":
            quote = character
        elif character in _OPENING:
            depth += 1
        elif character in _CLOSING:
            depth -= 1
        elif character == "," and depth == 0:
            items.append(text[start:position])
            start = position + 1
    items.append(text[start:])
    return items


def _parse_item(item: str) -> InputSpec:
    item = item.strip()
    tensor = _TENSOR.fullmatch(item)
    if tensor is not None:
        dims = [d.strip() for d in tensor.group(2).split(",") if d.strip()]
        return TensorSpec(tensor.group(1), tuple(int(d) if d.isdigit() else None for d in dims))
    try:
        value = ast.literal_eval(item)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        value = _NOT_A_CONSTANT
    if not is_constant(value):  # a list is refused: `[2, 4]` is a tensor spec that lost its dtype
        raise ValueError(f"bad input spec {item!r}: expected dtype[dim, ...] or a Python constant (3, 0.5, (2, 3))")
    return ConstantSpec(value)


_NOT_A_CONSTANT = object()


def is_constant(value: object) -> bool:
    """Whether ``value`` is what an input spec writes as a Python constant."""
    if isinstance(value, tuple):
        return all(map(is_constant, value))
    return value is None or isinstance(value, (bool, int, float, str))
