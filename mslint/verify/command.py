"""``mslint verify``: lint, compile the entries behind the findings, and judge each finding.

Evidence comes, in this order, from the user's own command (``--run``), from example
factories (``--example FILE:FUNCTION``), and from input specs (config or comments) for the
entries neither of them compiled. Every compile runs in a child process.
"""

from __future__ import annotations

import ast
import contextlib
import functools
import importlib.util
import json
import tempfile
import time
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from mslint.diagnostics import Diagnostic, Severity
from mslint.discovery import discover
from mslint.engine import load_project
from mslint.extras import install_command
from mslint.model.project import Project
from mslint.report.documents import read_json_object
from mslint.settings import Settings
from mslint.source import source_text
from mslint.verify import forkserver
from mslint.verify.cache import ResultCache, Runtime
from mslint.verify.capture import RunCapture, capture_run
from mslint.verify.compiler_output import ERROR, Problem
from mslint.verify.devices import VerifierUnavailable
from mslint.verify.merge import shard_json
from mslint.verify.processes import interruptible, wait
from mslint.verify.replicas import SYMBOL as REPLICA_FINDINGS
from mslint.verify.replicas import not_run, verify_replicas
from mslint.verify.runner import LEVELS, Job, Outcome, run_jobs
from mslint.verify.shards import Shard, built_by, durations_of, entry_costs, entry_name, split
from mslint.verify.statuses import RAN
from mslint.verify.targets import Target, named_by_factory, target_of, targets_of
from mslint.verify.verdicts import (
    CONFIRMED,
    RUN_LEVEL,
    CompilerOnly,
    TargetStatus,
    Verdict,
    compiler_only,
    covers,
    judge,
)
from mslint.workers import Lifeline

_RESULT = "mslint verify --format json"


@dataclass(frozen=True)
class VerifyRequest:
    paths: list[Path]
    examples: list[tuple[Path, str]] = field(default_factory=list)
    run: str | None = None
    all_entries: bool = False
    timeout: float = 300.0
    jobs: int = 1
    device: str | None = None
    memory_limit_mib: int | None = None
    """The resident memory a compile may use; None: no limit."""
    compare: bool = True
    """Run each entry that compiled in LAX in graph mode and in PyNative, and compare."""
    replicas: bool = True
    """Build the Cells on ``msrun`` ranks for the ``distributed-without-seed`` findings; False:
    those findings are not verifiable (a run that fills the result cache needs no ranks)."""
    shard: Shard | None = None
    """Verify only this part of the entries, and report only their findings."""
    durations: Path | None = None
    """An earlier result whose compile times balance the shards."""
    cache: Path | None = None
    """The folder of the result cache; None: compile everything."""
    ray: str | None = None
    """The address of a Ray cluster that compiles (:mod:`mslint.verify.cluster`); None: here."""


@dataclass
class VerifyReport:
    verdicts: list[Verdict]
    compiler_only: list[CompilerOnly]
    outcomes: list[Outcome]
    run: RunCapture | None
    unreadable: list[str]
    seconds: float
    shard: dict[str, Any] | None = None
    """For a shard: which one, of which split, of which commit (what ``mslint verify merge`` checks)."""

    def failed(self) -> bool:
        """A confirmed error, or an error only the compiler found."""
        return any(v.verdict == CONFIRMED and v.diagnostic.severity == Severity.ERROR for v in self.verdicts) or any(
            c.severity == Severity.ERROR for c in self.compiler_only
        )


def check_device(requested: str | None) -> None:
    """Fail in one line when MindSpore, or the device asked for, is missing.

    Without ``--device`` each child takes the best device it finds, which saves a MindSpore
    import here."""
    if importlib.util.find_spec("mindspore") is None:
        raise VerifierUnavailable(f"mindspore is not installed: {install_command('verify')}")
    if requested is None:
        return
    found = _probe()
    available: list[str] = found["available"]
    mindspore = f"MindSpore {found['mindspore']}"
    if requested not in available:
        raise VerifierUnavailable(f"device {requested} is not available to {mindspore} here ({', '.join(available)})")


def mindspore_runtime(requested: str | None) -> Runtime:
    """The MindSpore version, and the device the compiles use: the one asked for, or the best."""
    found = _probe()
    return Runtime(str(found["mindspore"]), requested or str((found["available"] or ["none"])[0]))


_PROBE_TIMEOUT_S = 300


@functools.cache
def _probe() -> dict[str, Any]:
    """What :mod:`mslint.verify.devices` says, in a child: forked from the fork server, which
    the compiles then share, or a process of its own (importing MindSpore: about 2 s)."""
    with Lifeline() as lifeline, tempfile.TemporaryFile() as stdout, tempfile.TemporaryFile() as stderr:
        child = forkserver.start("mslint.verify.devices", [], (stdout, stderr), lifeline.read_end)
        returncode = wait(child, _PROBE_TIMEOUT_S)
        stdout.seek(0)
        stderr.seek(0)
        said, complained = (stream.read().decode(errors="replace").strip() for stream in (stdout, stderr))
    if returncode is None:
        raise VerifierUnavailable(f"importing mindspore took more than {_PROBE_TIMEOUT_S} s")
    if returncode != 0 or not said:
        last = (complained.splitlines() or ["no output"])[-1]
        raise VerifierUnavailable(f"mindspore cannot be imported: {last}")
    found: dict[str, Any] = json.loads(said.splitlines()[-1])
    return found


class Compiler(Protocol):
    """Where the compiles run: here (:class:`LocalCompiler`) or on a Ray cluster."""

    def runtime(self) -> Runtime:
        """The MindSpore version and the device of the compiles, for the result cache."""

    def compile(self, jobs: list[Job]) -> Generator[tuple[int, Outcome], None, None]:
        """Each job's index in ``jobs`` and its outcome, as each compile ends."""


@dataclass(frozen=True)
class LocalCompiler:
    """The compiles in this machine's children (:func:`mslint.verify.runner.run_jobs`)."""

    request: VerifyRequest

    def runtime(self) -> Runtime:
        return mindspore_runtime(self.request.device)

    def compile(self, jobs: list[Job]) -> Generator[tuple[int, Outcome], None, None]:
        request = self.request
        yield from enumerate(run_jobs(jobs, request.timeout, request.jobs, request.device, request.memory_limit_mib))


@contextlib.contextmanager
def compiler_for(request: VerifyRequest) -> Iterator[Compiler]:
    """The compiler the request asks for, checked (MindSpore, the device, the cluster)."""
    if request.ray is None:
        check_device(request.device)
        yield LocalCompiler(request)
        return
    from mslint.verify.cluster import connect  # imports this module

    device = request.device or "CPU"  # a task asks for its device: it is never a node's best guess
    with connect(request.ray, device, request.timeout, request.memory_limit_mib) as cluster:
        yield cluster


def verify(request: VerifyRequest, settings: Settings) -> VerifyReport:
    """Raises :class:`Interrupted` on SIGINT or SIGTERM, once no child process or temporary folder is left."""
    with interruptible(), compiler_for(request) as compiler:
        return _verify(request, settings, compiler)


def _verify(request: VerifyRequest, settings: Settings, compiler: Compiler) -> VerifyReport:
    started = time.perf_counter()
    discovery = discover(request.paths, settings)
    analysis = load_project(discovery.files, settings)
    project, lint, graph_code = analysis.project, analysis.report, analysis.graph.functions
    lint.unreadable[:0] = discovery.unreadable
    targets = targets_of(project, settings)
    targets_by_key = {t.key: t for t in targets}
    finding_targets = {id(d): target_of(d, targets, project, graph_code) for d in lint.diagnostics}

    statuses: dict[tuple[str, str], TargetStatus] = {}
    problems: list[Problem] = []
    problem_targets: dict[int, Target] = {}
    capture = capture_run(request.run, request.timeout) if request.run else None
    if capture is not None:
        problems += capture.problems + _stopped_on_a_finding(capture, lint.diagnostics)
        for key in capture.compiled:
            statuses.setdefault(key, TargetStatus()).compiled_levels.update(LEVELS)
        for key, error in capture.stopped.items():
            statuses.setdefault(key, TargetStatus()).stopped.setdefault(RUN_LEVEL, error)
        if capture.returncode is None:
            _status_reasons(statuses, targets, f"`{capture.command}` did not finish within {request.timeout:g} s")

    wanted = targets if request.all_entries else [t for t in targets if t in finding_targets.values()]
    factories = request.examples
    shard_record = None
    if request.shard is not None:
        costs, together = _costs(request.durations, factories, wanted, project)
        shards = split(costs, request.shard.count, together)
        own = shards[request.shard.index - 1]
        # costliest first: the --jobs children claim the jobs in order, and a costly one claimed last ends alone
        order = {name: (-costs[name], name) for name in own}
        factories = sorted((e for e in factories if entry_name(*e) in own), key=lambda e: order[entry_name(*e)])
        wanted = sorted((t for t in wanted if _name(t) in own), key=lambda t: order[_name(t)])
        shard_record = shard_json(request.shard, shards)
    examples = [
        Job(path, name, level, factory=True, compare=_compares(request, level))
        for path, name in factories
        for level in LEVELS
    ]
    cache = None
    if request.cache is not None and (factories or wanted):
        cache = ResultCache(request.cache, compiler.runtime(), project)
    outcomes = _run(examples, compiler, cache)
    reported = lint.diagnostics
    if request.shard is not None:
        compiled_here = {t.key for t in wanted} | {o.compiled_key for o in outcomes}
        reported = [d for d in lint.diagnostics if _reported_in(request.shard, finding_targets[id(d)], compiled_here)]
    covered = {o.compiled_key for o in outcomes} | set(statuses)
    pending = [t for t in wanted if t.key not in covered]
    failed_examples = _failed_examples(outcomes, targets)
    for target in pending:
        reasons = failed_examples.get(target.key) or ([target.unbuildable] if target.unbuildable else [])
        statuses.setdefault(target.key, TargetStatus()).reasons.extend(reasons)
    jobs = [
        Job(
            t.path,
            t.name,
            level,
            t.inputs,
            t.kwargs,
            compare=_compares(request, level),
            candidates=t.candidates,
            synthesised=t.synthesised,
        )
        for t in pending
        if not t.unbuildable
        for level in LEVELS
    ]
    outcomes += _run(jobs, compiler, cache)

    for outcome in outcomes:
        key = outcome.compiled_key or (str(outcome.job.path.resolve()), outcome.job.name)
        status = statuses.setdefault(key, TargetStatus())
        owner = targets_by_key.get(key) or _compiled_elsewhere(outcome)
        found = [replace(p, entry=owner.entry) if owner is not None else p for p in outcome.problems]
        status.stubbed.update(outcome.stubbed)
        if owner is not None and not outcome.job.factory:  # built from the code
            status.kept = status.kept or owner.kept  # a build that fails on one is said to rest on it too
            if outcome.inputs is not None:
                if owner.synthesised or owner.built_at:
                    status.inputs.add(outcome.inputs)
                status.synthesised = status.synthesised or owner.synthesised
                status.built_at = status.built_at or owner.built_at
        if outcome.status in RAN:
            status.compiled_levels.add(outcome.job.level)
            stop = next((p for p in found if p.kind == ERROR), None)
            if stop is not None:
                status.stopped.setdefault(outcome.job.level, stop)
        else:
            status.reasons.append(outcome.reason or outcome.status)
        for problem in found:
            problems.append(problem)
            if owner is not None:
                problem_targets[id(problem)] = owner

    replicas = _replica_verdicts(request, reported, targets, factories, project)
    ran = capture is not None
    verdicts = [replicas.get(id(d)) or judge(d, finding_targets[id(d)], problems, statuses, ran) for d in reported]
    return VerifyReport(
        verdicts,
        compiler_only(problems, lint.diagnostics, settings, problem_targets),
        outcomes,
        capture,
        lint.unreadable,
        round(time.perf_counter() - started, 2),
        shard_record,
    )


def _replica_verdicts(
    request: VerifyRequest,
    reported: list[Diagnostic],
    targets: list[Target],
    factories: list[tuple[Path, str]],
    project: Project,
) -> dict[int, Verdict]:
    if not request.replicas:
        return not_run(reported)
    cache = None
    if request.cache is not None and any(d.symbol == REPLICA_FINDINGS for d in reported):
        # msrun runs the ranks here, on CPU, whatever compiled the entries
        cache = ResultCache(request.cache, mindspore_runtime("CPU"), project)
    return verify_replicas(reported, targets, factories, request.timeout, cache)


def _failed_examples(outcomes: list[Outcome], targets: list[Target]) -> dict[tuple[str, str], list[str]]:
    """Why each example factory that built nothing failed, by the targets it names: the reason
    of their findings, rather than what they would need without the factory."""
    found: dict[tuple[str, str], list[str]] = {}
    for outcome in outcomes:
        if outcome.compiled_key is not None or outcome.reason is None:
            continue
        reason = f"--example {outcome.job.label}: {outcome.reason}"
        for target in named_by_factory(outcome.job.path, outcome.job.name, targets):
            found.setdefault(target.key, [])
            if reason not in found[target.key]:
                found[target.key].append(reason)
    return found


def _stopped_on_a_finding(capture: RunCapture, diagnostics: list[Diagnostic]) -> list[Problem]:
    """The exception that ended --run's command, as evidence, when it stopped on a finding's line
    (a Cell whose building raises, as conv-padding-without-pad-mode predicts) and no compile
    recorded it already. Elsewhere (a data file missing) it is no compiler's problem."""
    ended = capture.ended
    if ended is None or any(p.message == ended.message for p in capture.problems):
        return []
    return [ended] if any(covers(d, location) for d in diagnostics for location in ended.locations) else []


def _run(jobs: list[Job], compiler: Compiler, cache: ResultCache | None) -> list[Outcome]:
    """The outcome of each job, in order: recorded in the cache, or compiled now and recorded as
    it comes back (from a Ray cluster, as each task ends: an interrupted run keeps those)."""
    recorded = [cache.lookup(job) if cache is not None else None for job in jobs]
    pending = [index for index, outcome in enumerate(recorded) if outcome is None]
    compiled: dict[int, Outcome] = {}
    with contextlib.closing(compiler.compile([jobs[index] for index in pending])) as outcomes:
        for position, outcome in outcomes:
            compiled[pending[position]] = outcome
            if cache is not None:
                cache.store(jobs[pending[position]], outcome)
    return [outcome or compiled[index] for index, outcome in enumerate(recorded)]


def _costs(
    durations: Path | None, factories: list[tuple[Path, str]], wanted: list[Target], project: Project
) -> tuple[dict[str, float], dict[str, str]]:
    """What each entry costs, by the durations recorded in ``durations`` (a result of an earlier
    run) and the entries' sizes, an entry that cannot be built nothing; and the entries that go
    with the example that built them in that run (:func:`mslint.verify.shards.split`)."""
    lines = _definition_lines(project)
    examples = {entry_name(*example): lines(*example) for example in factories}
    built = {_name(t): lines(t.path, t.name) for t in wanted if not t.unbuildable}
    earlier = read_json_object(durations, _RESULT, {"compiles": list}) if durations else {}
    costs = {_name(t): 0.0 for t in wanted if t.unbuildable}
    return {**costs, **entry_costs([examples, built], durations_of(earlier))}, built_by(earlier)


def _definition_lines(project: Project) -> Callable[[Path, str], int]:
    """The lines of the top-level class or function ``name`` of ``path`` (a checked module, or a
    file read once here: an example factory); 1 where there is none."""
    trees: dict[str, ast.Module | None] = {str(m.path.resolve()): m.tree for m in project.checked_modules}

    def lines(path: Path, name: str) -> int:
        resolved = str(path.resolve())
        if resolved not in trees:
            try:
                trees[resolved] = ast.parse(source_text(path))
            except (OSError, UnicodeDecodeError, SyntaxError, ValueError):
                trees[resolved] = None
        tree = trees[resolved]
        node = next((n for n in tree.body if getattr(n, "name", None) == name), None) if tree else None
        return 1 if node is None else (node.end_lineno or node.lineno) - node.lineno + 1

    return lines


def _compares(request: VerifyRequest, level: str) -> bool:
    """Graph mode is compared with PyNative once per entry, at the default syntax level (LAX):
    what STRICT rejects it reports as a compile error already."""
    return request.compare and level == "lax"


def _name(target: Target) -> str:
    return entry_name(target.path, target.name)


def _reported_in(shard: Shard, target: Target | None, compiled_here: set[tuple[str, str] | None]) -> bool:
    """A finding is reported by the shard that compiles its entry; the first shard reports
    those outside every entry (they need no compile)."""
    return target.key in compiled_here if target is not None else shard.index == 1


def _status_reasons(statuses: dict[tuple[str, str], TargetStatus], targets: list[Target], reason: str) -> None:
    for target in targets:
        statuses.setdefault(target.key, TargetStatus()).reasons.append(reason)


def _compiled_elsewhere(outcome: Outcome) -> Target | None:
    """A target for what an example compiled outside the checked files."""
    if outcome.compiled_key is None or outcome.compiled is None:
        return None
    path, name = outcome.compiled_key
    return Target(Path(path), name, name, int(outcome.compiled.get("line") or 1))
