from __future__ import annotations

import ast
from collections.abc import Iterator

from mslint.diagnostics import Severity
from mslint.model.module import is_self_attribute
from mslint.model.project import is_mindspore_name
from mslint.model.scope import GraphFunction
from mslint.model.values import Kind
from mslint.rules.base import Finding, Rule, fallback_severity
from mslint.settings import Settings

# Modules whose every call reads a clock or a random generator (or sleeps, or reseeds).
_HOST_STATE_MODULES = ("random", "time")
_CLOCKS = frozenset(
    {"datetime.datetime.now", "datetime.datetime.utcnow", "datetime.datetime.today", "datetime.date.today"}
)
# Methods that change a list or dict the Cell keeps, measured on 2.10: STRICT rejects `pop` and
# `remove`, LAX interprets `extend`. (`append` and `clear` compile without a trace.)
_MUTATING_METHODS = frozenset({"pop", "remove", "extend"})


class PythonSideEffectInGraph(Rule):
    """
    ## What it does
    Flags a Cell's Python attribute that is not a Parameter being assigned or updated in
    graph code (`self.count += 1`, `self.last = x`), a list or dict the Cell keeps being
    changed there (`self.cache["a"] = 2`, `self.cache.pop("a")`, `self.seen.remove(1)`,
    `self.seen.extend(xs)`), and calls into Python's `random` and
    `time` modules, `numpy.random` or `datetime.now()` there (warnings: they compile).
    Assigning to a Parameter attribute (`self.w = x`, also where a helper function of the
    checked code created the Parameter) is supported and not flagged. Local
    lists built and consumed in `construct` are fine too, and so are MindSpore's random
    operators (`ops.uniform`, `ops.randint`). Calls that take tensors are
    `third-party-call-in-graph`'s.

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
    confirms it. Appending to a module-level list in `construct` also
    compiles without complaint; mslint does not flag that yet.

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

    def severity(self, settings: Settings) -> Severity:
        return fallback_severity(settings)

    def check_graph_node(self, node: ast.AST, function: GraphFunction) -> Iterator[Finding]:
        if isinstance(node, ast.Call):
            yield from _check_host_state(node, function)
            yield from _check_container_method(node, function)
            return
        assert isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign))
        if function.owner is None or not function.project.is_cell(function.owner):
            return
        for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
            if isinstance(target, ast.Subscript) and _is_python_container(target.value, function):
                assert isinstance(target.value, ast.Attribute)
                yield Finding(
                    target,
                    f"`self.{target.value.attr}` is a Python container of the Cell, changed in graph code",
                    hint="keep state that changes per step in a `Parameter` and update it with `ops.assign`",
                )
            if is_self_attribute(target, function.self_name):
                assert isinstance(target, ast.Attribute)
                constructors = function.self_attribute_constructors(target.attr)
                if not any(is_mindspore_name(c, "Parameter") for c in constructors):
                    yield Finding(
                        target,
                        f"`self.{target.attr}` is Python state of the Cell, changed in graph code",
                        hint="keep state that changes per step in a `Parameter` and update it with `ops.assign`",
                    )


def _check_container_method(call: ast.Call, function: GraphFunction) -> Iterator[Finding]:
    method = call.func
    if (
        isinstance(method, ast.Attribute)
        and method.attr in _MUTATING_METHODS
        and _is_python_container(method.value, function)
    ):
        assert isinstance(method.value, ast.Attribute)
        yield Finding(
            call,
            f"`self.{method.value.attr}.{method.attr}()` changes a Python container of the Cell in graph code",
            hint="build a local list or dict in `construct`, or keep the state in a `Parameter`",
        )


def _is_python_container(expr: ast.expr, function: GraphFunction) -> bool:
    """Whether ``expr`` is ``self.<attribute>`` of a Cell that only ever holds a list or dict display."""
    if function.owner is None or not is_self_attribute(expr, function.self_name):
        return False
    assert isinstance(expr, ast.Attribute)
    values = [value for _, value in function.project.attribute_values(function.owner, expr.attr)]
    return bool(values) and all(isinstance(value, (ast.List, ast.Dict)) for value in values)


def _check_host_state(call: ast.Call, function: GraphFunction) -> Iterator[Finding]:
    qualname = function.qualname(call.func)
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
