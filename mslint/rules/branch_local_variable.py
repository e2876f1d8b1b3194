from __future__ import annotations

import ast
from collections.abc import Iterator

from mslint.diagnostics import Severity
from mslint.model.abstract import Kind
from mslint.model.binder import all_parameter_names
from mslint.model.module import bound_names
from mslint.model.scope import GraphFunction
from mslint.model.walk import descendants, statements
from mslint.rules.base import Finding, Rule
from mslint.settings import Settings

_TERMINATORS = (ast.Return, ast.Raise, ast.Continue, ast.Break)


class BranchLocalVariable(Rule):
    """
    ## What it does
    Flags a name that graph code binds in only one branch of an `if` on a graph value (a
    tensor condition), or only in the body of a `while` on a graph value, and then uses
    after the statement. A branch that ends in `return`, `raise`, `break` or `continue`
    does not need the name. Conditions on compile-time constants (`if self.training:`)
    are resolved by the compiler and are not flagged.

    ## Why it breaks graph mode
    Legal Python, but a graph has no "maybe unbound" value: both branches of a tensor
    condition are compiled, and the compiler rejects the use at every syntax level with
    `UnboundLocalError: The local variable 'y' is not defined in false branch, but
    defined in true branch`.

    ## Example
    ```python
    class Net(nn.Cell):
        def construct(self, x):
            if x.sum() > 0:
                y = x * 2
            return y
    ```

    ## Use instead
    ```python
    class Net(nn.Cell):
        def construct(self, x):
            y = x
            if x.sum() > 0:
                y = x * 2
            return y
    ```
    """

    code = "MS110"
    symbol = "branch-local-variable"
    summary = "a name bound in only one branch of a tensor `if` (or in a tensor `while`) and used after it"
    node_types = (ast.FunctionDef, ast.AsyncFunctionDef)

    def severity(self, settings: Settings) -> Severity:
        return Severity.ERROR

    def check_graph_node(self, node: ast.AST, function: GraphFunction) -> Iterator[Finding]:
        if node is not function.node:
            return
        assert isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        if any(isinstance(n, (ast.If, ast.While)) and function.kind(n.test) is Kind.GRAPH for n in statements(node)):
            yield from _check_block(node.body, set(all_parameter_names(node)), function)


def _check_block(body: list[ast.stmt], bound: set[str], function: GraphFunction) -> Iterator[Finding]:
    """Walk a statement list, knowing which names are surely bound before each statement."""
    bound = set(bound)
    maybe: dict[str, ast.stmt] = {}
    for statement in body:
        for name_node in _loads(statement):
            if name_node.id in maybe and name_node.id not in bound:
                binder = maybe.pop(name_node.id)
                where = (
                    "inside the tensor `while` loop"
                    if isinstance(binder, ast.While)
                    else ("in only one branch of the tensor `if`")
                )
                yield Finding(
                    name_node,
                    f"`{name_node.id}` is bound {where} on line {binder.lineno}: MindSpore rejects this use",
                    hint=f"give `{name_node.id}` a value before the condition, or in every branch",
                )
        for block in _blocks(statement):
            yield from _check_block(block, bound | _loop_targets(statement, block), function)
        surely, partly = _bindings(statement, function)
        bound |= surely
        for name in partly - bound:
            maybe[name] = statement
        for name in surely:
            maybe.pop(name, None)


def _loads(statement: ast.stmt) -> list[ast.Name]:
    """Names the statement itself reads (not inside its nested blocks, checked on their own)."""
    if isinstance(statement, (ast.If, ast.While)):
        parts: list[ast.AST] = [statement.test]
    elif isinstance(statement, (ast.For, ast.AsyncFor)):
        parts = [statement.iter]
    elif isinstance(statement, (ast.With, ast.AsyncWith)):
        parts = [item.context_expr for item in statement.items]
    elif isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Try)):
        parts = []
    else:
        parts = [statement]
    return [n for part in parts for n in descendants(part) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)]


def _blocks(statement: ast.stmt) -> list[list[ast.stmt]]:
    if isinstance(statement, (ast.If, ast.While, ast.For, ast.AsyncFor)):
        return [statement.body, statement.orelse]
    if isinstance(statement, (ast.With, ast.AsyncWith)):
        return [statement.body]
    return []


def _loop_targets(statement: ast.stmt, block: list[ast.stmt]) -> set[str]:
    """The names a ``for`` loop binds before each run of its body."""
    if isinstance(statement, (ast.For, ast.AsyncFor)) and block is statement.body:
        return set(bound_names(statement.target))
    return set()


def _bindings(statement: ast.stmt, function: GraphFunction) -> tuple[set[str], set[str]]:
    """(names surely bound by the statement, names bound on only some paths of a graph condition)."""
    if isinstance(statement, ast.If):
        body, orelse = _bound_in(statement.body), _bound_in(statement.orelse)
        if _terminates(statement.body) or _terminates(statement.orelse):
            return body | orelse, set()  # only the other branch goes on past the `if`
        surely = body & orelse
        if function.kind(statement.test) is Kind.GRAPH:
            return surely, (body | orelse) - surely
        return body | orelse, set()
    if isinstance(statement, ast.While):
        inside = _bound_in(statement.body)
        if function.kind(statement.test) is Kind.GRAPH:
            return set(), inside
        return inside, set()
    return _bound_in([statement]), set()


def _bound_in(body: list[ast.stmt]) -> set[str]:
    names: set[str] = set()
    for statement in body:
        for node in descendants(statement):
            if isinstance(node, ast.Assign):
                names.update(n for target in node.targets for n in bound_names(target))
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor, ast.NamedExpr)):
                names.update(bound_names(node.target))
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
    return names


def _terminates(body: list[ast.stmt]) -> bool:
    return bool(body) and isinstance(body[-1], _TERMINATORS)
