"""Start-up hook of ``mslint verify --run``: record every MindSpore graph compile of the command.

Python imports ``sitecustomize`` from this folder because the verifier puts it first on
PYTHONPATH. It must stand alone (the command may run another interpreter than mslint's):
it waits for ``mindspore.graph.api`` to be imported, wraps the Cell and ``@jit`` compile
methods, and appends one JSON line per compiled object and per failed compile to the file
named by ``MSLINT_VERIFY_RECORD``; when mslint is importable, also one per problem found by
MindSpore's own checks outside compiles (``mslint.verify.runtime``). Any other ``sitecustomize`` on the path still runs.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import inspect
import json
import os
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType
from typing import Any, Callable

_RECORD = os.environ.get("MSLINT_VERIFY_RECORD")
_API = "mindspore.graph.api"
_seen: set[tuple[Any, Any]] = set()


def _describe(obj: Any) -> dict[str, Any]:
    """Source file, name and line of a compiled Cell's class or function."""
    is_function = inspect.isfunction(obj) or inspect.ismethod(obj)
    target = inspect.unwrap(getattr(obj, "__func__", obj)) if is_function else type(obj)
    try:
        path, line = os.path.abspath(inspect.getsourcefile(target) or ""), inspect.getsourcelines(target)[1]
    except (TypeError, OSError):
        path, line = None, 0
    return {"path": path, "name": getattr(target, "__qualname__", repr(target)), "line": line}


def _write(record: dict[str, Any]) -> None:
    with open(str(_RECORD), "a", encoding="utf-8") as stream:
        stream.write(json.dumps(record) + "\n")


def _wrap(compile_method: Callable[..., Any], compiled_object: Callable[[Any, Sequence[Any]], Any]) -> Any:
    def compile(self: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            described = _describe(compiled_object(self, args))
        except Exception:  # describing must never break the user's program
            described = {"path": None, "name": "?", "line": 0}
        try:
            result = compile_method(self, *args, **kwargs)
        except Exception as error:
            _write({**described, "error": f"{type(error).__name__}: {error}"})
            raise
        key = (described["path"], described["name"])
        if key not in _seen:
            _seen.add(key)
            _write({**described, "error": None})
        return result

    return compile


def _patch(api: ModuleType) -> None:
    cell_executor = getattr(api, "_CellGraphExecutor", None)
    if cell_executor is not None and hasattr(cell_executor, "compile"):
        cell_executor.compile = _wrap(cell_executor.compile, lambda self, args: args[0])
    jit_executor = getattr(api, "_JitExecutor", None)
    if jit_executor is not None and hasattr(jit_executor, "compile"):
        jit_executor.compile = _wrap(jit_executor.compile, lambda self, args: getattr(self, "fn", self))


def _watch_running_code(dataset: ModuleType) -> None:
    """Record what MindSpore's own checks find outside compiles (network operators in a dataset
    ``map``), with mslint's watchers when this interpreter can import mslint."""
    try:
        from mslint.verify.compiler_output import user_file_filter
        from mslint.verify.runtime import watch
    except ImportError:
        return
    mslint_root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    mindspore_root = os.path.dirname(os.path.dirname(os.path.abspath(str(dataset.__file__))))
    watch(lambda problem: _write({"runtime": problem.to_json()}), user_file_filter([mslint_root, mindspore_root]))


_PATCHES: dict[str, Callable[[ModuleType], None]] = {_API: _patch, "mindspore.dataset": _watch_running_code}


class _PatchOnImport(importlib.abc.MetaPathFinder):
    def find_spec(self, name: str, path: Any, target: Any = None) -> ModuleSpec | None:
        patch = _PATCHES.get(name)
        if patch is None:
            return None
        sys.meta_path.remove(self)
        try:
            spec = importlib.util.find_spec(name)
        finally:
            sys.meta_path.insert(0, self)
        if spec is None or spec.loader is None:
            return None
        loader: Any = spec.loader
        exec_module = loader.exec_module

        def exec_and_patch(module: ModuleType) -> None:
            exec_module(module)
            patch(module)

        loader.exec_module = exec_and_patch
        return spec


def _run_other_sitecustomize() -> None:
    """Run the ``sitecustomize`` this one shadows (a virtualenv's or the user's), if any."""
    here = os.path.dirname(os.path.abspath(__file__))
    elsewhere = [p for p in sys.path if os.path.abspath(p or ".") != here]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", elsewhere)
    if spec is not None and spec.loader is not None:
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)


if _RECORD:
    sys.meta_path.insert(0, _PatchOnImport())
    _run_other_sitecustomize()
