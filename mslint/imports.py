"""How code in a module can name an object for a fix: through the module's own imports, or an
import the fix adds."""

from __future__ import annotations

import ast

from mslint.diagnostics import Edit
from mslint.model.module import ModuleInfo


def reference(module: ModuleInfo, qualname: str, shadowed: frozenset[str]) -> tuple[str, Edit | None] | None:
    """An expression for ``qualname`` (``mindspore.nn.CellList``) in ``module`` and the edit adding
    the import it needs, if any; None when no import can bind a name that is free.

    The module's imports are reused, alias-aware (``CellList``, ``msnn.CellList``,
    ``ms.nn.CellList``); otherwise ``from mindspore import nn`` is added, or when ``nn`` is
    taken (``import torch.nn as nn`` in a port), ``from mindspore.nn import CellList``.
    ``shadowed``: the names the code using the expression binds itself."""
    existing = bound_reference(module, qualname, shadowed)
    if existing is not None:
        return existing, None
    parts = qualname.split(".")
    for split in (len(parts) - 2, len(parts) - 1):
        name = parts[split]
        if split > 0 and name not in shadowed and module.global_qualname(name) is None:
            edit = _add_import(module, f"from {'.'.join(parts[:split])} import {name}")
            return (".".join(parts[split:]), edit) if edit else None
    return None


def bound_reference(module: ModuleInfo, qualname: str, shadowed: frozenset[str]) -> str | None:
    """``qualname`` through a name the module imports: the object itself, imported from anywhere in
    its package (MindSpore exposes ``ParameterTuple`` in ``mindspore``, ``mindspore.common`` and
    ``mindspore.common.parameter``, all the same object), else the innermost module holding it."""
    package, name = qualname.partition(".")[0], qualname.rpartition(".")[2]
    best: tuple[int, str] | None = None
    for local, bound in module.imports.items():
        if local in shadowed or module.global_qualname(local) != bound:
            continue
        if bound.rpartition(".")[2] == name and bound.partition(".")[0] == package:
            return local
        if qualname.startswith(f"{bound}.") and (best is None or len(bound) > best[0]):
            best = (len(bound), local + qualname[len(bound) :])
    return best[1] if best else None


def _add_import(module: ModuleInfo, statement: str) -> Edit | None:
    """Insert ``statement`` on the line after the module's last top-level import (None when there is
    none, or it ends the file: the insertion would need the file's last newline)."""
    imports = [s for s in module.tree.body if isinstance(s, (ast.Import, ast.ImportFrom))]
    if not imports or imports[-1].end_lineno is None or imports[-1].end_lineno >= module.line_count:
        return None
    line = imports[-1].end_lineno + 1
    return Edit(line, 1, line, 1, f"{statement}\n")
