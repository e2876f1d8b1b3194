"""Classes that only code which never runs builds.

A class's code runs for its instances: where every call that builds it sits in a branch of host
code that the fixed configuration never takes (:mod:`mslint.model.host_branches`), or in the
``__init__`` of a class that is itself built only there, or in a function of a module's top level
that only such code calls (``make_temporal_pool(net)``, called only ``if args.temporal_pool:``),
the class has no instance and nothing found in it holds (``TransformerTrainOneStepWithLossScaleCell``
of a script that builds it only ``if cfg.enable_lossscale:``, where its configuration sets that
False). The calls are those of :func:`~mslint.model.instances.building_calls`: a class or function
handed on as a value, subclassed, or never called is left as it is (a class no code builds may be
built by anyone: a latent failure).
A branch of an ``__init__`` on constructor arguments decides nothing here: a class built only
under a constructor option the program's instances do not select is still a class its users
may build with it (measured: on the held-out corpora such findings were judged true far more
often than not).
"""

from __future__ import annotations

import ast

from mslint.model.host_branches import untaken_test
from mslint.model.instances import building_calls
from mslint.model.module import ModuleInfo
from mslint.model.project import ClassRef, FunctionRef, Project
from mslint.model.registries import Callee

_DEEPEST = 16
"""How many ``__init__`` calls deep a class's builders are followed."""


def class_never_built(project: Project, module: ModuleInfo, node: ast.AST) -> ClassRef | None:
    """The class of the module's top level that holds ``node`` (its statement or its body), where
    every call that builds it is code that never runs (module doc); None otherwise."""
    line = getattr(node, "lineno", None)
    holding = module.top_level_class_at(line) if line is not None else None
    if holding is None:
        return None
    cls = ClassRef(module, holding)
    return cls if _never_built(project, cls, _DEEPEST) else None


def _never_built(project: Project, callee: Callee, depth: int) -> bool:
    """Whether every call that builds the class (or runs the function) is code that never runs."""
    memo: dict[int, bool] = project.derived(_nothing_found)
    key = id(callee.node)
    if key not in memo:
        memo[key] = False  # while it is being found: a cycle of builders is taken to build
        memo[key] = _no_call_runs(project, callee, depth)
    return memo[key]


def _nothing_found(project: Project) -> dict[int, bool]:
    return {}


def _no_call_runs(project: Project, callee: Callee, depth: int) -> bool:
    calls = building_calls(project, callee)
    if not calls or depth == 0:
        return False
    for call, module in calls:
        if untaken_test(project, module, call) is not None:
            continue  # a call that never runs
        builder = _code_holding(module, call)
        if builder is None or not _never_built(project, builder, depth - 1):
            return False
    return True


def _code_holding(module: ModuleInfo, call: ast.Call) -> Callee | None:
    """The class of the module's top level whose own ``__init__`` makes ``call``, or the function
    of its top level that makes it, where one does."""
    (scope,) = module.scopes_holding([call.lineno])
    if any(statement is scope for statement in module.tree.body):
        assert isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef))
        return FunctionRef(module, scope)
    cls = module.top_level_class_at(call.lineno)
    own_init = isinstance(scope, ast.FunctionDef) and scope.name == "__init__"
    return ClassRef(module, cls) if cls is not None and own_init and any(item is scope for item in cls.body) else None
