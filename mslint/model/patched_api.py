"""MindSpore APIs that the project replaces at run time (``ops.zeros = _zeros``,
``Tensor.std = _std``, ``setattr(ops, "ones", _ones)``), as libraries that give MindSpore
PyTorch's signatures do (mindnlp's ``injection.py``): their calls follow the project's
definition, not the release's tables."""

from __future__ import annotations

import ast

from mslint.model.project import Project, qualified_name


def patched_apis(project: Project) -> frozenset[str]:
    """The qualified names of the MindSpore attributes any module of the project, or of the run
    it is part of (:attr:`Project.patched_in_run`), assigns."""
    return project.derived(_patched_apis)


def _patched_apis(project: Project) -> frozenset[str]:
    found: set[str] = set(project.patched_in_run)
    for module in project.modules:
        if not any(name.split(".", 1)[0] == "mindspore" for name in module.imports.values()):
            continue
        targets = [
            (t.value, t.attr) for n in module.nodes_of(ast.Assign) for t in n.targets if isinstance(t, ast.Attribute)
        ]
        for call in module.calls_by_name.get("setattr", []):
            if _is_setattr(call):
                owner, name = call.args[:2]
                if isinstance(name, ast.Constant) and isinstance(name.value, str):
                    targets.append((owner, name.value))
        for owner, attribute in targets:
            owner_name = qualified_name(owner, module) or ""
            if owner_name.split(".", 1)[0] == "mindspore":
                found.add(f"{owner_name}.{attribute}")
    return frozenset(found)


def _is_setattr(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "setattr"
        and len(node.args) >= 2
    )
