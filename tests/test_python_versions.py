"""mslint imports on the oldest Python it declares (3.9): no union of types written ``A | B`` is evaluated.

``.ci/run`` runs a smoke test on every supported interpreter; this test catches the commonest
slip without one: ``A | B`` between types evaluated at runtime (an alias, ``isinstance``) needs
3.10, and so does one in an annotation unless the module defers annotations.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tests.examples import REPO

FUTURE_ANNOTATIONS = "from __future__ import annotations"


def test_no_type_union_is_evaluated_at_runtime() -> None:
    found = [
        f"{path.relative_to(REPO)}:{node.lineno}: {ast.unparse(node)}"
        for path in sorted((REPO / "mslint").rglob("*.py"))
        for node in runtime_type_unions(path.read_text())
    ]
    assert found == [], "use typing.Union/Optional here (Python 3.9):\n" + "\n".join(found)


def test_the_check_finds_unions_in_aliases_isinstance_and_eager_annotations() -> None:
    source = (
        "import ast\n"
        "Function = ast.FunctionDef | ast.Lambda\n"
        "ok = isinstance(x, int | None)\n"
        "def f(x: list[int] | None) -> None: ...\n"
        "flags = re.IGNORECASE | re.MULTILINE\n"
        "Number = int | float | None\n"
    )
    assert sorted(node.lineno for node in runtime_type_unions(source)) == [2, 3, 4, 6]
    deferred = f"{FUTURE_ANNOTATIONS}\n{source}"
    assert sorted(node.lineno - 1 for node in runtime_type_unions(deferred)) == [2, 3, 6], "annotations are deferred"


def runtime_type_unions(source: str) -> Iterator[ast.BinOp]:
    """``A | B`` between types, outside the annotations that ``from __future__ import annotations`` defers."""
    tree = ast.parse(source)
    deferred: set[int] = set()
    if FUTURE_ANNOTATIONS in source:
        deferred = {id(n) for annotation in _annotations(tree) for n in ast.walk(annotation)}
    for node in ast.walk(tree):  # outer unions first: their inner ones are not reported again
        if (
            isinstance(node, ast.BinOp)
            and isinstance(node.op, ast.BitOr)
            and id(node) not in deferred
            and _is_type(node)
        ):
            deferred |= {id(inner) for inner in ast.walk(node)}
            yield node


def _annotations(tree: ast.AST) -> Iterator[ast.expr]:
    for node in ast.walk(tree):
        if isinstance(node, ast.arg) and node.annotation is not None:
            yield node.annotation
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.returns is not None:
            yield node.returns
        elif isinstance(node, ast.AnnAssign):
            yield node.annotation


def _is_type(node: ast.expr) -> bool:
    """A class name (``Kind``, ``ast.Lambda``, not the constant ``re.IGNORECASE``), ``None`` or ``list[int]``."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _is_type(node.left) or _is_type(node.right)
    if isinstance(node, ast.Subscript):
        return True
    if isinstance(node, ast.Constant):
        return node.value is None
    name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""
    return name in ("int", "str", "float", "bool", "bytes") or (name[:1].isupper() and not name.isupper())


NEWER_AST_NODES = frozenset(
    {"Match", "match_case", "MatchValue", "MatchSingleton", "MatchSequence", "MatchMapping", "MatchClass"}
    | {"MatchStar", "MatchAs", "MatchOr", "TryStar", "TypeAlias", "TypeVar", "ParamSpec", "TypeVarTuple"}
)
"""Node classes of ``ast`` that Python 3.9 lacks (``match`` from 3.10, ``except*`` from 3.11, type
parameters from 3.12)."""


def test_no_newer_ast_node_is_named_unguarded() -> None:
    found = [
        f"{path.relative_to(REPO)}:{line}: ast.{name}"
        for path in sorted((REPO / "mslint").rglob("*.py"))
        for line, name in unguarded_newer_nodes(path.read_text())
    ]
    assert found == [], "guard these with hasattr(ast, NAME) (Python 3.9 has no such node):\n" + "\n".join(found)


def test_the_check_finds_newer_nodes_outside_a_hasattr_guard() -> None:
    source = (
        "import ast\n"
        "STOP = (ast.Return, ast.Match)\n"
        "HOLDERS = (ast.stmt, *([ast.match_case] if hasattr(ast, 'match_case') else []))\n"
        "def f(node: ast.TryStar) -> None: ...\n"
        "ok = isinstance(node, ast.If)\n"
    )
    assert unguarded_newer_nodes(source) == [(2, "Match"), (4, "TryStar")], "a guarded one is fine"
    deferred = f"{FUTURE_ANNOTATIONS}\n{source}"
    assert unguarded_newer_nodes(deferred) == [(3, "Match")], "annotations are deferred"


def unguarded_newer_nodes(source: str) -> list[tuple[int, str]]:
    """``ast.X`` for X in NEWER_AST_NODES, evaluated at runtime and outside ``... if hasattr(ast, "X") else ...``."""
    tree = ast.parse(source)
    deferred = FUTURE_ANNOTATIONS in source
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.IfExp) and _is_hasattr_of_ast(node.test):
            skipped.update(id(inner) for inner in ast.walk(node.body))
        annotations = [getattr(node, "returns", None), getattr(node, "annotation", None)] if deferred else []
        for annotation in filter(None, annotations):
            skipped.update(id(inner) for inner in ast.walk(annotation))
    return [
        (node.lineno, node.attr)
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "ast"
        and node.attr in NEWER_AST_NODES
        and id(node) not in skipped
    ]


def _is_hasattr_of_ast(test: ast.expr) -> bool:
    return (
        isinstance(test, ast.Call)
        and isinstance(test.func, ast.Name)
        and test.func.id == "hasattr"
        and len(test.args) == 2
        and isinstance(test.args[0], ast.Name)
        and test.args[0].id == "ast"
    )
