from __future__ import annotations

import ast
from collections.abc import Iterator

from mslint.diagnostics import Edit, Fix, Severity
from mslint.model.module import ModuleInfo, bound_names, is_self_attribute
from mslint.model.project import Project, is_mindspore_name, qualified_name
from mslint.model.walk import descendants
from mslint.rules._cell_classes import cell_classes
from mslint.rules.base import Finding, Rule
from mslint.settings import Settings

_WRAPPERS = {ast.List: "nn.CellList", ast.ListComp: "nn.CellList", ast.Tuple: "nn.SequentialCell"}


class PythonContainerOfCells(Rule):
    """
    ## What it does
    Flags a Cell attribute set to a plain Python list, tuple or dict of Cells or of
    Parameters (`self.layers = [nn.Dense(4, 4), nn.Dense(4, 4)]`), including lists built
    with `append` before being assigned.

    ## Why it breaks graph mode
    A Cell registers the sub-Cells and Parameters assigned to it directly, or through
    `nn.CellList`, `nn.SequentialCell`, `nn.CellDict` and `ParameterTuple`. A plain
    container hides them: their parameters are missing from `trainable_params()` (never
    trained, never saved in checkpoints), and compiling the Cell fails with
    `RuntimeError: The parameter ... its name 'weight' already exists` as soon as two of
    the hidden Cells have parameters of the same name. A plain list of Parameters compiles
    but is silently left out of training.

    ## Example
    ```python
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.layers = [nn.Dense(4, 4), nn.Dense(4, 4)]
    ```

    ## Use instead
    ```python
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.layers = nn.CellList([nn.Dense(4, 4), nn.Dense(4, 4)])
    ```
    """

    code = "MS103"
    symbol = "python-container-of-cells"
    summary = "a plain list, tuple or dict of Cells or Parameters kept as a Cell attribute"

    def severity(self, settings: Settings) -> Severity:
        return Severity.ERROR

    def check_module(self, module: ModuleInfo, project: Project) -> Iterator[Finding]:
        for cls in cell_classes(module, project):
            for method in cls.node.body:
                if isinstance(method, ast.FunctionDef) and method.args.args:
                    yield from _MethodCheck(module, project, method).findings()


class _MethodCheck:
    def __init__(self, module: ModuleInfo, project: Project, method: ast.FunctionDef) -> None:
        self.module = module
        self.project = project
        self.self_name = method.args.args[0].arg
        self.method = method
        self.values: dict[str, list[ast.expr]] = {}
        """Values bound to local names, and what lists grow by (``append``/``extend``/``+=``)."""
        self.last_assignment: dict[str, tuple[ast.Attribute, ast.expr]] = {}
        """The last ``self.<attribute> = value`` of each attribute: a later one replaces the earlier."""
        self.registered: set[str] = set()
        """Local names also given to the Cell directly (``self.x = conv``, ``setattr(self, k, conv)``)."""
        for node in descendants(method):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    for name in bound_names(target):
                        self.values.setdefault(name, []).append(node.value)
                    if is_self_attribute(target, self.self_name):
                        assert isinstance(target, ast.Attribute)
                        self.last_assignment[target.attr] = (target, node.value)
                        if isinstance(node.value, ast.Name):
                            self.registered.add(node.value.id)
            elif isinstance(node, ast.AugAssign):
                self.values.setdefault(self._key(node.target), []).append(node.value)
            elif isinstance(node, ast.Call) and _is_list_growth(node):
                assert isinstance(node.func, ast.Attribute)
                grown = node.args[0] if node.func.attr == "extend" else ast.List(elts=node.args[-1:])
                self.values.setdefault(self._key(node.func.value), []).append(grown)
            elif isinstance(node, ast.Call) and _is_registration(node):
                self.registered.update(a.id for a in node.args[1:] if isinstance(a, ast.Name))
        self.local_names = frozenset(self.values)

    def _key(self, node: ast.expr) -> str:
        """``name`` for a local, ``self.name`` for an attribute (which lists grow by appends too)."""
        if isinstance(node, ast.Attribute) and is_self_attribute(node, self.self_name):
            return f"self.{node.attr}"
        return node.id if isinstance(node, ast.Name) else ""

    def findings(self) -> Iterator[Finding]:
        for attribute, (target, value) in self.last_assignment.items():
            yield from self._check_assignment(target, value, self.values.get(f"self.{attribute}", []))

    def _check_assignment(self, target: ast.Attribute, value: ast.expr, growth: list[ast.expr]) -> Iterator[Finding]:
        containers = self._containers(value, set())
        if containers:
            containers += [c for grown in growth for c in self._containers(grown, set())]
        if not containers:
            return
        container = containers[0]
        kinds = set().union(*(self._element_kinds(c, set()) for c in containers))
        if "cell" in kinds:
            wrapper = (
                "nn.CellDict"
                if isinstance(container, (ast.Dict, ast.DictComp))
                else _WRAPPERS.get(type(container), "nn.CellList")
            )
            yield Finding(
                target,
                f"`self.{target.attr}` keeps Cells in a plain {_container_name(container)}: "
                "their parameters are not registered or trained",
                hint=f"wrap it in `{wrapper}(...)`",
                fix=self._wrap_fix(value) if value is container else None,
            )
        elif "parameter" in kinds:
            yield Finding(
                target,
                f"`self.{target.attr}` keeps Parameters in a plain {_container_name(container)}: "
                "they are not registered or trained",
                hint="wrap it in `ParameterTuple(...)`",
                severity=Severity.WARNING,
            )

    def _wrap_fix(self, container: ast.expr) -> Fix | None:
        """Wrap the literal in ``nn.CellList``/``nn.CellDict``, through the module's own name for
        ``mindspore.nn`` (no fix when the module has none)."""
        wrapper = "CellDict" if isinstance(container, (ast.Dict, ast.DictComp)) else "CellList"
        prefix = next((local for local, name in self.module.imports.items() if name == "mindspore.nn"), None)
        if prefix is None:
            prefix = next((f"{local}.nn" for local, name in self.module.imports.items() if name == "mindspore"), None)
        if prefix is None or container.end_lineno is None or container.end_col_offset is None:
            return None
        bare_tuple = (
            isinstance(container, ast.Tuple) and self.module.line(container.lineno)[container.col_offset] != "("
        )
        opening, closing = f"{prefix}.{wrapper}(" + ("(" if bare_tuple else ""), ")" + (")" if bare_tuple else "")
        start = (container.lineno, container.col_offset + 1)
        end = (container.end_lineno, container.end_col_offset + 1)
        return Fix(
            f"Wrap in `{prefix}.{wrapper}`",
            (Edit(*start, *start, opening), Edit(*end, *end, closing)),
        )

    def _containers(self, value: ast.expr, seen: set[str]) -> list[ast.expr]:
        """The container literals ``value`` is, or a local name was built from."""
        if isinstance(value, (ast.List, ast.Tuple, ast.Dict, ast.ListComp, ast.DictComp)):
            return [value]
        if isinstance(value, ast.Name) and value.id in self.values and value.id not in seen:
            seen.add(value.id)
            return [c for v in self.values[value.id] for c in self._containers(v, seen)]
        return []

    def _element_kinds(self, container: ast.expr, seen: set[str]) -> set[str]:
        if isinstance(container, (ast.List, ast.Tuple)):
            elements: list[ast.expr] = container.elts
        elif isinstance(container, ast.Dict):
            elements = container.values
        elif isinstance(container, ast.ListComp):
            elements = [container.elt]
        elif isinstance(container, ast.DictComp):
            elements = [container.value]
        else:
            return set()
        kinds = set()
        for element in elements:
            if isinstance(element, ast.Starred):
                element = element.value
            if isinstance(element, ast.Name) and element.id in self.registered:
                continue
            if isinstance(element, ast.Name) and element.id in self.values and element.id not in seen:
                seen.add(element.id)
                for value in self.values[element.id]:
                    kinds |= self._element_kinds(value, seen) or self._value_kind(value)
            else:
                kinds |= self._value_kind(element)
        return kinds

    def _value_kind(self, value: ast.expr) -> set[str]:
        if not isinstance(value, ast.Call):
            return set()
        qualname = qualified_name(value.func, self.module, self.local_names)
        if is_mindspore_name(qualname, "Parameter"):
            return {"parameter"}
        return {"cell"} if self.project.is_cell_name(qualname, self.module) else set()


def _is_list_growth(node: ast.Call) -> bool:
    return (
        isinstance(node.func, ast.Attribute)
        and node.func.attr in ("append", "extend", "insert")
        and isinstance(node.func.value, (ast.Name, ast.Attribute))
        and len(node.args) == (2 if node.func.attr == "insert" else 1)
    )


def _is_registration(node: ast.Call) -> bool:
    """``setattr(self, name, cell)``, ``self.__setattr__(name, cell)``, ``self.insert_child_to_cell(name, cell)``."""
    func = node.func
    if isinstance(func, ast.Name) and func.id == "setattr":
        return len(node.args) == 3
    return (
        isinstance(func, ast.Attribute) and func.attr in ("__setattr__", "insert_child_to_cell") and len(node.args) == 2
    )


def _container_name(container: ast.expr) -> str:
    if isinstance(container, (ast.Dict, ast.DictComp)):
        return "dict"
    return "tuple" if isinstance(container, ast.Tuple) else "list"
