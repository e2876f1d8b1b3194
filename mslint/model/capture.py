"""How ``mindspore.jit`` builds the graph of each entry: its capture mode and its options.

MindSpore 2.10's ``jit`` takes ``capture_mode="ast"`` (the default: the source is parsed and every
statement must be graph syntax), ``"bytecode"`` (the bytecode is run and what it cannot capture is
left to Python, a *graph break*; ``fullgraph=True`` makes a break an error) or ``"trace"`` (the
function runs once, in Python, and the operators it ran are the graph: whatever Python decided on
that run, a branch, a host read, a random number, is frozen into it).

The options are read wherever ``jit`` is named: ``@jit(...)``, ``@ms.jit``, ``jit(f, ...)`` and
``jit(net.construct, ...)`` calls, ``@functools.partial(jit, ...)`` and a module-level
``name = functools.partial(jit, ...)`` used as a decorator or called. Only literal options are
read; an option given by a variable leaves the default.

Nesting: a function that an ast graph calls is compiled as part of that graph, whatever its own
decorator says (MindSpore ignores ``capture_mode="bytecode"`` there), so it is judged by ast rules.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass

from mslint.model.memo import NodeMemo
from mslint.model.module import ModuleInfo
from mslint.model.project import is_mindspore_name, qualified_name
from mslint.model.walk import statements

AST, BYTECODE, TRACE = "ast", "bytecode", "trace"
CAPTURE_MODES = (AST, BYTECODE, TRACE)
JIT_NAMES = ("jit", "ms_function")


@dataclass(frozen=True)
class Capture:
    """How one entry is captured, as its ``jit`` options say."""

    mode: str = AST
    fullgraph: bool = False
    jit_level: str | None = None

    @property
    def describe(self) -> str:
        options = [f'capture_mode="{self.mode}"'] + (["fullgraph=True"] if self.fullgraph else [])
        return f"@jit({', '.join(options)})"


AST_CAPTURE = Capture()


def jit_options(expr: ast.expr, module: ModuleInfo) -> dict[str, ast.expr] | None:
    """The keyword options that ``expr`` fixes when it names ``jit``: ``{}`` for ``jit`` itself,
    the keywords of ``functools.partial(jit, ...)`` or of a module-level name bound to one; None
    when ``expr`` is not ``jit``."""
    if is_mindspore_name(qualified_name(expr, module), *JIT_NAMES):
        return {}
    if isinstance(expr, ast.Call) and _is_partial(expr.func, module) and expr.args:
        base = jit_options(expr.args[0], module)
        return None if base is None else {**base, **_keywords(expr)}
    if isinstance(expr, ast.Name):
        bound = _module_level_partials(module).get(expr.id)
        return None if bound is None else jit_options(bound, module)
    return None


def decorator_capture(decorator: ast.expr, module: ModuleInfo) -> Capture | None:
    """The capture a decorator asks for, or None when it is not ``jit``."""
    options = jit_options(decorator, module)
    if options is None and isinstance(decorator, ast.Call):
        base = jit_options(decorator.func, module)
        options = None if base is None else {**base, **_keywords(decorator)}
    return None if options is None else capture_of(options)


def wrapping_calls(module: ModuleInfo) -> Iterator[tuple[ast.Call, Capture]]:
    """Calls ``jit(target, ...)`` that are a statement's value (``step = jit(f, ...)``, anywhere in
    ``module``), each with the capture it asks for. Statements, not every expression: modules read
    only to resolve names are not walked node by node."""
    for statement in statements(module.tree):
        call = statement.value if isinstance(statement, (ast.Assign, ast.Expr)) else None
        if not isinstance(call, ast.Call) or not call.args:
            continue
        base = jit_options(call.func, module)
        if base is not None:
            yield call, capture_of({**base, **_keywords(call)})


def capture_of(options: dict[str, ast.expr]) -> Capture:
    mode = _literal(options.get("capture_mode"))
    fullgraph = _literal(options.get("fullgraph"))
    level = _literal(options.get("jit_level"))
    return Capture(
        mode if mode in CAPTURE_MODES else AST,
        fullgraph is True,
        level if isinstance(level, str) else None,
    )


def _keywords(call: ast.Call) -> dict[str, ast.expr]:
    return {k.arg: k.value for k in call.keywords if k.arg is not None}


def _literal(expr: ast.expr | None) -> object:
    return expr.value if isinstance(expr, ast.Constant) else None


def _is_partial(expr: ast.expr, module: ModuleInfo) -> bool:
    return qualified_name(expr, module) == "functools.partial"


_PARTIALS: NodeMemo[ast.Module, dict[str, ast.Call]] = NodeMemo()


def _module_level_partials(module: ModuleInfo) -> dict[str, ast.Call]:
    """``name = functools.partial(...)`` statements of the module's top level, by name (memoized:
    asked for every call a statement makes)."""
    return _PARTIALS(module.tree, lambda _: _find_partials(module))


def _find_partials(module: ModuleInfo) -> dict[str, ast.Call]:
    found: dict[str, ast.Call] = {}
    for statement in module.tree.body:
        if (
            isinstance(statement, ast.Assign)
            and isinstance(statement.value, ast.Call)
            and _is_partial(statement.value.func, module)
        ):
            found.update((t.id, statement.value) for t in statement.targets if isinstance(t, ast.Name))
    return found
