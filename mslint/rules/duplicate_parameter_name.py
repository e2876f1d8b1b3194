from __future__ import annotations

import ast
from collections import Counter
from collections.abc import Iterator

from mslint.diagnostics import Severity
from mslint.model.cell_classes import cell_classes
from mslint.model.memo import NodeMemo
from mslint.model.module import ModuleInfo, is_self_attribute
from mslint.model.parameter_names import created_name, parameters_taken
from mslint.model.project import ClassRef, Project, is_mindspore_name, qualified_name
from mslint.model.scope import GraphFunction
from mslint.model.walk import descendants, parent_of, statements
from mslint.rules.base import Finding, Rule
from mslint.settings import Settings

Names = list[tuple[str, "int | None"]]
"""The constant names of the Parameters a container holds, each with how many are made under it
(None: made in a loop whose length is not known)."""

_MODULE_PARAMETERS: NodeMemo[ast.AST, dict[str, str]] = NodeMemo()
_MAKES_PARAMETERS = "Parameter"
"""Text every module that makes or collects Parameters itself contains (a module that only
calls another module's helper is not read: the cost of reading every module is not worth it)."""


class DuplicateParameterName(Rule):
    """
    ## What it does
    Flags a `ParameterTuple`, or a list or tuple of Parameters set as a Cell attribute, that
    holds two different Parameters made with the same constant `name=`: in a loop or a
    comprehension (`[Parameter(w, name="w") for _ in range(2)]`), by a helper function called twice
    whose Parameter takes a constant name, written out twice, or read from two instances of one
    Cell of the project that the code builds and no attribute holds (`a, b = Scale(), Scale()`,
    `ParameterTuple([a.w, b.w])`). A loop whose length mslint cannot
    tell gives a warning. Also flags graph code that reads two module-level Parameters of one name
    (or one named like a Parameter of the Cell it also reads), or a dict attribute holding two, or
    two attributes that took the Parameters of two instances of one Cell of the project given to
    the constructor and held by nothing (`self.param1 = ParameterTuple(net1.get_parameters())`,
    `net1.trainable_params()` alike, with `OutNet(InnerNet(), InnerNet())`).
    Names made from the loop variable (`name=f"w{i}"`), the same Parameter object listed twice,
    and Parameters of separate Cells that attributes hold are fine.

    ## Why it breaks graph mode
    MindSpore keys Parameters by name. Measured on MindSpore 2.10, in graph mode (STRICT and LAX)
    as in PyNative, building the container fails before anything compiles:
    `ValueError: The value Parameter (name=w, ...) , its name 'w' already exists. Please set a
    unique name for the parameter.` (from `ParameterTuple`, and from `Cell.__setattr__` for a list
    or tuple of Parameters). Parameters that graph code reads from module-level names keep their
    names too: two of one name (or one named like a Parameter of the Cell) fail the compile at both
    levels with `The parameter @...:param_w , its name 'w' already exists.`, and so do those of two
    Cells that nothing holds, gathered by two attributes. Parameters of sub-Cells
    do not clash: MindSpore renames them with the attribute path (`first.w`, `second.w`); and
    calling a Cell (`net(x)`) renames its own two attributes of one name the same way before it
    compiles (`Cell.compile(x)` does not, and refuses them; not flagged).

    ## Example
    ```python
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.weights = ParameterTuple([Parameter(Tensor(np.ones(4)), name="w") for _ in range(3)])
    ```

    ## Use instead
    ```python
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.weights = ParameterTuple([Parameter(Tensor(np.ones(4)), name=f"w{i}") for i in range(3)])
    ```
    """

    code = "MS121"
    symbol = "duplicate-parameter-name"
    summary = "a `ParameterTuple` or list of Parameters holding two Parameters of one constant name"
    warning_findings = "Parameters of one name made in a loop whose length mslint cannot tell"
    node_types = (ast.FunctionDef, ast.AsyncFunctionDef)

    def severity(self, settings: Settings) -> Severity:
        return Severity.ERROR

    def check_graph_node(self, node: ast.AST, function: GraphFunction) -> Iterator[Finding]:
        if node is not function.node:
            return  # a function nested in graph code is read with the one around it
        yield from _dicts_of_one_name(function)
        yield from _globals_of_one_name(function)
        yield from _taken_of_one_name(function)

    def check_module(self, module: ModuleInfo, project: Project) -> Iterator[Finding]:
        if not _makes_parameters(module):
            return
        lines = _candidate_lines(module)
        if not lines:
            return
        methods = {id(s) for cls in cell_classes(module, project) for s in cls.node.body}
        for function in (s for s in statements(module.tree) if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))):
            if not any(function.lineno <= line <= (function.end_lineno or function.lineno) for line in lines):
                continue
            for container in _containers(function, module, id(function) in methods):
                names = _parameter_names(container, function, module, project)
                yield from _duplicates(container, names)


_MENTIONS: NodeMemo[ast.AST, bool] = NodeMemo()


def _makes_parameters(module: ModuleInfo) -> bool:
    """Whether the module's text names what makes Parameters: searched once per module."""
    mentions = _MENTIONS.get(module.tree)
    if mentions is None:
        mentions = _MAKES_PARAMETERS in module.text
        _MENTIONS.put(module.tree, mentions)
    return mentions


def _dicts_of_one_name(function: GraphFunction) -> Iterator[Finding]:
    """Reads of a ``self.<attribute>`` dict that holds two Parameters of one name: the graph takes
    them in as they are, unregistered and unrenamed, and refuses the second."""
    if function.owner is None or not _makes_parameters(function.owner.module):
        return
    seen: set[str] = set()
    for node in descendants(function.node):
        if not is_self_attribute(node, function.self_name) or not isinstance(node, ast.Attribute):
            continue
        if node.attr in seen or not isinstance(node.ctx, ast.Load):
            continue
        seen.add(node.attr)
        for klass, value in function.project.attribute_values(function.owner, node.attr):
            if not isinstance(value, ast.Dict):
                continue
            names = Counter(created_name(v, klass.module, function.project) for v in value.values)
            repeated = sorted(name for name, count in names.items() if name is not None and count >= 2)
            if repeated:
                yield Finding(
                    node,
                    f"`self.{node.attr}` is a dict of Parameters, two of them named '{repeated[0]}': graph mode "
                    "takes them in unrenamed and refuses the second ('its name ... already exists')",
                    hint="give each Parameter its own name, and keep them in a `ParameterTuple`",
                )
                break


def _taken_of_one_name(function: GraphFunction) -> Iterator[Finding]:
    """Reads of two ``self`` attributes that hold the Parameters of two Cells the constructor is
    given, which nothing holds (:func:`~mslint.model.parameter_names.parameters_taken`), with a
    Parameter of one name each: the graph takes them in unrenamed and refuses the second."""
    if function.owner is None or not _makes_parameters(function.owner.module):
        return
    sources: dict[str, str] = {}
    """By Parameter name: the parameter of ``__init__`` given the first Cell read that holds one."""
    seen: set[str] = set()
    for node in descendants(function.node):
        if not isinstance(node, ast.Attribute) or not is_self_attribute(node, function.self_name):
            continue
        if node.attr in seen or not isinstance(node.ctx, ast.Load):
            continue
        seen.add(node.attr)
        taken = parameters_taken(function.project, function.owner, node.attr)
        if taken is None:
            continue
        for name in taken.names:
            first = sources.setdefault(name, taken.source)
            if first != taken.source:
                yield Finding(
                    node,
                    f"`self.{node.attr}` holds the Parameters of the Cell given as `{taken.source}`, and another "
                    f"attribute those of the Cell given as `{first}`: both have a Parameter named '{name}', which "
                    "graph mode takes in unrenamed and refuses ('its name ... already exists')",
                    hint="hold the two Cells in an `nn.CellList` (or as attributes): MindSpore renames their "
                    "Parameters by that path",
                )
                break


def _globals_of_one_name(function: GraphFunction) -> Iterator[Finding]:
    """Reads of two module-level Parameters of one name (or of one named as a Parameter of the
    Cell's that the function reads too): the graph takes globals in unrenamed."""
    globals_made = _module_parameters(function.module, function.project)
    if not globals_made:
        return
    sources: dict[str, str] = {}
    """By Parameter name: the first global or ``self`` attribute read that holds one of that name."""
    for node in descendants(function.node):
        source, name = _read_parameter(node, function, globals_made)
        if name is None or source is None:
            continue
        first = sources.setdefault(name, source)
        if first != source and (not first.startswith("self.") or not source.startswith("self.")):
            yield Finding(
                node,
                f"`{first}` and `{source}` are Parameters both named '{name}': graph mode takes module-level "
                "Parameters in unrenamed and refuses the second ('its name ... already exists')",
                hint="give each Parameter its own name, or make them attributes of the Cell",
            )


def _read_parameter(
    node: ast.AST, function: GraphFunction, globals_made: dict[str, str]
) -> tuple[str | None, str | None]:
    """What a read names and the constant name of the Parameter it holds: a module-level name
    assigned one Parameter, or a ``self`` attribute assigned one."""
    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in globals_made:
        if function.qualname(node) == f"{function.module.name}.{node.id}":
            return node.id, globals_made[node.id]
        return None, None
    owner = function.owner
    if owner is not None and isinstance(node, ast.Attribute) and is_self_attribute(node, function.self_name):
        assigned = function.project.attribute_values(owner, node.attr)
        if len(assigned) == 1 and isinstance(node.ctx, ast.Load):
            klass, value = assigned[0]
            return f"self.{node.attr}", created_name(value, klass.module, function.project)
    return None, None


def _module_parameters(module: ModuleInfo, project: Project) -> dict[str, str]:
    """The module-level names assigned once, a Parameter of a constant name: name -> its name."""
    found = _MODULE_PARAMETERS.get(module.tree)
    if found is None:
        found = {}
        if _makes_parameters(module):
            for name in module.assigned:
                values = module.top_level_values(name)
                made = created_name(values[0], module, project) if len(values) == 1 else None
                if made is not None:
                    found[name] = made
        _MODULE_PARAMETERS.put(module.tree, found)
    return found


def _candidate_lines(module: ModuleInfo) -> list[int]:
    """The lines of the module's ``ParameterTuple(...)`` calls and of its lists or tuples set as an
    attribute: only a function holding one of them has a container to check (found from the
    module's nodes by type, without walking each function)."""
    calls = [
        n.lineno
        for n in module.nodes_of(ast.Call)
        if len(n.args) == 1 and is_mindspore_name(qualified_name(n.func, module), "ParameterTuple")
    ]
    assigned = [
        n.lineno
        for n in module.nodes_of(ast.Assign)
        if isinstance(n.value, (ast.List, ast.Tuple, ast.ListComp))
        and any(isinstance(target, ast.Attribute) for target in n.targets)
    ]
    return calls + assigned


def _containers(function: ast.FunctionDef | ast.AsyncFunctionDef, module: ModuleInfo, in_cell: bool) -> list[ast.expr]:
    """What MindSpore checks for duplicate names as it is built: the argument of a
    ``ParameterTuple(...)`` call, and a list or tuple set as an attribute of a Cell's ``self``
    (``in_cell``: the function is a method of a Cell)."""
    found: list[ast.expr] = []
    self_name = function.args.args[0].arg if function.args.args and in_cell else None
    for node in descendants(function):
        if isinstance(node, ast.Call) and len(node.args) == 1:
            if is_mindspore_name(qualified_name(node.func, module), "ParameterTuple"):
                found.append(node)
        elif (
            isinstance(node, ast.Assign)
            and isinstance(node.value, (ast.List, ast.Tuple, ast.ListComp))
            and any(is_self_attribute(target, self_name) for target in node.targets)
        ):
            found.append(node.value)
    return found


def _duplicates(container: ast.expr, names: Names) -> Iterator[Finding]:
    known: Counter[str] = Counter()
    looped: set[str] = set()
    for name, times in names:
        if times is None:
            looped.add(name)
        else:
            known[name] += times
    for name in sorted(set(known) | looped):
        if known[name] >= 2:
            yield Finding(
                container,
                f"{known[name]} different Parameters named '{name}' in one container: MindSpore refuses it when "
                "it is built ('its name ... already exists')",
                hint='give each Parameter its own name (`name=f"w{i}"` in a loop)',
            )
        elif name in looped:
            yield Finding(
                container,
                f"Parameters named '{name}' made in a loop: if it runs more than once, MindSpore refuses the "
                "duplicate name when the container is built",
                hint='give each Parameter its own name (`name=f"w{i}"` in a loop)',
                severity=Severity.WARNING,
            )


def _parameter_names(
    expr: ast.expr, function: ast.FunctionDef | ast.AsyncFunctionDef, module: ModuleInfo, project: Project
) -> Names:
    if isinstance(expr, ast.Call) and is_mindspore_name(qualified_name(expr.func, module), "ParameterTuple"):
        return _parameter_names(expr.args[0], function, module, project)
    if isinstance(expr, (ast.List, ast.Tuple)):
        # the same Parameter listed twice (`[a.w, a.w]`) is one Parameter: MindSpore accepts it
        elements = {ast.dump(e) if isinstance(e, ast.Attribute) else id(e): e for e in expr.elts}.values()
        return [found for element in elements for found in _parameter_names(element, function, module, project)]
    if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name):
        return _instance_parameter(expr, expr.value, function, module, project)
    if isinstance(expr, (ast.ListComp, ast.GeneratorExp)) and len(expr.generators) == 1:
        name = created_name(expr.elt, module, project)
        return [(name, _length(expr.generators[0].iter))] if name is not None else []
    if isinstance(expr, ast.Name):
        return _appended_names(expr.id, function, module, project)
    name = created_name(expr, module, project)
    return [(name, 1)] if name is not None else []


def _instance_parameter(
    read: ast.Attribute,
    local: ast.Name,
    function: ast.FunctionDef | ast.AsyncFunctionDef,
    module: ModuleInfo,
    project: Project,
) -> Names:
    """The Parameter ``a.w`` reads where ``a`` is a Cell of the project that the function builds
    (``a = Scale()``, ``a, b = Scale(), Scale()``) and only reads attributes of: no attribute of a
    Cell holds it, so MindSpore never prefixes its Parameters' names with an attribute path."""
    uses = [n for n in descendants(function) if isinstance(n, ast.Name) and n.id == local.id]
    stores = [n for n in uses if isinstance(n.ctx, ast.Store)]
    if len(stores) != 1 or any(
        isinstance(n.ctx, ast.Load) and not isinstance(parent_of(module.tree, n), ast.Attribute) for n in uses
    ):
        return []
    built = _bound_value(stores[0], module)
    cls = project.resolve_expr(built.func, module) if isinstance(built, ast.Call) else None
    assigned = project.attribute_values(cls, read.attr) if isinstance(cls, ClassRef) else []
    name = created_name(assigned[0][1], assigned[0][0].module, project) if len(assigned) == 1 else None
    return [(name, 1)] if name is not None else []


def _bound_value(target: ast.Name, module: ModuleInfo) -> ast.expr | None:
    """What an assignment binds ``target`` to: ``a = value``, or ``a``'s item of ``a, b = x, y``."""
    parent = parent_of(module.tree, target)
    if isinstance(parent, ast.Assign) and parent.targets == [target]:
        return parent.value
    assignment = parent_of(module.tree, parent) if isinstance(parent, ast.Tuple) else None
    if not (isinstance(parent, ast.Tuple) and isinstance(assignment, ast.Assign) and assignment.targets == [parent]):
        return None
    values = assignment.value
    if not isinstance(values, ast.Tuple) or len(values.elts) != len(parent.elts):
        return None
    return values.elts[parent.elts.index(target)]


def _appended_names(
    local: str, function: ast.FunctionDef | ast.AsyncFunctionDef, module: ModuleInfo, project: Project
) -> Names:
    """The Parameters a local list holds: its ``local = [...]`` values and its ``local.append(...)``
    calls, each as many times as the ``for`` loops around it run."""
    found: Names = []
    for statement in statements(function):
        if (
            isinstance(statement, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == local for t in statement.targets)
            and isinstance(statement.value, (ast.List, ast.Tuple, ast.ListComp))
        ):
            found += _parameter_names(statement.value, function, module, project)
    for loop_path, call in _append_calls(function, local):
        name = created_name(call.args[0], module, project)
        if name is None:
            continue
        times: int | None = 1
        for loop in loop_path:
            length = _length(loop.iter) if isinstance(loop, ast.For) else None
            times = None if times is None or length is None else times * length
        found.append((name, times))
    return found


def _append_calls(
    function: ast.FunctionDef | ast.AsyncFunctionDef, local: str
) -> Iterator[tuple[list[ast.For | ast.While], ast.Call]]:
    """``local.append(x)`` calls of the function, each with the loops around it."""
    stack: list[tuple[ast.AST, list[ast.For | ast.While]]] = [(statement, []) for statement in function.body]
    while stack:
        node, loops = stack.pop()
        if isinstance(node, (ast.For, ast.While)):
            stack.extend((inner, [*loops, node]) for inner in node.body)
            continue
        if isinstance(node, ast.stmt) and not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for field in ("body", "orelse", "finalbody"):
                stack.extend((inner, loops) for inner in getattr(node, field, []))
            for inner in ast.iter_child_nodes(node):
                if isinstance(inner, ast.expr):
                    for call in descendants(inner):
                        if (
                            isinstance(call, ast.Call)
                            and isinstance(call.func, ast.Attribute)
                            and call.func.attr == "append"
                            and isinstance(call.func.value, ast.Name)
                            and call.func.value.id == local
                            and len(call.args) == 1
                        ):
                            yield loops, call


def _length(iterable: ast.expr) -> int | None:
    """How many items a loop over ``iterable`` takes, where the code says: ``range`` of numbers, a display."""
    if isinstance(iterable, (ast.List, ast.Tuple)):
        return len(iterable.elts)
    if isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name) and iterable.func.id == "range":
        bounds = [a.value for a in iterable.args if isinstance(a, ast.Constant) and isinstance(a.value, int)]
        if len(bounds) == len(iterable.args) == 1:
            return max(bounds[0], 0)
        if len(bounds) == len(iterable.args) == 2:
            return max(bounds[1] - bounds[0], 0)
    return None
