"""The layers hold: the model imports nothing above it, rules never import each other, and the
registry names every rule exactly once (read from the source: nothing is imported to find out)."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from pathlib import Path

import pytest

import mslint.rules
from mslint.rule_codes import REGISTRY, code_of
from mslint.rules import all_rules
from mslint.rules.base import Rule

PACKAGE = Path(mslint.__file__).parent

# What lies below the model: files, release tables, diagnostics.
BELOW_MODEL = (
    "mslint.source",
    "mslint.mindspore_tables",
    "mslint.syntax_table",
    "mslint.capture_tables",
    "mslint.fold_table",
    "mslint.release",
    "mslint.diagnostics",
)
# What a rule may use besides the model: its base and the base's helpers (``rules._*``), and the
# layers below the rules (settings, tables, diagnostics, suppression comments, the registry).
RULE_BASE = ("mslint.rules.base", "mslint.rules._")
BELOW_RULES = (
    *BELOW_MODEL,
    "mslint.settings",
    "mslint.suppressions",
    "mslint.rule_codes",
    "mslint.imports",
)


def mslint_imports(path: Path) -> set[str]:
    """Every ``mslint`` module the file imports, at its top or inside a function."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name for name in found if name == "mslint" or name.startswith("mslint.")}


def allowed(name: str, prefixes: tuple[str, ...]) -> bool:
    """``name`` is one of ``prefixes``, inside one, or (for a prefix ending in ``_``) starts with it."""
    return any(name == p or name.startswith(f"{p}.") or (p.endswith("_") and name.startswith(p)) for p in prefixes)


@pytest.mark.parametrize("path", sorted((PACKAGE / "model").glob("*.py")), ids=lambda p: p.name)
def test_the_model_imports_nothing_above_it(path: Path) -> None:
    above = {n for n in mslint_imports(path) if not allowed(n, ("mslint.model", *BELOW_MODEL))}
    assert not above, f"{path.name} imports {sorted(above)}"


RULES = PACKAGE / "rules"
RULE_MODULES = sorted(p for p in RULES.rglob("*.py") if p != RULES / "__init__.py")


@pytest.mark.parametrize("path", RULE_MODULES, ids=lambda p: p.relative_to(RULES).as_posix())
def test_a_rule_imports_the_model_its_base_and_lower_layers_only(path: Path) -> None:
    """A rule that is a package (one module per form family) imports its own modules too."""
    own = (f"mslint.rules.{path.relative_to(RULES).parts[0]}",) if path.parent != RULES else ()
    others = {n for n in mslint_imports(path) if not allowed(n, ("mslint.model", *RULE_BASE, *BELOW_RULES, *own))}
    assert not others, f"{path.name} imports {sorted(others)}"


def test_the_checks_of_the_import_rule_can_fail() -> None:
    assert not allowed("mslint.rules.concurrency_in_graph", ("mslint.model", *RULE_BASE, *BELOW_RULES))
    assert not allowed("mslint.verify.inputs", ("mslint.model", *BELOW_MODEL))
    assert allowed("mslint.rules._call_edits", RULE_BASE)


def test_the_registry_names_every_rule_class_once() -> None:
    defined = {}
    for info in pkgutil.iter_modules(mslint.rules.__path__):
        module = importlib.import_module(f"mslint.rules.{info.name}")
        for name, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, Rule) and cls.__module__ == module.__name__ and "code" in vars(cls):
                defined[cls.code] = (cls.symbol, info.name, name)
    assert defined == REGISTRY
    assert [rule.code for rule in all_rules()] == sorted(REGISTRY)


def test_a_rule_is_named_by_code_or_symbol_in_any_case() -> None:
    assert code_of("ms101") == code_of("Third-Party-Call-In-Graph") == "MS101"
    assert code_of("no-such-rule") is None


def test_a_rule_module_is_named_by_its_symbol() -> None:
    families = {"suppression_comments"}  # the rules about suppression comments, one module
    misnamed = {
        code: module
        for code, (symbol, module, _cls) in REGISTRY.items()
        if module not in families and module != symbol.replace("-", "_")
    }
    assert not misnamed


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: p.relative_to(PACKAGE).as_posix())
def test_no_fact_is_kept_on_a_syntax_tree_node(path: Path) -> None:
    """Facts about nodes are memoized by :mod:`mslint.model.memo`, never written on the node."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    written = [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith("_mslint_")
    ]
    assert not written, f"{path.name} names a node attribute on lines {written}"


def import_graph() -> dict[str, set[str]]:
    """Each module of the package and the package's modules it imports (``from P import M`` names
    module ``P.M`` where there is one; a package's ``__init__`` is its own module)."""
    modules = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    graph = {}
    for name, path in modules.items():
        imported = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                submodules = {f"{node.module}.{alias.name}" for alias in node.names} & modules.keys()
                imported |= submodules or {node.module}
            elif isinstance(node, ast.Import):
                imported.update(alias.name for alias in node.names)
        graph[name] = {module for module in imported if module in modules and module != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for imported in sorted(graph[module]):
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            group = []
            while not group or group[-1] != module:
                group.append(stack.pop())
            if len(group) > 1:
                found.append(sorted(group))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


def test_no_modules_import_each_other_in_a_loop() -> None:
    """Imports inside functions count: a lazy import hides a loop from Python, not from the reader."""
    assert cycles(import_graph()) == []


def test_the_loop_check_can_fail() -> None:
    loop = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(loop) == [["a", "b", "c"]]
