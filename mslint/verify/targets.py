"""What ``mslint verify`` compiles: one target per graph entry, with the inputs to compile it on.

A target's inputs come from ``[tool.mslint.verify]`` (``"pkg.module:Net" = {inputs = [...]}``)
or from a ``# mslint: inputs=...`` comment on the class or function line (or its decorators).
Entries that cannot be built this way say why, so the user knows what to give.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mslint.diagnostics import Diagnostic
from mslint.model.inputs import inputs_comment, parse_input_specs
from mslint.model.module import ModuleInfo
from mslint.model.project import ClassRef, FunctionRef, Project
from mslint.model.scope import GraphFunction, entry_points
from mslint.settings import Settings
from mslint.source import source_text
from mslint.verify.constructions import Constructions
from mslint.verify.synthesis import default_inputs, synthesised_inputs

_SPEC = '"float32[N,...]"'


@dataclass(frozen=True)
class Target:
    path: Path
    """The resolved file that defines the entry."""
    name: str
    """The top-level class (a Cell) or function to compile."""
    entry: str
    """The entry's display name, as in diagnostics: ``Net.construct``."""
    line: int
    inputs: str = ""
    kwargs: dict[str, Any] = field(default_factory=dict)
    unbuildable: str | None = None
    """Why the target cannot be built without an ``--example`` factory; None when it can."""
    forward_only: bool = False
    """A Cell with ``forward`` and no ``construct``: MindSpore has nothing of it to compile."""
    candidates: tuple[str, ...] = ()
    """Input specs to try, in order, when a compile on ``inputs`` fails at their shape."""
    synthesised: bool = False
    """``inputs`` were read off the Cell's first layer (:mod:`mslint.verify.synthesis`)."""
    guessed: bool = False
    """``inputs`` are a default shape: the Cell holds no weight that sets one."""
    built_at: str | None = None
    """``Net(10) at train.py:30``: the program's call whose arguments ``kwargs`` are, and the calls
    that lead to it (:mod:`mslint.verify.constructions`)."""
    kept: tuple[str, ...] = ()
    """``depth=12``: defaults kept where the program gives a value mslint does not follow."""

    @property
    def key(self) -> tuple[str, str]:
        return (str(self.path), self.name)


def targets_of(project: Project, settings: Settings) -> list[Target]:
    """A target for every graph entry of the checked modules, and for every Cell that has only
    ``forward``: compiling it shows MindSpore's own error (it calls ``construct``)."""
    constructions = Constructions(project)
    return [
        _target(project, module, ref, settings, constructions)
        for module in project.checked_modules
        for ref in [*entry_points(project, module), *_forward_only(project, module)]
        if ref.module is module
    ]


def _forward_only(project: Project, module: ModuleInfo) -> Iterator[FunctionRef]:
    for node in ast.walk(module.tree):
        if isinstance(node, ast.ClassDef) and project.is_cell(cls := ClassRef(module, node)):
            forward = project.find_method(cls, "forward")
            if forward is not None and project.find_method(cls, "construct") is None:
                yield FunctionRef(module, forward.node, cls)


def _target(
    project: Project, module: ModuleInfo, ref: FunctionRef, settings: Settings, constructions: Constructions
) -> Target:
    if ref.owner is not None and ref.node.name not in ("construct", "forward"):
        reason = f"{ref.display_name} is a @jit method: give an --example factory that returns the bound method"
        return Target(module.path.resolve(), ref.owner.node.name, ref.display_name, ref.node.lineno, unbuildable=reason)
    return _buildable(project, module, ref, settings, constructions)


def _buildable(
    project: Project, module: ModuleInfo, ref: FunctionRef, settings: Settings, constructions: Constructions
) -> Target:
    """The target with the inputs and constructor arguments configured for it, or one message
    with everything it still needs."""
    path = module.path.resolve()
    definition = ref.owner.node if ref.owner else ref.node
    name, entry = definition.name, ref.display_name
    forward_only = ref.owner is not None and ref.node.name == "forward"
    if definition not in module.tree.body:
        reason = f"{name} is not defined at module level: give an --example factory that builds it"
        return Target(path, name, entry, definition.lineno, unbuildable=reason, forward_only=forward_only)
    key = f"{module.name}:{name}"
    configured = settings.verify_entries.get(key)
    comment = inputs_comment(module.line, definition)
    if comment is not None and not (configured and configured.inputs):
        try:
            parse_input_specs(comment)
        except ValueError as error:
            reason = f"{path.name}:{definition.lineno}: {error}"
            return Target(path, name, entry, definition.lineno, unbuildable=reason, forward_only=forward_only)
    inputs = configured.inputs if configured and configured.inputs else comment or ""
    kwargs = configured.kwargs if configured else {}
    # MindSpore fails on a Cell without `construct` before it looks at the inputs.
    needed = [] if inputs or forward_only else _required_inputs(ref.node, is_method=ref.owner is not None)
    init = project.find_method(ref.owner, "__init__") if ref.owner and not kwargs else None
    arguments = _required_inputs(init.node, is_method=True) if init is not None else []
    construction = None
    if ref.owner is not None and not configured and (arguments or needed):
        construction = constructions.of(ref.owner, init.node if init is not None else None)
    # Built as the program builds it, defaults overridden too; a call that gives nothing known
    # builds what the defaults build, and saying it was the program's call would claim more.
    if construction is not None and (arguments or construction.kwargs or construction.inputs):
        kwargs, arguments = construction.kwargs, []
        if needed and construction.inputs:
            inputs, needed = construction.inputs, []
    else:
        construction = None
    built_at = construction.where if construction is not None else None
    kept = construction.kept if construction is not None else ()
    synthesised, guessed = [], False
    if needed and ref.owner and not arguments:
        synthesised = synthesised_inputs(project, ref.owner, kwargs)
        if not synthesised:
            synthesised = default_inputs(project, ref.owner)
            guessed = bool(synthesised)
    if synthesised:
        first, *others = synthesised
        return Target(
            path,
            name,
            entry,
            definition.lineno,
            first,
            kwargs,
            candidates=tuple(others),
            synthesised=True,
            guessed=guessed,
            built_at=built_at,
            kept=kept,
        )
    if needed and arguments:
        why = f" ({constructions.not_followed(ref.owner, init.node)})" if ref.owner and init and not configured else ""
        reason = (
            f"no input specs for {entry}({', '.join(needed)}) and no constructor arguments for "
            f"{name}({', '.join(arguments)}){why}: add "
            f'"{key}" = {{ inputs = [{", ".join(_SPEC for _ in needed)}], '
            f"kwargs = {{ {', '.join(f'{a} = ...' for a in arguments)} }} }} to [tool.mslint.verify], "
            "or give an --example factory"
        )
        return Target(path, name, entry, definition.lineno, unbuildable=reason)
    if needed:
        reason = (
            f"no input specs for {entry}({', '.join(needed)}): write `# mslint: inputs={_SPEC[1:-1]}, ...` on the "
            f'{"class" if ref.owner else "def"} line, add "{key}" to [tool.mslint.verify], '
            "or give an --example factory"
        )
        return Target(path, name, entry, definition.lineno, unbuildable=reason)
    return Target(
        path, name, entry, definition.lineno, inputs, kwargs, forward_only=forward_only, built_at=built_at, kept=kept
    )


def _required_inputs(function: ast.FunctionDef | ast.AsyncFunctionDef, is_method: bool) -> list[str]:
    arguments = function.args
    positional = [*arguments.posonlyargs, *arguments.args][1 if is_method else 0 :]
    without_default = positional[: len(positional) - len(arguments.defaults)] if arguments.defaults else positional
    keyword_only = [a for a, d in zip(arguments.kwonlyargs, arguments.kw_defaults) if d is None]
    return [a.arg for a in [*without_default, *keyword_only]]


def target_of(
    diagnostic: Diagnostic, targets: list[Target], project: Project, graph_code: Sequence[GraphFunction] = ()
) -> Target | None:
    """The target whose compile shows ``diagnostic``: its entry, the Cell whose code holds it,
    or the entry that reaches the graph function holding it (a module-level helper's finding
    from a rule that names no entry, such as an API call the release no longer accepts)."""
    if diagnostic.entry is not None and diagnostic.entry_path is not None:
        return _target_named(targets, Path(diagnostic.entry_path).resolve(), diagnostic.entry)
    path = Path(diagnostic.path).resolve()
    module = next((m for m in project.checked_modules if m.path.resolve() == path), None)
    if module is None:
        return None
    for statement in module.tree.body:
        end = statement.end_lineno or statement.lineno
        if isinstance(statement, ast.ClassDef) and statement.lineno <= diagnostic.line <= end:
            return next((t for t in targets if t.path == path and t.name == statement.name), None)
    holder = next(
        (
            function
            for function in graph_code
            if function.module is module
            and function.node.lineno <= diagnostic.line <= (function.node.end_lineno or function.node.lineno)
        ),
        None,
    )
    if holder is None:
        return None
    return _target_named(targets, holder.entry.module.path.resolve(), holder.entry.display_name)


def named_by_factory(path: Path, name: str, targets: list[Target]) -> list[Target]:
    """The targets that the example factory ``name`` of ``path`` names in its body (``return
    Net(8), (x,)``): those it was meant to build, when it failed before it returned one."""
    try:
        tree = ast.parse(source_text(path))
    except (OSError, UnicodeDecodeError, SyntaxError, ValueError):
        return []
    factory = next((n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name), None)
    if factory is None:
        return []
    nodes = ast.walk(factory)
    used = {n.id if isinstance(n, ast.Name) else n.attr for n in nodes if isinstance(n, (ast.Name, ast.Attribute))}
    return [t for t in targets if t.name in used]


def _target_named(targets: list[Target], path: Path, entry: str) -> Target | None:
    return next((t for t in targets if t.path == path and t.entry == entry), None)
