from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace

from mslint.diagnostics import Severity
from mslint.model.module import bound_names, is_self_attribute
from mslint.model.project import is_mindspore_name
from mslint.model.scope import GraphFunction
from mslint.model.values import Kind
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
    dtype: str | None = None
    """The dtype it was cast to or created with; "" for that of ``base``; None when unknown."""
    tensor: bool = False
    """Certainly a tensor (made by a tensor operation), not a tuple or a Python scalar."""
    number: bool = False
    """A Python number literal."""
    none: bool = False
    """``None``."""


class BranchShapeMismatch(Rule):
    """
    ## What it does
    Flags an `if` on a tensor value whose branches give the same name (or return) values that
    certainly differ in shape or dtype: an integer index (`x[0]`), a reduction over an axis
    without `keepdims`, or `unsqueeze` on one side only; literal shapes that differ
    (`ops.zeros((2, 3))` and `ops.zeros((3,))`); a cast on one side only or casts to different
    dtypes; a Python number on one side and a tensor on the other; `None` on one side and a
    value on the other (`mask = None` before the `if`, `mask = x * 2` in its branch, `mask`
    read after it), reported on the `None`. A tensor `if` by itself is
    fine (`if not overflow:`), and so are branches whose shapes mslint cannot tell apart.
    Different dtypes and a number against a tensor are errors; `None` against a value is a
    warning (STRICT rejects it, LAX falls back to the interpreter; under `value_and_grad` it
    fails at every level); different shapes have the severity of dynamic shapes.

    ## Why it breaks graph mode
    Both branches of a tensor condition are compiled, and their results are joined into one
    value. MindSpore 2.10 rejects a join of different dtypes, or of a number and a tensor, at
    every syntax level: `TypeError: Cannot join the return values of different branches,
    perhaps you need to make them equal. Type Join Failed: dtype1 = Int32, dtype2 = Float32`.
    A join of different shapes compiles, but into a tensor of unknown rank (`(-2)` in the IR):
    every operator after it gets a dynamic shape, which Ascend and GPU compile slowly or
    cannot sink.

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
    summary = "a tensor `if` whose branches give a name (or return) values of different shapes or dtypes"
    node_types = (ast.If,)

    def severity(self, settings: Settings) -> Severity:
        return dynamic_shape_severity(settings)

    def check_graph_node(self, node: ast.AST, function: GraphFunction) -> Iterator[Finding]:
        assert isinstance(node, ast.If)
        if function.kind(node.test) is not Kind.GRAPH or _tests_identity(node.test):
            return
        rebound = {n for block in (node.body, node.orelse) for s in block for n in _bound(s)}
        for label, first, second in _branch_values(node, function):
            what = _difference(_value(first, function, rebound), _value(second, function, rebound))
            if what is not None and second.lineno < node.lineno:
                yield Finding(
                    _span(second, node),
                    f"{label} is `{ast.unparse(second)}` here and `{ast.unparse(first)}` after the branch of the "
                    f"tensor `if` on line {node.lineno}: the two are joined when the `if` ends",
                    hint="give the name a value of the same kind before the `if` (a tensor of the same shape), "
                    "or choose with `ops.select`",
                    severity=_SEVERITIES[what],
                )
            elif what is not None:
                yield Finding(
                    node,
                    f"the branches of this tensor `if` give {label} {_DIFFERENCES[what]}: "
                    f"`{ast.unparse(first)}` (line {first.lineno}) and `{ast.unparse(second)}` (line {second.lineno})",
                    hint="give both branches values of one shape and dtype (pad, broadcast or cast), "
                    "or choose with `ops.select`",
                    severity=_SEVERITIES[what],
                )


def _branch_values(node: ast.If, function: GraphFunction) -> Iterator[tuple[str, ast.expr, ast.expr]]:
    """(what, value in the first branch, value in the other) for each value the branches join."""
    first_return = _returned(node.body)
    second_return = _returned(node.orelse or _following(node, function)) if first_return is not None else None
    if first_return is not None and second_return is not None:
        pairs = [(first_return, second_return)]
        if isinstance(first_return, ast.Tuple) and isinstance(second_return, ast.Tuple):
            pairs = list(zip(first_return.elts, second_return.elts))
        for first, second in pairs:
            yield "the returned value", first, second
        return
    if _ends_flow(node.body) or _ends_flow(node.orelse):
        return
    body, orelse = _final_values(node.body), _final_values(node.orelse)
    before = _values_before(node, function)
    rebound_in_orelse = {n for s in node.orelse for n in _bound(s)}
    for name in body:
        other = orelse.get(name)
        if other is None and name not in rebound_in_orelse:
            other = before.get(name)  # the value it keeps when the other branch runs
        if other is not None and _read_after(name, node, function):
            yield f"`{name}`", body[name], other


def _value(expr: ast.expr, function: GraphFunction, rebound: set[str]) -> _Value | None:
    """What is known of ``expr``'s shape and dtype; None when nothing useful is."""
    if isinstance(expr, ast.Constant) and isinstance(expr.value, (int, float)):  # bool is an int
        return _Value(number=True)
    if isinstance(expr, ast.Constant) and expr.value is None:
        return _Value(none=True)
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, (ast.USub, ast.UAdd)):
        return _value(expr.operand, function, rebound)
    if isinstance(expr, ast.Name) or is_self_attribute(expr, function.self_name):
        names = {n.id for n in descendants(expr) if isinstance(n, ast.Name)}
        if function.kind(expr) is Kind.GRAPH and not names & rebound:
            return _Value(base=ast.unparse(expr), rank=0, dtype="")
        return None
    if isinstance(expr, ast.Subscript):
        return _indexed(expr, function, rebound)
    if isinstance(expr, ast.BinOp):
        return _scaled(expr, function, rebound)
    if isinstance(expr, ast.Call):
        return _called(expr, function, rebound)
    return None


def _indexed(expr: ast.Subscript, function: GraphFunction, rebound: set[str]) -> _Value | None:
    """``x[0]`` has one dimension fewer than ``x``; slices keep the rank."""
    value = _value(expr.value, function, rebound)
    parts = expr.slice.elts if isinstance(expr.slice, ast.Tuple) else [expr.slice]
    if value is None or value.number or value.rank is None:
        return None
    if not all(isinstance(p, ast.Slice) or _integer(p) is not None for p in parts):
        return None
    integers = sum(1 for p in parts if not isinstance(p, ast.Slice))
    return replace(value, rank=value.rank - integers, dims=None)


def _scaled(expr: ast.BinOp, function: GraphFunction, rebound: set[str]) -> _Value | None:
    """A value combined with a Python number keeps its shape; its dtype may be promoted."""
    left, right = _value(expr.left, function, rebound), _value(expr.right, function, rebound)
    if left is not None and right is not None and left.number and right.number:
        return left
    for value, other in ((left, right), (right, left)):
        if value is not None and not value.number and other is not None and other.number:
            return replace(value, dtype=None)
    return None


def _called(call: ast.Call, function: GraphFunction, rebound: set[str]) -> _Value | None:
    qualname = function.qualname(call.func)
    if is_mindspore_name(qualname):
        assert qualname is not None
        name = qualname.rsplit(".", 1)[-1]
        if name in _CREATORS:
            return _created(call, name, function)
        if not call.args:
            return None
        operand, rest = call.args[0], call.args[1:]
    elif isinstance(call.func, ast.Attribute) and qualname is None:
        name, operand, rest = call.func.attr, call.func.value, call.args
    else:
        return None
    value = _value(operand, function, rebound)
    if value is None or value.number:
        return None
    if name in ("astype", "to", "cast") and len(rest) == 1:
        dtype = _dtype(rest[0], function)
        return replace(value, dtype=dtype, tensor=True) if dtype else None
    if name in _LIKE and not rest and not call.keywords:
        return replace(value, tensor=True)
    if name in _UNSQUEEZE and len(rest) == 1 and _integer(rest[0]) is not None and value.rank is not None:
        return replace(value, rank=value.rank + 1, dims=None, tensor=True)
    if name in _REDUCTIONS:
        return _reduced(call, value, rest)
    return None


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
        return replace(value, dtype=dtype, tensor=True)
    if not axes:
        return _Value(rank=0, dtype=dtype, tensor=True)
    parts = axes[0].elts if isinstance(axes[0], ast.Tuple) else [axes[0]]
    if value.rank is None or any(_integer(p) is None for p in parts):
        return None
    return replace(value, rank=value.rank - len(parts), dims=None, dtype=dtype, tensor=True)


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
    if first is None or second is None:
        return None
    if first.none or second.none:
        return "none" if first.none != second.none and not (first.number or second.number) else None
    if first.number or second.number:
        tensor = second.tensor if first.number else first.tensor
        return "types" if first.number != second.number and tensor else None
    if first.base == second.base:
        known = first.rank is not None and second.rank is not None
        if known and first.rank != second.rank:
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


def _returned(block: list[ast.stmt]) -> ast.expr | None:
    last = block[-1] if block else None
    return last.value if isinstance(last, ast.Return) else None


def _following(node: ast.If, function: GraphFunction) -> list[ast.stmt]:
    """The statements after ``node`` in its block: the other branch of an ``if`` that returns."""
    for parent in descendants(function.node):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(parent, field, None)
            if isinstance(block, list) and node in block:
                return block[block.index(node) + 1 :][:1]
    return []


def _span(start: ast.expr, node: ast.If) -> ast.AST:
    """From a value bound before ``node`` to the end of ``node``: the compiler reports the join on
    both (the fallback of the binding in LAX, the failed join of the ``if`` in STRICT)."""
    span = ast.Pass()
    span.lineno, span.col_offset = start.lineno, start.col_offset
    span.end_lineno, span.end_col_offset = node.end_lineno, node.end_col_offset
    return span


def _values_before(node: ast.If, function: GraphFunction) -> dict[str, ast.expr]:
    """The value each name has just before ``node``, where a plain assignment of its own block gives it."""
    for parent in descendants(function.node):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(parent, field, None)
            if isinstance(block, list) and node in block:
                return _final_values(block[: block.index(node)])
    return {}


def _ends_flow(block: list[ast.stmt]) -> bool:
    return bool(block) and isinstance(block[-1], (ast.Return, ast.Raise, ast.Continue, ast.Break))


def _final_values(block: list[ast.stmt]) -> dict[str, ast.expr]:
    """The value each name has at the end of ``block``, where a plain ``name = value`` of the
    block itself gives it (names bound otherwise, or in nested statements, are left out)."""
    values: dict[str, ast.expr] = {}
    for statement in block:
        if (
            isinstance(statement, ast.Assign)
            and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Name)
        ):
            values[statement.targets[0].id] = statement.value
        else:
            for name in _bound(statement):
                values.pop(name, None)
    return values


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
