from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache

from mslint.diagnostics import Severity
from mslint.model.abstract import Kind
from mslint.model.binder import all_parameter_names, binding_counts, declared_global
from mslint.model.instances import passes_parameters
from mslint.model.module import is_self_attribute
from mslint.model.project import ClassRef, Project, is_mindspore_name, qualified_name
from mslint.model.scope import GraphFunction, module_object_origin
from mslint.model.walk import own_nodes
from mslint.release import Release
from mslint.rules.base import Finding, Rule, fallback_severity
from mslint.settings import Settings
from mslint.syntax_table import DIVERGENCE, ERROR, FALLBACK, SyntaxTable

# Modules whose every call reads a clock or a random generator (or sleeps, or reseeds). Kept by hand:
# the syntax table's `stdlib.random.*` and `stdlib.time.*` rows say "compile-time", as for any call
# the compiler folds (`math.sqrt(4.0)`), and cannot tell a frozen clock from a folded constant.
_HOST_STATE_MODULES = ("random", "time")
_CLOCKS = frozenset(
    {"datetime.datetime.now", "datetime.datetime.utcnow", "datetime.datetime.today", "datetime.date.today"}
)


class PythonSideEffectInGraph(Rule):
    """
    ## What it does
    Flags a Cell's Python attribute that is not a Parameter being assigned or updated in
    graph code (`self.count += 1`, `self.last = x`), and calls into Python's `random` and
    `time` modules, `numpy.random` or `datetime.now()` there (warnings: they compile).
    Also flags an item of a list, dict or Tensor attribute assigned in graph code
    (`self.cache["last"] = x`, `self.bias[0] = 1.0`: STRICT rejects it, asking for a Parameter,
    and LAX drops or freezes the change), and the methods that change a list or a dict, as
    the [graph-syntax table](../graph-syntax.md) of the release measured each (rows `state.*`):
    errors where MindSpore rejects the call at every syntax level (`d.update(key=x)` with
    keywords on any dict, local, attribute or module-level; `self.seen.pop()` on a list
    attribute), the rule's severity where STRICT rejects it and LAX runs it in the interpreter
    or once, while compiling (`self.stats.pop(...)`, `self.stats.setdefault(...)`,
    `self.seen.remove(...)`), and warnings for changes that graph mode silently loses where
    PyNative keeps them (measured by running both): `self.seen.append(x)` (`extend`, `insert`,
    `clear`) on a list attribute, `self.stats.update({...})` or `self.stats.clear()` on a dict
    attribute, `SEEN.append(x)` or `CACHE[k] = x` on a module-level list or dict, and assigning
    a `global`. A method of a plain object (held by the Cell, a module-level or a local one; a
    dataclass or a `@jit_class` alike) that assigns an attribute of its own is flagged where graph
    code calls it (`self.box.bump()`, `bump` doing `self.n += 1`; row
    `state.self-object.method-mutates`): STRICT rejects the call, asking for a Parameter, and LAX
    runs the method in the interpreter and loses the change; a method that only reads its
    attributes is fine. Warnings too: `globals()`, `locals()` and `vars()`, which graph mode
    evaluates once, while compiling, in a namespace of its own. Log messages written from graph
    code (`logging.info("...")`, `logger.warning("...")` through a module-level
    `logging.getLogger(...)`) are warnings too: they run once, while compiling, like
    `random.random()`; `print(...)` runs at every call and is fine, and so is
    `warnings.warn("...")`, which Python's default filter writes once per place anyway.
    Assigning to a Parameter attribute (`self.w = x`, also where a helper function of the
    checked code, or a method of a module-level object such as a registry, created the
    Parameter, or where `__init__` set it from its argument and every call that builds the Cell
    passes a Parameter there, `BoundStep(self._bound)` with the caller's `self._bound =
    Parameter(...)`) is supported and not flagged. Local
    lists and dicts built and consumed in `construct` are fine too (`d.update({"a": x})` with a
    dict, `parts.append(x)`), and so are MindSpore's random operators (`ops.uniform`,
    `ops.randint`). Not flagged here either: `x += 1` on a tensor the function was given, which
    graph mode makes in place on the caller's tensor, is `augmented-assignment-in-graph`'s.
    Calls that take tensors are `third-party-call-in-graph`'s.

    ## Why it breaks graph mode
    Python state outlives the call, and the graph cannot update it. In STRICT the compile
    fails (`TypeError: In JIT strict mode, if need to modify a member attribute of a class
    with self.count, the member attribute must be ...`); in LAX the statement and what
    uses it fall back to the Python interpreter. Reading host state is worse because it is
    silent: MindSpore 2.10 runs `random.random()`, `random.randint(1, 10)`,
    `np.random.rand()`, `time.time()` or `datetime.now()` once, while compiling, at every
    syntax level, and bakes the result into the graph as a constant
    (`Muls(x, F32(0.923267))`): every step gets the same "random" number and the same time.
    The compiler's fallback dump lists the line after its parser phase and not after its
    optimizer phase (run while compiling, not at run time), which is how `mslint verify`
    confirms it. Graph mode works on a copy of Python containers and globals: an append or an
    assignment there compiles without complaint and is lost after the call. A dict's `update`
    given keywords fails at every level (`RuntimeError: Got an unexpected keyword argument
    'b'`).

    ## Example
    ```python
    class Net(nn.Cell):
        def construct(self, x):
            self.steps += 1
            return x * self.steps
    ```

    ## Use instead
    ```python
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.steps = Parameter(Tensor(0, ms.int32), requires_grad=False)

        def construct(self, x):
            ops.assign_add(self.steps, 1)
            return x * self.steps
    ```
    """

    code = "MS109"
    symbol = "python-side-effect-in-graph"
    summary = "a Cell's non-Parameter attribute changed, or `random`/`time`/`numpy.random` read, in graph code"
    node_types = (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Call)
    compile_time_evidence = True

    warning_findings = (
        "changes to lists, dicts and globals that graph mode drops, and log messages frozen while compiling"
    )

    def severity(self, settings: Settings) -> Severity:
        return fallback_severity(settings)

    def check_graph_node(self, node: ast.AST, function: GraphFunction) -> Iterator[Finding]:
        if isinstance(node, ast.Call):
            yield from _check_host_state(node, function)
            yield from _container_mutations(node, function)
            yield from _object_state_changes(node, function)
            return
        assert isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign))
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for target in targets:
            yield from _global_writes(target, function)
        if function.owner is None or not function.project.is_cell(function.owner):
            return
        for target in targets:
            if isinstance(target, ast.Subscript) and _holds_python_container(target.value, function):
                assert isinstance(target.value, ast.Attribute)
                yield Finding(
                    target,
                    f"an item of `self.{target.value.attr}` is assigned in graph code, which needs it to be a "
                    "`Parameter`: STRICT rejects it, LAX drops or freezes the change",
                    hint="keep the values in a `Parameter` and update it with `ops.assign` or `ops.scatter_update`, "
                    "or return them from `construct`",
                )
            elif is_self_attribute(target, function.self_name):
                assert isinstance(target, ast.Attribute)
                constructors = function.self_attribute_constructors(target.attr)
                parameter = any(is_mindspore_name(c, "Parameter") for c in constructors)
                if not parameter and not _given_parameters_only(function, target.attr):
                    yield Finding(
                        target,
                        f"`self.{target.attr}` is Python state of the Cell, changed in graph code",
                        hint="keep state that changes per step in a `Parameter` and update it with `ops.assign`",
                    )


def _given_parameters_only(function: GraphFunction, attribute: str) -> bool:
    """Whether the class's own ``__init__`` sets ``self.<attribute>`` only to parameters it never
    rebinds, each of which every call that builds the class passes a ``Parameter``
    (``self._norm_bound = norm_bound`` with ``norm_bound=self._norm_bound``, a ``Parameter`` of the
    caller's); what other methods assign it is graph code's own change."""
    owner = function.owner
    init = function.project.find_method(owner, "__init__") if owner is not None else None
    if owner is None or init is None or init.owner is None or init.owner.node is not owner.node:
        return False
    first, last = init.node.lineno, init.node.end_lineno or init.node.lineno
    values = [
        value
        for klass, value in function.project.attribute_values(owner, attribute)
        if klass.node is owner.node and first <= value.lineno <= last
    ]
    parameters = set(all_parameter_names(init.node)) - set(binding_counts(init.node))
    names = [value.id for value in values if isinstance(value, ast.Name) and value.id in parameters]
    return (
        bool(names) and len(names) == len(values) and all(passes_parameters(function.project, owner, n) for n in names)
    )


def _holds_python_container(expr: ast.expr, function: GraphFunction) -> bool:
    """Whether ``expr`` is ``self.<attribute>`` set only to lists, dicts or Tensors (not Parameters)."""
    return _self_container_kind(expr, function) is not None


def _self_container_kind(expr: ast.expr, function: GraphFunction) -> str | None:
    """ "list", "dict" or "Tensor" where ``expr`` is ``self.<attribute>`` set only to values of that kind."""
    if function.owner is None or not is_self_attribute(expr, function.self_name):
        return None
    assert isinstance(expr, ast.Attribute)
    values = [value for _, value in function.project.attribute_values(function.owner, expr.attr)]
    kinds = {_container_kind(value, function) for value in values}
    return kinds.pop() if len(kinds) == 1 else None


def _module_container_kind(expr: ast.expr, function: GraphFunction) -> str | None:
    """ "list" or "dict" where ``expr`` names a module-level list or dict (``SEEN = []``)."""
    kinds = {_container_kind(value, function) for value in _module_values(expr, function)}
    kind = kinds.pop() if len(kinds) == 1 else None
    return kind if kind in ("list", "dict") else None


def _module_values(expr: ast.expr, function: GraphFunction) -> list[ast.expr]:
    """The values the module assigns to the global ``expr`` names at its top level (none for a local)."""
    if not isinstance(expr, ast.Name) or expr.id in function.local_names or expr.id not in function.module.assigned:
        return []
    return function.module.top_level_values(expr.id)


def _container_kind(value: ast.expr, function: GraphFunction) -> str | None:
    if isinstance(value, (ast.List, ast.ListComp)):
        return "list"
    if isinstance(value, (ast.Dict, ast.DictComp)):
        return "dict"
    if not isinstance(value, ast.Call):
        return None
    qualname = function.qualname(value.func)
    if qualname in ("builtins.list", "builtins.dict"):
        return qualname.rpartition(".")[2]
    return "Tensor" if is_mindspore_name(qualname, "Tensor") else None


# How a mutating method of a container does, read from the syntax table's ``state.<holder>.<method>``
# rows (``state.self-list.append``, ``state.local-dict.update``) at ``construct``.
_REJECTED, _STRICT_REJECTED, _DROPPED = "rejected", "strict-rejected", "dropped"
_CONTAINER_TYPES = {"list": list, "dict": dict}


@cache
def _mutation_verdicts(release: Release) -> dict[tuple[str, str], str]:
    """``(holder, method)`` to what the compiler of ``release`` does with the call: ``rejected`` at
    every syntax level, ``strict-rejected`` (LAX runs it in the interpreter or while compiling), or
    ``dropped`` (it compiles, and the change is lost or made by the interpreter: a divergence from
    PyNative or a fallback). Holders: ``self-list``, ``global-dict``, ``local-dict``, ..."""
    table = release.syntax
    verdicts: dict[tuple[str, str], str] = {}
    for row in table.ids("state."):
        holder, _, method = row.removeprefix("state.").partition(".")
        container = _CONTAINER_TYPES.get(holder.rpartition("-")[2])
        if container is None or not hasattr(container, method):
            continue
        verdict = _row_verdict(table, row)
        if verdict is not None:
            verdicts[holder, method] = verdict
    return verdicts


def _row_verdict(table: SyntaxTable, row: str) -> str | None:
    """What the compiler does with the call of ``row`` at ``construct``, read from its outcomes."""
    if not table.has(row) or "construct" not in table.positions(row):
        return None
    strict, lax = table.outcome(row, "construct", "strict"), table.outcome(row, "construct", "lax")
    if lax.kind == ERROR and lax.on_hazard_line:
        return _REJECTED
    if strict.kind == ERROR:
        return _STRICT_REJECTED
    if lax.kind == FALLBACK or any(
        table.outcome(row, position, level).kind == DIVERGENCE
        for position in table.positions(row)
        for level in ("strict", "lax")
    ):
        return _DROPPED
    return None


def _mutation_verdict(holder: str, kind: str, call: ast.Call, function: GraphFunction) -> str | None:
    method = call.func.attr if isinstance(call.func, ast.Attribute) else ""
    local = holder == "local"
    if method == "update" and not call.keywords:
        # The table's `update` rows pass keywords (`d.update(b=x)`), which the compiler rejects; a
        # dict given positionally compiles (measured on 2.10): the change to an attribute or a
        # global is then lost like an `append`, a local dict keeps it.
        return None if local else _DROPPED
    verdicts = _mutation_verdicts(function.project.release)
    verdict = verdicts.get((f"{holder}-{kind}", method))
    if verdict is None and holder == "global" and verdicts.get((f"self-{kind}", method)) == _DROPPED:
        # A module-level container the table does not measure for this method is copied into the
        # graph as an attribute's is (measured alike for `append` and `update`): the change is lost.
        return _DROPPED
    return None if local and verdict == _DROPPED else verdict


def _container_mutations(call: ast.Call, function: GraphFunction) -> Iterator[Finding]:
    """``self.seen.append(x)``, ``SEEN.append(x)``, ``d.update(a=x)`` in graph code, as the syntax
    table measured each method on a container of each holder."""
    method = call.func
    if not isinstance(method, ast.Attribute):
        return
    holder, kind = _container_holder(method.value, function)
    if kind is None:
        return
    verdict = _mutation_verdict(holder, kind, call, function)
    what = f"`{ast.unparse(method.value)}.{method.attr}(...)`"
    if verdict == _REJECTED:
        yield Finding(
            call,
            f"{what} in graph code: MindSpore rejects it at every syntax level",
            hint="give `update` a dict (`d.update({'b': x})`), which graph mode compiles"
            if method.attr == "update" and call.keywords
            else "build a new local container in `construct`, or keep the values in Parameters",
            severity=Severity.ERROR,
        )
    elif verdict == _STRICT_REJECTED:
        yield Finding(
            call,
            f"{what} in graph code: STRICT rejects it, LAX runs it in the Python interpreter or once, while compiling",
            hint="build a new local container in `construct`, or keep the values in Parameters",
        )
    elif verdict == _DROPPED:
        yield Finding(
            call,
            f"{what} changes a Python {kind} that outlives the call: graph mode works on a copy and the change "
            "is lost (PyNative keeps it)",
            hint="return the values from `construct` (a local list is fine), or keep them in a `Parameter`",
            severity=Severity.WARNING,
        )


# A method of a plain object (`self.box.bump()`, on an object held by the Cell, a global, a local or
# the object itself) that assigns an attribute of its own: the table's row measures one held by
# the Cell; one held by a global, a local, a dataclass or a `@jit_class` object is rejected alike
# (measured on 2.10: the same STRICT error on the call's line, the change lost in LAX).
_OBJECT_METHOD_ROW = "state.self-object.method-mutates"


def _object_state_changes(call: ast.Call, function: GraphFunction) -> Iterator[Finding]:
    """``self.box.bump()`` in graph code, where ``bump`` assigns ``self.n`` of a plain object."""
    method = call.func
    if not isinstance(method, ast.Attribute):
        return
    verdict = _row_verdict(function.project.release.syntax, _OBJECT_METHOD_ROW)
    if verdict is None:
        return
    for cls in _object_classes(method.value, function):
        attribute = _assigned_own_attribute(function.project, cls, method.attr)
        if attribute is None:
            continue
        what = f"`{ast.unparse(method)}(...)` assigns `self.{attribute}` of a `{cls.node.name}` object in graph code"
        hint = "keep the state in a `Parameter` of the Cell and update it with `ops.assign`, or return it"
        if verdict == _DROPPED:
            yield Finding(
                call, f"{what}: graph mode loses the change (PyNative keeps it)", hint=hint, severity=Severity.WARNING
            )
        else:
            yield Finding(
                call,
                f"{what}, which needs it to be a `Parameter`: STRICT rejects it, LAX runs it in the Python "
                "interpreter and loses the change",
                hint=hint,
                severity=Severity.ERROR if verdict == _REJECTED else None,
            )
        return


def _object_classes(receiver: ast.expr, function: GraphFunction) -> list[ClassRef]:
    """The project classes, not Cells, of the object a method is called on: an attribute of ``self``,
    a local or a global bound to ``Cls(...)``, or ``self`` in a method of such a class."""
    project = function.project
    if isinstance(receiver, ast.Name) and receiver.id == function.self_name and function.owner is not None:
        classes = [function.owner]
    else:
        classes = function.instance_classes(receiver) or [
            resolved
            for value in _module_values(receiver, function)
            if isinstance(value, ast.Call)
            for resolved in [project.resolve_expr(value.func, function.module)]
            if isinstance(resolved, ClassRef)
        ]
    return [cls for cls in classes if not project.is_cell(cls) and _bases_known(project, cls)]


# Bases measured alike (on 2.10, `abc.ABC` rejected as a plain class is); a third-party base may
# define how its attributes are set.
_PLAIN_BASES = frozenset({"builtins.object", "abc.ABC"})


def _bases_known(project: Project, cls: ClassRef) -> bool:
    """Whether every base of ``cls`` is a plain base or a class of the checked code."""
    return all(
        qualified_name(base, klass.module) in _PLAIN_BASES
        or isinstance(project.resolve_expr(base, klass.module), ClassRef)
        for klass in project.mro(cls)
        for base in klass.node.bases
    )


def _assigned_own_attribute(project: Project, cls: ClassRef, name: str) -> str | None:
    """The first attribute of its own, not a Parameter, that the method ``name`` of ``cls`` assigns."""
    method = project.find_method(cls, name)
    if method is None or not isinstance(method.node, ast.FunctionDef) or not method.node.args.args:
        return None
    decorators = {qualified_name(d, method.module) for d in method.node.decorator_list}
    if decorators & {"builtins.staticmethod", "builtins.classmethod"}:
        return None
    self_name = method.node.args.args[0].arg
    for node in own_nodes(method.node):
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                if is_self_attribute(target, self_name):
                    assert isinstance(target, ast.Attribute)
                    if not _holds_parameter(project, cls, target):
                        return target.attr
    return None


def _holds_parameter(project: Project, cls: ClassRef, target: ast.Attribute) -> bool:
    """Whether the class creates ``self.<attribute>`` as a Parameter (assigning it compiles)."""
    return any(
        isinstance(value, ast.Call) and is_mindspore_name(qualified_name(value.func, klass.module), "Parameter")
        for klass, value in project.attribute_values(cls, target.attr)
    )


def _container_holder(expr: ast.expr, function: GraphFunction) -> tuple[str, str | None]:
    """Who holds the list or dict ``expr`` names, as the syntax table's rows say it (``self``,
    ``global``, ``local``), and its kind; kind None where ``expr`` is no known list or dict."""
    kind = _self_container_kind(expr, function)
    if kind is not None:
        return "self", kind
    kind = _module_container_kind(expr, function)
    if kind is not None:
        return "global", kind
    return "local", _local_container_kind(expr, function)


def _local_container_kind(expr: ast.expr, function: GraphFunction) -> str | None:
    """ "list" or "dict" where ``expr`` names a local variable bound only to lists or only to dicts."""
    if not isinstance(expr, ast.Name):
        return None
    values = function.local_values.get(expr.id, [])
    kinds = {_container_kind(value, function) for value in values}
    bound = binding_counts(function.node).get(expr.id, 0)
    kind = kinds.pop() if len(kinds) == 1 and bound == len(values) else None
    return kind if kind in ("list", "dict") else None


def _global_writes(target: ast.expr, function: GraphFunction) -> Iterator[Finding]:
    """``G = x`` after ``global G``, or ``CACHE[k] = x`` on a module-level container: dropped."""
    if isinstance(target, ast.Name) and target.id in declared_global(function.node):
        yield Finding(
            target,
            f"global `{target.id}` is assigned in graph code: graph mode drops the assignment (PyNative keeps it)",
            hint="return the value from `construct`, or keep it in a `Parameter`",
            severity=Severity.WARNING,
        )
    elif isinstance(target, ast.Subscript) and _module_container_kind(target.value, function) is not None:
        name = ast.unparse(target.value)
        yield Finding(
            target,
            f"an item of the module-level `{name}` is assigned in graph code: graph mode drops the change "
            "(PyNative keeps it)",
            hint="return the value from `construct`, or keep it in a `Parameter`",
            severity=Severity.WARNING,
        )


# Calls that write a message: run once while compiling, they never write it when the graph runs.
_LOGGING_METHODS = frozenset({"debug", "info", "warning", "warn", "error", "exception", "critical", "log"})


def _is_message(qualname: str, function: GraphFunction) -> bool:
    """``logging.info(...)`` or a method of a module-level logger. Not ``warnings.warn("...")``:
    Python's default filter writes a warning once per place in the code, which is what graph mode
    does while compiling (measured on 2.10: row ``stdlib.warnings.warn/constant``, compile-time)."""
    if qualname.startswith("logging.") and qualname.rpartition(".")[2] in _LOGGING_METHODS:
        return True
    if qualname.rpartition(".")[2] not in _LOGGING_METHODS:
        return False
    return module_object_origin(qualname, function) == "logging.getLogger"


def _is_new_logger_method(func: ast.expr, function: GraphFunction) -> bool:
    """``logging.getLogger(...).warning``: a logging method of a logger got in the same expression."""
    return (
        isinstance(func, ast.Attribute)
        and func.attr in _LOGGING_METHODS
        and isinstance(func.value, ast.Call)
        and function.qualname(func.value.func) == "logging.getLogger"
    )


# Builtins that read the namespace of the running code: graph mode evaluates them once, while
# compiling, in a namespace of its own (measured on 2.10: `len(globals())` is another number than in
# PyNative, `globals()['SCALE']` fails at every level, `len(locals())` is frozen). The table's
# `builtin.globals/constant` row shows only "compile-time", as for any folded builtin.
_NAMESPACE_BUILTINS = frozenset({"builtins.globals", "builtins.locals", "builtins.vars"})


def _check_host_state(call: ast.Call, function: GraphFunction) -> Iterator[Finding]:
    qualname = function.qualname(call.func)
    if qualname in _NAMESPACE_BUILTINS and not call.args:
        yield Finding(
            call,
            f"`{ast.unparse(call)}` in graph code reads a namespace the compiler builds while compiling, not the "
            "module's or the function's: it differs from PyNative and is frozen into the graph",
            hint="name the global or local directly, or pass the value in",
            severity=Severity.WARNING,
        )
        return
    if (qualname is not None and _is_message(qualname, function)) or _is_new_logger_method(call.func, function):
        if not any(function.kind(a) is Kind.GRAPH for a in [*call.args, *(k.value for k in call.keywords)]):
            yield Finding(
                call,
                f"`{ast.unparse(call.func)}(...)` runs once, while compiling: graph mode never writes the message "
                "when the Cell runs",
                hint="use `print(...)`, which graph mode runs at every call, or log in the host code around the Cell",
                severity=Severity.WARNING,
            )
        return
    if qualname is None or not (
        qualname.split(".", 1)[0] in _HOST_STATE_MODULES or qualname in _CLOCKS or qualname.startswith("numpy.random.")
    ):
        return
    if any(function.kind(a) is Kind.GRAPH for a in [*call.args, *(k.value for k in call.keywords)]):
        return  # run on tensors it is no longer folded: third-party-call-in-graph reports it
    hint = (
        "draw random numbers with MindSpore's random operators (`ops.uniform`, `ops.randint`) or pass them in"
        if qualname.startswith(("random.", "numpy.random."))
        else "read clocks in host code, around the call of the Cell"
    )
    yield Finding(
        call,
        f"`{qualname}()` runs once, while compiling: the graph keeps its result as a constant",
        hint=hint,
        severity=Severity.WARNING,
    )
