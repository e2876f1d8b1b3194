"""Values of a type mslint does not know: what a call into another library makes.

A program may hand a graph an object of a library that is neither MindSpore (nor one of its suites,
``mindcv``), nor numpy or another array library, nor the project itself: a polars DataFrame
(``net(pl.read_csv(path))``), a ``decimal.Decimal``. MindSpore 2.10 hands the graph such an object
as it is and compiles its own attributes and methods there (measured, GRAPH mode, STRICT and LAX, a
fresh process each: a class of another module with ``select`` and ``to_numpy``,
``Decimal("2").sqrt().to_eng_string()``, ``Fraction(1, 3).limit_denominator(10)``,
``date(2020, 1, 2).replace(year=2000).isoformat()`` and a ``SimpleNamespace``'s ``shape`` all
compile and return their Python result), so what the Tensor API has or lacks says nothing of it.

A value is such an object where the call that makes it is one of that library's (a function or a
class, ``polars.read_csv(path)``, ``Decimal("2")``) or a method of such an object
(``pl.DataFrame(rows).filter(...)``), made in place, by a name its scope binds once, or by a
function of the project that returns one on every path. MindSpore's values may be tensors, and
those of the array libraries are arrays or tensors, which MindSpore makes tensors; Python's own
builtins make its numbers and containers; a copy (``copy.deepcopy(x)``) is of its argument's type.
"""

from __future__ import annotations

import ast

from mslint.model.binder import binding_counts, bound_once
from mslint.model.module import ModuleInfo, imports_in
from mslint.model.project import FunctionNode, FunctionRef, Project, qualified_name_in
from mslint.model.walk import returned_values

ARRAY_LIBRARIES = frozenset(
    {"numpy", "cupy", "jax", "torch", "tensorflow", "paddle", "cv2", "scipy", "skimage", "imageio"}
)
"""The libraries whose values are arrays or tensors: their own array types, or numpy's (``cv2.imread``)."""
_COPIES = frozenset({"copy.copy", "copy.deepcopy"})
"""Calls whose result is of the type of their first argument."""
_DEPTH = 4
"""How many names, copies and project functions deep a value is followed."""


def made_by_another_library(
    argument: ast.expr, scope: FunctionNode | ast.Module, module: ModuleInfo, project: Project
) -> bool:
    """Whether ``argument`` of a call in ``scope`` is an object of another library (module doc)."""
    return _made(argument, scope, module, project, 0)


def _made(expr: ast.expr, scope: FunctionNode | ast.Module, module: ModuleInfo, project: Project, depth: int) -> bool:
    if depth > _DEPTH:
        return False
    if isinstance(expr, ast.Name):
        value = bound_once(scope, expr.id)
        return value is not None and _made(value, scope, module, project, depth + 1)
    if not isinstance(expr, ast.Call):
        return False
    local_names = frozenset(binding_counts(scope)) if not isinstance(scope, ast.Module) else frozenset()
    qualname = qualified_name_in(expr.func, module, imports_in(scope, module.package), local_names)
    if qualname is None:
        # a method of another library's object is that library's call (`frame.filter(...)`)
        receiver = expr.func.value if isinstance(expr.func, ast.Attribute) else None
        return receiver is not None and _made(receiver, scope, module, project, depth + 1)
    if qualname in _COPIES:
        return bool(expr.args) and _made(expr.args[0], scope, module, project, depth + 1)
    resolved = project.resolve(qualname, module)
    if isinstance(resolved, FunctionRef):
        returned = returned_values(resolved.node)
        return bool(returned) and all(_made(v, resolved.node, resolved.module, project, depth + 1) for v in returned)
    library = qualname.split(".", 1)[0]
    if resolved is not None or "." not in qualname or project.module_named(library, module) is not None:
        return False  # the project's own class, a builtin, or a name of no library
    return not library.startswith("mind") and library not in ARRAY_LIBRARIES
