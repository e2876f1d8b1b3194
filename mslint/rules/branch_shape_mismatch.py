from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace

from mslint.diagnostics import Severity
from mslint.model.abstract import AbstractScalar, AbstractSequence, AbstractTensor, Kind
from mslint.model.module import bound_names, is_self_attribute
from mslint.model.project import is_mindspore_name
from mslint.model.scope import GraphFunction
from mslint.model.walk import descendants
from mslint.rules.base import Finding, Rule, dynamic_shape_severity
from mslint.settings import Settings

# Reductions that return one tensor (`max`, `min` and `std` return tuples in some of their forms).
_REDUCTIONS = frozenset({"sum", "mean", "prod", "amax", "amin", "any", "all"})
_KEEPDIMS = ("keepdims", "keep_dims", "keepdim")
_AXIS = ("axis", "dim")
_CREATORS = frozenset({"zeros", "ones", "full", "empty"})
_LIKE = frozenset({"zeros_like", "ones_like"})
_UNSQUEEZE = frozenset({"unsqueeze", "expand_dims"})
_DTYPE_NAME = re.compile(r"^(u?int\d+|float\d+|bfloat16|bool_?|complex\d+)$")
# Joins of tensors of one rank along an axis they have, and stacks along a new axis.
_CONCATS = frozenset({"concat", "cat", "hstack"})
_STACKS = frozenset({"stack"})
# Calls whose result holds each of their operands: a name re-bound to one that holds itself grows.
_GROWERS = _CONCATS | _STACKS | {"vstack", "dstack", "column_stack", "row_stack"}


# Different shapes make a dynamic shape (the rule's own severity); different dtypes, or a number
# against a tensor, are rejected at every level; None against a tensor fails in STRICT, falls back in
# LAX and fails at every level under a gradient (measured on 2.10).
_SEVERITIES = {"shapes": None, "dtypes": Severity.ERROR, "types": Severity.ERROR, "none": Severity.WARNING}
_DIFFERENCES = {
    "shapes": "different shapes",
    "dtypes": "different dtypes",
    "types": "different types",
    "none": "None on one side and a value on the other",
}


@dataclass(frozen=True)
class _Value:
    """What is known statically of a value bound in a branch."""

    base: str | None = None
    """The graph value it is derived from (`x`, `self.w`); None for a shape of its own (`ops.zeros((2, 3))`)."""
    rank: int | None = None
    """Its rank minus the rank of ``base``, or its rank when there is no base; None when unknown."""
    dims: tuple[int, ...] | None = None
    extent: str | None = None
    """How its shape compares with that of ``base`` where the ranks agree: "same", "larger" (``base``
    concatenated with more), "smaller" (a constant slice that leaves part of an axis out); None when unknown."""
    dtype: str | None = None
    """The dtype it was cast to or created with; "" for that of ``base``; None when unknown."""
    tensor: bool = False
    """Certainly a tensor (made by a tensor operation), not a tuple or a Python scalar."""
    number: bool = False
    """A Python number literal."""
    none: bool = False
    """``None``."""
    items: _Value | None = None
    """What each item is, for a list, tuple or dict made from a tensor (``list(x)``, ``[r * 2 for r in x]``)."""

    @property
    def graph(self) -> bool:
        """A value of the graph (a tensor or a tuple of them), not a Python number."""
        return self.tensor or self.base is not None


@dataclass(frozen=True)
class _Binding:
    """The value a plain assignment gives a name, with the expression that gives it."""

    expr: ast.expr
    value: _Value | None


@dataclass(frozen=True)
class _Scope:
    """Where values are evaluated: names bound earlier in the same block have the values of
    ``known``; other names the branches re-bind are unknown; any other graph name is a base."""

    function: GraphFunction
    rebound: frozenset[str]
    known: Mapping[str, _Binding | None]
    """None for a name bound otherwise than by a plain assignment: its value is unknown."""

    def knowing(self, known: Mapping[str, _Binding | None]) -> _Scope:
        return replace(self, known=dict(known))


class BranchShapeMismatch(Rule):
    """
    ## What it does
    Flags an `if` on a tensor value whose branches give the same name (or return) values that
    certainly differ in shape or dtype: an integer index (`x[0]`), a row of the tensor
    (`list(x)[0]`, `tuple(x)[0]`, an item of a list or dict comprehension over it), a constant
    slice that leaves part of an axis out (`x[0:1]`, `x[:, 1:3]`, `x[slice(0, 1)]`), a reduction
    over an axis without `keepdims`, `unsqueeze`, or a concatenation with itself on one side
    only (`ops.concat((y, x))`, also in a loop over a constant `range` in the branch); literal
    shapes that differ (`ops.zeros((2, 3))` and `ops.zeros((3,))`); a cast on one side only or
    casts to different dtypes; a Python number on one side and a graph value on the other;
    `None` on one side and a value on the other (`mask = None` before the `if`, `mask = x * 2`
    in its branch, `mask` read after it), reported on the `None`; and, from the inferred types,
    a Python float against an int that the entry returns, a tuple against a tensor, a number computed from shapes
    against a tensor, two known dtypes. A conditional expression on a tensor
    (`y = x if x.sum() > 0 else 0`) joins its two sides the same way (not where nothing reads the
    name it is assigned to: the compiler drops the value and its join), and so does `a and b` /
    `a or b` on a tensor `a` (`x.sum() > 0 and flag` with a Python bool `flag`). Flags as well a `while` on a
    tensor value that re-binds a name to a concatenation or stack holding it
    (`y = ops.concat((y, y))`): the name grows at each iteration. A tensor `if` by itself is
    fine (`if not overflow:`), and so are branches whose shapes mslint cannot tell apart (whole
    slices such as `x[:]` and `x[...]` keep the shape; a slice with a bound that is not a
    literal is not compared). Different dtypes, a number against a graph value and a tensor
    `while` that grows a name are errors; `None` against a value is a warning (STRICT rejects
    it, LAX falls back to the interpreter; under `value_and_grad` it fails at every level);
    different shapes have the severity of dynamic shapes.

    ## Why it breaks graph mode
    Both branches of a tensor condition are compiled, and their results are joined into one
    value. MindSpore 2.10 rejects a join of different dtypes, or of a number and a tensor, at
    every syntax level: `TypeError: Cannot join the return values of different branches,
    perhaps you need to make them equal. Type Join Failed: dtype1 = Int32, dtype2 = Float32`.
    A join of different shapes compiles, but into a tensor of unknown rank (`(-2)` in the IR):
    every operator after it gets a dynamic shape, which Ascend and GPU compile slowly or
    cannot sink. A loop on a tensor condition is one graph too, compiled once for the values
    its iterations share: a value that grows at each iteration fails to compile at every level
    (`ValueError: Shape should have only one -2 for normal tensor`, or `Exceed function call
    depth limit`). A loop over a constant `range` is unrolled, so growing a tensor there is
    fine, unless the loop is in a tensor branch whose other side keeps the tensor as it was.

    ## Example
    ```python
    class Net(nn.Cell):
        def construct(self, x):
            if x.sum() > 0:
                y = x
            else:
                y = x[0]
            return y
    ```

    ## Use instead
    ```python
    class Net(nn.Cell):
        def construct(self, x):
            y = ops.select(x.sum() > 0, x, ops.broadcast_to(x[0], x.shape))
            return y
    ```
    """

    code = "MS114"
    symbol = "branch-shape-mismatch"
    summary = (
        "a tensor `if` whose branches give a name (or return) values of different shapes or dtypes, "
        "or a tensor `while` that grows a name"
    )
    node_types = (ast.If, ast.While, ast.IfExp, ast.BoolOp)

    def severity(self, settings: Settings) -> Severity:
        return dynamic_shape_severity(settings)

    def check_graph_node(self, node: ast.AST, function: GraphFunction) -> Iterator[Finding]:
        if isinstance(node, ast.While):
            yield from _growing_in_loop(node, function)
            return
        if isinstance(node, ast.IfExp):
            yield from _ternary(node, function)
            return
        if isinstance(node, ast.BoolOp):
            yield from _boolean_operands(node, function)
            return
        assert isinstance(node, ast.If)
        if function.kind(node.test) is not Kind.GRAPH or _tests_identity(node.test):
            return
        rebound = frozenset(n for block in (node.body, node.orelse) for s in block for n in _bound(s))
        for label, first, second in _branch_values(node, function):
            returned = label == "the returned value" and function.entry.node is function.node
            what = _difference(first.value, second.value) or _type_difference(
                first.expr, second.expr, function, rebound, numbers=returned
            )
            if what is not None and second.expr.lineno < node.lineno:
                yield Finding(
                    _span(second.expr, node),
                    f"{label} is `{ast.unparse(second.expr)}` here and `{ast.unparse(first.expr)}` after the branch "
                    f"of the tensor `if` on line {node.lineno}: the two are joined when the `if` ends",
                    hint="give the name a value of the same kind before the `if` (a tensor of the same shape), "
                    "or choose with `ops.select`",
                    severity=_SEVERITIES[what],
                )
            elif what is not None:
                yield Finding(
                    node,
                    f"the branches of this tensor `if` give {label} {_DIFFERENCES[what]}: "
                    f"`{ast.unparse(first.expr)}` (line {first.expr.lineno}) and "
                    f"`{ast.unparse(second.expr)}` (line {second.expr.lineno})",
                    hint="give both branches values of one shape and dtype (pad, broadcast or cast), "
                    "or choose with `ops.select`",
                    severity=_SEVERITIES[what],
                )


def _ternary(node: ast.IfExp, function: GraphFunction) -> Iterator[Finding]:
    """``a if t else b`` with a tensor ``t`` is a branch too: ``a`` and ``b`` are joined."""
    if function.kind(node.test) is not Kind.GRAPH or _tests_identity(node.test):
        return
    scope = _Scope(function, frozenset(), {})
    what = _difference(_value(node.body, scope), _value(node.orelse, scope))
    what = what or _type_difference(node.body, node.orelse, function, frozenset())
    if what is not None and not _never_read(node, function):
        yield Finding(
            node,
            f"the two sides of this conditional expression on a tensor have {_DIFFERENCES[what]}: "
            f"`{ast.unparse(node.body)}` and `{ast.unparse(node.orelse)}`",
            hint="give both sides values of one type, shape and dtype, or choose with `ops.select`",
            severity=_SEVERITIES[what],
        )


def _never_read(value: ast.expr, function: GraphFunction) -> bool:
    """Whether ``value`` is assigned to names the function never reads: the compiler drops a value
    nothing uses, and the join with it (measured: ``t = (x, x) if x.sum() > 0 else x`` compiles when
    nothing reads ``t``, and fails when ``t[0]`` is read)."""
    nodes = list(descendants(function.node))
    assign = next((n for n in nodes if isinstance(n, ast.Assign) and n.value is value), None)
    if assign is None or not all(isinstance(target, ast.Name) for target in assign.targets):
        return False
    names = {target.id for target in assign.targets if isinstance(target, ast.Name)}
    return not any(isinstance(n, ast.Name) and n.id in names and isinstance(n.ctx, ast.Load) for n in nodes)


def _boolean_operands(node: ast.BoolOp, function: GraphFunction) -> Iterator[Finding]:
    """``a and b`` with a tensor ``a`` is ``b if a else a``: its operands are joined too."""
    first = node.values[0]
    if function.kind(first) is not Kind.GRAPH:
        return
    for other in node.values[1:]:
        what = _type_difference(first, other, function, frozenset())
        if what is not None:
            operator = "and" if isinstance(node.op, ast.And) else "or"
            yield Finding(
                node,
                f"the operands of this `{operator}` on a tensor have {_DIFFERENCES[what]}: `{ast.unparse(first)}` "
                f"and `{ast.unparse(other)}`, which the result joins",
                hint="combine conditions with `ops.logical_and`/`ops.logical_or`, or reduce each to one element",
                severity=_SEVERITIES[what],
            )
            return


def _type_difference(
    first: ast.expr, second: ast.expr, function: GraphFunction, rebound: frozenset[str], numbers: bool = False
) -> str | None:
    """What the inferred values of two joined expressions certainly differ in: a tuple or list and
    a tensor, a number and a tensor, two known dtypes; with ``numbers``, a Python int and a float
    (the entry's outputs: measured, a name bound to either in two branches compiles). Expressions
    that read a name the branches re-bind are left to the branch-by-branch values above."""
    if any(isinstance(n, ast.Name) and n.id in rebound for e in (first, second) for n in ast.walk(e)):
        return None
    a, b = function.value(first), function.value(second)
    if Kind.UNKNOWN in (a.kind, b.kind):
        return None
    types = {v.type for v in (a, b) if isinstance(v, AbstractScalar) and v.type in ("int", "float")}
    if numbers and types == {"int", "float"} and all(isinstance(v, AbstractScalar) for v in (a, b)):
        return "types"
    kinds = {type(v) for v in (a, b)}
    if AbstractTensor in kinds and kinds & {AbstractSequence, AbstractScalar} and len(kinds) == 2:
        other = b if isinstance(a, AbstractTensor) else a
        return None if isinstance(other, AbstractScalar) and other.type in ("None", "str") else "types"
    if isinstance(a, AbstractTensor) and isinstance(b, AbstractTensor) and None not in (a.dtype, b.dtype):
        return "dtypes" if a.dtype != b.dtype else None
    return None


def _growing_in_loop(loop: ast.While, function: GraphFunction) -> Iterator[Finding]:
    """A tensor `while` is one graph called again at each iteration: a name it re-binds to a value
    holding itself (``y = ops.concat((y, x))``) has a new shape at each call, which fails to compile.
    A name the loop also binds otherwise may get its size back (a window cut from the grown value)."""
    if function.kind(loop.test) is not Kind.GRAPH:
        return
    statements = [node for s in loop.body for node in descendants(s) if isinstance(node, ast.stmt)]
    grown = {id(s): _grown_name(s, function) for s in statements}
    others = {name for s in statements if grown[id(s)] is None for name in _bound_by_itself(s)}
    for statement in statements:
        name = grown[id(statement)]
        if name is not None and name not in others:
            assert isinstance(statement, ast.Assign)
            yield Finding(
                loop,
                f"`{name}` grows at each iteration of this tensor `while` (`{ast.unparse(statement.value)}`, "
                f"line {statement.lineno}): graph mode compiles the loop once, for values of one shape",
                hint="give the result its final size before the loop and fill it in the loop, "
                "or loop over a constant `range`",
                severity=Severity.ERROR,
            )
            return


def _bound_by_itself(statement: ast.stmt) -> set[str]:
    """The names ``statement`` binds, without those of the blocks it holds."""
    if isinstance(statement, (ast.For, ast.AsyncFor)):
        return set(bound_names(statement.target))
    return set() if hasattr(statement, "body") else _bound(statement)


def _grown_name(statement: ast.AST, function: GraphFunction) -> str | None:
    """The name of ``name = ops.concat((name, ...))`` and the like: a value that holds its previous one."""
    if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1):
        return None
    target, call = statement.targets[0], statement.value
    if not (isinstance(target, ast.Name) and isinstance(call, ast.Call)):
        return None
    qualname = function.qualname(call.func)
    if not is_mindspore_name(qualname) or qualname is None or qualname.rsplit(".", 1)[-1] not in _GROWERS:
        return None
    sequence = _operands(call)
    held = sequence is not None and any(isinstance(e, ast.Name) and e.id == target.id for e in sequence)
    return target.id if held else None


def _operands(call: ast.Call) -> list[ast.expr] | None:
    """The tensors a concat or stack call joins: the items of its literal tuple or list."""
    sequence = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "tensors"), None)
    if not isinstance(sequence, (ast.Tuple, ast.List)) or any(isinstance(e, ast.Starred) for e in sequence.elts):
        return None
    return list(sequence.elts)


def _branch_values(node: ast.If, function: GraphFunction) -> Iterator[tuple[str, _Binding, _Binding]]:
    """(what, value in the first branch, value in the other) for each value the branches join."""
    rebound = frozenset(n for block in (node.body, node.orelse) for s in block for n in _bound(s))
    scope = _Scope(function, rebound, {})
    before = _values_before(node, scope)
    first_return = _returned(node.body, scope, before)
    second_return = _returned(node.orelse or _following(node, function), scope, before) if first_return else None
    if first_return is not None and second_return is not None:
        (first, first_scope), (second, second_scope) = first_return, second_return
        pairs = [(first, second)]
        if isinstance(first, ast.Tuple) and isinstance(second, ast.Tuple):
            pairs = list(zip(first.elts, second.elts))
        for a, b in pairs:
            yield "the returned value", _Binding(a, _value(a, first_scope)), _Binding(b, _value(b, second_scope))
        return
    if _ends_flow(node.body) or _ends_flow(node.orelse):
        return
    # a name the other branch leaves has the value it had before the `if`
    body, orelse = _block_values(node.body, scope, before), _block_values(node.orelse, scope, before)
    bound_in_body = {n for s in node.body for n in _bound(s)}
    for name, value in body.items():
        other = orelse.get(name)
        if name in bound_in_body and value is not None and other is not None and _read_after(name, node, function):
            yield f"`{name}`", value, other


def _returned(
    block: list[ast.stmt], scope: _Scope, before: dict[str, _Binding | None]
) -> tuple[ast.expr, _Scope] | None:
    """The value ``block`` ends by returning, with the names bound before it."""
    last = block[-1] if block else None
    if not isinstance(last, ast.Return) or last.value is None:
        return None
    return last.value, scope.knowing(_block_values(block[:-1], scope, before))


def _value(expr: ast.expr, scope: _Scope) -> _Value | None:
    """What is known of ``expr``'s shape and dtype; None when nothing useful is."""
    if isinstance(expr, ast.Constant) and isinstance(expr.value, (int, float)):  # bool is an int
        return _Value(number=True)
    if isinstance(expr, ast.Constant) and expr.value is None:
        return _Value(none=True)
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, (ast.USub, ast.UAdd)):
        return _value(expr.operand, scope)
    if isinstance(expr, ast.Name) and expr.id in scope.known:
        binding = scope.known[expr.id]
        return None if binding is None else binding.value
    if isinstance(expr, ast.Name) or is_self_attribute(expr, scope.function.self_name):
        names = {n.id for n in descendants(expr) if isinstance(n, ast.Name)}
        if scope.function.kind(expr) is Kind.GRAPH and not names & scope.rebound:
            return _Value(base=ast.unparse(expr), rank=0, extent="same", dtype="")
        return None
    if isinstance(expr, ast.Subscript):
        return _indexed(expr, scope)
    if isinstance(expr, ast.BinOp):
        return _scaled(expr, scope)
    if isinstance(expr, ast.Call):
        return _called(expr, scope)
    if isinstance(expr, (ast.ListComp, ast.DictComp)):
        return _comprehension(expr, scope)
    return None


def _indexed(expr: ast.Subscript, scope: _Scope) -> _Value | None:
    """``x[0]`` has one dimension fewer than ``x``; a constant slice that leaves part of an axis out
    (``x[0:1]``, ``x[:, 1:3]``) makes it smaller; a full slice (``x[:]``, ``x[...]``) keeps its shape."""
    value = _value(expr.value, scope)
    if value is None or value.number:
        return None
    index = _slice_call(expr.slice, scope.function) or expr.slice
    if value.items is not None:
        return value.items if _integer(index) is not None else None
    parts = [_slice_call(p, scope.function) or p for p in (index.elts if isinstance(index, ast.Tuple) else [index])]
    function = scope.function
    if value.rank is None or not all(_integer(p) is not None or _sliced(p, function) is not None for p in parts):
        return None
    integers = sum(1 for p in parts if _integer(p) is not None)
    if integers:
        return replace(value, rank=value.rank - integers, dims=None, extent=None)
    cut = any(_sliced(p, function) == "smaller" for p in parts)
    extent = "smaller" if cut and value.extent in ("same", "smaller") else None if cut else value.extent
    return replace(value, dims=None, extent=extent)


def _sliced(part: ast.expr, function: GraphFunction) -> str | None:
    """How much of its axis ``part`` keeps: "same" for all of it (``:``, ``...``), "smaller" for a
    slice with constant bounds that leaves part of it out (``1:``, ``0:1``, ``::2``, ``:n`` with
    ``n`` a Python int the entry is given); None for any other index."""
    if isinstance(part, ast.Constant) and part.value is Ellipsis:
        return "same"
    if not isinstance(part, ast.Slice):
        return None
    bounds = (part.lower, part.upper, part.step)
    if any(b is not None and _known_integer(b, function) is None for b in bounds):
        return None
    lower, upper, step = (None if b is None else _known_integer(b, function) for b in bounds)
    return "same" if lower in (None, 0) and upper is None and step in (None, 1) else "smaller"


def _slice_call(expr: ast.expr, function: GraphFunction) -> ast.Slice | None:
    """``slice(0, 1)`` as the ``0:1`` it stands for."""
    if not (isinstance(expr, ast.Call) and function.qualname(expr.func) == "builtins.slice"):
        return None
    if expr.keywords or not 1 <= len(expr.args) <= 3:
        return None
    bounds: list[ast.expr | None] = [None if _is_none(a) else a for a in expr.args]
    lower, upper, step = ([None, *bounds, None] if len(bounds) == 1 else [*bounds, None, None])[:3]
    return ast.Slice(lower=lower, upper=upper, step=step)


def _is_none(expr: ast.expr) -> bool:
    return isinstance(expr, ast.Constant) and expr.value is None


def _comprehension(expr: ast.ListComp | ast.DictComp, scope: _Scope) -> _Value | None:
    """A list or dict comprehension over the rows of a tensor, ``[r * 2 for r in x]`` or
    ``{i: r for i, r in enumerate(x)}``: a container whose items are known when its element is."""
    if len(expr.generators) != 1:
        return None
    generator = expr.generators[0]
    iterated, target = generator.iter, generator.target
    call = iterated if isinstance(iterated, ast.Call) else None
    if call is not None and scope.function.qualname(call.func) == "builtins.enumerate" and len(call.args) == 1:
        if not (isinstance(target, ast.Tuple) and len(target.elts) == 2):
            return None
        iterated, target = call.args[0], target.elts[1]
    row = _row(_value(iterated, scope))
    if row is None or not isinstance(target, ast.Name):
        return None
    unknown = dict.fromkeys(bound_names(generator.target))
    inner = scope.knowing({**scope.known, **unknown, target.id: _Binding(target, row)})
    element = _value(expr.value if isinstance(expr, ast.DictComp) else expr.elt, inner)
    return _Value(items=element) if element is not None else None


def _row(value: _Value | None) -> _Value | None:
    """An item of ``value`` when iterated: a row of a tensor (one dimension fewer)."""
    if value is None or value.number or value.none:
        return None
    if value.items is not None:
        return value.items
    if value.rank is None:
        return None
    return replace(value, rank=value.rank - 1, dims=None, extent=None)


def _scaled(expr: ast.BinOp, scope: _Scope) -> _Value | None:
    """A value combined with a Python number keeps its shape; its dtype may be promoted."""
    left, right = _value(expr.left, scope), _value(expr.right, scope)
    if left is not None and right is not None and left.number and right.number:
        return left
    for value, other in ((left, right), (right, left)):
        if value is not None and not value.number and value.items is None and other is not None and other.number:
            return replace(value, dtype=None)
    return None


def _called(call: ast.Call, scope: _Scope) -> _Value | None:
    function = scope.function
    qualname = function.qualname(call.func)
    if qualname in ("builtins.list", "builtins.tuple") and len(call.args) == 1 and not call.keywords:
        row = _row(_value(call.args[0], scope))
        return _Value(items=row) if row is not None else None
    if is_mindspore_name(qualname):
        assert qualname is not None
        name = qualname.rsplit(".", 1)[-1]
        if name in _CREATORS:
            return _created(call, name, function)
        if name in _CONCATS or name in _STACKS:
            return _joined(call, name, scope)
        if not call.args:
            return None
        operand, rest = call.args[0], call.args[1:]
    elif isinstance(call.func, ast.Attribute) and qualname is None:
        name, operand, rest = call.func.attr, call.func.value, call.args
    else:
        return None
    value = _value(operand, scope)
    if value is None or value.number or value.items is not None:
        return None
    if name in ("astype", "to", "cast") and len(rest) == 1:
        dtype = _dtype(rest[0], function)
        return replace(value, dtype=dtype, tensor=True) if dtype else None
    if name in _LIKE and not rest and not call.keywords:
        return replace(value, tensor=True)
    if name in _UNSQUEEZE and len(rest) == 1 and _integer(rest[0]) is not None and value.rank is not None:
        return replace(value, rank=value.rank + 1, dims=None, extent=None, tensor=True)
    if name in _REDUCTIONS:
        return _reduced(call, value, rest)
    return None


def _joined(call: ast.Call, name: str, scope: _Scope) -> _Value | None:
    """``ops.concat((y, x))`` of tensors derived from one value: larger than each whole operand
    (``ops.stack`` adds an axis)."""
    operands = _operands(call)
    values = [_value(e, scope) for e in operands or []]
    known = [v for v in values if v is not None and v.graph and v.items is None and v.rank is not None]
    if len(known) < 2 or len(known) != len(values) or len({(v.base, v.rank) for v in known}) != 1:
        return None
    base, rank = known[0].base, known[0].rank
    dtypes = {v.dtype for v in known}
    dtype = dtypes.pop() if len(dtypes) == 1 else None
    if name in _STACKS:
        return _Value(base=base, rank=None if rank is None else rank + 1, dtype=dtype, tensor=True)
    whole = base is not None and all(v.extent in ("same", "larger") for v in known)
    return _Value(base=base, rank=rank, extent="larger" if whole else None, dtype=dtype, tensor=True)


def _reduced(call: ast.Call, value: _Value, rest: list[ast.expr]) -> _Value | None:
    """A reduction over an axis without ``keepdims`` drops a dimension; over all axes it is a scalar tensor."""
    keywords = {k.arg: k.value for k in call.keywords}
    axes = [keywords[a] for a in _AXIS if a in keywords] + rest
    keep = next((keywords[k] for k in _KEEPDIMS if k in keywords), None)
    if len(axes) > 1 or (keep is not None and not isinstance(keep, ast.Constant)):
        return None
    # sums and means may promote integers; only `any` and `all` have a dtype known here
    dtype = "bool" if _name_of(call) in ("any", "all") else None
    if isinstance(keep, ast.Constant) and keep.value:
        return replace(value, dtype=dtype, extent=None, tensor=True)
    if not axes:
        return _Value(rank=0, dtype=dtype, tensor=True)
    parts = axes[0].elts if isinstance(axes[0], ast.Tuple) else [axes[0]]
    if value.rank is None or any(_integer(p) is None for p in parts):
        return None
    return replace(value, rank=value.rank - len(parts), dims=None, extent=None, dtype=dtype, tensor=True)


def _created(call: ast.Call, name: str, function: GraphFunction) -> _Value | None:
    """``ops.zeros((2, 3))``, ``mint.ones(2, 3, dtype=ms.int32)``: a literal shape of its own."""
    keywords = {k.arg: k.value for k in call.keywords}
    sizes = call.args[:1] if name == "full" else call.args
    if "size" in keywords:
        sizes = [keywords["size"]]
    shape_args = [a for a in sizes if _dtype(a, function) is None]
    if len(shape_args) == 1 and isinstance(shape_args[0], (ast.Tuple, ast.List)):
        shape_args = list(shape_args[0].elts)
    dims = [_integer(a) for a in shape_args]
    if not dims or any(d is None for d in dims):
        return None
    dtypes = [_dtype(a, function) for a in sizes if _dtype(a, function)]
    dtype = _dtype(keywords["dtype"], function) if "dtype" in keywords else (dtypes[0] if dtypes else None)
    default = None if name == "full" else "float32"
    shape = tuple(d for d in dims if d is not None)
    return _Value(rank=len(shape), dims=shape, dtype=dtype or default, tensor=True)


def _difference(first: _Value | None, second: _Value | None) -> str | None:
    """What certainly differs between two joined values: "shapes", "dtypes", "types", "none", or None."""
    if first is None or second is None or first.items is not None or second.items is not None:
        return None
    if first.none or second.none:
        return "none" if first.none != second.none and not (first.number or second.number) else None
    if first.number or second.number:
        graph = second.graph if first.number else first.graph
        return "types" if first.number != second.number and graph else None
    if first.base == second.base:
        known = first.rank is not None and second.rank is not None
        if known and first.rank != second.rank:
            return "shapes"
        if known and first.extent is not None and second.extent is not None and first.extent != second.extent:
            return "shapes"
        if first.base is None and first.dims is not None and second.dims is not None and first.dims != second.dims:
            return "shapes"
    dtypes = (first.dtype, second.dtype)
    if None in dtypes or dtypes[0] == dtypes[1]:
        return None
    # two different casts or creations, or a cast of one value on one side only
    return "dtypes" if "" not in dtypes or (first.base is not None and first.base == second.base) else None


def _dtype(expr: ast.expr, function: GraphFunction) -> str | None:
    """The MindSpore dtype ``expr`` names (``ms.int32`` -> ``int32``)."""
    qualname = function.qualname(expr)
    name = qualname.rsplit(".", 1)[-1] if qualname and is_mindspore_name(qualname) else ""
    return name.rstrip("_") if _DTYPE_NAME.match(name) else None


def _known_integer(expr: ast.expr, function: GraphFunction) -> int | None:
    """An int literal, or a name whose inferred value is a known Python int (``net(x, 2)``)."""
    if isinstance(expr, ast.Name):
        value = function.value(expr)
        known = value.value if isinstance(value, AbstractScalar) and value.kind is Kind.CONSTANT else None
        return known if type(known) is int else None
    return _integer(expr)


def _integer(expr: ast.expr) -> int | None:
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub):
        inner = _integer(expr.operand)
        return None if inner is None else -inner
    if isinstance(expr, ast.Constant) and type(expr.value) is int:
        return expr.value
    return None


def _tests_identity(test: ast.expr) -> bool:
    """``x is None`` and the like are decided while compiling, whatever ``x`` is: one branch is compiled."""
    compares = [n for n in descendants(test) if isinstance(n, ast.Compare)]
    return any(isinstance(op, (ast.Is, ast.IsNot)) for n in compares for op in n.ops)


def _name_of(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def _enclosing_block(node: ast.stmt, function: GraphFunction) -> list[ast.stmt]:
    for parent in descendants(function.node):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(parent, field, None)
            if isinstance(block, list) and node in block:
                return block
    return []


def _following(node: ast.If, function: GraphFunction) -> list[ast.stmt]:
    """The statements after ``node`` in its block: the other branch of an ``if`` that returns."""
    block = _enclosing_block(node, function)
    return block[block.index(node) + 1 :][:1] if block else []


def _span(start: ast.expr, node: ast.If) -> ast.AST:
    """From a value bound before ``node`` to the end of ``node``: the compiler reports the join on
    both (the fallback of the binding in LAX, the failed join of the ``if`` in STRICT)."""
    span = ast.Pass()
    span.lineno, span.col_offset = start.lineno, start.col_offset
    span.end_lineno, span.end_col_offset = node.end_lineno, node.end_col_offset
    return span


def _values_before(node: ast.If, scope: _Scope) -> dict[str, _Binding | None]:
    """The value each name has just before ``node``, where a plain assignment of its own block gives it."""
    block = _enclosing_block(node, scope.function)
    return _block_values(block[: block.index(node)], scope) if block else {}


def _ends_flow(block: list[ast.stmt]) -> bool:
    return bool(block) and isinstance(block[-1], (ast.Return, ast.Raise, ast.Continue, ast.Break))


def _block_values(
    block: list[ast.stmt], scope: _Scope, start: Mapping[str, _Binding | None] | None = None
) -> dict[str, _Binding | None]:
    """The value each name has at the end of ``block`` (from ``start``): a plain ``name = value``
    gives its value, a `for` over a constant range the value it leaves; None for a name bound
    otherwise (unknown)."""
    values = dict(start or {})
    for statement in block:
        if (
            isinstance(statement, ast.Assign)
            and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Name)
        ):
            values[statement.targets[0].id] = _Binding(statement.value, _value(statement.value, scope.knowing(values)))
            continue
        looped = _after_loop(statement, scope, values) if isinstance(statement, ast.For) else {}
        values.update({name: looped.get(name) for name in _bound(statement)})
    return values


def _after_loop(loop: ast.For, scope: _Scope, before: dict[str, _Binding | None]) -> dict[str, _Binding | None]:
    """The values a loop over a constant range leaves: its body evaluated twice, a name whose value
    the second pass changes again (``ops.stack`` of itself) unknown; one it keeps (a concat of
    itself, larger than the value before the loop) known."""
    if loop.orelse or not _runs(loop, scope.function):
        return {}
    once = _block_values(loop.body, scope, {**before, **dict.fromkeys(bound_names(loop.target))})
    twice = _block_values(loop.body, scope, once)
    return {name: binding for name, binding in once.items() if twice.get(name) == binding}


def _runs(loop: ast.For, function: GraphFunction) -> bool:
    """A `for` over a literal range or display that is not empty: unrolled, its body runs."""
    iterated = loop.iter
    if isinstance(iterated, (ast.Tuple, ast.List)):
        return bool(iterated.elts) and not any(isinstance(e, ast.Starred) for e in iterated.elts)
    if not (isinstance(iterated, ast.Call) and function.qualname(iterated.func) == "builtins.range"):
        return False
    bounds = [_integer(a) for a in iterated.args]
    if iterated.keywords or not 1 <= len(bounds) <= 3 or any(b is None for b in bounds):
        return False
    return len(range(*(b for b in bounds if b is not None))) > 0


def _bound(statement: ast.stmt) -> set[str]:
    names: set[str] = set()
    for node in descendants(statement):
        if isinstance(node, ast.Assign):
            names.update(n for target in node.targets for n in bound_names(target))
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor, ast.NamedExpr)):
            names.update(bound_names(node.target))
    return names


def _read_after(name: str, node: ast.If, function: GraphFunction) -> bool:
    end = node.end_lineno or node.lineno
    return any(
        isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load) and n.lineno > end
        for n in descendants(function.node)
    )
