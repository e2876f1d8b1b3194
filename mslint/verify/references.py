"""Classes and functions handed to a constructor (``block=BottleNeck``, ``act_layer=nn.GELU``),
as they travel to the process that builds the Cell: by where they are defined, resolved there.

A class cannot travel as a Python literal; the reference names the project's file that defines
it (imported as the entry's own module is, under its package name) or MindSpore's module, and
its name there.
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


def resolved(kwargs: dict[str, Any], load: Callable[[Path], Any]) -> dict[str, Any]:
    """``kwargs`` with each reference replaced by what it names; ``load`` imports a project
    file. ImportError or AttributeError where it names nothing."""
    return {name: _resolve(value, load) if isinstance(value, Reference) else value for name, value in kwargs.items()}


def _resolve(reference: Reference, load: Callable[[Path], Any]) -> Any:
    module = load(Path(reference.module)) if reference.in_file else importlib.import_module(reference.module)
    return getattr(module, reference.qualname)
