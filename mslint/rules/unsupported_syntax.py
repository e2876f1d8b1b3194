from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from dataclasses import replace
from functools import cache
from typing import Any, NamedTuple

from mslint.diagnostics import Severity
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
from mslint.model.binder import enclosing_blocks
from mslint.model.project import ClassRef, FunctionNode, is_jit_class
from mslint.model.python_libraries import CONCURRENCY_MODULES
from mslint.model.scope import GraphFunction, is_jit_decorated
from mslint.model.walk import descendants, own_nodes, raised, statements
from mslint.rules.base import Finding, Rule, SeverityChoice, fallback_severity
from mslint.settings import Settings
from mslint.syntax_table import COMPILE_TIME, DIVERGENCE, ERROR, FALLBACK, syntax_table

# How findings name the node types the syntax table finds rejected (others go by their ast name).
_DESCRIPTIONS = {
    "Import": "an `import` statement",
    "ImportFrom": "an `import` statement",
    "Try": "a `try` statement",
    "TryStar": "a `try` statement",
    "Delete": "a `del` statement",
    "ClassDef": "a `class` statement",
    "AsyncFunctionDef": "an `async def`",
    "Nonlocal": "a `nonlocal` statement",
    "Match": "a `match` statement",
    "NamedExpr": "an assignment expression (`:=`)",
    "Set": "a set display (`{a, b}`)",
    "SetComp": "a set comprehension",
}
# The compiler reports a generator of another function where it is called (``_generator_calls``
# flags the call), one defined in graph code on its ``yield`` (``_local_generator``).
_REPORTED_AT_CALL = frozenset({"Yield", "YieldFrom"})


def _node_type(row: str) -> type[ast.AST] | None:
    """The ast node type a ``stmt.``/``expr.`` row of the syntax table measures (``stmt.Try/except``)."""
    family, _, rest = row.partition(".")
    name = rest.partition("/")[0]
    node_type = getattr(ast, name, None) if family in ("stmt", "expr") and name not in _REPORTED_AT_CALL else None
    return node_type if isinstance(node_type, type) and issubclass(node_type, ast.AST) else None


@cache
def rejected_node_types(release: str) -> dict[type[ast.AST], str]:
    """Statement and expression types the compiler of ``release`` rejects at every syntax level:
    every row of the type in the syntax table fails in LAX in ``construct``, on the form's line."""
    table = syntax_table(release)
    verdicts: dict[type[ast.AST], bool] = {}
    for row in table.ids():
        node_type = _node_type(row)
        if node_type is not None:
            outcome = table.outcome(row, "construct", "lax")
            rejected = outcome.kind == ERROR and outcome.on_hazard_line
            verdicts[node_type] = verdicts.get(node_type, True) and rejected
    return {t: _DESCRIPTIONS.get(t.__name__, f"`{t.__name__}`") for t, rejected in verdicts.items() if rejected}


# Every statement and expression type: which of them a release rejects is read from its table when
# graph code is first checked (not at import, which every run pays for).
_CANDIDATE_TYPES = tuple(
    t
    for t in vars(ast).values()
    if isinstance(t, type) and issubclass(t, (ast.stmt, ast.expr)) and t not in (ast.stmt, ast.expr, ast.Call)
)
_TABLE_TOO = frozenset({ast.For, ast.While, ast.ListComp})
"""Forms judged by their checks in :data:`_FORM_CHECKS` and then by the syntax table as well."""
# Builtins the checks above judge with more care than one row of the syntax table can (0-d
# tensors, lambdas over locals), or that python-side-effect-in-graph owns (the namespaces
# globals, locals, and vars without an argument).
_JUDGED_ELSEWHERE = frozenset(
    f"builtins.{name}" for name in ("range", "max", "min", "map", "filter", "globals", "locals")
)
# ``eval`` reads the row of its use on a tensor where its code names a local (else the compiler
# folds it); ``exec`` fails in STRICT and runs in the interpreter in LAX whatever its code, and is
# measured only so (``exec('z = 1')``).


def lax_only_severity(settings: Settings) -> Severity:
    """Code STRICT compiles and LAX runs in the Python interpreter: a warning in LAX, a note in STRICT."""
    return Severity.WARNING if settings.syntax_level == "lax" else Severity.INFO


class Verdict(NamedTuple):
    """What a finding says, and how severe it is: ``rank`` orders verdicts, 0 the most severe."""

    rank: int
    message: str
    severity: SeverityChoice | None
    """None: the rule's."""


# Where graph code is nested, as the table's positions name it, and how a finding says so.
_NESTED_POSITIONS = {"loop": "in a `for` loop", "branch": "under an `if` on a tensor"}
# The table's ``branch`` programs join ``y = x`` with the form's ``y``: a form that leaves a row of
# ``x`` in ``y`` fails to join there, which says nothing of the form.
_JOIN_ERROR = "Cannot join the return values of different branches"


@cache
def measured_verdict(release: str, row: str, position: str) -> Verdict | None:
    """What the syntax table of ``release`` says of a row at ``position``: the finding's message
    and severity, or None where both levels compile it (folding constants at compile time is
    what the compiler should do)."""
    table = syntax_table(release)
    if not table.has(row) or position not in table.positions(row):
        return None
    strict, lax = table.outcome(row, position, "strict"), table.outcome(row, position, "lax")
    if position == "branch" and _JOIN_ERROR in strict.message + lax.message:
        return None
    if lax.kind == ERROR and lax.on_hazard_line:
        return Verdict(0, "MindSpore rejects it at every syntax level", None)
    if lax.kind == DIVERGENCE:
        return Verdict(1, "graph mode returns another result than PyNative", None)
    if not (strict.kind == ERROR and strict.on_hazard_line):
        if lax.kind == FALLBACK and lax.on_hazard_line:
            return Verdict(4, "STRICT compiles it, LAX runs it in the Python interpreter", lax_only_severity)
        return None
    lax_does = {FALLBACK: "runs it in the Python interpreter", COMPILE_TIME: "runs it once, while compiling"}
    message = f"STRICT rejects it, LAX {lax_does.get(lax.kind, 'accepts it')}"
    if "grad" in table.positions(row) and table.outcome(row, "grad", "lax").kind == ERROR:
        return Verdict(2, f"{message}, but not under `value_and_grad`, where the compile fails", None)
    return Verdict(3, message, fallback_severity)


def _flagged_somewhere(release: str, row: str) -> bool:
    """Whether the syntax table of ``release`` has a verdict for ``row`` at any position (each
    verdict is cached: this is a few lookups)."""
    table = syntax_table(release)
    return table.has(row) and any(measured_verdict(release, row, p) for p in table.positions(row))


def table_positions(node: ast.AST, function: GraphFunction) -> tuple[str, ...]:
    """The positions of the syntax table ``node`` is at: ``jit`` in a ``@jit`` function, else
    ``construct``; and ``loop`` in the body of a ``for``, ``branch`` under an ``if`` on a tensor."""
    positions = ["jit" if is_jit_decorated(function.node, function.module) else "construct"]
    blocks = enclosing_blocks(function.node).get(id(node), ())
    if any(isinstance(b, ast.For) for b in blocks):
        positions.append("loop")
    if any(isinstance(b, ast.If) and function.kind(b.test) is Kind.GRAPH for b in blocks):
        positions.append("branch")
    return tuple(positions)


class UnsupportedSyntax(Rule):
    """
    ## What it does
    Flags statements, expressions and builtins in graph code that the targeted MindSpore compiler
    rejects, runs in the Python interpreter or computes differently from PyNative, as mslint's
    measured [graph-syntax table](../graph-syntax.md) of the release says:

    * statements and expressions rejected at every syntax level: in 2.10 `import`, `try`, `del`,
      a nested `class`, `async def`, `nonlocal`, `match`, `:=`, set displays and comprehensions,
      list comprehensions with several `for` clauses, list comprehensions of graph values whose `if`
      clause tests a number (`[x * i for i in range(4) if i % 2]`; `if i % 2 == 1` compiles), and
      the `else` clause of `for` and `while`;
      operators on tensors the table finds rejected or interpreted (`t << 1`);
    * Python builtins, on tensors or on constants, each as its row in the table measured it:
      errors where LAX rejects them too (`memoryview`, `next(iter((1, 2)))`, and in a `@jit`
      function `sorted`, `divmod`, `hex` of a tensor, `super()` in a function defined outside a
      class), or where graph mode returns another result
      than PyNative (`iter(t)`, `len(dir(self))`); errors too where LAX runs them in
      the interpreter but fails under `value_and_grad` (`any(t)`, `sorted(t)`, `divmod(t, 2)`,
      `delattr(self, "name")`);
      otherwise, where only STRICT rejects them (`str(t)`, `repr(t)`, `frozenset(t)`, `hash(t)`,
      `len("abc")`, `exec("z = 1")`), warnings in LAX and errors in STRICT;
    * builtins whose verdict depends on more than one row: `range(t)`, `max(t, 1)` /
      `min(t, u)` (not of 0-d tensors such as `t.sum()`, which LAX compiles and STRICT rejects),
      `max(t)` / `min(t)` of one tensor, `map(f, t)` over a tensor, `map` over a `lambda` that
      reads the function's local variables, and `filter(None, ...)`;
    * calls of generator functions (functions that `yield`), which the compiler reports where
      they are called, and `yield` in a generator defined in graph code, which it reports on the
      `yield`; `with` on anything but a `@jit_class` instance (a plain class,
      `contextlib.suppress`, `open`, `ms._no_grad()`); `raise` of an exception class of your own
      (only Python's built-in exception types);
    * because STRICT rejects them and LAX runs them in the interpreter (warnings in LAX, errors in
      STRICT): `1 in t`, `"..." % t` (even `"%s" % (t.shape,)`) and `"x={}".format(t)`;
    * a `lambda` in the body of a `for` loop (`functools.reduce(lambda a, b: a * b, sizes)` too),
      and an f-string of a tensor whose text is used (`print(f"x={x}")`), which STRICT compiles and
      LAX runs in the interpreter (warnings in LAX, notes in STRICT).

    A form in the body of a `for` loop, or under an `if` on a tensor, takes the verdict the table
    measured there too, the most severe one (except a branch that could not join the form's result
    with the other branch's, which says nothing of the form).

    What compiles is not flagged: `global`, `lambda` outside `for` loops, `assert` and `raise` of
    built-in exceptions; `abs`, `sum`, `round`, `pow`, `len`, `int`, `float`, `bool`, `isinstance`,
    `hasattr`, `enumerate`, `zip` and `print` of tensors, `max` / `min` of 0-d tensors or of a list,
    f-strings and `"{}".format(...)` of shapes and numbers (`f"{x.shape}"`), an f-string nothing
    reads or that only a failing `assert` or a `raise` builds, and `str()` of shapes and numbers.

    ## Why it breaks graph mode
    There is no interpreter fallback for these: the compile fails with
    `RuntimeError: Unsupported statement 'Import'` (`'Try'`, `'Delete'`, `'ClassDef'`, ...),
    `Unsupported expression 'NamedExpr'` (`'Set'`, `'SetComp'`) or
    `Unsupported expression 'Yield'` (at the call, or at the `yield` of a generator defined in graph
    code), `TypeError: For 'make_range', the 0th input
    should be a int scalar`, `ValueError: The truth value of an array with more than one element
    is ambiguous` or `RuntimeError: The Map operator don't support Closure with free variable`,
    at every syntax level, so the Cell cannot run in graph mode at all.

    ## Example
    ```python
    class Net(nn.Cell):
        def construct(self, x):
            import math

            try:
                y = x * math.pi
            except ValueError:
                y = x
            return y
    ```

    ## Use instead
    ```python
    import math


    class Net(nn.Cell):
        def construct(self, x):
            return x * math.pi
    ```
    """

    code = "MS107"
    symbol = "unsupported-syntax"
    summary = "syntax and builtins the graph compiler rejects (`import`, `try`, `with`, `range(t)`) or interprets"
    node_types = (*_CANDIDATE_TYPES, ast.Call)

    warning_findings = (
        "builtins only STRICT rejects (`str(t)`, `frozenset(t)`: errors in STRICT), `in` and `%` formatting "
        "that LAX runs in the Python interpreter (`1 in t`), and a `lambda` in a `for` loop (a note in STRICT, "
        "which compiles it)"
    )

    def severity(self, settings: Settings) -> Severity:
        return Severity.ERROR

    def check_graph_node(self, node: ast.AST, function: GraphFunction) -> Iterator[Finding]:
        check = _FORM_CHECKS.get(node.__class__)
        if check is not None:
            yield from check(node, function)
            if node.__class__ not in _TABLE_TOO:
                return
        what = rejected_node_types(function.project.mindspore_release).get(type(node))
        if what is None or node is function.node:  # the table measures these nested in graph code
            return
        yield Finding(
            node,
            f"{what} in graph code: MindSpore rejects it at every syntax level",
            hint="move it out of graph code: imports to the top of the module, error handling and "
            "generators to the host code around the Cell",
        )


def _call_checks(call: ast.Call, function: GraphFunction) -> Iterator[Finding]:
    yield from _generator_calls(call, function)
    yield from _builtins_on_tensors(call, function)
    yield from _format_method(call, function)


def _operator_checks(operation: ast.BinOp, function: GraphFunction) -> Iterator[Finding]:
    yield from _percent_formatting(operation, function)
    yield from _measured_operator(operation, function)


def _comprehension_checks(comprehension: ast.ListComp, function: GraphFunction) -> Iterator[Finding]:
    if len(comprehension.generators) > 1:
        yield from _nested_comprehension(comprehension, function)
    else:
        yield from _filter_on_a_number(comprehension, function)


def _lambda(node: ast.Lambda, function: GraphFunction) -> Iterator[Finding]:
    yield from _measured(
        node,
        "a `lambda`",
        "expr.Lambda/local",
        function,
        hint="define the function with `def`, or the `lambda` before the loop",
    )


_TAKING_TENSORS = frozenset({"builtins.range", "builtins.max", "builtins.min"})
"""The builtins whose findings depend on which arguments are tensors (not runtime numbers)."""


def _builtins_on_tensors(call: ast.Call, function: GraphFunction) -> Iterator[Finding]:
    """Python builtins the compiler cannot apply to tensors: ``range(t)``, ``max(t, 1)``, and
    ``map`` over a lambda that reads the function's locals."""
    qualname = function.qualname(call.func)
    tensors = (
        [a for a in call.args if function.kind(a) is Kind.GRAPH and not is_runtime_number(function.value(a))]
        if qualname in _TAKING_TENSORS
        else []  # what the kinds of other calls' arguments would cost is spent only where they matter
    )
    if qualname == "builtins.range" and tensors:
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
    elif qualname == "builtins.map" and len(call.args) > 1 and any(_is_one_tensor(a, function) for a in call.args[1:]):
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
    elif qualname == "builtins.map" and call.args and _reads_locals(call.args[0], function):
        yield Finding(
            call,
            "`map` over a lambda that reads local variables: MindSpore rejects it at every syntax level "
            "(a closure with free variables)",
            hint="use a list comprehension or a `for` loop",
        )
    elif qualname is not None and qualname.startswith("builtins.") and qualname not in _JUDGED_ELSEWHERE:
        yield from _measured_builtin(call, qualname.partition(".")[2], function)


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
    table = syntax_table(function.project.mindspore_release)
    row = next((r for r in rows if table.has(r)), None)
    if row is None:
        return
    if name == "super" and not call.args and function.owner is None:
        yield from _measured(
            call,
            "`super()` in a function defined outside a class",
            row,
            function,
            hint="call `super()` in a method of the class, or name the class and object (`super(Net, self)`)",
            position="jit",  # where the table measures it outside a class
        )
        return
    of = {"tensor": "a graph value", "string": "a string"}.get(row.rpartition("/")[2], "constants")
    yield from _measured(
        call,
        f"Python's `{name}` of {of} in graph code",
        row,
        function,
        hint="use a `mindspore.ops` equivalent (`ops.any`, `ops.sort`, `ops.floor_divide`, ...) or keep it in "
        "host code",
    )


def _measured(
    node: ast.AST, subject: str, row: str, function: GraphFunction, hint: str, position: str | None = None
) -> Iterator[Finding]:
    """A finding on ``node`` where the syntax table's ``row`` says the compiler rejects, interprets
    or diverges on it: at ``position``, or else at every position ``node`` is at
    (:func:`table_positions`), the most severe verdict."""
    release = function.project.mindspore_release
    if position is None and not _flagged_somewhere(release, row):
        return  # most rows (`t + 1`) compile wherever they are: no need to find where this one is
    positions = (position,) if position is not None else table_positions(node, function)
    verdicts = [(p, v) for p in positions for v in (measured_verdict(release, row, p),) if v is not None]
    if not verdicts:
        return
    where, verdict = min(verdicts, key=lambda found: found[1].rank)
    nested = _NESTED_POSITIONS.get(where)
    message = f"{subject}{' ' + nested if nested else ''}: {verdict.message}"
    yield Finding(node, message, hint=hint, severity=verdict.severity)


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
        _is_call_of(expr, "builtins.iter", function) or _generator(expr, function) is not None
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


def _is_one_tensor(expr: ast.expr, function: GraphFunction) -> bool:
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


def _has_several_rows(expr: ast.expr, function: GraphFunction) -> bool:
    """A tensor whose rows, compared by ``max(x)``, are known to hold several elements (a 1-D
    tensor's rows are 0-d: they compare)."""
    if not _is_one_tensor(expr, function):
        return False
    value = function.value(expr)
    if not isinstance(value, AbstractTensor) or value.shape is None or len(value.shape) < 2 or value.shape[0] == 1:
        return False
    return _holds_several(replace(value, shape=value.shape[1:]))


def _membership_in_tensors(compare: ast.Compare, function: GraphFunction) -> Iterator[Finding]:
    """``1 in x`` with ``x`` a tensor: STRICT rejects it, LAX runs it in the interpreter. Only a number
    on the left is taken for proof that ``x`` is a tensor and not a dict or tuple of graph values."""
    left = compare.left
    for operator, right in zip(compare.ops, compare.comparators):
        if (
            isinstance(operator, (ast.In, ast.NotIn))
            # A number: keys of a dict of graph values (``name in features``) are fine.
            and isinstance(left, ast.Constant)
            and isinstance(left.value, (int, float))
            and not isinstance(left.value, bool)
            and _is_one_tensor(right, function)
        ):
            yield Finding(
                compare,
                "`in` over a tensor: STRICT rejects it, LAX runs it in the Python interpreter",
                hint="compare element by element with `ops.equal(x, value).any()`",
                severity=fallback_severity,
            )
            return
        left = right


def _loop_else(loop: ast.For | ast.While, function: GraphFunction) -> Iterator[Finding]:
    """``for``/``while`` with an ``else`` clause, where the syntax table finds it rejected."""
    if not loop.orelse:
        return
    keyword = "for" if isinstance(loop, ast.For) else "while"
    row = f"stmt.{type(loop).__name__}/else"
    table = syntax_table(function.project.mindspore_release)
    if table.has(row) and table.outcome(row, "construct", "lax").kind == ERROR:
        yield Finding(
            loop.iter if isinstance(loop, ast.For) else loop.test,  # where the compiler reports it
            f"`{keyword} ... else` in graph code: MindSpore rejects the `else` clause at every syntax level",
            hint="set a flag in the loop (or `break` out of it) and test the flag after it",
        )


def _context_managers(statement: ast.With, function: GraphFunction) -> Iterator[Finding]:
    """``with`` on anything but a ``@jit_class`` instance: rejected at every level ("Only support
    jit_class instance"). Where the object's class is unknown, nothing is said."""
    for item in statement.items:
        what = _plain_context_manager(item.context_expr, function)
        if what is not None:
            yield Finding(
                item.context_expr,
                f"`with` on {what}: MindSpore accepts only `@jit_class` instances as context managers in "
                "graph code, at every syntax level",
                hint="enter the context in the host code around the Cell, or make the class a `@mindspore.jit_class`",
            )


def _plain_context_manager(expr: ast.expr, function: GraphFunction) -> str | None:
    """How to name the context manager ``expr`` makes where it is not a ``@jit_class`` instance."""
    if isinstance(expr, ast.Call):
        resolved = function.resolve_call(expr)
        if isinstance(resolved, ClassRef):
            return None if is_jit_class(resolved) or function.project.is_cell(resolved) else f"a `{resolved.node.name}`"
        qualname = function.qualname(expr.func)
        if qualname is not None and qualname.startswith("mindspore.") and qualname.endswith("no_grad"):
            return f"`{qualname}()`"  # measured: a PythonObject, not a jit_class instance
        if resolved is None and qualname is not None and not qualname.startswith("mindspore."):
            if any(qualname.startswith(f"{m}.") for m in CONCURRENCY_MODULES):
                return None  # concurrency-in-graph's
            if not function.project.is_checked_code(qualname, function.module):
                return f"`{qualname}(...)`"
        return None
    classes = function.instance_classes(expr)
    plain = [c for c in classes if not is_jit_class(c) and not function.project.is_cell(c)]
    return f"a `{plain[0].node.name}`" if classes and len(plain) == len(classes) else None


def _user_exceptions(statement: ast.Raise, function: GraphFunction) -> Iterator[Finding]:
    """``raise`` of an exception class of the checked code: graph code raises only Python's own."""
    exc = statement.exc
    target = exc.func if isinstance(exc, ast.Call) else exc
    qualname = function.qualname(target) if target is not None else None
    resolved = function.project.resolve(qualname, function.module) if qualname else None
    if isinstance(resolved, ClassRef):
        yield Finding(
            statement,
            f"`raise {resolved.node.name}`: graph code can raise only Python's built-in exception types, "
            "at every syntax level",
            hint="raise a built-in exception (`ValueError`, `RuntimeError`, ...) in graph code",
        )


def _percent_formatting(operation: ast.BinOp, function: GraphFunction) -> Iterator[Finding]:
    """``"%s" % x`` of a graph value: STRICT rejects it, LAX runs it in the interpreter, even for
    static parts of one (``"%s" % (x.shape,)``, measured)."""
    if (
        isinstance(operation.op, ast.Mod)
        and isinstance(operation.left, ast.Constant)
        and isinstance(operation.left.value, str)
        and any(
            isinstance(n, ast.Name) and function.kind(n) is Kind.GRAPH
            for n in (operation.right, *descendants(operation.right))
        )
    ):
        yield Finding(
            operation,
            "`%` formatting of a graph value: STRICT rejects it, LAX runs it in the Python interpreter",
            hint="print the tensor with `print(x)`, or format it in host code",
            severity=fallback_severity,
        )


def _measured_operator(operation: ast.BinOp, function: GraphFunction) -> Iterator[Finding]:
    """A binary operator on a graph value as the syntax table measured it (``t << 1``)."""
    if not any(function.kind(side) is Kind.GRAPH for side in (operation.left, operation.right)):
        return
    name = type(operation.op).__name__
    yield from _measured(
        operation,
        f"the `{name}` operator on a graph value",
        f"expr.BinOp/tensor-{name.lower()}",
        function,
        hint="use the `mindspore.ops` operation (`ops.bitwise_left_shift`, ...)",
    )


def _nested_comprehension(comprehension: ast.ListComp, function: GraphFunction) -> Iterator[Finding]:
    """A list comprehension with several ``for`` clauses, where the syntax table finds it rejected."""
    yield from _measured(
        comprehension,
        f"a list comprehension with {len(comprehension.generators)} `for` clauses",
        "comprehension.list/nested",
        function,
        hint="nest two comprehensions (`[[f(i, j) for j in b] for i in a]`) or write the loops out",
        position="construct",
    )


def _filter_on_a_number(comprehension: ast.ListComp, function: GraphFunction) -> Iterator[Finding]:
    """A list comprehension of graph values whose ``if`` clause tests a number, not a bool
    (``[x * i for i in range(4) if i % 2]``), where the syntax table finds it rejected. Measured on
    2.10: ``if i % 2 == 1``, ``if not i % 2``, ``if bool(i % 2)`` and a comprehension of numbers
    compile."""
    (generator,) = comprehension.generators
    numbers = _number_targets(generator, function)
    if function.kind(comprehension.elt) is Kind.GRAPH and any(
        _tests_a_number(condition, numbers) for condition in generator.ifs
    ):
        yield from _measured(
            comprehension,
            "a list comprehension whose `if` clause tests a number",
            "comprehension.list/if-constant",
            function,
            hint="compare the number (`if i % 2 == 1`) or convert it with `bool(...)`",
        )


def _number_targets(generator: ast.comprehension, function: GraphFunction) -> frozenset[str]:
    """The name a ``for`` clause binds to numbers: over ``range(...)`` or a tuple or list of numbers."""
    target, source = generator.target, generator.iter
    over_numbers = (isinstance(source, ast.Call) and function.qualname(source.func) == "builtins.range") or (
        isinstance(source, (ast.Tuple, ast.List)) and all(_is_number(e, frozenset()) for e in source.elts)
    )
    return frozenset({target.id}) if over_numbers and isinstance(target, ast.Name) else frozenset()


def _tests_a_number(condition: ast.expr, numbers: frozenset[str]) -> bool:
    if isinstance(condition, ast.BoolOp):
        return any(_tests_a_number(value, numbers) for value in condition.values)
    return _is_number(condition, numbers)


def _is_number(expr: ast.expr, numbers: frozenset[str]) -> bool:
    """An int or float literal, one of ``numbers``, or arithmetic on those."""
    if isinstance(expr, ast.Constant):
        return isinstance(expr.value, (int, float)) and not isinstance(expr.value, bool)
    if isinstance(expr, ast.Name):
        return expr.id in numbers
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, (ast.USub, ast.UAdd, ast.Invert)):
        return _is_number(expr.operand, numbers)
    return isinstance(expr, ast.BinOp) and _is_number(expr.left, numbers) and _is_number(expr.right, numbers)


def _assigned_and_never_read(value: ast.expr, function: GraphFunction) -> bool:
    """Whether ``value`` is only bound to a local name that nothing reads (the compiler drops it)."""
    names = [
        target.id
        for node in statements(function.node)
        if isinstance(node, ast.Assign) and node.value is value
        for target in node.targets
        if isinstance(target, ast.Name)
    ]
    return bool(names) and not any(
        isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in names for n in descendants(function.node)
    )


def _format_method(call: ast.Call, function: GraphFunction) -> Iterator[Finding]:
    """``"x={}".format(x)`` of a graph value: STRICT rejects it, LAX runs it in the interpreter
    (measured on 2.10; of static values such as ``x.shape`` it compiles)."""
    func = call.func
    if (
        isinstance(func, ast.Attribute)
        and func.attr == "format"
        and isinstance(func.value, ast.Constant)
        and isinstance(func.value.value, str)
        and any(function.kind(a) is Kind.GRAPH for a in [*call.args, *(k.value for k in call.keywords)])
        and _text_is_read(call, function)
    ):
        yield Finding(
            call,
            "`str.format` of a graph value: STRICT rejects it, LAX runs it in the Python interpreter",
            hint="print the tensor with `print(x)`, or format it in host code",
            severity=fallback_severity,
        )


def _fstring(text: ast.JoinedStr, function: GraphFunction) -> Iterator[Finding]:
    """An f-string of a graph value whose text is used: LAX runs it in the interpreter, STRICT
    compiles it (rows ``format.fstring/*``; of static values such as ``x.shape`` it compiles, and
    an f-string nothing reads is dropped)."""
    values = [v for v in text.values if isinstance(v, ast.FormattedValue) and function.kind(v.value) is Kind.GRAPH]
    if not values or not _text_is_read(text, function) or _consumed_by_another_finding(text, function):
        return
    row = "format.fstring/spec" if any(v.format_spec is not None for v in values) else "format.fstring/tensor"
    yield from _measured(
        text,
        "an f-string of a graph value",
        row,
        function,
        hint="print the tensor with `print(x)`, or format it in host code",
    )


def _text_is_read(text: ast.expr, function: GraphFunction) -> bool:
    """Whether graph code uses the text that ``text`` builds: not only to build an exception, and
    read after it is bound (the compiler drops what nothing reads)."""
    return id(text) not in raised(function.node) and not _assigned_and_never_read(text, function)


def _consumed_by_another_finding(text: ast.expr, function: GraphFunction) -> bool:
    """Whether ``text`` is an assertion's message (built only when the assertion fails, as a
    raise's) or an argument of a library call, which is the hazard (``logger.info(f"{x}")``,
    third-party-call-in-graph's)."""
    return any(
        (isinstance(node, ast.Assert) and node.msg is text) or _passes_to_a_library(node, text, function)
        for node in descendants(function.node)
    )


def _passes_to_a_library(node: ast.AST, argument: ast.expr, function: GraphFunction) -> bool:
    """Whether ``node`` is a call, of something else than a builtin, that takes ``argument``."""
    if not isinstance(node, ast.Call) or not any(
        a is argument for a in (*node.args, *(k.value for k in node.keywords))
    ):
        return False
    qualname = function.qualname(node.func)
    return qualname is not None and not qualname.startswith("builtins.")


def _reads_locals(func: ast.expr, function: GraphFunction) -> bool:
    if not isinstance(func, ast.Lambda):
        return False
    own = {a.arg for a in (*func.args.posonlyargs, *func.args.args, *func.args.kwonlyargs)}
    return any(
        isinstance(n, ast.Name) and n.id in function.local_names and n.id not in own for n in descendants(func.body)
    )


def _local_generator(node: ast.Yield | ast.YieldFrom, function: GraphFunction) -> Iterator[Finding]:
    """``yield`` in a function defined in graph code, where the syntax table finds it rejected: the
    compiler reports it there, not where the generator is called."""
    if node in own_nodes(function.node):
        return
    keyword = "yield" if isinstance(node, ast.Yield) else "yield from"
    yield from _measured(
        node,
        f"`{keyword}` in a generator defined in graph code",
        f"expr.{type(node).__name__}/local-generator",
        function,
        hint="return a tuple or list instead, or iterate with a `for` over a range",
    )


def _generator_calls(call: ast.Call, function: GraphFunction) -> Iterator[Finding]:
    """A call of a generator function defined outside graph code: the compiler rejects it where it
    is called."""
    generator = _generator(call, function)
    if generator is not None and generator not in descendants(function.node):  # else its ``yield`` is flagged
        yield Finding(
            call,
            f"`{generator.name}` is a generator (it uses `yield`): MindSpore rejects generators at every syntax level",
            hint="return a tuple or list instead, or iterate with a `for` over a range",
        )


def _generator(call: ast.Call, function: GraphFunction) -> FunctionNode | None:
    """The generator function (one that ``yield``s) ``call`` calls, if any: one defined in
    ``function``, or one of the project's."""
    func = call.func
    if isinstance(func, ast.Name) and func.id in function.local_names:
        local = [n for n in statements(function.node) if isinstance(n, ast.FunctionDef) and n.name == func.id]
        if local:
            return local[-1] if _yields(local[-1]) else None
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
    if name not in function.project.generator_names():
        return None
    return next((c.node for c in function.callees(call) if _yields(c.node)), None)


def _yields(function: FunctionNode) -> bool:
    return any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in own_nodes(function))


_FORM_CHECKS: dict[type[ast.AST], Callable[[Any, GraphFunction], Iterator[Finding]]] = {
    ast.Call: _call_checks,
    ast.With: _context_managers,
    ast.For: _loop_else,
    ast.While: _loop_else,
    ast.Raise: _user_exceptions,
    ast.BinOp: _operator_checks,
    ast.ListComp: _comprehension_checks,
    ast.Compare: _membership_in_tensors,
    ast.Yield: _local_generator,
    ast.YieldFrom: _local_generator,
    ast.JoinedStr: _fstring,
    ast.Lambda: _lambda,
}
"""The forms with checks of their own; every other form is judged by its row in the syntax table."""
