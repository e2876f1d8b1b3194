"""The analysis core: files -> semantic model -> rules -> diagnostics, shared by every front-end."""

from __future__ import annotations

import contextlib
import gc
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from mslint.atomic_write import digest
from mslint.diagnostics import Diagnostic, Severities
from mslint.findings_on_unknowns import (
    FindingsOnUnknowns,
    capped_in_sparse_overload,
    capped_under_constructor_test,
    capped_under_unknown_test,
)
from mslint.mindspore_tables import targeted_release
from mslint.model.dead_classes import class_never_built
from mslint.model.file_facts import FileFacts
from mslint.model.graph_index import GraphFunctionIndex
from mslint.model.host_branches import untaken_test
from mslint.model.init_branches import init_branch
from mslint.model.module import TOO_DEEPLY_NESTED, ModuleInfo
from mslint.model.multitype_overloads import overload_selection
from mslint.model.never_compiled import never_compiled
from mslint.model.patched_api import patched_apis
from mslint.model.project import ClassRef, FunctionRef, Project
from mslint.model.pynative import pynative_code
from mslint.model.scope import GraphFunction, graph_functions
from mslint.model.walk import descendants
from mslint.notebook import SUFFIX as NOTEBOOK
from mslint.notebook import Notebook, NotebookError, read_notebook
from mslint.rules import all_rules, matches
from mslint.rules.base import Finding, Rule
from mslint.rules.suppression_comments import CommentFinding, SuppressionRule
from mslint.rules.syntax_error import SyntaxErrorRule
from mslint.settings import Settings
from mslint.source import UndecodableSource, decode_source, read_regular_file, source_text
from mslint.suppressions import SuppressionComments

TOO_DEEP = (RecursionError, MemoryError)
"""What analysing code nested thousands deep may raise: the rules walk some trees recursively."""


@dataclass
class Report:
    diagnostics: list[Diagnostic] = field(default_factory=list)
    unreadable: list[str] = field(default_factory=list)
    """One line per file that could not be read at all (exit code 2)."""
    files: int = 0
    cached_files: int = 0
    """Files whose findings came from the cache."""
    context_files: list[Path] = field(default_factory=list)
    """Files outside the run read to resolve names (a base class in an unchecked module)."""
    probed_paths: set[Path] = field(default_factory=set)
    """Paths looked at to resolve imports that held no module: results change if one appears
    (unordered: only the cache reads them, in the order it sorts them to)."""
    analysed: dict[str, str] = field(default_factory=dict)
    """Path of each checked file read from disk -> digest of the bytes analysed: the findings
    (and their fixes) hold for that text only."""


@dataclass(frozen=True)
class GraphCode:
    """What an analysis took for graph code: every graph function of the project (each with the
    first entry that reaches it), and the test of a Cell that runs only in PyNative mode (its
    ``construct`` is no graph entry)."""

    functions: list[GraphFunction]
    runs_pynative: Callable[[ClassRef], bool]


@dataclass
class Analysis:
    """One analysis, for the front-ends that need more than its findings (the report, verify):
    the model and the graph code the rules saw, so that nothing derives them again."""

    project: Project
    report: Report
    graph: GraphCode


def enabled_rules(settings: Settings, path: Path | None = None) -> list[Rule]:
    return _rules_left(settings, settings.ignored_in(path) if path else ())


def _rules_left(settings: Settings, ignored_here: tuple[str, ...]) -> list[Rule]:
    """The rules selected for the target, less those ignored everywhere and those ``ignored_here``."""
    ignored = (*settings.ignore, *ignored_here)
    return [
        rule
        for rule in all_rules()
        if any(matches(rule, s) for s in settings.select)
        and not any(matches(rule, s) for s in ignored)
        and runs_on(rule, settings.target)
    ]


def runs_on(rule: Rule, target: str) -> bool:
    """Whether ``rule`` runs when the graphs run on ``target``: it knows about that device."""
    return not rule.targets or target in rule.targets


def check_files(
    paths: list[Path],
    settings: Settings,
    sources: Mapping[Path, str | Notebook] | None = None,
    context: Sequence[Path] = (),
    file_facts: FileFacts | None = None,
) -> Report:
    """Check ``paths`` as one project.

    ``sources`` gives unsaved text for some files (editors). ``context`` files take part in
    the analysis - their graph code can reach into the checked files - but are not reported.
    ``file_facts`` is what the run has learnt of the file system, where it checks several projects.
    """
    with collector_paused():
        # The project is freed here, before the collector is back: alive then, its million
        # objects would all be scanned by the first collection (a tenth of the run).
        return _load_project(paths, settings, sources, context, file_facts).report


def load_project(
    paths: list[Path],
    settings: Settings,
    sources: Mapping[Path, str | Notebook] | None = None,
    context: Sequence[Path] = (),
) -> Analysis:
    """The analysis of ``paths``, its project and graph code with its report, as for :func:`check_files`."""
    with collector_paused():
        return _load_project(paths, settings, sources, context, None)


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector during an analysis.

    The syntax trees and the model make hundreds of thousands of objects and no cycles to
    free; the collector's repeated scans of them cost a third of the run (corpus A 0.87 s
    -> 0.62 s). Long-lived hosts (language server, pylint) get it back right after."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _load_project(
    paths: list[Path],
    settings: Settings,
    sources: Mapping[Path, str | Notebook] | None,
    context: Sequence[Path],
    file_facts: FileFacts | None,
) -> Analysis:
    report = Report(files=len(paths))
    project = Project(targeted_release(settings.mindspore_version), settings.root, file_facts)
    for path in [p for p in context if p not in paths]:
        with contextlib.suppress(OSError, UnicodeDecodeError, SyntaxError, ValueError):
            project.add(ModuleInfo.parse(path, source_text(path), checked=False, packages=project.files.packages))
    notebooks: dict[str, Notebook] = {}
    for path in paths:
        try:
            given = sources.get(path) if sources else None
            if given is None:
                content = read_regular_file(path)
                report.analysed[str(path)] = digest(content)
                given = read_notebook(content) if path.suffix == NOTEBOOK else decode_source(content).text
            elif path.suffix == NOTEBOOK and isinstance(given, str):  # an editor's or stdin's JSON
                given = read_notebook(given.encode("utf-8"))
        except UndecodableSource as error:
            report.diagnostics.extend(undecodable(path, error, settings))
            continue
        except (OSError, UnicodeDecodeError) as error:
            report.unreadable.append(f"{path}: cannot read: {getattr(error, 'strerror', None) or error}")
            continue
        except NotebookError as error:
            report.unreadable.append(f"{path}: {error}")
            continue
        if isinstance(given, Notebook):
            notebooks[str(path)] = given
        source = given.text if isinstance(given, Notebook) else given
        try:
            resolved = project.files.resolved(path)
            project.add(
                ModuleInfo.parse(path, source, checked=True, packages=project.files.packages, resolved=resolved)
            )
        except (SyntaxError, ValueError) as error:
            line, column = getattr(error, "lineno", None) or 1, getattr(error, "offset", None) or 1
            reason = getattr(error, "msg", None) or str(error)
            report.diagnostics.extend(_cannot_parse(path, f"cannot parse: {reason}", settings, line, column))
    project.link_star_imports()
    try:
        graph = graph_code(project, settings)
        report.diagnostics.extend(analyze(project, settings, graph))
    except TOO_DEEP:
        graph = GraphCode([], pynative_cells(project, settings))
        report.diagnostics.extend(_analyze_one_by_one(project, settings))
    if notebooks:
        report.diagnostics = [notebooks[d.path].place(d) if d.path in notebooks else d for d in report.diagnostics]
    report.diagnostics.sort(key=lambda d: d.sort_key)
    report.context_files = [m.path for m in project.modules if not m.checked]
    report.probed_paths = project.probed
    return Analysis(project, report, graph)


def graph_code(project: Project, settings: Settings) -> GraphCode:
    runs_pynative = pynative_cells(project, settings)
    return GraphCode(graph_functions(project, runs_pynative), runs_pynative)


def analyze(project: Project, settings: Settings, graph: GraphCode | None = None) -> list[Diagnostic]:
    """Diagnostics of every enabled rule on the checked modules of ``project``, whose graph code
    is ``graph`` (found here when not given)."""
    graph = graph or graph_code(project, settings)
    levels = _levels(settings)
    found: dict[tuple[str, int, int, str], Diagnostic] = {}
    # Most modules share their per-file ignores: one list of rules, and one of them by the node
    # types they judge in graph code, serves all of those.
    rules_left: dict[tuple[str, ...], list[Rule]] = {}
    by_node_type: dict[tuple[str, ...], dict[type, list[Rule]]] = {}
    rules_by_path: dict[Path, list[Rule]] = {}
    graph_rules_by_path: dict[Path, dict[type, list[Rule]]] = {}
    for module in project.checked_modules:
        ignored_here = settings.ignored_in(module.path)
        if ignored_here not in rules_left:
            rules_left[ignored_here] = _rules_left(settings, ignored_here)
            by_node_type[ignored_here] = _by_node_type(rules_left[ignored_here])
        rules_by_path[module.path] = rules_left[ignored_here]
        graph_rules_by_path[module.path] = by_node_type[ignored_here]
    comments = {m.path: SuppressionComments(m.text, m.tree) for m in project.checked_modules}

    def report(
        rule: Rule, module: ModuleInfo, finding: Finding, entry: FunctionRef | None, instance: str | None = None
    ) -> None:
        keep(rule, module, _diagnostic(rule, module, finding, entry, instance, settings, levels))

    def keep(rule: Rule, module: ModuleInfo, diagnostic: Diagnostic) -> None:
        if not comments[module.path].silences(diagnostic.line, rule, explicitly=isinstance(rule, SuppressionRule)):
            found.setdefault((diagnostic.path, diagnostic.line, diagnostic.column, rule.symbol), diagnostic)

    # An entry evaluated once per call from Python (`GraphFunction.called`): a finding is reported
    # once, naming the calls whose graphs hold it where not all of them do.
    evaluations = Counter(id(function.node) for function in graph.functions if function.called is not None)
    per_call: dict[
        tuple[int, str, int, int], tuple[Rule, ModuleInfo, Finding, FunctionRef | None, str | None, list[str]]
    ]
    per_call = {}

    def judged(rule: Rule, function: GraphFunction, finding: Finding, named: str | None) -> None:
        if function.called is None:
            report(rule, function.module, finding, function.entry, named)
            return
        where = (
            id(function.node),
            rule.symbol,
            getattr(finding.node, "lineno", 0),
            getattr(finding.node, "col_offset", 0),
        )
        per_call.setdefault(where, (rule, function.module, finding, function.entry, named, []))[5].append(
            function.called
        )

    by_mode: dict[tuple[int, str], dict[type, list[Rule]]] = {}
    project.graph_function_nodes = frozenset(id(function.node) for function in graph.functions)
    # a branch that no graph holds, an overload that no call selects, a host branch a fixed config
    # never takes, a class only such code builds: nothing there holds; one under a constant test
    # mslint cannot decide, in __init__ on constructor arguments no instance is shown to take, or in
    # an overload only a sparse argument selects: a warning
    in_graph = GraphFunctionIndex(graph.functions)
    overloads = overload_selection(project)
    never_run = never_compiled(in_graph, project) | overloads.unselected
    for module in list(project.checked_modules):
        for rule in rules_by_path[module.path]:
            for finding in rule.check_module(module, project):
                if id(finding.node) in never_run or untaken_test(project, module, finding.node) is not None:
                    continue
                if class_never_built(project, module, finding.node) is not None:
                    continue  # in a class that only code which never runs builds
                sparse = overloads.sparse_only.get(id(finding.node))
                if sparse is not None:
                    finding = capped_in_sparse_overload(rule, finding, sparse)
                built = init_branch(project, module, finding.node)
                if built is not None and not built.taken:
                    finding = capped_under_constructor_test(rule, finding, built)
                compiling = [f for f in in_graph.around(module, finding.node) if id(finding.node) not in f.pruned_nodes]
                report(rule, module, capped_under_unknown_test(rule, finding, compiling), None)
    for function in graph.functions:
        if not function.module.checked:
            continue
        # Each capture mode has rules of its own: the rules of the file, for this function's mode.
        by_type = _for_mode(graph_rules_by_path[function.module.path], function.capture.mode, by_mode)
        settle = FindingsOnUnknowns(function)
        instance = function.memo.instances.get(id(function.entry.node))
        pruned = function.pruned_nodes
        for node in descendants(function.node):
            if pruned and id(node) in pruned:
                continue  # a branch the compiler never reads
            for rule in by_type.get(type(node), ()):
                for finding in rule.check_graph_node(node, function):
                    if class_never_built(project, function.module, finding.node) is not None:
                        continue  # in a class that only code which never runs builds
                    reaching = function.instances_reaching(node)
                    called = function.calls_reaching(node)
                    if reaching is None and called is None:
                        judged(rule, function, settle(rule, node, finding), instance)
                    elif reaching != [] and called != []:  # those that evaluate the node: none compiles the others'
                        judged(
                            rule,
                            function,
                            settle(rule, node, finding),
                            _naming_instances(function, reaching, called, instance),
                        )
    for (function_node, *_), (rule, module, finding, entry, named, calls) in per_call.items():
        if len(calls) < evaluations[function_node]:  # the other calls' graphs do not hold it: name those that do
            named = ", ".join(part for part in (" and ".join(calls), named) if part)
        report(rule, module, finding, entry, named)
    # Last, when every other rule has had its say on which comments silenced something.
    runnable = sum(runs_on(rule, settings.target) for rule in all_rules())
    for module in list(project.checked_modules):
        enabled = rules_by_path[module.path]
        every_rule_runs = len(enabled) == runnable
        for rule in enabled:
            if isinstance(rule, SuppressionRule):
                for problem in list(rule.check_suppressions(comments[module.path], enabled, every_rule_runs)):
                    keep(rule, module, _comment_diagnostic(rule, module, problem, settings))
    return list(found.values())


def _naming_instances(
    function: GraphFunction, reaching: list[str] | None, called: list[str] | None, instance: str | None
) -> str:
    """``as built at net.py:20, called with float32[2,4]``: the instances of the function's class
    and the calls of the function that reach a finding (``called at net.py:24 with 'HARD'``), and
    the entry's inputs; the class named where the entry is another's (``Block as built by
    __init__() at net.py:31``)."""
    named = ", ".join(
        part for part in ("as built " + " and ".join(reaching) if reaching else None, *(called or [])) if part
    )
    entry = function.entry.owner
    if function.owner is not None and (entry is None or entry.node is not function.owner.node):
        return ", ".join(part for part in (instance, f"{function.owner.node.name} {named}") if part)
    return f"{named}, {instance}" if instance else named


def _for_mode(
    by_type: dict[type, list[Rule]], mode: str, memo: dict[tuple[int, str], dict[type, list[Rule]]]
) -> dict[type, list[Rule]]:
    """The rules of ``by_type`` that judge code of capture ``mode``, by node type (made once per mode)."""
    key = (id(by_type), mode)
    if key not in memo:
        memo[key] = {t: [r for r in rules if mode in r.capture_modes] for t, rules in by_type.items()}
    return memo[key]


def _by_node_type(rules: list[Rule]) -> dict[type, list[Rule]]:
    found: dict[type, list[Rule]] = defaultdict(list)
    for rule in rules:
        for node_type in rule.node_types:
            found[node_type].append(rule)
    return found


def pynative_cells(project: Project, settings: Settings) -> Callable[[ClassRef], bool]:
    """The test of a Cell that runs only in PyNative mode (found in a script, or named in the
    ``pynative`` setting): its ``construct`` is no graph entry."""
    detected = pynative_code(project)

    def runs_pynative(cell: ClassRef) -> bool:
        return cell in detected or settings.runs_pynative(cell.module.path, f"{cell.module.name}:{cell.node.name}")

    return runs_pynative


def _analyze_one_by_one(project: Project, settings: Settings) -> list[Diagnostic]:
    """Each checked module analysed alone: where the analysis of the whole project runs out of
    stack or memory, the files it can analyse keep their findings (those that need another file
    of the run, such as a base class, are lost, but the APIs the run patches stay patched) and
    the others say why they have none."""
    found: list[Diagnostic] = []
    patched = patched_apis(project)  # a walk of each module's nodes, without recursion
    for module in list(project.checked_modules):
        alone = Project(project.release.version, project.import_roots.top, project.files)
        alone.patched_in_run = patched
        alone.add(module)
        alone.link_star_imports()
        try:
            found.extend(analyze(alone, settings))
        except TOO_DEEP:
            found.extend(_cannot_parse(module.path, f"cannot analyse: {TOO_DEEPLY_NESTED}", settings))
    return found


def _diagnostic(
    rule: Rule,
    module: ModuleInfo,
    finding: Finding,
    entry: FunctionRef | None,
    instance: str | None,
    settings: Settings,
    levels: tuple[Settings, Settings],
) -> Diagnostic:
    node = finding.node
    line = getattr(node, "lineno", 1)
    column = getattr(node, "col_offset", 0) + 1
    end_line = getattr(node, "end_lineno", None) or line
    end_column = (getattr(node, "end_col_offset", None) or column) + 1
    reached = f"{entry.display_name}, {instance}" if entry and instance else entry.display_name if entry else None
    message = f"{finding.message} (reached from {reached})" if reached else finding.message
    severities = Severities(*(finding.severity_for(rule, at_level) for at_level in levels))
    return Diagnostic(
        path=str(module.path),
        line=line,
        column=column,
        end_line=end_line,
        end_column=end_column,
        code=rule.code,
        symbol=rule.symbol,
        severity=finding.severity_for(rule, settings),
        message=message,
        hint=finding.hint,
        fix=finding.fix,
        entry=entry.display_name if entry else None,
        entry_path=str(entry.module.path) if entry else None,
        severities=severities,
    )


def _levels(settings: Settings) -> tuple[Settings, Settings]:
    """``settings`` at STRICT and at LAX (in the order of :class:`Severities`)."""
    return (settings.with_options(syntax_level="strict"), settings.with_options(syntax_level="lax"))


def _rule_severities(rule: Rule, settings: Settings) -> Severities:
    return Severities(*(rule.severity(at_level) for at_level in _levels(settings)))


def _comment_diagnostic(rule: Rule, module: ModuleInfo, problem: CommentFinding, settings: Settings) -> Diagnostic:
    where = problem.suppression
    return Diagnostic(
        path=str(module.path),
        line=where.line,
        column=where.column,
        end_line=where.line,
        end_column=where.end_column,
        code=rule.code,
        symbol=rule.symbol,
        severity=rule.severity(settings),
        message=problem.message,
        hint=problem.hint,
        severities=_rule_severities(rule, settings),
    )


def undecodable(path: Path, error: UndecodableSource, settings: Settings) -> list[Diagnostic]:
    """The finding for a file whose bytes are not text: Python cannot parse it either (a
    ``SyntaxError`` at import), so it is a finding of that file, at the bad byte, and the
    other files are checked on (as ruff's E902); a file that cannot be read at all is an error."""
    return _cannot_parse(path, f"cannot decode: {error.reason}", settings, error.line, error.column)


def _cannot_parse(path: Path, message: str, settings: Settings, line: int = 1, column: int = 1) -> list[Diagnostic]:
    rule = SyntaxErrorRule()
    if not any(r.code == rule.code for r in enabled_rules(settings, path)):
        return []
    return [
        Diagnostic(
            path=str(path),
            line=line,
            column=column,
            end_line=line,
            end_column=column + 1,
            code=rule.code,
            symbol=rule.symbol,
            severity=rule.severity(settings),
            message=message,
            severities=_rule_severities(rule, settings),
        )
    ]
