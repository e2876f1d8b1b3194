"""Python literals as JSON and back, exactly: the constructor arguments verify sends to the
processes that build and compile the Cells (and keys its result cache with).

JSON has one kind of array and string keys only: sent as it is, ``patch_size=(4, 4)`` arrives as
``[4, 4]``, and a Cell whose ``__init__`` tests ``isinstance(kernel, tuple)`` or hashes the value
is built with another value than the program gives it. Here every value that is not a JSON
scalar is an object of one key that names its type (``{"tuple": [4, 4]}``); only what
``ast.literal_eval`` can make is written, and reading builds nothing else (unlike pickle, which
would run what the data names), but for a class or function handed to the constructor, which
stays a :class:`~mslint.verify.references.Reference` until the building process resolves it,
and for what a call of one builds, a :class:`~mslint.verify.references.Built` that it makes there.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Callable

from mslint.verify.references import Built, Reference

_SCALARS = (type(None), bool, int, float, str)


def literal_to_json(value: object) -> object:
    """``value``, a Python literal, as JSON data that :func:`literal_from_json` reads back equal
    and of the same types; TypeError for anything else."""
    if isinstance(value, _SCALARS):
        return value
    if isinstance(value, (list, tuple, set, frozenset)):
        return {type(value).__name__: [literal_to_json(item) for item in value]}
    if isinstance(value, dict):
        return {"dict": [[literal_to_json(key), literal_to_json(item)] for key, item in value.items()]}
    if isinstance(value, bytes):
        return {"bytes": value.hex()}
    if isinstance(value, complex):
        return {"complex": [value.real, value.imag]}
    if value is Ellipsis:
        return {"ellipsis": None}
    if isinstance(value, Reference):
        return {"reference": [value.module, value.qualname]}
    if isinstance(value, Built):
        keywords = {"dict": [[name, literal_to_json(item)] for name, item in value.kwargs]}
        return {"call": [literal_to_json(value.callee), literal_to_json(list(value.args)), keywords]}
    raise TypeError(f"not a Python literal: {type(value).__name__}")


def literal_from_json(data: object) -> Any:
    """The literal that :func:`literal_to_json` wrote as ``data``; ValueError for other data."""
    if isinstance(data, _SCALARS):
        return data
    if not (isinstance(data, dict) and len(data) == 1):
        raise ValueError(f"not an encoded literal: {data!r}")
    ((tag, content),) = data.items()
    if tag not in _READERS:
        raise ValueError(f"not an encoded literal: {data!r}")
    return _READERS[tag](content)


def kwargs_to_json(kwargs: Mapping[str, object]) -> dict[str, object]:
    """Keyword arguments by name, each value as :func:`literal_to_json` writes it."""
    return {name: literal_to_json(value) for name, value in kwargs.items()}


def kwargs_from_json(data: Mapping[str, object]) -> dict[str, Any]:
    """The keyword arguments :func:`kwargs_to_json` wrote."""
    return {name: literal_from_json(value) for name, value in data.items()}


def _items(content: object) -> list[Any]:
    if not isinstance(content, list):
        raise ValueError(f"not an encoded sequence: {content!r}")
    return [literal_from_json(item) for item in content]


def _pairs(content: object) -> Iterable[tuple[Any, Any]]:
    if not isinstance(content, list):
        raise ValueError(f"not an encoded dict: {content!r}")
    for pair in content:
        if not (isinstance(pair, list) and len(pair) == 2):
            raise ValueError(f"not an encoded dict item: {pair!r}")
        yield literal_from_json(pair[0]), literal_from_json(pair[1])


def _reference(content: object) -> Reference:
    parts = _items(content)
    if not (len(parts) == 2 and all(isinstance(part, str) for part in parts)):
        raise ValueError(f"not an encoded reference: {content!r}")
    return Reference(*parts)


def _call(content: object) -> Built:
    parts = _items(content)
    if not (len(parts) == 3 and isinstance(parts[0], Reference) and isinstance(parts[1], list)):
        raise ValueError(f"not an encoded call: {content!r}")
    if not (isinstance(parts[2], dict) and all(isinstance(name, str) for name in parts[2])):
        raise ValueError(f"not an encoded call: {content!r}")
    return Built(parts[0], tuple(parts[1]), tuple(parts[2].items()))


def _complex(content: object) -> complex:
    real, imag = _items(content)
    return complex(real, imag)


_READERS: dict[str, Callable[[object], Any]] = {
    "list": _items,
    "tuple": lambda content: tuple(_items(content)),
    "set": lambda content: set(_items(content)),
    "frozenset": lambda content: frozenset(_items(content)),
    "dict": lambda content: dict(_pairs(content)),
    "bytes": lambda content: bytes.fromhex(str(content)),
    "complex": _complex,
    "ellipsis": lambda content: Ellipsis,
    "reference": _reference,
    "call": _call,
}
