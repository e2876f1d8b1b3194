"""Constructor arguments for a Cell from the program's own calls of its class.

``net = ResNet(num_classes=10)`` in a training script says how the program builds ``ResNet``:
verify builds it the same way when nothing is configured. Only a call whose arguments are all
Python literals is taken (``ResNet(args.classes)`` says nothing mslint can use), the first one
in the checked files, in the order they were given.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from mslint.model.module import ModuleInfo
from mslint.model.project import ClassRef, FunctionNode, Project, qualified_name


@dataclass(frozen=True)
class Construction:
    kwargs: dict[str, Any]
    where: str
    """``train.py:30``: the call the arguments come from."""


class Constructions:
    """The calls of the project's classes, found once and looked up by class."""

    def __init__(self, project: Project) -> None:
        self._project = project
        self._calls: dict[str, list[tuple[ModuleInfo, ast.Call]]] | None = None

    def of(self, cls: ClassRef, init: FunctionNode) -> Construction | None:
        """The arguments of the first call of ``cls`` with literal arguments, by the names of
        ``init``'s parameters; None when there is none."""
        for module, call in self._by_name().get(cls.node.name, []):
            name = qualified_name(call.func, module)
            resolved = self._project.resolve(name, module) if name else None
            if not (isinstance(resolved, ClassRef) and resolved.node is cls.node):
                continue
            kwargs = _bound(init, call)
            if kwargs is not None:
                return Construction(kwargs, f"{module.path.name}:{call.lineno}")
        return None

    def _by_name(self) -> dict[str, list[tuple[ModuleInfo, ast.Call]]]:
        if self._calls is None:
            self._calls = defaultdict(list)
            for module in self._project.checked_modules:
                for node in ast.walk(module.tree):
                    if isinstance(node, ast.Call) and (called := _called(node.func)) is not None:
                        self._calls[called].append((module, node))
        return self._calls


def _called(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    return func.attr if isinstance(func, ast.Attribute) else None


def _bound(init: FunctionNode, call: ast.Call) -> dict[str, Any] | None:
    """``call``'s arguments by parameter name, when every one is a literal and each names a
    parameter of ``init``."""
    names = [a.arg for a in [*init.args.posonlyargs, *init.args.args][1:]]
    if len(call.args) > len(names) or any(isinstance(a, ast.Starred) for a in call.args):
        return None
    given: list[tuple[str | None, ast.expr]] = [*zip(names, call.args), *((k.arg, k.value) for k in call.keywords)]
    bound: dict[str, Any] = {}
    for name, value in given:
        if name is None:  # **options
            return None
        try:
            bound[name] = ast.literal_eval(value)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            return None
    return bound
