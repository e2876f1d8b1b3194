from __future__ import annotations

import ast
from collections.abc import Iterator

from mslint.diagnostics import Severity
from mslint.model.abstract import AbstractScalar, AbstractSequence, AbstractTensor, AbstractValue, Kind
from mslint.model.branch_joins import JoinedValue, branch_joins, joined_value, names_bound
from mslint.model.memo import NodeMemo
from mslint.model.module import bound_names
from mslint.model.project import is_mindspore_name
from mslint.model.scope import GraphFunction
from mslint.model.symbolic import CONCATS, STACKS, is_graph, is_none, is_number, operands
from mslint.model.walk import descendants, returned_values
from mslint.rules.base import Finding, Rule, dynamic_shape_severity
from mslint.settings import Settings

# Calls whose result holds each of their operands: a name re-bound to one that holds itself grows.
_GROWERS = CONCATS | STACKS | {"vstack", "dstack", "column_stack", "row_stack"}


# Different shapes make a dynamic shape (the rule's own severity); different dtypes, or a number
# against a tensor, are rejected at every level; None against a tensor fails in STRICT, falls back in
# LAX and fails at every level under a gradient (measured on 2.10).
# The Python scalars two returns of an entry may not join (measured on 2.10).
_RETURNED_SCALARS = frozenset({"int", "float", "bool", "str"})
_SEVERITIES = {
    "shapes": None,
    "dtypes": Severity.ERROR,
    "cast": Severity.WARNING,
    "types": Severity.ERROR,
    "none": Severity.WARNING,
    "list": Severity.WARNING,
}
_DIFFERENCES = {
    "shapes": "different shapes",
    "dtypes": "different dtypes",
    "cast": "a cast on one side only, of a value whose dtype mslint could not infer (they join only if it "
    "already has that dtype)",
    "types": "different types",
    "none": "None on one side and a value on the other",
    "list": "a list on one side and a scalar or a tuple on the other, as the Cell's output (STRICT rejects the "
    "join, LAX runs it in the Python interpreter)",
}


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
    a Python float against an int that the entry returns, a tuple against a tensor, a Python
    scalar against a tuple that a function returns, a list against a scalar or a tuple that a
    Cell returns, a number computed from shapes against a tensor, two known dtypes; and the
    items of two tuples of one length, place by place (`(x, ops.cast(x, ms.float16))` against
    `(x, x)`, `(x, 1)` against `(x, x)`). A conditional expression on a tensor
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
        rebound = frozenset(n for block in (node.body, node.orelse) for s in block for n in names_bound(s))
        returns = _RETURNED(function.node, _returned_ids)
        for label, first, second in branch_joins(node, function):
            returned = label == "the returned value" and function.entry.node is function.node
            whole = (label == "the returned value" and {id(first.expr), id(second.expr)} <= returns) or (
                label in _RETURNED_NAMES(function.node, _returned_names)
            )
            what = _difference(first, second) or _type_difference(
                first.expr, second.expr, function, rebound, numbers=returned, whole=whole
            )
            if what is not None and second.expr.lineno < node.lineno:
                yield Finding(
                    _span(second.expr, node),
                    f"{label} is `{ast.unparse(second.expr)}` here and `{ast.unparse(first.expr)}` after the branch "
                    f"of the tensor `if` on line {node.lineno}: the two are joined when the `if` ends"
                    + (f"; {_DIFFERENCES[what]}" if what == "cast" else ""),
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
    body, orelse = joined_value(node.body, function), joined_value(node.orelse, function)
    what = _difference(body, orelse)
    whole = id(node) in _RETURNED(function.node, _returned_ids)
    returned = function.entry.node is function.node and whole
    what = what or _type_difference(node.body, node.orelse, function, frozenset(), numbers=returned, whole=whole)
    if what is not None and not _never_read(node, function):
        yield Finding(
            node,
            f"the two sides of this conditional expression on a tensor have {_DIFFERENCES[what]}: "
            f"`{ast.unparse(node.body)}` and `{ast.unparse(node.orelse)}`",
            hint="give both sides values of one type, shape and dtype, or choose with `ops.select`",
            severity=_SEVERITIES[what],
        )


_RETURNED: NodeMemo[ast.AST, frozenset[int]] = NodeMemo()
_RETURNED_NAMES: NodeMemo[ast.AST, frozenset[str]] = NodeMemo()


def _returned_ids(function: ast.AST) -> frozenset[int]:
    """The expressions the function's ``return`` statements return (memoized by function)."""
    return frozenset(map(id, returned_values(function)))


def _returned_names(function: ast.AST) -> frozenset[str]:
    """The labels (`` `y` ``, as :func:`branch_joins` names a joined name) of the names the function
    returns whole (``return y``, not ``return x, y``)."""
    return frozenset(f"`{v.id}`" for v in returned_values(function) if isinstance(v, ast.Name))


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
    first: ast.expr,
    second: ast.expr,
    function: GraphFunction,
    rebound: frozenset[str],
    numbers: bool = False,
    whole: bool = False,
) -> str | None:
    """What the inferred values of two joined expressions certainly differ in: a tuple or list and
    a tensor, a number and a tensor, two known dtypes; with ``numbers`` (the entry's outputs), also
    two Python scalars of different types (int, float, bool, str) and a string and a tensor
    (measured: "Cannot join the return values of different branches"; a name bound to either in
    two branches compiles); with ``whole`` (what a function returns whole), a Python scalar and a
    tuple, and in a Cell's output a list and a scalar or a tuple. Expressions that read a name the
    branches re-bind are left to the branch-by-branch values above."""
    if rebound and any(isinstance(n, ast.Name) and n.id in rebound for e in (first, second) for n in ast.walk(e)):
        return None
    return _values_difference(function.value(first), function.value(second), function, numbers, whole)


def _values_difference(
    a: AbstractValue, b: AbstractValue, function: GraphFunction, numbers: bool, whole: bool
) -> str | None:
    """:func:`_type_difference` of two inferred values; two tuples of one length differ where two
    of their items do, compared as values inside a graph (measured on 2.10: `return x, (x, 1)`
    against `return x, (x, x)` fails to join, STRICT and LAX)."""
    if Kind.UNKNOWN in (a.kind, b.kind):
        return None
    if whole and _scalar_and_tuple(a, b):
        return "types"
    if whole and function.entry.node is function.node and function.owner is not None and _list_and_other(a, b):
        return "list"
    if numbers and isinstance(a, AbstractScalar) and isinstance(b, AbstractScalar):
        return "types" if a.type != b.type and {a.type, b.type} <= _RETURNED_SCALARS else None
    kinds = {type(v) for v in (a, b)}
    if AbstractTensor in kinds and kinds & {AbstractSequence, AbstractScalar} and len(kinds) == 2:
        other = b if isinstance(a, AbstractTensor) else a
        excluded = ("None",) if numbers else ("None", "str")
        return None if isinstance(other, AbstractScalar) and other.type in excluded else "types"
    if isinstance(a, AbstractTensor) and isinstance(b, AbstractTensor) and None not in (a.dtype, b.dtype):
        return "dtypes" if a.dtype != b.dtype else None
    items = (_values_difference(x, y, function, numbers=False, whole=False) for x, y in _paired_items(a, b))
    return next((difference for difference in items if difference is not None), None)


def _paired_items(a: AbstractValue, b: AbstractValue) -> list[tuple[AbstractValue, AbstractValue]]:
    """The items of two sequences of one type and one known length, side by side; none for
    anything else."""
    if not (isinstance(a, AbstractSequence) and isinstance(b, AbstractSequence) and a.type == b.type):
        return []
    if a.items is None or b.items is None or len(a.items) != len(b.items):
        return []
    return list(zip(a.items, b.items))


def _scalar_and_tuple(a: AbstractValue, b: AbstractValue) -> bool:
    """A Python scalar on one side and a tuple on the other. Measured on 2.10, STRICT and LAX: a
    function that returns `1`, `1.0`, `True` or `"a"` in one branch and `(1, 2)` in the other, whole or
    through a name, fails ("Cannot join the return values of different branches"), in an entry and in
    a method it calls (rules/branch-shape-mismatch/bad_returned_types.py)."""
    scalar, other = (a, b) if isinstance(a, AbstractScalar) else (b, a)
    return (
        isinstance(scalar, AbstractScalar)
        and scalar.type in _RETURNED_SCALARS
        and isinstance(other, AbstractSequence)
        and other.type == "tuple"
    )


def _list_and_other(a: AbstractValue, b: AbstractValue) -> bool:
    """A list on one side and a Python scalar or a tuple on the other. Measured on 2.10: a Cell whose
    `construct` returns `[1, 2]` in one branch and `1` or `(1, 2)` in the other fails in STRICT
    ("Cannot join the return values of different branches") and falls back in LAX; a `@jit`
    function that does the same compiles at both levels."""
    listed, other = (a, b) if isinstance(a, AbstractSequence) and a.type == "list" else (b, a)
    if not (isinstance(listed, AbstractSequence) and listed.type == "list"):
        return False
    scalar = isinstance(other, AbstractScalar) and other.type in _RETURNED_SCALARS
    return scalar or (isinstance(other, AbstractSequence) and other.type == "tuple")


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
    return set() if hasattr(statement, "body") else names_bound(statement)


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
    sequence = operands(call)
    held = sequence is not None and any(isinstance(e, ast.Name) and e.id == target.id for e in sequence)
    return target.id if held else None


def _difference(first: JoinedValue, second: JoinedValue) -> str | None:
    """What certainly differs between two joined values: "shapes", "dtypes", "types", "none", or None."""
    shapes = [j.value.shape for j in (first, second) if isinstance(j.value, AbstractTensor) and _static(j.value.shape)]
    if len(shapes) == 2 and shapes[0] != shapes[1]:
        return "shapes"  # as inferred (`ops.reshape(x, (3, 2))` against a (2, 3) `x`), whatever made them
    if _dtypes_differ(first.value, second.value):
        return "dtypes"  # as inferred (`self.cast(y, ms.float16)` against a float32 `y`), whatever made them
    a, b = first.origin, second.origin
    if a is None or b is None or a.item is not None or b.item is not None:
        return None
    numbers = is_number(first.value, a), is_number(second.value, b)
    nones = is_none(first.value, a), is_none(second.value, b)
    if any(nones):
        return "none" if nones[0] != nones[1] and not any(numbers) else None
    if any(numbers):
        graph = is_graph(second.value, b) if numbers[0] else is_graph(first.value, a)
        return "types" if numbers[0] != numbers[1] and graph else None
    if a.source == b.source:
        known = a.rank is not None and b.rank is not None
        if known and a.rank != b.rank:
            return "shapes"
        if known and a.extent is not None and b.extent is not None and a.extent != b.extent:
            return "shapes"
        if a.source is None and a.dims is not None and b.dims is not None and a.dims != b.dims:
            return "shapes"
    dtypes = (a.dtype, b.dtype)
    if None in dtypes or dtypes[0] == dtypes[1]:
        return None
    if "" not in dtypes:  # two different casts or creations
        return "dtypes"
    if a.source is None or a.source != b.source:
        return None
    # a cast of one value on one side only: the join fails unless the value already has that dtype
    # (measured on 2.10: `y = ops.cast(x, ms.float32)` against `y = x` compiles for a float32 `x`)
    own = (first if a.dtype == "" else second).value
    own_dtype = own.dtype if isinstance(own, AbstractTensor) else None
    if own_dtype is None:
        return "cast"
    return None if own_dtype == (b.dtype or a.dtype) else "dtypes"


def _dtypes_differ(a: AbstractValue, b: AbstractValue) -> bool:
    """Whether two inferred values hold tensors of different known dtypes at one place: the
    tensors themselves, or the items of two tuples of one length, at any depth (measured on 2.10:
    `(x, ops.cast(x, ms.float16))` against `(x, x)` fails to join, STRICT and LAX)."""
    if isinstance(a, AbstractTensor) and isinstance(b, AbstractTensor):
        return a.dtype is not None and b.dtype is not None and a.dtype != b.dtype
    return any(_dtypes_differ(x, y) for x, y in _paired_items(a, b))


def _static(shape: tuple[int | None, ...] | None) -> bool:
    """Whether every dimension of a tensor's shape is known."""
    return shape is not None and None not in shape


def _tests_identity(test: ast.expr) -> bool:
    """``x is None`` and the like are decided while compiling, whatever ``x`` is: one branch is compiled."""
    compares = [n for n in descendants(test) if isinstance(n, ast.Compare)]
    return any(isinstance(op, (ast.Is, ast.IsNot)) for n in compares for op in n.ops)


def _span(start: ast.expr, node: ast.If) -> ast.AST:
    """From a value bound before ``node`` to the end of ``node``: the compiler reports the join on
    both (the fallback of the binding in LAX, the failed join of the ``if`` in STRICT)."""
    span = ast.Pass()
    span.lineno, span.col_offset = start.lineno, start.col_offset
    span.end_lineno, span.end_col_offset = node.end_lineno, node.end_col_offset
    return span
