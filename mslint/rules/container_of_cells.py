from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache, cached_property

from mslint.diagnostics import Edit, Fix, Severity
from mslint.imports import reference
from mslint.model.module import ModuleInfo, bound_names, call_argument, is_self_attribute
from mslint.model.project import ClassRef, FunctionRef, Project, is_mindspore_name, qualified_name
from mslint.model.scope import is_registration, returned_constructors
from mslint.model.values import all_parameter_names
from mslint.model.walk import descendants, statements
from mslint.rules._cell_classes import (
    cell_classes,
    creates_parameters,
    is_parameter_cell,
    is_plain_cell,
    mindspore_bases,
)
from mslint.rules.base import Finding, Rule
from mslint.settings import Settings

_MUTATORS = frozenset({"append", "extend", "insert", "pop", "remove", "clear", "sort", "reverse"})
_READERS = frozenset(
    f"builtins.{name}"
    for name in ("len", "enumerate", "zip", "reversed", "iter", "list", "tuple", "sum", "min", "max", "any", "all")
)


class PythonContainerOfCells(Rule):
    """
    ## What it does
    Flags a Cell attribute set to a plain Python list, tuple or dict of Cells or of
    Parameters (`self.layers = [nn.Dense(4, 4), nn.Dense(4, 4)]`), however it is built: a
    literal, a comprehension, `list(...)`/`tuple(...)` of a generator, a list grown with
    `append` before or after being assigned, a helper that returns one, or one given to
    `__init__` where the class is instantiated.

    Not flagged: lists whose Cells are registered another way (the list is also given to
    `nn.SequentialCell(*layers)` or `nn.CellList(...)`, under any attribute name, or the local
    is rebound to one or is an `nn.SequentialCell()`/`nn.CellList()` grown by `append`; each
    Cell is also set as an attribute, by `setattr` or `insert_child_to_cell`), lists of Cells
    that own no Parameters (`[nn.ReLU(), nn.GELU()]` compiles in STRICT and loses nothing;
    a dropout among them is a warning of its own: `set_train` never reaches a hidden one, so
    it never drops), and
    lists of a Cell class without `construct` that no graph code can read: neither a base
    nor a subclass compiles it and no code reads the attribute through another object
    (`self.holder.layers`).

    The fix wraps a literal of Cells in `nn.CellList([...])` (a tuple becomes a list:
    `nn.CellList` rejects tuples) or `nn.CellDict({...})`, and a literal of Parameters in
    `ParameterTuple(...)`, naming them through the module's imports (`msnn.CellList`,
    `ms.nn.CellList`, `CellList`) or adding `from mindspore import nn` /
    `from mindspore import ParameterTuple` after its last import. Parameters get no fix when
    the class changes the list (`append`, item assignment, `+=`: a tuple has none) or one of
    them is named like another attribute (registering it raises `KeyError`); the fix is
    unsafe when the class uses the list in other ways than iterating, indexing or reading it
    with builtins or MindSpore (`self.weights + [w]` needs a list). In graph code a list
    attribute of Parameters already behaves as a tuple.

    ## Why it breaks graph mode
    A Cell registers the sub-Cells and Parameters assigned to it directly, or through
    `nn.CellList`, `nn.SequentialCell`, `nn.CellDict` and `ParameterTuple`. A plain
    container hides them: their parameters are missing from `trainable_params()` (never
    trained, never saved in checkpoints), and compiling the Cell fails with
    `RuntimeError: The parameter ... its name 'weight' already exists` as soon as two of
    the hidden Cells have parameters of the same name. A plain list of Parameters compiles
    but is silently left out of training. A hidden `nn.Dropout` compiles too, but
    `set_train(True)` does not reach it: measured with MindSpore 2.10, in graph and in
    PyNative mode, `[nn.ReLU(), nn.Dropout(p=0.5)]` dropped 0 of 1,000 values in training,
    where the same Cells in an `nn.CellList` dropped 484.

    ## Example
    ```python
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.layers = [nn.Dense(4, 4), nn.Dense(4, 4)]
            self.weights = [Parameter(Tensor(np.ones(4), ms.float32), name="w0")]
    ```

    ## Use instead
    ```python
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.layers = nn.CellList([nn.Dense(4, 4), nn.Dense(4, 4)])
            self.weights = ParameterTuple([Parameter(Tensor(np.ones(4), ms.float32), name="w0")])
    ```
    """

    code = "MS103"
    symbol = "python-container-of-cells"
    summary = "a plain list, tuple or dict of Cells, or of Parameters (a warning), kept as a Cell attribute"
    warning_findings = "containers of Parameters, and of dropouts among Cells without Parameters"

    def severity(self, settings: Settings) -> Severity:
        return Severity.ERROR

    def check_module(self, module: ModuleInfo, project: Project) -> Iterator[Finding]:
        # Walks the module's whole program: only for a finding in a Cell that graph code may not read.
        read_from_outside = cache(lambda: _attributes_read_from_outside(module, project))
        for cls in cell_classes(module, project):
            compiled = _is_compiled(cls, project)
            for method in cls.node.body:
                if isinstance(method, ast.FunctionDef) and _assigns_own_attributes(method):
                    for finding in _MethodCheck(module, project, cls.node, method).findings():
                        assert isinstance(finding.node, ast.Attribute)
                        if compiled or finding.node.attr in read_from_outside():
                            yield finding


def _assigns_own_attributes(method: ast.FunctionDef) -> bool:
    """Whether the method assigns ``self.<attribute> = ...``: only such a method keeps a container
    (found from its statements, without walking the expressions of every method)."""
    if not method.args.args:
        return False
    self_name = method.args.args[0].arg
    return any(
        isinstance(node, ast.Assign) and any(is_self_attribute(target, self_name) for target in node.targets)
        for node in statements(method)
    )


class _MethodCheck:
    def __init__(self, module: ModuleInfo, project: Project, cls: ast.ClassDef, method: ast.FunctionDef) -> None:
        self.module = module
        self.project = project
        self.cls = cls
        self.self_name = method.args.args[0].arg
        self.method = method
        self.values: dict[str, list[ast.expr]] = {}
        """Values bound to local names, and what lists grow by (``append``/``extend``/``+=``)."""
        self.last_assignment: dict[str, tuple[ast.Attribute, ast.expr]] = {}
        """The last ``self.<attribute> = value`` of each attribute: a later one replaces the earlier."""
        self.registered: set[str] = set()
        """Local names also given to the Cell directly (``self.x = conv``, ``setattr(self, k, conv)``)."""
        self.registered_lists: set[str] = set()
        """Lists whose Cells are registered one by one (``setattr(self, k, layers[i])``)."""
        self.loops: list[ast.For] = []
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
            elif isinstance(node, ast.Call) and is_registration(node):
                self.registered.update(a.id for a in node.args[1:] if isinstance(a, ast.Name))
                self.registered_lists.update(self._key(a.value) for a in node.args[1:] if isinstance(a, ast.Subscript))
            elif isinstance(node, ast.For):
                self.loops.append(node)
        self.local_names = frozenset(self.values)
        self.container_modules: dict[int, ModuleInfo] = {}
        """Containers written in another module (given to ``__init__``), by node id: their module."""

    @cached_property
    def wrapped(self) -> set[str]:
        """Lists (``name``, ``self.name``) whose Cells are registered another way: given to a Cell
        (``nn.SequentialCell(*layers)``, ``nn.CellList(self.layers)``) or one by one. Worked out
        only for a method that keeps a container: it resolves every call of the method."""
        wrapped = set(self.registered_lists)
        for node in descendants(self.method):
            if isinstance(node, ast.Call) and self._is_cell_call(node):
                arguments = [*node.args, *(k.value for k in node.keywords)]
                wrapped.update(self._key(a.value if isinstance(a, ast.Starred) else a) for a in arguments)
        for loop in self.loops:  # `for i, cell in enumerate(self.layers): self.insert_child_to_cell(..., cell)`
            if self.registered.intersection(bound_names(loop.target)):
                iterated = loop.iter
                if isinstance(iterated, ast.Call) and iterated.args and not self._is_cell_call(iterated):
                    iterated = iterated.args[0]
                wrapped.add(self._key(iterated))
        wrapped.discard("")
        return wrapped

    @cached_property
    def shadowed(self) -> frozenset[str]:
        """Names the method binds itself: they hide the module's imports from its code."""
        return frozenset(
            all_parameter_names(self.method)
            + [n.id for n in descendants(self.method) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)]
        )

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
        if not containers or f"self.{target.attr}" in self.wrapped:
            return
        containers += [c for grown in growth for c in self._containers(grown, set())]
        container = containers[0]
        kinds = set().union(*(self._element_kinds(c, set()) for c in containers))
        if "cell" in kinds or ("dropout" in kinds and "parameter" not in kinds):
            wrapper = "CellDict" if isinstance(container, (ast.Dict, ast.DictComp)) else "CellList"
            cells = "cell" in kinds
            yield Finding(
                target,
                f"`self.{target.attr}` keeps Cells in a plain {_container_name(container)}: "
                + (
                    "their parameters are not registered or trained"
                    if cells
                    else "`set_train` never reaches its dropout, so it never drops"
                ),
                hint="make it a list in `nn.CellList([...])`"
                if isinstance(container, ast.Tuple)
                else f"wrap it in `nn.{wrapper}(...)`",
                severity=None if cells else Severity.WARNING,
                fix=self._wrap_fix(value, f"mindspore.nn.{wrapper}", as_list=True) if value is container else None,
            )
        elif "parameter" in kinds:
            yield Finding(
                target,
                f"`self.{target.attr}` keeps Parameters in a plain {_container_name(container)}: "
                "they are not registered or trained",
                hint="wrap it in `ParameterTuple(...)`",
                severity=Severity.WARNING,
                fix=self._parameter_tuple_fix(target.attr, value) if value is container else None,
            )

    def _wrap_fix(
        self, container: ast.expr, qualname: str, applicability: str = "safe", as_list: bool = False
    ) -> Fix | None:
        """Wrap the literal in ``qualname`` (``mindspore.nn.CellList``), named through the module's
        imports or an import the fix adds. ``as_list``: make a tuple a list (``nn.CellList`` raises
        "TypeError: For 'CellList', the new cells wanted to append should be instance of list, but
        got tuple.")."""
        found = reference(self.module, qualname, self.shadowed)
        if found is None or container.end_lineno is None or container.end_col_offset is None:
            return None
        wrapper, added_import = found
        opening, closing, width = f"{wrapper}(", ")", 0
        if isinstance(container, ast.Tuple):
            opening, closing = opening + ("[" if as_list else "("), ("]" if as_list else ")") + closing
            # A parenthesized tuple's own parentheses are replaced; a bare one (`a, b`) gets new ones.
            first = self.module.line(container.lineno).encode("utf-8")[container.col_offset : container.col_offset + 1]
            width = 1 if first == b"(" else 0
        start, end = container.col_offset + 1, container.end_col_offset + 1
        edits = (
            Edit(container.lineno, start, container.lineno, start + width, opening),
            Edit(container.end_lineno, end - width, container.end_lineno, end, closing),
        )
        if added_import is None:
            return Fix(f"Wrap in `{wrapper}`", edits, applicability)
        return Fix(
            f"Wrap in `{wrapper}` and add `{added_import.content.strip()}`", (*edits, added_import), applicability
        )

    def _parameter_tuple_fix(self, attribute: str, container: ast.expr) -> Fix | None:
        """``ParameterTuple([...])`` for a list or tuple of Parameters only (it raises TypeError on
        anything else), when no Parameter is named like another attribute of the Cell (registering
        it raises "KeyError: For 'insert_param_to_cell', the scale parameter already exists")."""
        elements = container.elts if isinstance(container, (ast.List, ast.Tuple)) else []
        if isinstance(container, ast.ListComp):
            elements = [container.elt]
        if not elements or any(isinstance(e, ast.Name) and e.id not in self.values for e in elements):
            return None
        calls = [v for e in elements for v in (self.values[e.id] if isinstance(e, ast.Name) else [e])]
        if not all(self._value_kind(call) == {"parameter"} for call in calls):
            return None
        attributes = {
            node.attr
            for node in descendants(self.cls)
            if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and node.attr != attribute
        }
        if any(isinstance(call, ast.Call) and _literal_name(call) in attributes for call in calls):
            return None
        applicability = self._tuple_applicability(attribute)
        return self._wrap_fix(container, "mindspore.ParameterTuple", applicability) if applicability else None

    def _tuple_applicability(self, attribute: str) -> str | None:
        """How safely ``self.<attribute>`` can become a tuple, from its uses in the class: None when
        the class changes it (a tuple has no ``append``, item assignment or ``+=``); ``unsafe``
        when it is used otherwise than iterated, indexed, or passed to a builtin that reads it
        (``len``, ``zip``) or to MindSpore (``self.weights + [w]`` needs a list); else ``safe``:
        graph code already treats a list attribute of Parameters as a tuple."""
        selves = {m.args.args[0].arg for m in self.cls.body if isinstance(m, ast.FunctionDef) and m.args.args}

        def is_it(node: ast.AST) -> bool:
            return any(is_self_attribute(node, name) for name in selves) and getattr(node, "attr", None) == attribute

        loads = reads = 0
        for node in descendants(self.cls):
            loads += is_it(node) and isinstance(getattr(node, "ctx", None), ast.Load)
            if isinstance(node, ast.AugAssign) and is_it(node.target):
                return None
            if isinstance(node, ast.Subscript) and is_it(node.value):
                if not isinstance(node.ctx, ast.Load):
                    return None
                reads += 1
            elif isinstance(node, ast.Attribute) and is_it(node.value):
                if node.attr in _MUTATORS:
                    return None
                reads += node.attr in ("index", "count")
            elif isinstance(node, (ast.For, ast.comprehension)) and is_it(node.iter):
                reads += 1
            elif isinstance(node, ast.Call):
                qualname = qualified_name(node.func, self.module)
                if qualname in _READERS or is_mindspore_name(qualname):
                    reads += sum(is_it(argument) for argument in node.args)
        return "safe" if reads == loads else "unsafe"

    def _containers(self, value: ast.expr, seen: set[str]) -> list[ast.expr]:
        """The container literals ``value`` is, or a local name was built from."""
        if isinstance(value, (ast.List, ast.Tuple, ast.Dict, ast.ListComp, ast.DictComp)):
            return [value]
        if _is_sequence_call(value, self.module):  # `tuple(nn.Dense(3, 3) for _ in range(2))`, `list(...)`
            assert isinstance(value, ast.Call)
            (items,) = value.args
            return [items] if isinstance(items, ast.GeneratorExp) else self._containers(items, seen)
        if isinstance(value, ast.Name) and value.id in self.values and value.id not in seen:
            seen.add(value.id)
            values = self.values[value.id]
            # A name given to a Cell, or bound to one (`layers = nn.SequentialCell()` grown by
            # `append`), holds registered Cells: its other values are what the Cell was built from.
            if value.id in self.wrapped or any(isinstance(v, ast.Call) and self._is_cell_call(v) for v in values):
                return []
            return [c for v in values for c in self._containers(v, seen)]
        if isinstance(value, ast.Name) and value.id in all_parameter_names(self.method)[1:]:
            return self._given_containers(value.id)
        return []

    def _given_containers(self, parameter: str) -> list[ast.expr]:
        """The container literals the class's instantiations in the project give ``parameter``
        of ``__init__`` (``Net([Block(), Block()])``); their items are read in their own module."""
        if self.method.name != "__init__":
            return []
        positional = [a.arg for a in [*self.method.args.posonlyargs, *self.method.args.args]][1:]
        found: list[ast.expr] = []
        for call, module in self.project.derived(_calls_given_containers).get(self.cls.name, []):
            made = self.project.resolve_expr(call.func, module)
            if not (isinstance(made, ClassRef) and made.node is self.cls):
                continue
            given = dict(zip(positional, call.args))
            given.update((k.arg, k.value) for k in call.keywords if k.arg is not None)
            argument = given.get(parameter)
            if argument is not None and _is_container(argument):
                self.container_modules[id(argument)] = module
                found.append(argument)
        return found

    def _element_kinds(self, container: ast.expr, seen: set[str]) -> set[str]:
        module = self.container_modules.get(id(container))
        if module is not None:
            return set().union(*(self._value_kind(item, module) for item in _items(container)))
        kinds = set()
        for element in _items(container):
            if isinstance(element, ast.Name) and element.id in self.registered:
                continue
            if isinstance(element, ast.Name) and element.id in self.values and element.id not in seen:
                seen.add(element.id)
                for value in self.values[element.id]:
                    kinds |= self._element_kinds(value, seen) or self._value_kind(value)
            else:
                kinds |= self._value_kind(element)
        return kinds

    def _value_kind(self, value: ast.expr, module: ModuleInfo | None = None) -> set[str]:
        """What an item of a container is: a Cell owning Parameters, a dropout, a Parameter;
        ``module``: where the item is written, when not in this method."""
        if not isinstance(value, ast.Call):
            return set()
        if module is not None:
            qualname = qualified_name(value.func, module)
            if is_mindspore_name(qualname, "Parameter"):
                return {"parameter"}
            if not self.project.is_cell_name(qualname, module) or _parameter_free(self.project, qualname or "", module):
                return set()
            return {"dropout"} if _is_dropout(qualname) else {"cell"}
        qualname = qualified_name(value.func, self.module, self.local_names)
        if is_mindspore_name(qualname, "Parameter"):
            return {"parameter"}
        if not self.project.is_cell_name(qualname, self.module):
            return self._helper_kinds(value, qualname)
        if self._owns_no_parameters(value):
            return set()
        return {"dropout"} if _is_dropout(qualname) else {"cell"}

    def _helper_kinds(self, call: ast.Call, qualname: str | None) -> set[str]:
        """What a helper of the checked code returns (``self._make_layer(64, 2)`` returning
        ``nn.SequentialCell(*layers)``, the ResNet port pattern): a Cell that owns Parameters, or a
        Parameter."""
        func = call.func
        if isinstance(func, ast.Attribute) and is_self_attribute(func, self.self_name):
            helper = self.project.find_method(ClassRef(self.module, self.cls), func.attr)
        else:
            resolved = self.project.resolve(qualname, self.module) if qualname else None
            helper = resolved if isinstance(resolved, FunctionRef) else None
        if helper is None:
            return set()
        kinds = set()
        for returned in returned_constructors(helper):
            if is_mindspore_name(returned, "Parameter"):
                kinds.add("parameter")
            elif self.project.is_cell_name(returned, helper.module) and not _parameter_free(
                self.project, returned, helper.module
            ):
                kinds.add("dropout" if _is_dropout(returned) else "cell")
        return kinds

    def _is_cell_call(self, call: ast.Call) -> bool:
        return self.project.is_cell_name(qualified_name(call.func, self.module, self.local_names), self.module)

    def _owns_no_parameters(self, cell: ast.Call) -> bool:
        """A Cell built without Parameters: an activation, pooling or loss of MindSpore, or a Cell
        of the checked code that creates none and is given no Cells. Hidden in a plain container,
        it compiles and loses nothing; a hidden dropout is never switched by ``set_train``, so
        dropouts stay flagged."""
        qualname = qualified_name(cell.func, self.module, self.local_names) or ""
        if is_mindspore_name(qualname):
            return _parameter_free(self.project, qualname, self.module)
        resolved = self.project.resolve(qualname, self.module)
        arguments = [*cell.args, *(k.value for k in cell.keywords)]
        return (
            isinstance(resolved, ClassRef)
            and not creates_parameters(self.project, resolved)
            and all(isinstance(a, ast.Constant) for a in arguments)
        )


def _parameter_free(project: Project, qualname: str, module: ModuleInfo) -> bool:
    """A Cell class that owns no Parameters whatever it is given: an activation, pooling or
    loss of MindSpore, or a class of the checked code that creates none."""
    if is_mindspore_name(qualname):
        name = qualname.rsplit(".", 1)[-1]
        return not (is_parameter_cell(qualname) or name.endswith(_HOLDING_CELLS) or _is_dropout(qualname))
    resolved = project.resolve(qualname, module)
    return isinstance(resolved, ClassRef) and not creates_parameters(project, resolved)


def _is_container(value: ast.expr) -> bool:
    return isinstance(value, (ast.List, ast.Tuple, ast.Dict, ast.ListComp, ast.DictComp))


def _items(container: ast.expr) -> list[ast.expr]:
    if isinstance(container, (ast.List, ast.Tuple)):
        return [e.value if isinstance(e, ast.Starred) else e for e in container.elts]
    if isinstance(container, ast.Dict):
        return list(container.values)
    if isinstance(container, (ast.ListComp, ast.GeneratorExp)):
        return [container.elt]
    if isinstance(container, ast.DictComp):
        return [container.value]
    return []


def _calls_given_containers(project: Project) -> dict[str, list[tuple[ast.Call, ModuleInfo]]]:
    """By the name called: the calls of the project that give a container literal of calls
    (``Net([Block(), Block()])``), candidates for Cells handed their sub-Cells in a list."""
    found: dict[str, list[tuple[ast.Call, ModuleInfo]]] = {}
    for module in project.modules:
        for name, calls in _module_calls_given_containers(module).items():
            found.setdefault(name, []).extend((call, module) for call in calls)
    return found


_GIVEN_CONTAINERS = "_mslint_calls_given_containers"


def _module_calls_given_containers(module: ModuleInfo) -> dict[str, list[ast.Call]]:
    """:func:`_calls_given_containers` of one module, kept on its tree (each project of a run asks)."""
    cached: dict[str, list[ast.Call]] | None = module.tree.__dict__.get(_GIVEN_CONTAINERS)
    if cached is None:
        cached = {}
        for node in module.nodes_of(ast.Call):
            if not (node.args or node.keywords):
                continue
            arguments = [*node.args, *(k.value for k in node.keywords)]
            if any(_is_container(a) and any(isinstance(i, ast.Call) for i in _items(a)) for a in arguments):
                name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
                if name:
                    cached.setdefault(name, []).append(node)
        setattr(module.tree, _GIVEN_CONTAINERS, cached)
    return cached


def _is_dropout(qualname: str | None) -> bool:
    """MindSpore's dropouts: Parameter-free, but switched on only by a ``set_train`` that reaches them."""
    return is_mindspore_name(qualname) and "Dropout" in (qualname or "").rsplit(".", 1)[-1]


def _is_compiled(cls: ClassRef, project: Project) -> bool:
    """Whether graph code may read the Cell's own attributes: it, a base or a subclass of the
    checked code defines ``construct`` (or ``forward``), or it derives from a Cell that is not
    plain ``nn.Cell``."""
    bases = mindspore_bases(cls, project)
    if bases is None or not all(is_plain_cell(b) for b in bases) or _defines_construct(cls, project):
        return True
    return id(cls.node) in project.derived(_bases_of_compiled_classes)


def _bases_of_compiled_classes(project: Project) -> frozenset[int]:
    """The class nodes (ids) that a class of the project defining ``construct`` derives from."""
    return frozenset(
        id(base.node)
        for module in project.modules
        for sub in (ClassRef(module, node) for node in module.classes.values())
        if _defines_construct(sub, project)
        for base in project.mro(sub)
    )


def _defines_construct(cls: ClassRef, project: Project) -> bool:
    """``construct``, or PyTorch's ``forward`` that forward-instead-of-construct asks to rename."""
    return any(project.find_method(cls, name) for name in ("construct", "forward"))


def _attributes_read_from_outside(module: ModuleInfo, project: Project) -> frozenset[str]:
    """Attributes the module's program reads through another object than ``self``
    (``self.holder.layers``): a Cell without ``construct`` may keep Cells for another Cell's
    graph code."""
    return frozenset(name for other in project.program_of(module) for name in _outside_reads(other))


def _outside_reads(module: ModuleInfo) -> frozenset[str]:
    cached: frozenset[str] | None = module.tree.__dict__.get(_OUTSIDE_READS)
    if cached is None:
        cached = frozenset(
            node.attr
            for node in descendants(module.tree)
            if isinstance(node, ast.Attribute)
            and isinstance(node.ctx, ast.Load)
            and not (isinstance(node.value, ast.Name) and node.value.id == "self")
        )
        setattr(module.tree, _OUTSIDE_READS, cached)
    return cached


_OUTSIDE_READS = "_mslint_outside_reads"
# Containers and wrappers: they own the Parameters of the Cells they are given.
_HOLDING_CELLS = ("Cell", "CellList", "CellDict")


def _is_list_growth(node: ast.Call) -> bool:
    return (
        isinstance(node.func, ast.Attribute)
        and node.func.attr in ("append", "extend", "insert")
        and isinstance(node.func.value, (ast.Name, ast.Attribute))
        and len(node.args) == (2 if node.func.attr == "insert" else 1)
    )


def _literal_name(parameter: ast.Call) -> object:
    """The ``name`` a ``Parameter(data, name)`` call gives, when it is a literal."""
    name = call_argument(parameter, 1, "name")
    return name.value if isinstance(name, ast.Constant) else None


def _container_name(container: ast.expr) -> str:
    if isinstance(container, (ast.Dict, ast.DictComp)):
        return "dict"
    return "tuple" if isinstance(container, (ast.Tuple, ast.GeneratorExp)) else "list"


def _is_sequence_call(value: ast.expr, module: ModuleInfo) -> bool:
    """``list(x)`` or ``tuple(x)`` of one argument."""
    return (
        isinstance(value, ast.Call)
        and len(value.args) == 1
        and not value.keywords
        and qualified_name(value.func, module) in ("builtins.list", "builtins.tuple")
    )
