"""Stand-ins for third-party packages that are not installed where the compiles run.

A research project imports ``tqdm`` or ``pycocotools`` at the top of a module whose Cells never
use them; without the package the module cannot be imported, and none of its Cells compiled.
:class:`MissingPackages` serves such a package, and its submodules, as stub modules whose every
attribute is a stub class (``from tqdm import tqdm``, ``class Loader(COCO)`` and ``tqdm(range(3))``
all work; a private name, which MindSpore probes on any object, is no attribute of a stub). A stub
used as a decorator (``@register_model``, ``@MODELS.register_module()``) gives back the class or
function it decorates, as a registry does: the user's Cell stays a Cell to compile, where a stub
object in its place had no source, name or ``construct``.
Whatever touches a stub while :attr:`MissingPackages.watching` is set (the compile) is
recorded: the graph code uses the package, so the compile says nothing about the real code.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import inspect
import sys
import types
from collections.abc import Sequence
from typing import Any

_NEVER_STUBBED = frozenset({"mindspore", "numpy", "mslint"})
"""Packages a compile needs for real: without them a stub would only hide the error."""


class MissingPackages(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """A finder, last on ``sys.meta_path``, of the stub modules of the packages in :attr:`names`."""

    def __init__(self) -> None:
        self.names: list[str] = []
        """The top-level packages replaced by stubs, in the order they were found missing."""
        self.watching = False
        self.touched: set[str] = set()
        """The stubs (``tqdm.tqdm``) used while :attr:`watching`."""

    def stub(self, error: ModuleNotFoundError) -> bool:
        """Serve the package that ``error`` found missing from now on; False when it cannot be
        stubbed (a package the compile needs, one already stubbed, or one that is installed and
        failed otherwise)."""
        top = (error.name or "").partition(".")[0]
        if not top or top in _NEVER_STUBBED or top in self.names or importlib.util.find_spec(top) is not None:
            return False
        self.names.append(top)
        if self not in sys.meta_path:
            sys.meta_path.append(self)
        return True

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: types.ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname.partition(".")[0] not in self.names:
            return None
        return importlib.util.spec_from_loader(fullname, self, is_package=True)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        return _StubModule(spec.name, self)

    def exec_module(self, module: types.ModuleType) -> None:
        """A stub has no code to run."""

    def touch(self, name: str) -> None:
        if self.watching:
            self.touched.add(name)


class _StubModule(types.ModuleType):
    def __init__(self, name: str, finder: MissingPackages) -> None:
        super().__init__(name)
        self.__path__: list[str] = []
        self._finder = finder

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        qualified = f"{self.__name__}.{name}"
        self._finder.touch(qualified)
        return _stub_class(qualified, self._finder)


class _StubMeta(type):
    """The type of stub classes: using the class itself (an attribute, a call) is recorded."""

    _finder: MissingPackages
    _qualified: str

    def __getattr__(cls, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        cls._finder.touch(cls._qualified)
        return _stub_class(f"{cls._qualified}.{name}", cls._finder)

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        cls._finder.touch(cls._qualified)
        decorated = _decorated(args, kwargs)
        return decorated if decorated is not None else super().__call__(*args, **kwargs)


def _decorated(args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """The class or function a stub is called on as a decorator, alone: what a registry's
    decorator returns unchanged; None for any other call."""
    if len(args) == 1 and not kwargs and (inspect.isclass(args[0]) or inspect.isfunction(args[0])):
        return args[0]
    return None


def _stub_class(qualified: str, finder: MissingPackages) -> type:
    def touched_attribute(self: Any, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        finder.touch(qualified)
        return _stub_class(f"{qualified}.{name}", finder)

    def accept_anything(self: Any, *args: Any, **kwargs: Any) -> None:
        """A stub takes any arguments (a subclass's ``super().__init__(path)``)."""

    def decorate(self: Any, *args: Any, **kwargs: Any) -> Any:
        """A stub object is a decorator (``MODELS.register_module()`` made it) and nothing else callable."""
        finder.touch(qualified)
        decorated = _decorated(args, kwargs)
        if decorated is None:
            raise TypeError(f"'{qualified.rpartition('.')[2]}' object is not callable")
        return decorated

    namespace = {
        "_finder": finder,
        "_qualified": qualified,
        "__init__": accept_anything,
        "__call__": decorate,
        "__getattr__": touched_attribute,
        "__module__": qualified,
    }
    return _StubMeta(qualified.rpartition(".")[2], (), namespace)
