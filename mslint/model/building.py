"""What building a Cell runs: its ``__init__`` and, in the checked code, every function that
one calls in turn (helpers such as ``conv3x3``, the ``__init__`` of the classes it makes
instances of, and what those call). A finding there stops the Cell before its ``construct``
is compiled (``nn.Conv2d(..., padding=1)`` without ``pad_mode`` raises in the constructor)."""

from __future__ import annotations

import ast

from mslint.model.project import ClassRef, FunctionRef, Project
from mslint.model.scope import CallMemo, GraphFunction
from mslint.model.walk import descendants


def building_functions(project: Project, cell: ClassRef, memo: CallMemo) -> list[FunctionRef]:
    """The checked functions that building ``cell`` runs, its ``__init__`` first; ``memo`` is
    shared by the Cells of one project (their builders share helpers)."""
    init = project.find_method(cell, "__init__")
    if init is None or not init.module.checked:
        return []
    found = {id(init.node): init}
    pending = [init]
    while pending:
        caller = GraphFunction(project, pending.pop(), init, {}, memo=memo)  # for its call resolution
        for node in descendants(caller.node):
            if isinstance(node, ast.Call):
                for callee in _run_by(caller, node):
                    if callee.module.checked and id(callee.node) not in found:
                        found[id(callee.node)] = callee
                        pending.append(callee)
    return list(found.values())


def _run_by(caller: GraphFunction, call: ast.Call) -> list[FunctionRef]:
    """The functions a call runs in Python: what graph code's resolution finds, and a class's
    ``__init__`` where the call makes an instance."""
    resolved = caller.resolve_call(call)
    if isinstance(resolved, ClassRef):
        init = caller.project.find_method(resolved, "__init__")
        return [init] if init is not None else []
    return caller.callees(call)
