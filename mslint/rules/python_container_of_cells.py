from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from functools import cache, cached_property

from mslint.diagnostics import Edit, Fix, Severity
from mslint.imports import reference
from mslint.model.abstract import AbstractInstance, AbstractTensor, AbstractValue
from mslint.model.binder import all_parameter_names
from mslint.model.cell_classes import cell_classes, is_base_of_a_construct, is_plain_cell, mindspore_bases
from mslint.model.host_values import Container, HostValues, NotTrainedParameter
from mslint.model.memo import NodeMemo
from mslint.model.module import ModuleInfo, bound_names, call_argument, is_self_attribute
from mslint.model.project import ClassRef, Project, is_mindspore_name, qualified_name
from mslint.model.scope import registered_cell, registrations_in
from mslint.model.walk import descendants, statements
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
    Cell is also set as an attribute, by `setattr` or `insert_child_to_cell`, added to an
    `nn.CellList()` the Cell keeps (`self.layers.append(stage)`, `self.layers.append(self.stages[-1])`,
    `self.layers.extend(self.stages)`), or to a list a Cell is given), what a factory returns that is no list (`layers =
    build_mlp(...); layers.append(nn.LayerNorm(...))` where `build_mlp` returns an
    `nn.SequentialCell`, or a function mslint cannot follow), lists of Cells
    that own no Parameters (`[nn.ReLU(), nn.GELU()]` compiles in STRICT and loses nothing;
    a dropout among them is a warning of its own: `set_train` never reaches a hidden one, so
    it never drops), lists of Parameters made with `requires_grad=False` (state the program
    updates with `set_data`, which graph code sees in a plain list too, measured on 2.10; no
    training is meant to reach them), lists of Parameters whose Cell also keeps a `ParameterTuple` of
    the list (`self.V = ParameterTuple(self.param_list)` registers each of them), lists of
    Parameters an optimizer (a subclass of `nn.Optimizer`) keeps: its own state (a copy of the
    starting point, per-parameter accumulators), which it updates itself, and
    lists of a Cell class without `construct` that no graph code can read: neither a base
    nor a subclass compiles it and no code reads the attribute through another object
    (`self.holder.layers`). A Cell class of the checked code that creates no Parameters owns
    those of what it is given: an error where an argument is a Cell that owns some
    (`[Wrapper(nn.Dense(4, 4)), ...]`), nothing where every argument is known to be a number,
    string or tensor, or is one the class's `__init__` always computes with as a number
    (`np.power(batch_size, ...)`, `size * 2`, `Tensor(array)`: given a Cell, building the class
    would raise TypeError; a list of losses built from a script's options compiles in GRAPH mode
    and trains, measured on 2.10), and a warning that says so where mslint cannot follow an
    argument (`[Act(name) for name in names]`).

    The fix wraps a literal of Cells in `nn.CellList([...])` (a tuple becomes a list:
    `nn.CellList` rejects tuples) or `nn.CellDict({...})`, and a literal of Parameters in
    `ParameterTuple(...)`, naming them through the module's imports (`msnn.CellList`,
    `ms.nn.CellList`, `CellList`) or adding `from mindspore import nn` /
    `from mindspore import ParameterTuple` after its last import. Cells get no fix when the
    class hands the whole list to a call (`layers.extend(self.stages)` wants a list).
    Parameters get no fix when the class changes the list (`append`, item assignment, `+=`: a
    tuple has none) or one of them is named like another attribute (registering it raises
    `KeyError`); the fix is unsafe when the class uses the list in other ways than iterating,
    indexing or reading it with builtins or MindSpore (`self.weights + [w]` needs a list). In
    graph code a list attribute of Parameters already behaves as a tuple.

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
    warning_findings = (
        "containers of Parameters, of dropouts among Cells without Parameters, and of Cells of the checked code "
        "that create none and are given what mslint could not follow"
    )

    def severity(self, settings: Settings) -> Severity:
        return Severity.ERROR

    def check_module(self, module: ModuleInfo, project: Project) -> Iterator[Finding]:
        # Walks the module's whole program: only for a finding in a Cell that graph code may not read.
        read_from_outside = cache(lambda: _attributes_read_from_outside(module, project))
        for cls in cell_classes(module, project):
            compiled = _is_compiled(cls, project)
            optimizer = _is_optimizer(cls, project)
            for method in cls.node.body:
                if isinstance(method, ast.FunctionDef) and _assigns_own_attributes(method):
                    for finding in _MethodCheck(module, project, cls, method, optimizer).findings():
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
    def __init__(
        self, module: ModuleInfo, project: Project, cls: ClassRef, method: ast.FunctionDef, optimizer: bool = False
    ) -> None:
        self.module = module
        self.optimizer = optimizer
        """Whether the Cell is an optimizer: the Parameters it keeps are its state, which it updates itself."""
        self.cls = cls.node
        self.self_name = method.args.args[0].arg
        self.method = method
        self.values = HostValues(method, module, project, cls)
        self.last_assignment: dict[str, tuple[ast.Attribute, ast.expr]] = {}
        """The last ``self.<attribute> = value`` of each attribute: a later one replaces the earlier."""
        self.registered: set[str] = set()
        """Local names also given to the Cell directly (``self.x = conv``, ``setattr(self, k, conv)``)."""
        self.registered_lists: set[str] = set()
        """Lists whose Cells are registered one by one (``setattr(self, k, layers[i])``)."""
        self.loops: list[ast.For] = []
        for node in statements(method):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if is_self_attribute(target, self.self_name):
                        assert isinstance(target, ast.Attribute)
                        self.last_assignment[target.attr] = (target, node.value)
                        if isinstance(node.value, ast.Name):
                            self.registered.add(node.value.id)
            elif isinstance(node, ast.For):
                self.loops.append(node)
        for call in registrations_in(module, method):
            cell = registered_cell(call)
            if isinstance(cell, ast.Name):
                self.registered.add(cell.id)
            elif isinstance(cell, ast.Subscript):
                self.registered_lists.add(self._key(cell.value))
        for key in self._registered_cell_containers():
            # `cells = nn.CellList(); cells.append(fc); self.insert_child_to_cell("fcs", cells)`:
            # what the registered CellList holds is registered too, also an item of a list
            # (`self.layers.append(self.stages[-1])`) or a whole list (`self.layers.extend(self.stages)`)
            for item in self.values.added(key):
                if isinstance(item, ast.Name):
                    self.registered.add(item.id)
                elif isinstance(item, ast.Subscript):
                    self.registered_lists.add(self._key(item.value))
            self.registered_lists.update(self._key(whole) for whole in self.values.extended_by(key))

    def _registered_cell_containers(self) -> list[str]:
        """The Cell containers (an ``nn.CellList()``) the method keeps on the Cell, as locals
        registered or as attributes (``self.cells = nn.CellList()``), named as :attr:`wrapped` does."""
        locals_ = [name for name in self.registered if self._makes_cell(self.values.assigned(name))]
        attributes = [f"self.{name}" for name, (_, value) in self.last_assignment.items() if self._makes_cell([value])]
        return locals_ + attributes

    def _makes_cell(self, values: list[ast.expr]) -> bool:
        return any(isinstance(v, ast.Call) and self.values.makes_cell(v) for v in values)

    @cached_property
    def wrapped(self) -> set[str]:
        """Lists (``name``, ``self.name``) whose Cells are registered another way: given to a Cell
        (``nn.SequentialCell(*layers)``, ``nn.CellList(self.layers)``) or one by one. Worked out
        only for a method that keeps a container: it resolves every call of the method."""
        wrapped = set(self.registered_lists)
        for node in descendants(self.method):
            if isinstance(node, ast.Call) and self.values.makes_cell(node):
                arguments = [*node.args, *(k.value for k in node.keywords)]
                wrapped.update(self._key(a.value if isinstance(a, ast.Starred) else a) for a in arguments)
        for _, value in self.last_assignment.values():
            # `self.V = ParameterTuple(self.param_list)`: the Cell registers every Parameter of the list
            if isinstance(value, ast.Call) and value.args and self._makes_parameter_tuple(value):
                wrapped.add(self._key(value.args[0]))
        for loop in self.loops:  # `for i, cell in enumerate(self.layers): self.insert_child_to_cell(..., cell)`
            if self.registered.intersection(bound_names(loop.target)):
                iterated = loop.iter
                if isinstance(iterated, ast.Call) and iterated.args and not self.values.makes_cell(iterated):
                    iterated = iterated.args[0]
                wrapped.add(self._key(iterated))
        wrapped.discard("")
        return wrapped

    def _makes_parameter_tuple(self, call: ast.Call) -> bool:
        return is_mindspore_name(qualified_name(call.func, self.module, self.shadowed), "ParameterTuple")

    @cached_property
    def shadowed(self) -> frozenset[str]:
        """Names the method binds itself: they hide the module's imports from its code."""
        return frozenset(
            all_parameter_names(self.method)
            + [n.id for n in descendants(self.method) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)]
        )

    @cached_property
    def _in_wrapped_lists(self) -> frozenset[str]:
        """Locals added to a list that a Cell is given (``layers.append(stage)`` before
        ``self.layers = nn.CellList(layers)``): the Cell registers them."""
        return frozenset(
            item.id for key in self.wrapped for item in self.values.added(key) if isinstance(item, ast.Name)
        )

    def _is_registered(self, name: str) -> bool:
        """Whether the local ``name``'s Cells are registered another way than in the list that holds them."""
        return name in self.registered or name in self._in_wrapped_lists

    def _is_wrapped(self, name: str) -> bool:
        return name in self.wrapped

    def _key(self, node: ast.expr) -> str:
        """How :attr:`wrapped` names a list: as the value model does, "" for what is no list's name."""
        return self.values.list_key(node) or ""

    def findings(self) -> Iterator[Finding]:
        for target, value in self.last_assignment.values():
            yield from self._check_assignment(target, value)

    def _check_assignment(self, target: ast.Attribute, value: ast.expr) -> Iterator[Finding]:
        containers = self.values.containers(value, self._is_wrapped)
        if not containers or f"self.{target.attr}" in self.wrapped:
            return
        containers += self.values.grown(target, self._is_wrapped)
        container = containers[0].node
        kinds = {_kind(v) for c in containers for v in self.values.held(c, self._is_registered)}
        if kinds & {"cell", "maybe-cell"} or ("dropout" in kinds and "parameter" not in kinds):
            wrapper = "CellDict" if isinstance(container, (ast.Dict, ast.DictComp)) else "CellList"
            cells = "cell" in kinds
            yield Finding(
                target,
                f"`self.{target.attr}` keeps Cells in a plain {_container_name(container)}: "
                + (
                    "their parameters are not registered or trained"
                    if cells
                    else "if the Cells they are given own Parameters (mslint could not follow what they are given), "
                    "those are not registered or trained"
                    if "maybe-cell" in kinds
                    else "`set_train` never reaches its dropout, so it never drops"
                ),
                hint="make it a list in `nn.CellList([...])`"
                if isinstance(container, ast.Tuple)
                else f"wrap it in `nn.{wrapper}(...)`",
                severity=None if cells else Severity.WARNING,
                fix=self._wrap_fix(value, f"mindspore.nn.{wrapper}", as_list=True)
                if (value is container or _returns_lists(value, containers)) and not self._handed_whole(target.attr)
                else None,
            )
        elif "parameter" in kinds and not self.optimizer:
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
        if not elements or any(isinstance(e, ast.Name) and not self.values.assigned(e.id) for e in elements):
            return None
        calls = [v for e in elements for v in (self.values.assigned(e.id) if isinstance(e, ast.Name) else [e])]
        if not all(_kind(v) == "parameter" for call in calls for v in self.values.objects(call)):
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
        is_it = self._is_attribute(attribute)
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

    def _handed_whole(self, attribute: str) -> bool:
        """Whether the class hands ``self.<attribute>`` whole to a call that is no builtin reading
        it, or adds it to another: ``layers.extend(self.stages)`` fails to build once it is an
        ``nn.CellList`` ("the new cells wanted to append should be instance of list, but got
        CellList"), so wrapping it is no fix."""
        is_it = self._is_attribute(attribute)
        for node in descendants(self.cls):
            if isinstance(node, ast.BinOp) and (is_it(node.left) or is_it(node.right)):
                return True
            if not isinstance(node, ast.Call) or qualified_name(node.func, self.module) in _READERS:
                continue
            if any(is_it(argument) for argument in (*node.args, *(k.value for k in node.keywords))):
                return True
        return False

    def _is_attribute(self, attribute: str) -> Callable[[ast.AST], bool]:
        """Whether a node is ``self.<attribute>``, ``self`` being the first parameter of any method."""
        selves = {m.args.args[0].arg for m in self.cls.body if isinstance(m, ast.FunctionDef) and m.args.args}

        def is_it(node: ast.AST) -> bool:
            return any(is_self_attribute(node, name) for name in selves) and getattr(node, "attr", None) == attribute

        return is_it


def _kind(value: AbstractValue) -> str | None:
    """What an item of a container is to the rule: a Parameter, a dropout, a Cell that owns
    Parameters, or one that may (a Cell of the checked code given what mslint could not follow);
    a Cell that owns none compiles and loses nothing in a plain container."""
    if isinstance(value, NotTrainedParameter):
        # measured on 2.10: graph code reads it and sees its `set_data` in a plain list too,
        # and no training is meant to reach it
        return None
    if isinstance(value, AbstractTensor) and value.parameter:
        return "parameter"
    if not (isinstance(value, AbstractInstance) and value.cell):
        return None
    if _is_dropout(value.qualname):
        return "dropout"
    return {True: "cell", None: "maybe-cell", False: None}[value.parameters]


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
    return is_base_of_a_construct(cls, project, forward_counts=True)


def _is_optimizer(cls: ClassRef, project: Project) -> bool:
    """Whether the Cell derives from MindSpore's ``nn.Optimizer``: the Parameters it keeps besides
    those it updates (a copy of the starting point, per-parameter accumulators) are its state, which
    it writes itself; no training is meant to reach them."""
    return any(is_mindspore_name(base, "Optimizer") for base in mindspore_bases(cls, project) or ())


def _defines_construct(cls: ClassRef, project: Project) -> bool:
    """``construct``, or PyTorch's ``forward`` that forward-instead-of-construct asks to rename."""
    return any(project.find_method(cls, name) for name in ("construct", "forward"))


def _attributes_read_from_outside(module: ModuleInfo, project: Project) -> frozenset[str]:
    """Attributes the module's program reads through another object than ``self``
    (``self.holder.layers``): a Cell without ``construct`` may keep Cells for another Cell's
    graph code."""
    return frozenset(name for other in project.program_of(module) for name in _outside_reads(other))


def _outside_reads(module: ModuleInfo) -> frozenset[str]:
    cached = _OUTSIDE_READS.get(module.tree)
    if cached is None:
        cached = frozenset(
            node.attr
            for node in descendants(module.tree)
            if isinstance(node, ast.Attribute)
            and isinstance(node.ctx, ast.Load)
            and not (isinstance(node.value, ast.Name) and node.value.id == "self")
        )
        _OUTSIDE_READS.put(module.tree, cached)
    return cached


_OUTSIDE_READS: NodeMemo[ast.AST, frozenset[str]] = NodeMemo()


def _literal_name(parameter: ast.Call) -> object:
    """The ``name`` a ``Parameter(data, name)`` call gives, when it is a literal."""
    name = call_argument(parameter, 1, "name")
    return name.value if isinstance(name, ast.Constant) else None


def _container_name(container: ast.expr) -> str:
    if isinstance(container, (ast.Dict, ast.DictComp)):
        return "dict"
    return "tuple" if isinstance(container, (ast.Tuple, ast.GeneratorExp)) else "list"


def _returns_lists(value: ast.expr, containers: list[Container]) -> bool:
    """A helper's call that returns only lists (``make_layers(depth)``): ``nn.CellList(...)``
    takes what it returns."""
    return isinstance(value, ast.Call) and all(isinstance(c.node, (ast.List, ast.ListComp)) for c in containers)
