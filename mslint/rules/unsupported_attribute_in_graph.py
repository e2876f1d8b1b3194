from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

from mslint.diagnostics import Severity
from mslint.model.cell_classes import cell_classes, is_plain_cell, method, mindspore_bases
from mslint.model.cell_receivers import cell_classes_of
from mslint.model.module import ModuleInfo, is_self_attribute
from mslint.model.project import ClassRef, Project, qualified_name, self_attribute_stores
from mslint.model.pynative import may_run_in_pynative
from mslint.model.scope import GraphFunction
from mslint.model.walk import descendants, raised
from mslint.release import Release
from mslint.rules.base import Finding, Rule
from mslint.settings import Settings


class UnsupportedAttributeInGraph(Rule):
    """
    ## What it does
    Flags, in graph code, attribute accesses the graph compiler rejects: an assignment to an
    attribute of an item (`self.blocks[0].scale = x`), and a read of an attribute that a Cell
    of the project never has (`self.missing`, `self.encoder.missing`,
    `getattr(self, "missing")`). An attribute counts as had when its class or a base defines
    it in the class body, when the project assigns or registers an attribute of that name
    anywhere (`obj.name = ...`, `setattr(obj, "name", ...)`, `insert_child_to_cell("name", ...)`,
    `add_flags(name=...)` and `add_flags_recursive(name=...)`, which set the Cell's attributes),
    or when `nn.Cell` itself has it (`self.training`, `self.phase`: read from the installed
    MindSpore by `scripts/generate_attribute_table.py`). Nothing is said of a class that
    computes its attributes (`__getattr__`, `setattr` with a computed name, `__dict__`), that
    derives from a class outside the project other than a Cell class of MindSpore's, nor of a
    read in a function that asks `hasattr(..., "name")` first. A subclass of a MindSpore Cell
    other than `nn.Cell` (`nn.LossBase`, `nn.TrainOneStepCell`) has what that class sets too
    (`self.reduce_mean`, `self.network`: read from the installed MindSpore, with the Cell's own).
    A sub-Cell assigned in `__init__` to a name `nn.Cell` already has (`self.cells =
    nn.CellList(...)`, `self.construct`, `self.to`, ...: every public method and property of `nn.Cell`
    but `enable_backward_hook` and `pipeline_stage`/`pipeline_segment`, measured on the release by
    `scripts/generate_shadow_table.py`) is flagged where building the Cell fails.
    A read in `__init__` of what the Cell never has is flagged there, where building the Cell
    fails first (`nn.Dense(4, 4, has_bias=self.with_bias)`), and not again in `construct`; a
    warning where the read may not run (under an `if`, a loop or a `try`). A read in a branch that
    a test on constants of `self` skips (`if self.attention:` where the class sets `attention` to
    `False` only, or keeps its constructor's `attention` and every instance the program builds is
    given `False`, directly, through factories, classmethods (`cls(...)` in `from_config`),
    configurations of literal fields (`cfg["attention"]`, `opts.attention`, also a setup the
    program writes: a dict or namespace of literals in its `__main__`, an `argparse` option's
    default, a YAML or JSON file it opens by a literal path) or registries looked
    up by a literal name such as `create_model("small", attention=False)`; the rest of `not self.use_past or
    self.cache`), or that `gate is not None` skips where every call gives `gate` None, is not
    flagged: MindSpore compiles an instance for the arguments it is called with, folds the test
    and never reads that branch (measured on 2.10, STRICT and LAX; no rule looks there).
    Where the instances differ (`Block(4, attention=True)` and `Block(4, gated=True)`), each
    skips what its own constants skip: a read that some instance reaches in every branch around it
    is an error that names those instances, one that no instance reaches is not flagged
    (`if self.attention and self.gated:` with neither instance both).
    A class that runs `exec` computes its attributes too. A read is a warning where the model
    cannot tell whether it fails: where code of the program sets attributes by names it cannot
    follow (`exec("self.model.{}.{} = ...".format(...))` in a trainer, `setattr(cell, key, v)` on
    the Cells `cells_and_names()` yields or `getattr` finds: set first, the read compiles), and
    where a program that runs the Cell selects `PYNATIVE_MODE` (in its script or in a function it
    calls) and none selects `GRAPH_MODE`: PyNative fails on the read only when the line runs.

    ## Why it breaks graph mode
    The compiler resolves attributes while it compiles, at every syntax level. Only a name or an
    attribute of a class member can be the target of an assignment (`RuntimeError: In graph
    mode, only attribute and name of class members can be assigned. But got Subscript.`), and
    an attribute the object lacks stops the compile (`AttributeError: ... object has no
    attribute 'missing'`) where PyNative would fail only when the line runs.

    ## Example
    ```python
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.blocks = nn.CellList([Block(), Block()])

        def construct(self, x):
            self.blocks[0].scale = x.max()
            return self.blocks[0](x) * self.gain
    ```

    ## Use instead
    ```python
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.blocks = nn.CellList([Block(), Block()])
            self.scale = Parameter(Tensor(1.0, ms.float32), requires_grad=False)
            self.gain = 2.0

        def construct(self, x):
            self.scale = x.max()
            return self.blocks[0](x) * self.gain
    ```
    """

    code = "MS120"
    symbol = "unsupported-attribute-in-graph"
    summary = "an attribute of an item assigned, or an attribute a Cell never has read, in graph code"
    warning_findings = (
        "a read in a branch of an `if` on a constant (`if self.flag:`): the compiler prunes the branch not taken; "
        "a read where the program may set attributes by names the model cannot follow (`exec`, `setattr`), or "
        "selects PYNATIVE_MODE and never GRAPH_MODE"
    )
    node_types = (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Attribute, ast.Call)

    def severity(self, settings: Settings) -> Severity:
        return Severity.ERROR

    def check_module(self, module: ModuleInfo, project: Project) -> Iterator[Finding]:
        """Reads in ``__init__`` of what the Cell never sets: building it fails there, before any
        compile (and a read of the same name in ``construct`` is never reached)."""
        for cls in cell_classes(module, project):
            init = method(cls.node, "__init__")
            if init is None:
                continue
            yield from _shadowing_cells(init, module, project)
            for node, name in _init_reads(init):
                if _never_set(cls, name, project) and not _asks_hasattr(name, init):
                    maybe = id(node) in _conditional_nodes(init)
                    yield Finding(
                        node,
                        f"`{cls.node.name}` never sets `{name}`: building it fails here (AttributeError: no attribute)"
                        + (", where the condition around it holds" if maybe else ""),
                        f"set `self.{name}` before this line, or fix the name",
                        severity=Severity.WARNING if maybe else None,
                    )

    def check_graph_node(self, node: ast.AST, function: GraphFunction) -> Iterator[Finding]:
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            yield from _item_attribute_targets(node)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
            yield from _missing_attribute(node, node.value, node.attr, function)
        elif isinstance(node, ast.Call) and _is_builtin(node.func, "getattr", function) and len(node.args) == 2:
            name = node.args[1]
            if isinstance(name, ast.Constant) and isinstance(name.value, str) and not node.keywords:
                yield from _missing_attribute(node, node.args[0], name.value, function)


def _item_attribute_targets(statement: ast.Assign | ast.AugAssign | ast.AnnAssign) -> Iterator[Finding]:
    targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
    for target in (t for top in targets for t in _flat_targets(top)):
        if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Subscript):
            yield Finding(
                target,
                f"`.{target.attr}` of an item is assigned: graph code assigns only names and attributes of "
                "class members (MindSpore: 'only attribute and name of class members can be assigned')",
                "keep the value in a Parameter of this Cell (`self.name = value`), or give the item's class "
                "a method that takes it",
            )


def _flat_targets(target: ast.expr) -> list[ast.expr]:
    if isinstance(target, (ast.Tuple, ast.List)):
        return [t for element in target.elts for t in _flat_targets(element)]
    return [target.value] if isinstance(target, ast.Starred) else [target]


def _missing_attribute(node: ast.AST, receiver: ast.expr, name: str, function: GraphFunction) -> Iterator[Finding]:
    """A read of ``self.<name>`` or ``self.<cell>.<name>`` that no class of the receiver has."""
    is_self = isinstance(receiver, ast.Name) and receiver.id == function.self_name
    if name.startswith("__") or not (is_self or is_self_attribute(receiver, function.self_name)):
        return
    project = function.project
    if name in _cell_attributes(project.release) or name in _provided_names(project):
        return
    classes = cell_classes_of(receiver, function)
    if not classes or not all(isinstance(c, ClassRef) for c in classes):
        return  # a MindSpore Cell, or not shown to be a Cell: its attributes are not known here
    refs = [c for c in classes if isinstance(c, ClassRef)]
    if _guarded_by_hasattr(name, function):
        return
    if any(_defines_or_computes(cls, name, project) for cls in refs):
        return
    if is_self and any(_init_reads_name(cls, name, project) for cls in refs):
        return  # building the Cell fails first, at the read in __init__ (flagged there)
    owner = " or ".join(sorted({f"`{c.node.name}`" for c in refs}))
    unknowns = [
        reason
        for reason in (
            "the compiler does not prune its branch on a constant condition"
            if function.unknown_constant_test(node) is not None
            else None,
            _unfollowed_setter(refs, project),
            "the program may run the Cell in PyNative (a script of the project selects PYNATIVE_MODE, or chooses "
            "the mode by a condition mslint cannot decide, and none GRAPH_MODE; PyNative fails on the read only when "
            "it runs)"
            if may_run_in_pynative(function.project, function.entry)
            else None,
        )
        if reason is not None
    ]
    yield Finding(
        node,
        f"{owner} never sets `{name}`: compiling the read fails at every syntax level (AttributeError: no attribute)"
        + (", where " + " and ".join(unknowns) if unknowns else ""),
        f"set `self.{name}` in `__init__`, or fix the name",
        severity=Severity.WARNING if unknowns else None,
    )


def _shadowing_cells(init: ast.FunctionDef, module: ModuleInfo, project: Project) -> Iterator[Finding]:
    """``self.cells = nn.CellList(...)`` in ``__init__``: a Cell given a name that ``nn.Cell`` already
    has fails to register (``insert_child_to_cell``: the child cell already exists), measured on
    the release for every public name of ``nn.Cell`` (``scripts/generate_shadow_table.py``)."""
    if not init.args.args:
        return
    self_name = init.args.args[0].arg
    rows = project.release.shadowed["rows"]
    for statement in descendants(init):
        if not isinstance(statement, ast.Assign) or not isinstance(statement.value, ast.Call):
            continue
        if not project.is_cell_name(qualified_name(statement.value.func, module), module):
            continue
        for target in statement.targets:
            if not is_self_attribute(target, self_name):
                continue
            assert isinstance(target, ast.Attribute)
            outcome = rows.get(target.attr, {}).get("cell", "ok")
            if outcome.startswith("build:"):
                error = outcome.split(":")[1].strip()
                yield Finding(
                    target,
                    f"`{target.attr}` is a member of `nn.Cell`: a sub-Cell of that name fails to register, and "
                    f"building the Cell fails here ({error}: the child cell `{target.attr}` already exists)",
                    f"give the sub-Cell another name (`self.{target.attr}_` or `self.blocks`)",
                )


def _init_reads(init: ast.FunctionDef) -> list[tuple[ast.Attribute, str]]:
    """The reads ``self.<name>`` in ``__init__`` (not dunder names), but those that only build an
    exception's message (``raise ValueError(f"... {self.kind}")``: read only when raising)."""
    if not init.args.args:
        return []
    self_name = init.args.args[0].arg
    in_raise = raised(init)
    return [
        (node, node.attr)
        for node in descendants(init)
        if id(node) not in in_raise
        and isinstance(node, ast.Attribute)
        and isinstance(node.ctx, ast.Load)
        and isinstance(node.value, ast.Name)
        and node.value.id == self_name
        and not node.attr.startswith("__")
    ]


_CONDITIONAL = (ast.If, ast.IfExp, ast.While, ast.For, ast.Try, ast.BoolOp, ast.comprehension)


def _conditional_nodes(init: ast.FunctionDef) -> set[int]:
    """The nodes of ``__init__`` that may not run: under an ``if``, a loop, a ``try``, the right
    side of ``and``/``or`` (a file's presence, an argument's value decides)."""
    return {id(inner) for node in descendants(init) if isinstance(node, _CONDITIONAL) for inner in descendants(node)}


def _never_set(cls: ClassRef, name: str, project: Project) -> bool:
    """Whether no class, base or code of the project gives ``cls`` an attribute ``name``."""
    if name in _cell_attributes(project.release) or name in _provided_names(project):
        return False
    return not _defines_or_computes(cls, name, project)


def _init_reads_name(cls: ClassRef, name: str, project: Project) -> bool:
    init = method(cls.node, "__init__")
    return init is not None and not _asks_hasattr(name, init) and any(read == name for _, read in _init_reads(init))


def _asks_hasattr(name: str, function: ast.FunctionDef) -> bool:
    return any(
        isinstance(n, ast.Call)
        and isinstance(n.func, ast.Name)
        and n.func.id in ("hasattr", "getattr")
        and any(isinstance(a, ast.Constant) and a.value == name for a in n.args)
        for n in descendants(function)
    )


def _defines_or_computes(cls: ClassRef, name: str, project: Project) -> bool:
    """Whether ``cls`` or a base defines ``name`` in its body, or its attributes cannot be known."""
    bases = mindspore_bases(cls, project)
    if bases is None:
        return True
    described = _base_attributes(project.release)
    for base in (b for b in bases if not is_plain_cell(b)):
        added = described.get(base)
        if added is None or name in added:
            return True  # a class the table does not describe, or one that computes its attributes
    if project.sets_own_attribute(cls, name):
        return True
    for klass in project.mro(cls):
        if klass.node.decorator_list or klass.node.keywords or name in _class_body_names(klass.node):
            return True
        if _computes_attributes(klass.node):
            return True
    return False


def _class_body_names(node: ast.ClassDef) -> set[str]:
    names: set[str] = set()
    for statement in node.body:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(statement.name)
        elif isinstance(statement, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            names.update(n.id for t in targets for n in descendants(t) if isinstance(n, ast.Name))
    return names


_ATTRIBUTE_HOOKS = frozenset({"__getattr__", "__getattribute__", "__setattr__", "__dict__", "__slots__"})


def _computes_attributes(node: ast.ClassDef) -> bool:
    """``__getattr__``, ``__dict__`` writes, ``setattr``/``insert_child_to_cell`` with a computed name, ``exec``."""
    for inner in descendants(node):
        if isinstance(inner, ast.FunctionDef) and inner.name in _ATTRIBUTE_HOOKS:
            return True
        if isinstance(inner, ast.Attribute) and inner.attr in _ATTRIBUTE_HOOKS:
            return True
        if isinstance(inner, ast.Call) and _registers(inner) and _registered_name(inner) is None:
            return True
        if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name) and inner.func.id == "exec":
            return True  # code the class runs as text may set any attribute of `self`
    return False


def _registers(call: ast.Call) -> bool:
    """``setattr(obj, name, value)``, ``obj.insert_child_to_cell(name, cell)``, ``register_buffer(...)``."""
    func = call.func
    if isinstance(func, ast.Name):
        return func.id == "setattr"
    return isinstance(func, ast.Attribute) and func.attr.startswith(("insert_", "register_", "add_module"))


def _registered_name(call: ast.Call) -> str | None:
    position = 1 if isinstance(call.func, ast.Name) else 0
    if len(call.args) <= position:
        return None
    name = call.args[position]
    return name.value if isinstance(name, ast.Constant) and isinstance(name.value, str) else None


def _adds_flags(call: ast.Call) -> bool:
    return isinstance(call.func, ast.Attribute) and call.func.attr in ("add_flags", "add_flags_recursive")


def _provided_names(project: Project) -> set[str]:
    """Every attribute name the project assigns to an object other than a method's ``self`` (any
    object may be the Cell) or registers under a constant name, and every name bound in a class
    body: reading one of them is never judged. What a method stores on ``self`` is its class's
    (``Project.sets_own_attribute``)."""
    return project.indexed(set, _add_provided_names)


def _add_provided_names(found: set[str], module: ModuleInfo) -> None:
    own = {id(store) for node in module.nodes_of(ast.ClassDef) for store in self_attribute_stores(node)}
    found.update(
        n.attr for n in module.nodes_of(ast.Attribute) if isinstance(n.ctx, (ast.Store, ast.Del)) and id(n) not in own
    )
    registered = (_registered_name(n) for n in module.nodes_of(ast.Call) if _registers(n))
    found.update(name for name in registered if name is not None)
    # `cell.add_flags(use_cache=True)` (and `add_flags_recursive`) sets `cell.use_cache`: MindSpore
    # updates the Cell's `__dict__` with the flags
    found.update(k.arg for n in module.nodes_of(ast.Call) if _adds_flags(n) for k in n.keywords if k.arg is not None)
    for node in module.nodes_of(ast.ClassDef):
        found.update(_class_body_names(node))


@cache
def _cell_attributes(release: Release) -> frozenset[str]:
    return frozenset(release.attributes["Cell"])


@cache
def _base_attributes(release: Release) -> dict[str, frozenset[str] | None]:
    """What each Cell class of MindSpore adds to ``nn.Cell`` (None: it computes its attributes)."""
    bases: dict[str, list[str] | None] = release.attributes.get("bases", {})
    return {name: None if added is None else frozenset(added) for name, added in bases.items()}


def _guarded_by_hasattr(name: str, function: GraphFunction) -> bool:
    return any(
        isinstance(n, ast.Call)
        and _is_builtin(n.func, "hasattr", function)
        and any(isinstance(a, ast.Constant) and a.value == name for a in n.args)
        for n in descendants(function.node)
    )


def _is_builtin(func: ast.expr, name: str, function: GraphFunction) -> bool:
    return function.qualname(func) == f"builtins.{name}"


_CELL_WALKS = frozenset({"cells", "cells_and_names", "name_cells", "modules", "named_modules", "children"})
"""Methods that walk a Cell's sub-Cells (MindSpore's, and the PyTorch names ports keep)."""


def _unfollowed_setter(cells: list[ClassRef], project: Project) -> str | None:
    """Where code of the program that runs ``cells`` may set attributes the model cannot name on a
    Cell: ``exec`` of built text (``exec("self.model.{}.{} = ...".format(...))``), or
    ``setattr``/``delattr`` with a computed name on a Cell that ``getattr`` finds
    (``setattr(getattr(net, part), key, v)``) or that a walk of a Cell yields (``for _, m in
    net.cells_and_names(): setattr(m, key, v)``). Then no read of an attribute the project never
    sets by name is known to fail: each is a warning."""
    setters = project.derived(_unfollowed_setters)
    if not setters:
        return None
    for cell in cells:
        for module in project.program_of(cell.module):
            found = setters.get(module.path)
            if found is not None:
                return f"code the model cannot follow may set it ({found})"
    return None


def _unfollowed_setters(project: Project) -> dict[Path, str]:
    """The modules with an attribute setter the model cannot follow, each with the first one."""
    found: dict[Path, str] = {}
    for module in project.modules:
        walked = _walk_variables(module)
        for call in module.nodes_of(ast.Call):
            if isinstance(call.func, ast.Name) and call.func.id == "exec" and call.args:
                if not (isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str)):
                    found[module.path] = f"`exec` at {module.path.name}:{call.lineno}"
                    break
            elif _sets_computed_name_on_a_cell(call, walked):
                found[module.path] = f"`{ast.unparse(call.func)}` at {module.path.name}:{call.lineno}"
                break
    return found


def _sets_computed_name_on_a_cell(call: ast.Call, walked: set[str]) -> bool:
    if not (isinstance(call.func, ast.Name) and call.func.id in ("setattr", "delattr") and len(call.args) >= 2):
        return False
    name, receiver = call.args[1], call.args[0]
    if isinstance(name, ast.Constant) and isinstance(name.value, str):
        return False
    if isinstance(receiver, ast.Name):
        return receiver.id in walked
    if isinstance(receiver, ast.Call):
        return isinstance(receiver.func, ast.Name) and receiver.func.id == "getattr"
    return isinstance(receiver, ast.Attribute) and _root_name(receiver) in walked


def _root_name(expr: ast.expr) -> str | None:
    while isinstance(expr, (ast.Attribute, ast.Subscript)):
        expr = expr.value
    return expr.id if isinstance(expr, ast.Name) else None


def _walk_variables(module: ModuleInfo) -> set[str]:
    """The loop variables of the module bound by a walk of a Cell's sub-Cells."""
    return {
        target.id
        for loop in module.nodes_of(ast.For)
        if isinstance(loop.iter, ast.Call)
        and isinstance(loop.iter.func, ast.Attribute)
        and loop.iter.func.attr in _CELL_WALKS
        for target in descendants(loop.target)
        if isinstance(target, ast.Name)
    }
