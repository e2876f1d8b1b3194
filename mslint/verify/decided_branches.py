"""The branches of a constructor that the arguments it is built with decide, for reading its
layers: ``if hybrid_backbone is not None: self.patch_embed = HybridEmbed(...) else:
self.patch_embed = PatchEmbed(...)``, built with ``hybrid_backbone=None``, makes a
``PatchEmbed``.

Only a test ``name is None`` or ``name is not None`` is decided, on a parameter the body never
binds again, whose binding is written as a value whose None-ness shows: a literal, a display
(``[64, 128]``), a lambda, or a class handed in. A name, a call or anything else may be None or
not, and leaves both branches read.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping

from mslint.model.binder import all_parameter_names
from mslint.model.module import none_test
from mslint.model.project import FunctionNode
from mslint.model.walk import statements

_DISPLAYS = (ast.List, ast.Tuple, ast.Dict, ast.Set, ast.Lambda)
"""Expressions that are never None."""


def untaken(function: FunctionNode, bindings: Mapping[str, ast.expr], never_none: type[ast.expr]) -> set[int]:
    """The ids of the statements of ``function`` in a branch that ``bindings`` (what its names
    hold) decide it does not take; ``never_none``: the node that stands for a class handed in."""
    parameters = set(all_parameter_names(function))
    stored = {n.id for n in ast.walk(function) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
    skipped: set[int] = set()
    for statement in statements(function):
        if not isinstance(statement, ast.If) or id(statement) in skipped:
            continue
        tested = none_test(statement.test)
        if tested is None or tested[0] not in parameters or tested[0] in stored:
            continue
        name, is_none = tested
        value = bindings.get(name)
        if isinstance(value, ast.Constant):
            holds = value.value is None
        elif isinstance(value, (*_DISPLAYS, never_none)):
            holds = False
        else:
            continue
        branch = statement.orelse if holds == is_none else statement.body
        skipped.update(id(node) for s in branch for node in ast.walk(s) if isinstance(node, ast.stmt))
    return skipped
