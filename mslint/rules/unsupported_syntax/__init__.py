from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from typing import Any

from mslint.diagnostics import Severity
from mslint.model.scope import GraphFunction
from mslint.rules.base import Finding, Rule
from mslint.rules.unsupported_syntax.builtin_calls import builtins_on_tensors
from mslint.rules.unsupported_syntax.comprehensions import comprehension_checks, lambda_checks
from mslint.rules.unsupported_syntax.generators import generator_calls, local_generator
from mslint.rules.unsupported_syntax.operators import membership_in_tensors, operator_checks
from mslint.rules.unsupported_syntax.statements import context_managers, loop_else, user_exceptions
from mslint.rules.unsupported_syntax.syntax_rows import CANDIDATE_TYPES, rejected_node_types
from mslint.rules.unsupported_syntax.text_formatting import format_method, fstring
from mslint.settings import Settings

_TABLE_TOO = frozenset({ast.For, ast.While, ast.ListComp, ast.DictComp})
"""Forms judged by their checks in :data:`_FORM_CHECKS` and then by the syntax table as well."""


class UnsupportedSyntax(Rule):
    """
    ## What it does
    Flags statements, expressions and builtins in graph code that the targeted MindSpore compiler
    rejects, runs in the Python interpreter or computes differently from PyNative, as mslint's
    measured [graph-syntax table](../graph-syntax.md) of the release says:

    * statements and expressions rejected at every syntax level: in 2.10 `import`, `try`, `del`,
      a nested `class`, `async def`, `nonlocal`, `match`, `:=`, set displays and comprehensions,
      list and dict comprehensions with several `for` clauses, list comprehensions of graph values whose `if`
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
      `min(t, u)` of tensors with several elements, `max(t.sum(), 1)` of a one-element tensor and
      a Python number (STRICT rejects it, LAX runs it in the interpreter: warnings in LAX, errors in
      STRICT; `max(t.sum(), t.mean())` of one-element tensors alone compiles),
      `max(t)` / `min(t)` of one tensor, `max(lengths)` / `min(lengths)` of a host list copied
      from a graph tensor (`lengths = t.tolist()`, `list(t.asnumpy())`: its length is known only at
      run time, and LAX fails with `Unsupported op [IsDimUnKnown]`; STRICT rejects the copy, which
      tensor-to-host-in-graph reports), `map(f, t)` over a tensor, `map` over a `lambda` that
      reads the function's local variables, and `filter(None, ...)`;
    * calls of generator functions (functions that `yield`), which the compiler reports where
      they are called, and `yield` in a generator defined in graph code or in a `construct` (or
      `@jit` function) that is a generator itself, which it reports on the `yield`; `with` on
      anything but a `@jit_class` instance (a plain class, `contextlib.suppress`, `open`,
      `ms._no_grad()`); `raise` of an exception class of your own (only Python's built-in
      exception types);
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
    node_types = (*CANDIDATE_TYPES, ast.Call)

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
        what = rejected_node_types(function.project.release).get(type(node))
        if what is None or node is function.node:  # the table measures these nested in graph code
            return
        yield Finding(
            node,
            f"{what} in graph code: MindSpore rejects it at every syntax level",
            hint="move it out of graph code: imports to the top of the module, error handling and "
            "generators to the host code around the Cell",
        )


def _call_checks(call: ast.Call, function: GraphFunction) -> Iterator[Finding]:
    yield from generator_calls(call, function)
    yield from builtins_on_tensors(call, function)
    yield from format_method(call, function)


_FORM_CHECKS: dict[type[ast.AST], Callable[[Any, GraphFunction], Iterator[Finding]]] = {
    ast.Call: _call_checks,
    ast.With: context_managers,
    ast.For: loop_else,
    ast.While: loop_else,
    ast.Raise: user_exceptions,
    ast.BinOp: operator_checks,
    ast.ListComp: comprehension_checks,
    ast.DictComp: comprehension_checks,
    ast.Compare: membership_in_tensors,
    ast.Yield: local_generator,
    ast.YieldFrom: local_generator,
    ast.JoinedStr: fstring,
    ast.Lambda: lambda_checks,
}

"""The forms with checks of their own; every other form is judged by its row in the syntax table."""
