"""The example files in rules/: their ``# expect:`` markers and their compile entries."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

from mslint.model.inputs import inputs_comment
from mslint.model.module import ModuleInfo
from mslint.model.project import ClassRef, Project
from mslint.rules import rule_named
from mslint.settings import Settings
from mslint.verify.constructions import Constructions

REPO = Path(__file__).resolve().parent.parent
RULES_DIR = REPO / "rules"
_EXPECT = re.compile(r"#\s*expect:\s*([\w\-, ]+)")


@dataclass(frozen=True)
class Entry:
    name: str
    inputs: str
    arguments: str = ""
    """What the class is built with (``dim=4, attention=True``): the example's own call."""
    made: str = ""
    """Where no spec can say what the example calls the Cell on (an object of another library,
    ``Decimal("2")``): the arguments of its ``__main__`` block's call ``Class(...)(...)`` as written,
    which the factory evaluates among the example's names (``inputs`` is then empty)."""


def example_files(root: Path = RULES_DIR) -> list[Path]:
    return sorted(root.rglob("*.py"))


def expected_findings(path: Path) -> set[tuple[int, str]]:
    """(line, symbol) for every ``# expect: symbol`` marker."""
    found: set[tuple[int, str]] = set()
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        match = _EXPECT.search(line)
        if match:
            found.update((number, s.strip()) for s in match.group(1).split(",") if s.strip())
    return found


def example_target(path: Path) -> str:
    """The ``target`` an example is checked and verified for: the first its rule knows about
    (``unsupported-kernel``: ``cpu``), else the default."""
    rule = rule_named(path.parent.name)
    return rule.targets[0] if rule is not None and rule.targets else Settings().target


def compile_entries(path: Path) -> list[Entry]:
    """Top-level classes and functions whose header line carries ``# mslint: inputs=...``, and the
    Cells the example's ``__main__`` block builds with literals and calls on tensors it makes
    (read as ``mslint verify`` reads a program's own calls: ``Net(4)(Tensor(np.ones((2, 4))))``),
    or on what no spec says, made there (:attr:`Entry.made`)."""
    text = path.read_text()
    lines = text.splitlines()
    module = ModuleInfo.parse(path, text, checked=True)
    project = Project()
    project.add(module)
    constructions = Constructions(project)
    entries = []
    for node in module.tree.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            inputs = inputs_comment(lambda number: lines[number - 1], node)
            if inputs is not None:
                entries.append(Entry(node.name, inputs))
            elif isinstance(node, ast.ClassDef):
                cls = ClassRef(module, node)
                init = project.find_method(cls, "__init__")
                built = constructions.of(cls, init.node if init is not None else None)
                if built is None:
                    continue
                arguments = ", ".join(f"{name}={value!r}" for name, value in built.kwargs.items())
                if built.inputs:
                    entries.append(Entry(node.name, built.inputs, arguments))
                else:
                    made = _made_in_main(module.tree, text, node.name)
                    if made is not None:
                        entries.append(Entry(node.name, "", arguments, made))
    return entries


def _made_in_main(tree: ast.Module, text: str, name: str) -> str | None:
    """The arguments, as a tuple written in the source, of the first call ``name(...)(...)`` of
    the ``if __name__ == "__main__":`` block, where it passes them by position alone."""
    for statement in tree.body:
        if isinstance(statement, ast.If) and "__main__" in (ast.get_source_segment(text, statement.test) or ""):
            for node in ast.walk(statement):
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Call)
                    and isinstance(node.func.func, ast.Name)
                    and node.func.func.id == name
                    and not node.keywords
                ):
                    return "".join(f"{ast.get_source_segment(text, argument)}, " for argument in node.args)
    return None


def uses_bytecode_capture(path: Path) -> bool:
    """Whether an example's entries are captured from bytecode, which MindSpore 2.10 refuses on
    Python 3.12 and later (:func:`mslint.verify.capture_modes.bytecode_refusal`)."""
    return 'capture_mode="bytecode"' in path.read_text(encoding="utf-8")
