"""Python builtins in graph code, each judged by its rows in the syntax table, and those whose verdict
rests on more than one row: ``range``, ``max``/``min`` of tensors and of host copies, ``map`` and ``filter``."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import replace

from mslint.model.abstract import (
    AbstractDict,
    AbstractScalar,
    AbstractSequence,
    AbstractTensor,
    AbstractValue,
    Kind,
    is_0d_tensor,
    is_runtime_number,
)
from mslint.model.host_copies import host_list_copy
from mslint.model.scope import GraphFunction
from mslint.model.walk import raised
from mslint.rules.base import Finding, fallback_severity
from mslint.rules.unsupported_syntax.generators import called_generator
from mslint.rules.unsupported_syntax.syntax_rows import measured
from mslint.rules.unsupported_syntax.text_formatting import reads_locals

# Builtins the checks above judge with more care than one row of the syntax table can (0-d
# tensors, lambdas over locals), or that python-side-effect-in-graph owns (the namespaces
# globals, locals, and vars without an argument).
_JUDGED_ELSEWHERE = frozenset(
    f"builtins.{name}" for name in ("range", "max", "min", "map", "filter", "globals", "locals")
)

_TAKING_TENSORS = frozenset({"builtins.range", "builtins.max", "builtins.min"})

"""The builtins whose findings depend on which arguments are tensors (not runtime numbers)."""


def builtins_on_tensors(call: ast.Call, function: GraphFunction) -> Iterator[Finding]:
    """Python builtins the compiler cannot apply to tensors: ``range(t)``, ``max(t, 1)``, and
    ``map`` over a lambda that reads the function's locals."""
    qualname = function.qualname(call.func)
    tensors = (
        [a for a in call.args if function.kind(a) is Kind.GRAPH and not is_runtime_number(function.value(a))]
        if qualname in _TAKING_TENSORS
        else []  # what the kinds of other calls' arguments would cost is spent only where they matter
    )
    if qualname == "builtins.range" and any(not _extremum_of_host_copy(t, function) for t in tensors):
        yield Finding(
            call,
            "`range` of a tensor: MindSpore rejects it at every syntax level (it needs a Python int)",
            hint="iterate over a constant or shape-derived count, or loop with `while` on a tensor condition",
        )
    elif (
        qualname in ("builtins.max", "builtins.min")
        and len(call.args) > 1
        and any(_holds_several(function.value(t)) for t in tensors)
    ):
        name = qualname.rpartition(".")[2]
        yield Finding(
            call,
            f"Python's `{name}` compares whole tensors: MindSpore rejects it at every syntax level (the truth "
            "value of a tensor with more than one element is ambiguous)",
            hint=f"use `ops.{'maximum' if name == 'max' else 'minimum'}`, which compares element by element",
        )
    elif (
        qualname in ("builtins.max", "builtins.min")
        and len(call.args) > 1
        and any(isinstance(function.value(t), AbstractTensor) for t in tensors)
        and any(_is_python_number(function.value(a)) for a in call.args)
    ):
        name = qualname.rpartition(".")[2]
        yield Finding(
            call,
            f"Python's `{name}` of a tensor and a Python number: STRICT rejects it (its inputs must be constants), "
            "LAX runs it in the Python interpreter",
            hint=f"use `ops.{'maximum' if name == 'max' else 'minimum'}`, or compare with a tensor of the number",
            severity=fallback_severity,
        )
    elif (copy := _host_copy_compared(call, qualname, function)) is not None:
        name = "max" if qualname == "builtins.max" else "min"
        yield Finding(
            call,
            f"Python's `{name}` of a host list copied from a graph tensor (`{ast.unparse(copy)}`, line {copy.lineno}): "
            f"the graph compiler knows its length and values only at run time and cannot apply `{name}` to it "
            "(LAX: `Unsupported op [IsDimUnKnown]`; STRICT rejects the copy itself)",
            hint=f"take the {name} of the tensor in the graph (`t.{name}()`), and loop with `while` on it where "
            "a count is needed",
        )
    elif (
        qualname in ("builtins.max", "builtins.min")
        and len(call.args) == 1
        and _has_several_rows(call.args[0], function)
    ):
        name = qualname.rpartition(".")[2]
        yield Finding(
            call,
            f"Python's `{name}` of a tensor compares its rows as Python values: MindSpore rejects it at every "
            "syntax level (the truth value of a tensor with more than one element is ambiguous)",
            hint=f"use `{name}` on a list or tuple of numbers, or `x.{name}()` / `ops.{name}` for the tensor's items",
        )
    elif qualname == "builtins.map" and len(call.args) > 1 and any(is_one_tensor(a, function) for a in call.args[1:]):
        yield Finding(
            call,
            "`map` over a tensor: MindSpore maps only over lists and tuples, at every syntax level",
            hint="apply the operation to the whole tensor, or map over `ops.unstack(x)`",
        )
    elif qualname == "builtins.filter" and call.args and _is_none(call.args[0]):
        yield Finding(
            call,
            "`filter(None, ...)`: MindSpore rejects it at every syntax level (None is not callable in graph code)",
            hint="use a list comprehension with a condition",
        )
    elif qualname == "builtins.map" and call.args and reads_locals(call.args[0], function):
        yield Finding(
            call,
            "`map` over a lambda that reads local variables: MindSpore rejects it at every syntax level "
            "(a closure with free variables)",
            hint="use a list comprehension or a `for` loop",
        )
    elif qualname is not None and qualname.startswith("builtins.") and qualname not in _JUDGED_ELSEWHERE:
        yield from _measured_builtin(call, qualname.partition(".")[2], function)


def _host_copy_compared(call: ast.Call, qualname: str | None, function: GraphFunction) -> ast.Call | None:
    """The copy of a graph tensor to a host list whose items ``max(lengths)`` or ``min(lengths)``
    compares, if ``call`` is one of those."""
    if qualname not in ("builtins.max", "builtins.min") or len(call.args) != 1:
        return None
    return host_list_copy(call.args[0], function)


def _extremum_of_host_copy(expr: ast.expr, function: GraphFunction) -> bool:
    """``max(lengths)`` or ``min(lengths)`` of a host list: the finding on that call says what fails
    (``range(max(lengths))`` is not a range of a tensor)."""
    return isinstance(expr, ast.Call) and _host_copy_compared(expr, function.qualname(expr.func), function) is not None


def _measured_builtin(call: ast.Call, name: str, function: GraphFunction) -> Iterator[Finding]:
    """A builtin as the syntax table measured it: the row of its use on a tensor where an argument
    is a graph value (or, for builtins measured only on constants, that row), else of its use on
    constants."""
    if id(call) in raised(function.node):  # an error message is built only when raising
        return
    if name == "vars" and not call.args:
        return
    if name == "next" and call.args and _makes_an_iterator(call.args[0], function):
        return  # `next(iter(x))`, `next(gen())`: the finding on `iter` or on the generator says it
    arguments = [*call.args, *(k.value for k in call.keywords)]
    on_graph = (
        name == "exec"
        or (name == "eval" and _code_reads_locals(call, function))
        or any(function.kind(a) is Kind.GRAPH for a in arguments)
    )
    rows = (f"builtin.{name}/tensor", f"builtin.{name}/constant") if on_graph else (f"builtin.{name}/constant",)
    if name == "len" and len(call.args) == 1 and _is_string(call.args[0], function):
        rows = (f"builtin.{name}/string",)
    table = function.project.release.syntax
    row = next((r for r in rows if table.has(r)), None)
    if row is None:
        return
    if name == "super" and not call.args and function.owner is None:
        yield from measured(
            call,
            "`super()` in a function defined outside a class",
            row,
            function,
            hint="call `super()` in a method of the class, or name the class and object (`super(Net, self)`)",
            position="jit",  # where the table measures it outside a class
        )
        return
    of = {"tensor": "a graph value", "string": "a string"}.get(row.rpartition("/")[2], "constants")
    yield from measured(
        call,
        f"Python's `{name}` of {of} in graph code",
        row,
        function,
        hint="use a `mindspore.ops` equivalent (`ops.any`, `ops.sort`, `ops.floor_divide`, ...) or keep it in "
        "host code",
    )


def _code_reads_locals(call: ast.Call, function: GraphFunction) -> bool:
    """Whether the code string given to ``eval``/``exec`` names a local of ``function`` (``"x * 2"``);
    code that is not a string literal may read anything."""
    source = call.args[0] if call.args else None
    if not (isinstance(source, ast.Constant) and isinstance(source.value, str)):
        return True
    try:
        tree = ast.parse(source.value)
    except SyntaxError:
        return True
    return any(isinstance(n, ast.Name) and n.id in function.local_names for n in ast.walk(tree))


def _makes_an_iterator(expr: ast.expr, function: GraphFunction) -> bool:
    """A call of ``iter`` or of a generator function."""
    return isinstance(expr, ast.Call) and (
        _is_call_of(expr, "builtins.iter", function) or called_generator(expr, function) is not None
    )


def _is_call_of(expr: ast.expr, qualname: str, function: GraphFunction) -> bool:
    return isinstance(expr, ast.Call) and function.qualname(expr.func) == qualname


_STRING_FUNCTIONS = frozenset(
    (
        *(f"builtins.{n}" for n in ("str", "repr", "ascii", "hex", "oct", "bin", "chr", "format")),
        *("os.getenv", "os.environ.get", "os.path.join", "os.path.basename", "os.path.dirname", "re.sub"),
    )
)


def _is_string(expr: ast.expr, function: GraphFunction) -> bool:
    """A string literal, an f-string, a call of a function that returns a string (measured:
    ``len(os.getenv(...))`` fails in STRICT as ``len("abc")`` does), or a sum with one of those."""
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
        return _is_string(expr.left, function) or _is_string(expr.right, function)
    if isinstance(expr, ast.Call):
        return function.qualname(expr.func) in _STRING_FUNCTIONS
    return isinstance(expr, ast.JoinedStr) or (isinstance(expr, ast.Constant) and isinstance(expr.value, str))


def _is_none(expr: ast.expr) -> bool:
    return isinstance(expr, ast.Constant) and expr.value is None


def is_one_tensor(expr: ast.expr, function: GraphFunction) -> bool:
    """Whether ``expr`` is a graph value that is one tensor, not a sequence, a number or a 0-d
    reduction."""
    if function.kind(expr) is not Kind.GRAPH or isinstance(expr, ast.Starred):
        return False
    value = function.value(expr)
    return not is_0d_tensor(value) and not isinstance(value, (AbstractSequence, AbstractDict, AbstractScalar))


def _holds_several(value: AbstractValue) -> bool:
    """A tensor of known rank whose dimensions are not all known to be 1: it holds more than one
    element but for sizes nobody writes. Python's ``max`` and ``min`` fail on such tensors in
    PyNative (and in PyTorch) as in graph mode, so code that runs there compares one-element
    tensors: a tensor of no known rank is no evidence of a graph failure."""
    shape = value.shape if isinstance(value, AbstractTensor) else None
    return bool(shape) and shape is not None and not all(d == 1 for d in shape) and 0 not in shape


def _is_python_number(value: AbstractValue) -> bool:
    """A Python int or float the graph knows at compile time (``1``, ``x.shape[0]``): mixed with a
    tensor in ``max``, it makes the compiler hand the call to the interpreter (measured on 2.10;
    ``max`` of tensors alone compiles)."""
    return isinstance(value, AbstractScalar) and value.kind is Kind.CONSTANT and value.type in ("int", "float")


def _has_several_rows(expr: ast.expr, function: GraphFunction) -> bool:
    """A tensor whose rows, compared by ``max(x)``, are known to hold several elements (a 1-D
    tensor's rows are 0-d: they compare)."""
    if not is_one_tensor(expr, function):
        return False
    value = function.value(expr)
    if not isinstance(value, AbstractTensor) or value.shape is None or len(value.shape) < 2 or value.shape[0] == 1:
        return False
    return _holds_several(replace(value, shape=value.shape[1:]))
