from __future__ import annotations

import ast
from collections.abc import Iterator

from mslint.diagnostics import Edit, Fix, Severity
from mslint.model.abstract import AbstractAny, AbstractTensor, Kind
from mslint.model.binder import Binding, all_parameter_names, bindings
from mslint.model.scope import GraphFunction
from mslint.model.walk import descendants
from mslint.rules.base import Finding, Rule
from mslint.settings import Settings
from mslint.syntax_table import DIVERGENCE, Outcome

_OPERATORS = {
    ast.Add: "+=",
    ast.Sub: "-=",
    ast.Mult: "*=",
    ast.Div: "/=",
    ast.FloorDiv: "//=",
    ast.Mod: "%=",
    ast.Pow: "**=",
    ast.MatMult: "@=",
    ast.BitAnd: "&=",
    ast.BitOr: "|=",
    ast.BitXor: "^=",
    ast.LShift: "<<=",
    ast.RShift: ">>=",
}
_TENSOR = frozenset({"mindspore.Tensor", "mindspore.common.tensor.Tensor"})
_SHAPE_ONLY = {"mindspore.ops.ones_like": "local-op", "mindspore.ops.zeros_like": "local-op.zeros_like"}
"""Operators whose result depends only on the shape of their argument: graph mode folds it."""
_MEASURED_AS = {"construct": ("construct", "subcell"), "helper": ("helper",), "jit": ("jit",)}
"""The table's positions for code at each position: a Cell's ``construct`` is the top graph, or
a sub-Cell that its parent calls on an intermediate it reads again."""


class AugmentedAssignmentInGraph(Rule):
    """
    ## What it does
    Flags an augmented assignment (`+=`, `-=`, `*=`, `/=`, `//=`, `%=`, `**=`, `@=`, `&=`, `|=`,
    `^=`, `<<=`, `>>=`) in a Cell's graph code where graph mode and PyNative disagree, as the
    [augmented-assignment table](../augmented-assignment.md) of the release measured each form
    (the Cell called twice with the same input objects in each mode): on a tensor `construct`
    or a `@jit` function was given and never rebound (`x += 1`, `out = x` then `out -= 1`, also
    in a method of the Cell that `construct` passes its input to), graph mode writes `+=`, `-=`,
    `*=`, `/=`, `//=` and `%=` back into the caller's tensor, also into the tensor a parent Cell
    gave a sub-Cell and reads again; on an item of such an input (`x[0] += 1`) PyNative
    writes into the caller's tensor and graph mode does not; on a tensor made from a constant
    (`i = Tensor(1, ms.int32)`, a loop counter advanced in a `while`) or by `ops.ones_like(x)`,
    graph mode keeps the value of `+=`, `-=`, `*=` and `/=` from one call to the next. Forms the
    table finds agreeing are not flagged: an operator's result on a graph value (`out =
    self.dense(x)` then `out += x`, the residual of ported blocks), `ops.zeros_like(x)`,
    `ops.ones((2, 2))`, `&=`, `|=`, `^=` and `**=` on an input, a `Parameter` attribute
    (`self.p += x`). A plain `Tensor` attribute updated in place is
    `python-side-effect-in-graph`'s; `<<=` and `>>=` on tensors fail to compile. An input is
    an error where mslint knows a tensor is given (a call site, an input spec), a warning where
    it cannot tell (no call in the checked code), and not flagged where a Python number, a
    tuple or a list is given or annotated (`features: List[Tensor]`, `features[i] += ...`).
    Whatever the right-hand side (a constant, `x * 1`, `self.block(x)`), the effect is the same.

    ## Why it breaks graph mode
    Nothing fails and nothing is logged: the numbers are wrong. MindSpore 2.10 compiles `x += 1`
    on an input as an in-place update of the caller's tensor, so the second call of the same Cell
    on the same batch sees the incremented input (PyNative returns 4 and 4, graph mode 4 and 5).
    A tensor made from a constant in `construct` is a constant of the graph, made once: `t += 1`
    updates that constant, so each call starts from where the last one ended.

    ## Example
    ```python
    class Net(nn.Cell):
        def construct(self, x, n):
            i = Tensor(1, ms.int32)
            while i < n:
                x = x * 2
                i += 1
            x += 1
            return x
    ```

    ## Use instead
    ```python
    class Net(nn.Cell):
        def construct(self, x, n):
            i = Tensor(1, ms.int32)
            while i < n:
                x = x * 2
                i = i + 1
            x = x + 1
            return x
    ```
    State that should outlive the call belongs in a `Parameter` updated with `ops.assign_add`.
    """

    code = "MS122"
    symbol = "augmented-assignment-in-graph"
    summary = "an augmented assignment that graph mode makes in place on an input or a graph constant"
    node_types = (ast.AugAssign,)

    def severity(self, settings: Settings) -> Severity:
        return Severity.ERROR

    def check_graph_node(self, node: ast.AST, function: GraphFunction) -> Iterator[Finding]:
        assert isinstance(node, ast.AugAssign)
        operator = _OPERATORS.get(type(node.op))
        element = isinstance(node.target, ast.Subscript)
        name = node.target.value if isinstance(node.target, ast.Subscript) else node.target
        if operator is None or not isinstance(name, ast.Name):
            return
        position = _position(function)
        target = _target(name.id, function) if position is not None else None
        if position is None or target is None:
            return
        severity = _severity(_input_of(name.id, function), function) if target.startswith("input") else Severity.ERROR
        if severity is None:
            return
        row = f"augassign.{target}{'.element' if element else ''}/{operator}"
        table = function.project.release.augassign
        if not table.has(row):
            return
        measured = [p for p in _MEASURED_AS[position] if p in table.positions(row)]
        outcomes = [table.outcome(row, p, level) for p in measured for level in ("strict", "lax")]
        diverging = next((o for o in outcomes if o.kind == DIVERGENCE), None)
        if diverging is None:
            return
        fix = None if element else _rebinding(node, name.id, operator, function.module.text)
        yield Finding(node, _message(name.id, diverging), _hint(name.id, operator, element), severity, fix)


def _target(name: str, function: GraphFunction, chain: frozenset[str] = frozenset()) -> str | None:
    """The table's name for what ``name`` holds where it is updated: ``input`` (a parameter the
    entry was given, or a helper was given the entry's, never rebound), ``input.alias`` (bound
    only to such inputs), ``local-constant`` (bound only to ``Tensor(...)``), ``local-op`` and
    ``local-op.zeros_like`` (``ops.ones_like(x)``, ``ops.zeros_like(x)``), ``local-op.constant``
    (a MindSpore call of constants only); None for anything else (an operator's result on a graph
    value is a new tensor at every call). ``chain``: the names whose bindings led here."""
    if name in chain:  # names bound to each other (`x0 = x; x = x0`): not known to hold an input
        return None
    values = _rebindings(function.node, name)
    if not values:
        return "input" if name in all_parameter_names(function.node) and _given_an_input(name, function) else None
    if not all(b.unpacks and isinstance(b.target, ast.Name) for b in values):
        return None
    sources = [b.value for b in values]
    further = chain | {name}
    if all(isinstance(v, ast.Name) and _target(v.id, function, further) == "input" for v in sources):
        return "input.alias"
    calls = [v for v in sources if isinstance(v, ast.Call)]
    called = {function.qualname(c.func) for c in calls}
    if len(calls) < len(sources) or len(called) != 1:
        return None
    qualname = called.pop()
    if qualname in _TENSOR:
        return "local-constant"
    if qualname in _SHAPE_ONLY:
        return _SHAPE_ONLY[qualname]
    constant = all(function.kind(a) is Kind.CONSTANT for c in calls for a in (*c.args, *(k.value for k in c.keywords)))
    return "local-op.constant" if constant and qualname is not None and qualname.startswith("mindspore.") else None


def _input_of(name: str, function: GraphFunction) -> str:
    """The parameter ``name`` holds: itself, or the one it is an alias of (``out = x``)."""
    values = _rebindings(function.node, name)
    return values[0].value.id if values and isinstance(values[0].value, ast.Name) else name


def _severity(parameter: str, function: GraphFunction) -> Severity | None:
    """An error for an input known to be a tensor, a warning for one not inferred; None for a
    Python number, tuple or list (no tensor is updated in place)."""
    value = function.parameter_values.get(parameter)
    if isinstance(value, AbstractTensor):
        return Severity.ERROR
    if value is not None and not isinstance(value, AbstractAny) and value.kind is not Kind.UNKNOWN:
        return None
    annotation = next((a.annotation for a in _arguments(function.node) if a.arg == parameter), None)
    # where the value is not inferred, an annotation may tell: `features: List[Tensor]` is a list
    return Severity.WARNING if annotation is None or ast.unparse(annotation).endswith("Tensor") else None


def _arguments(node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.arg]:
    return [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]


def _position(function: GraphFunction) -> str | None:
    """Where the table measured code like ``function``: a Cell's ``construct``, a ``@jit``
    function, another method of a Cell (given what its ``construct`` passes); None elsewhere."""
    if _is_construct(function):
        return "construct"
    if function.entry.node is function.node and function.owner is None:
        return "jit"
    return "helper" if _construct_of(function) is not None else None


def _construct_of(function: GraphFunction) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """The ``construct`` of the class that defines ``function``, a method."""
    body = function.owner.node.body if function.owner is not None else []
    methods = (n for n in body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))
    return next((n for n in methods if n.name == "construct"), None)


def _is_construct(function: GraphFunction) -> bool:
    """A Cell's ``construct``: the top graph, or a sub-Cell's that its parent's graph calls."""
    return function.owner is not None and function.node.name == "construct"


def _given_an_input(name: str, function: GraphFunction) -> bool:
    """Whether ``name`` holds an input: a parameter of a Cell's ``construct`` or of a ``@jit`` entry
    (``self`` aside), or of a method that each call of it in its class's ``construct`` passes a
    parameter of ``construct`` never rebound."""
    if _is_construct(function) or function.entry.node is function.node:
        return function.self_name != name
    entry = _construct_of(function)
    if entry is None or function.self_name is None:
        return False
    positional = [a.arg for a in function.node.args.args[1:]]
    if name not in positional:
        return False
    calls = [
        n
        for n in descendants(entry)
        if isinstance(n, ast.Call)
        and isinstance(n.func, ast.Attribute)
        and n.func.attr == function.node.name
        and isinstance(n.func.value, ast.Name)
        and n.func.value.id == _self_of(entry)
    ]
    inputs = _unbound_parameters(entry)
    return bool(calls) and all(_passes(call, positional.index(name), inputs) for call in calls)


def _rebindings(node: ast.FunctionDef | ast.AsyncFunctionDef, name: str) -> list[Binding]:
    """The bindings of ``name`` in ``node`` other than its augmented assignments."""
    updated = {id(n.target) for n in descendants(node) if isinstance(n, ast.AugAssign)}
    return [b for b in bindings(node) if name in b.names and id(b.target) not in updated]


def _self_of(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> str | None:
    return node.args.args[0].arg if node.args.args else None


def _unbound_parameters(node: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """The parameters of ``node`` (``self`` aside) that it never binds again."""
    return {a.arg for a in node.args.args[1:] if not _rebindings(node, a.arg)}


def _passes(call: ast.Call, index: int, inputs: set[str]) -> bool:
    argument = call.args[index] if index < len(call.args) else None
    return isinstance(argument, ast.Name) and argument.id in inputs


def _message(name: str, outcome: Outcome) -> str:
    """The effect the table measured for the form, in words."""
    if outcome.message.startswith("graph mode writes into the caller's input"):
        effect = "graph mode writes it back into the caller's input, PyNative leaves the input as it was"
    elif outcome.message.startswith("graph mode leaves the caller's input"):
        effect = "PyNative writes it into the caller's input, graph mode updates a copy and the caller never sees it"
    else:
        effect = (
            "graph mode folds it into a constant of the graph and keeps its value between calls:"
            " each call starts from where the last one ended, PyNative starts afresh"
        )
    return f"`{name}` updated in place: {effect}"


_ATOMS = (ast.Name, ast.Constant, ast.Attribute, ast.Call, ast.Subscript)
"""Right-hand sides that need no parentheses after the operator."""


def _rebinding(node: ast.AugAssign, name: str, operator: str, text: str) -> Fix | None:
    """``x = x + (value)`` for ``x += value``: a new tensor, as PyNative makes. Unsafe: the
    program then computes what PyNative computes, no longer what graph mode did."""
    value = ast.get_source_segment(text, node.value)
    if value is None or node.end_lineno is None or node.end_col_offset is None:
        return None
    value = value if isinstance(node.value, _ATOMS) else f"({value})"
    rebound = f"{name} = {name} {operator[:-1]} {value}"
    edit = Edit(node.lineno, node.col_offset + 1, node.end_lineno, node.end_col_offset + 1, rebound)
    return Fix(f"Rebind: `{name} = {name} {operator[:-1]} ...`", (edit,), "unsafe")


def _hint(name: str, operator: str, element: bool) -> str:
    if element:
        return (
            "return the updated tensor and rebind it where it is used; state that must change in place belongs"
            " in a `Parameter` updated with `ops.assign`"
        )
    return (
        f"rebind instead: `{name} = {name} {operator[:-1]} ...` makes a new tensor at every call; state that"
        " should outlive the call belongs in a `Parameter` updated with `ops.assign_add`"
    )
