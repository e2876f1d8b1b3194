"""Classes and functions handed to a constructor (``block=BottleNeck``, ``act_layer=nn.GELU``),
and what calls of them build (``fn=Attention(8, heads=2)``, ``backbone=resnet50()``), as they
travel to the process that builds the Cell: by where they are defined, resolved and called there.

A class cannot travel as a Python literal; the reference names the project's file that defines
it (imported as the entry's own module is, under its package name) or MindSpore's module, and
its name there. A call travels as its reference and its arguments, themselves literals,
references or calls, and is made where the Cell is built, as the program makes it.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from mslint.model.module import module_name_for


@dataclass(frozen=True)
class Reference:
    module: str
    """The path of a project file (``.py``), or an importable module name (``mindspore.nn``)."""
    qualname: str

    @property
    def in_file(self) -> bool:
        """Whether it names a project file's class or function (not MindSpore's)."""
        return self.module.endswith(".py")

    def shown(self) -> str:
        """``BottleNeck``, ``mindspore.nn.GELU``: as a verdict names it."""
        return self.qualname if self.in_file else f"{self.module}.{self.qualname}"

    def __repr__(self) -> str:
        """An expression that imports it, for a Python file of examples."""
        module = module_name_for(Path(self.module))[1] if self.in_file else self.module
        return f"__import__({module!r}, fromlist=[{self.qualname!r}]).{self.qualname}"


@dataclass(frozen=True)
class Built:
    """What a call of ``callee`` with these arguments builds, made in the building process."""

    callee: Reference
    args: tuple[Any, ...] = ()
    kwargs: tuple[tuple[str, Any], ...] = ()

    def shown(self) -> str:
        """``Attention(8, heads=2)``: as a verdict names it."""
        arguments = [*map(shown, self.args), *(f"{name}={shown(value)}" for name, value in self.kwargs)]
        return f"{self.callee.shown()}({', '.join(arguments)})"

    def __repr__(self) -> str:
        """An expression that makes the call, for a Python file of examples."""
        arguments = [*map(repr, self.args), *(f"{name}={value!r}" for name, value in self.kwargs)]
        return f"{self.callee!r}({', '.join(arguments)})"


def shown(value: object) -> str:
    """A constructor argument as a verdict names it: references and calls by their names."""
    if isinstance(value, (Reference, Built)):
        return value.shown()
    if isinstance(value, list):
        return f"[{', '.join(map(shown, value))}]"
    if isinstance(value, tuple):
        return f"({', '.join(map(shown, value))}{',' if len(value) == 1 else ''})"
    return repr(value)


def references_in(value: object) -> list[Reference]:
    """The references ``value`` holds: itself, the callees and arguments of its calls, its items."""
    if isinstance(value, Reference):
        return [value]
    if isinstance(value, Built):
        held = [*value.args, *(item for _, item in value.kwargs)]
        return [value.callee, *(reference for item in held for reference in references_in(item))]
    if isinstance(value, (list, tuple)):
        return [reference for item in value for reference in references_in(item)]
    return []


def resolved(kwargs: dict[str, Any], load: Callable[[Path], Any]) -> dict[str, Any]:
    """``kwargs`` with each reference replaced by what it names and each call made; ``load``
    imports a project file. ImportError or AttributeError where a reference names nothing;
    what a call raises, where it does."""
    return {name: _resolve(value, load) for name, value in kwargs.items()}


def _resolve(value: Any, load: Callable[[Path], Any]) -> Any:
    if isinstance(value, Reference):
        module = load(Path(value.module)) if value.in_file else importlib.import_module(value.module)
        return getattr(module, value.qualname)
    if isinstance(value, Built):
        callee = _resolve(value.callee, load)
        return callee(*(_resolve(a, load) for a in value.args), **{k: _resolve(v, load) for k, v in value.kwargs})
    if isinstance(value, (list, tuple)) and references_in(value):
        return type(value)(_resolve(item, load) for item in value)
    return value
