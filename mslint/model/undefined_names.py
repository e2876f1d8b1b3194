"""Names a function reads that nothing binds: no local of it or of the functions around it, no
global of its module (assigned, defined, imported, or declared ``global`` in some function), no
builtin. Where the module may bind names nobody can see (``from x import *``, ``globals()``,
``exec`` at module level, ``builtins`` or ``sys.modules`` written), nothing is taken for undefined.

A name bound anywhere inside a function (in a nested function or comprehension too) counts as
bound in all of it: the answer errs on the side of "defined".
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from mslint.model.memo import NodeMemo
from mslint.model.module import BUILTIN_NAMES, ModuleInfo, import_bindings
from mslint.model.walk import descendants, statements

_GLOBALS: NodeMemo[ast.AST, frozenset[str] | None] = NodeMemo()
_ENCLOSING: NodeMemo[ast.AST, dict[int, tuple[ast.FunctionDef | ast.AsyncFunctionDef, ...]]] = NodeMemo()
_UNDEFINED: NodeMemo[ast.AST, list[ast.Name]] = NodeMemo()
_ALWAYS_BOUND = frozenset(
    {"__name__", "__file__", "__doc__", "__package__", "__spec__", "__loader__", "__path__", "__cached__"}
    | {"__builtins__", "__annotations__", "__dict__", "__debug__", "__class__"}
)
"""What every module has without binding it (and ``__class__``, which every method sees)."""
_WRITES_NAMESPACES = frozenset({"globals", "__builtins__", "__import__", "builtins"})
"""Names whose mere use lets a module bind globals that its statements do not show."""
_UNSEEN_BINDING_TEXT = ("globals", "builtins", "__import__", "sys.modules", "exec(")
"""What the text of a module that may bind unseen names contains (``__builtins__`` too)."""
_COMPOUND = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.Try, ast.With, ast.AsyncWith)
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


def undefined_names(function: ast.FunctionDef | ast.AsyncFunctionDef, module: ModuleInfo) -> list[ast.Name]:
    """The names the body of ``function`` reads that are bound nowhere it could see them (its
    decorators, defaults and annotations, which Python itself evaluates, are not read)."""
    cached = _UNDEFINED.get(function)
    if cached is None:
        known = _module_globals(module)
        cached = [] if known is None else _unbound_reads(function, module, known)
        _UNDEFINED.put(function, cached)
    return cached


def _unbound_reads(
    function: ast.FunctionDef | ast.AsyncFunctionDef, module: ModuleInfo, known: frozenset[str]
) -> list[ast.Name]:
    """The reads in ``function`` of names that neither the module's globals nor any function they
    are in binds: the reads of no global first, and the functions' own bindings only if there are."""
    reads = [
        node
        for node in descendants(function)
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id not in known
    ]
    if not reads:
        return []
    bound: set[str] = set()
    for scope in (*_enclosing_functions(module).get(id(function), ()), function):
        bound.update(_bound_in(scope, module.package))
    header = {id(n) for part in _header(function) for n in descendants(part)}
    return [node for node in reads if node.id not in bound and id(node) not in header]


def _header(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.AST]:
    """What Python evaluates when it defines the function: decorators, defaults, annotations."""
    arguments = function.args
    every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, arguments.vararg, arguments.kwarg]
    annotations = [a.annotation for a in every if a is not None and a.annotation is not None]
    defaults = [d for d in [*arguments.defaults, *arguments.kw_defaults] if d is not None]
    returns = [function.returns] if function.returns is not None else []
    return [*function.decorator_list, *annotations, *defaults, *returns]


def _module_globals(module: ModuleInfo) -> frozenset[str] | None:
    """The names the module binds (or may bind) at top level; None where it may bind any."""
    return _GLOBALS(module.tree, lambda _: None if _binds_unseen_names(module) else _top_level_names(module))


def _binds_unseen_names(module: ModuleInfo) -> bool:
    if module.star_imports or any(
        isinstance(s, ast.ImportFrom) and any(a.name == "*" for a in s.names) for s in statements(module.tree)
    ):
        return True
    if not any(word in module.text for word in _UNSEEN_BINDING_TEXT):
        return False  # most modules: the text shows that no node below can
    for node in descendants(module.tree):
        if isinstance(node, ast.Name) and node.id in _WRITES_NAMESPACES:
            return True
        if isinstance(node, ast.Attribute) and node.attr == "modules" and _names(node.value, "sys"):
            return True
        if isinstance(node, (ast.Import, ast.ImportFrom)) and "builtins" in _imported_modules(node):
            return True
    return any(isinstance(n, ast.Call) and _names(n.func, "exec") for n in _top_level_nodes(module.tree))


def _names(expr: ast.expr, name: str) -> bool:
    return isinstance(expr, ast.Name) and expr.id == name


def _imported_modules(statement: ast.Import | ast.ImportFrom) -> list[str]:
    if isinstance(statement, ast.Import):
        return [alias.name for alias in statement.names]
    return [statement.module or ""]


def _top_level_names(module: ModuleInfo) -> frozenset[str]:
    names = set(BUILTIN_NAMES | _ALWAYS_BOUND)
    for node in _top_level_nodes(module.tree):
        names.update(_bindings_of(node, module.package))
    names.update(n for s in statements(module.tree) if isinstance(s, ast.Global) for n in s.names)
    return frozenset(names)


def _ast_classes(*names: str) -> tuple[type[ast.AST], ...]:
    """The ``ast`` classes of those names this Python has: ``match`` exists from Python 3.10."""
    return tuple(getattr(ast, name) for name in names if hasattr(ast, name))


_MATCH = _ast_classes("Match")
_MATCH_CAPTURES = _ast_classes("MatchAs", "MatchStar", "MatchMapping")
_BINDERS = (
    ast.Name,
    *_FUNCTIONS,
    ast.Lambda,
    ast.ClassDef,
    ast.Import,
    ast.ImportFrom,
    ast.ExceptHandler,
    *_MATCH_CAPTURES,
)
"""The nodes that may bind a name (see :func:`_bindings_of`)."""


def _top_level_nodes(tree: ast.Module) -> Iterator[ast.AST]:
    """The nodes the module's own code runs, outside function and class bodies (the ``def`` and
    ``class`` statements themselves included, for their names)."""
    stack: list[ast.stmt] = list(reversed(tree.body))
    while stack:
        statement = stack.pop()
        if isinstance(statement, (*_FUNCTIONS, ast.ClassDef)):
            yield statement
            continue
        if isinstance(statement, (*_COMPOUND, *_MATCH)):
            yield statement
            headers = [getattr(statement, f, None) for f in ("test", "target", "iter", "subject")]
            headers += [i for item in getattr(statement, "items", []) for i in (item.context_expr, item.optional_vars)]
            for header in headers:
                if header is not None:
                    yield from descendants(header)
            for handler in getattr(statement, "handlers", []):
                yield handler
                stack.extend(reversed(handler.body))
            for case in getattr(statement, "cases", []):
                yield from descendants(case.pattern)
                stack.extend(reversed(case.body))
            for field in ("body", "orelse", "finalbody"):
                stack.extend(reversed(getattr(statement, field, [])))
            continue
        yield from descendants(statement)


def _bound_in(scope: ast.FunctionDef | ast.AsyncFunctionDef, package: str) -> set[str]:
    """Every name bound anywhere in ``scope``, its nested functions and comprehensions included;
    not in the bodies of classes nested in it, whose names no function sees."""
    class_bodies = {
        id(inner)
        for statement in statements(scope)
        if isinstance(statement, ast.ClassDef)
        for body_statement in statement.body
        for inner in descendants(body_statement)
    }
    names: set[str] = set()
    for node in descendants(scope):
        if isinstance(node, _BINDERS) and id(node) not in class_bodies:
            names.update(_bindings_of(node, package))
    return names


def _bindings_of(node: ast.AST, package: str) -> list[str]:
    """The names one node binds in the scope it stands in."""
    if isinstance(node, ast.Name):
        return [node.id] if isinstance(node.ctx, (ast.Store, ast.Del)) else []
    if isinstance(node, (*_FUNCTIONS, ast.Lambda)):
        arguments = node.args
        every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, arguments.vararg, arguments.kwarg]
        return [argument.arg for argument in every if argument is not None] + (
            [node.name] if isinstance(node, _FUNCTIONS) else []
        )
    if isinstance(node, ast.ClassDef):
        return [node.name]
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return list(import_bindings(node, package))
    if isinstance(node, ast.ExceptHandler):
        return [node.name] if node.name else []
    if isinstance(node, _MATCH_CAPTURES):  # `case [x, *rest]`, `case {**rest}`, `case Point() as p`
        name = getattr(node, "name", None) or getattr(node, "rest", None)
        return [name] if name else []
    return []


def _enclosing_functions(module: ModuleInfo) -> dict[int, tuple[ast.FunctionDef | ast.AsyncFunctionDef, ...]]:
    """By function node: the functions around it, outermost first (classes between them do not
    make scopes their methods see)."""
    tree = module.tree
    found = _ENCLOSING.get(tree)
    if found is None:
        found = {}
        for function in statements(tree):  # in source order: a function before those inside it
            if isinstance(function, _FUNCTIONS):
                around = (*found.get(id(function), ()), function)
                for inner in statements(function):
                    if isinstance(inner, _FUNCTIONS):
                        found[id(inner)] = around
        _ENCLOSING.put(tree, found)
    return found
