"""Differential testing of ``mslint check`` against the MindSpore compiler, on random programs.

    python scripts/difftest.py --seed 1 --programs 100 [--out FOLDER] [--json]

Each program is a small package composed of forms (:mod:`graph_syntax.compose`), compiled
through the verifier's machinery (:func:`mslint.verify.runner.run_jobs`, with the comparison
with PyNative); ``mslint check`` runs on the whole tree as on a user's project. A program that
STRICT stops on an error, that diverges from PyNative, or that could not be compared with
PyNative, is judged form by form: each of its forms is compiled again in a program of its own, at
the same position (an error hides the lines after it, both an error and a difference in the
outputs are often located off their culprit, and one form's counter or `raise` keeps the others
from being compared).
Each placed form (a *site*, owning the lines written for it) is judged:

* evidence: a compile error or crash, a fallback, a dynamic shape, a divergence from PyNative,
  parameters the Cell does not own, or a value frozen at compile time by a call that must run
  per call (:data:`PER_CALL`);
* a **miss**: evidence on a line of the form's own text where mslint reports no warning or
  error there nor on the form's hazard line, and no finding confirms a problem on the hazard
  line as verify would (its lines cover it, its rule predicts the problem); evidence only on
  the lines that lead to a form (a call of its helper, a block head) or on no line counts as a
  miss where mslint reports nothing in the whole program;
* a **false alarm**: a warning or error of mslint in a program without evidence in either level,
  that graph mode was compared with PyNative on;
* *hidden*: a site without evidence in a program whose LAX compile stopped (or that could not be
  built), or that could not be compared with PyNative: the compiler never reached its lines, or
  no divergence was looked for, so it is not judged.

Disagreements are grouped into classes (kind, form, position) and one program per class is
written to ``--out``. Classes matched by ``--known`` (benchmarks/difftest_known.json) are known
limits, each one form at one position with the program that shows it and its reason. Exit 1 where
any other class appears, or where a listed program of this run no longer shows its class. See
docs/difftest.md.
"""

from __future__ import annotations

import argparse
import ast
import functools
import json
import random
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from graph_syntax.catalog import catalog
from graph_syntax.compose import Package, Site, compose, random_program
from graph_syntax.difftest_forms import ARGUMENT_FORMS, DIFFTEST_FORMS, JOIN_AND_CONVERSION_FORMS
from graph_syntax.forms import SEED_FORMS, Form

from mslint.syntax_table import OK, syntax_table
from mslint.verify.compiler_output import COMPILE_TIME, DIVERGENCE, ERROR, Problem
from mslint.verify.divergence import COMPARED
from mslint.verify.runner import Job, Outcome, run_jobs
from mslint.verify.statuses import COMPILED, CRASHED, TIMED_OUT
from mslint.verify.verdicts import predicts

REPO = Path(__file__).resolve().parent.parent
KNOWN = REPO / "benchmarks" / "difftest_known.json"
MISS, FALSE_ALARM, AGREE, HIDDEN = "miss", "false-alarm", "agree", "hidden"
PER_CALL = re.compile(
    r"\b(random|time|datetime|uuid|secrets|threading|logging|logger)\.|\bnp\.random\.|\bos\.urandom\b"
)
"""Calls that must run at every call: a value read from a clock or a random generator, a thread
started, a log message written. The compiler running them once, while compiling (a compile-time problem), freezes the
value or drops the effect. Other compile-time problems (``math.sqrt(4.0)``, ``np.ones((2, 3))``)
are constant folding, which is what the compiler should do, and ``warnings.warn`` once is what
Python's default filter does too."""
LOST = (CRASHED, TIMED_OUT)
"""Compiles that did not end: the compiler failed, with no line to show for it."""
CHUNK = 100
"""Programs compiled, linted and judged at a time (a long run reports its figures after each)."""
Outcomes = tuple[Outcome, Outcome]
"""A program's STRICT and LAX outcomes."""


@dataclass
class Judgement:
    """What the compiler and mslint say about one site."""

    package: Package
    site: Site
    evidence: list[str] = field(default_factory=list)
    findings: list[str] = field(default_factory=list)
    verdict: str = ""
    """``miss``, ``false-alarm``, ``agree`` or ``hidden``."""

    @property
    def position_class(self) -> str:
        """The site's position reduced to entry, innermost container and block."""
        entry, _, rest = self.site.position.partition(":")
        chain, _, block = rest.partition("/")
        return f"{entry}:{chain.split('>')[-1]}{'/' + block if block else ''}"


@dataclass
class Run:
    programs: int
    compiles: int
    wall_s: float
    compile_s: float
    judgements: list[Judgement]
    not_compiled: list[str]
    """Programs with a compile that did not finish (crashed, timed out, not verifiable), with why."""
    unattributed: list[str]
    """Evidence on lines no site owns (the program's own scaffold)."""
    solos: int
    """Programs of one site, compiled for the sites of programs that stopped on an error."""


def forms() -> list[Form]:
    """The forms programs are composed of: the table's catalog, the seed forms and the tester's
    own (among them forms given an argument, joins and conversions), one per id, less those this
    Python cannot parse (``match`` before 3.10)."""
    tester = (*DIFFTEST_FORMS, *ARGUMENT_FORMS, *JOIN_AND_CONVERSION_FORMS)
    every = {form.id: form for form in (*catalog(), *SEED_FORMS, *tester)}
    return [form for form in every.values() if _parses(form)]


def _parses(form: Form) -> bool:
    try:
        ast.parse("\n".join([form.module, "def _f(self, x):", textwrap.indent(form.body, "    ")]))
    except SyntaxError:
        return False
    return True


def generate(seed: int, count: int) -> list[Package]:
    rng = random.Random(seed)
    pool = forms()
    return [random_program(f"p{index:05d}", pool, rng) for index in range(count)]


def write_tree(tree: Path, packages: Iterable[Package]) -> None:
    """The programs as one project: a folder per package, and a configuration of its own so that
    no pyproject.toml around the tree changes what mslint reports."""
    tree.mkdir(parents=True, exist_ok=True)
    (tree / "pyproject.toml").write_text("[tool.mslint]\n")
    for package in packages:
        folder = tree / package.name
        folder.mkdir()
        for name, text in package.files.items():
            (folder / name).write_text(text)


def compile_all(
    tree: Path, packages: list[Package], workers: int, timeout: float, flagged: Iterable[str] = ()
) -> tuple[list[Outcomes], int]:
    """Each package's (STRICT, LAX) outcomes and the number of compiles. A program STRICT stops is
    judged form by form (:func:`run_chunk`), so LAX is compiled only where STRICT went through,
    and there only where LAX may show more: where STRICT showed evidence (LAX shows each
    fallback, where STRICT rejects the first), where mslint reports something (``flagged``: the
    names of those packages) that STRICT did not show, or where a form is one the syntax table
    found LAX alone to interpret or to run differently (:func:`lax_only_forms`). Elsewhere
    STRICT's outcome stands for both."""
    flagged = set(flagged)
    lax_only = lax_only_forms()
    strict = run_jobs([_job(tree, p, "strict") for p in packages], timeout, workers, None)
    again = [
        i
        for i, o in enumerate(strict)
        if not _stopped(o)
        and (
            any(map(is_hazard, o.problems))
            or packages[i].name in flagged
            or any(s.placement.form.id in lax_only for s in packages[i].sites)
        )
    ]
    lax = dict(zip(again, run_jobs([_job(tree, packages[i], "lax") for i in again], timeout, workers, None)))
    return [(outcome, lax.get(i, outcome)) for i, outcome in enumerate(strict)], len(strict) + len(lax)


Progress = Callable[["Run"], None]


@functools.cache
def lax_only_forms() -> frozenset[str]:
    """The rows of the syntax table that STRICT compiles cleanly at some position where LAX
    interprets them or runs them differently from PyNative (an f-string of a tensor, a lambda in
    a loop, a write to a module global)."""
    table = syntax_table()
    return frozenset(
        row
        for row in table.ids()
        for position in table.positions(row)
        if table.outcome(row, position, "strict").kind == OK and table.outcome(row, position, "lax").kind != OK
    )


def _job(tree: Path, package: Package, level: str) -> Job:
    return Job(tree / package.name / "net.py", "make", level, factory=True, compare=True)


def lint(tree: Path, packages: list[Package]) -> list[dict[str, Any]]:
    """``mslint check`` of the folders of ``packages`` in ``tree`` (each program is a project of its own)."""
    if not packages:
        return []
    command = [sys.executable, "-m", "mslint", "check", *(p.name for p in packages), "--no-cache", "--format", "json"]
    done = subprocess.run(command, cwd=tree, capture_output=True, text=True)
    if done.returncode not in (0, 1):
        raise SystemExit(f"mslint check exited with {done.returncode}: {done.stderr.strip()[-2000:]}")
    findings: list[dict[str, Any]] = json.loads(done.stdout)
    return findings


def is_hazard(problem: Problem, sites: Iterable[Site] = ()) -> bool:
    """Whether ``problem`` is evidence: anything but a compile-time problem, or one on a per-call
    call's line, or on a line of a site whose hazard line is a per-call call (``worker.start()``
    of ``worker = threading.Thread(...)``)."""
    if problem.kind != COMPILE_TIME:
        return True
    for path, line in problem.locations:
        file = Path(path)
        if PER_CALL.search(_source_line(file, line)):
            return True
        if any(site.is_body(file.name, line) and _per_call_hazard(site, file.parent) for site in sites):
            return True
    return False


def _per_call_hazard(site: Site, folder: Path) -> bool:
    name, line = site.hazard
    return bool(PER_CALL.search(_source_line(folder / name, line)))


def _source_line(path: Path, line: int) -> str:
    lines = path.read_text().splitlines() if path.is_file() else []
    return lines[line - 1] if 0 < line <= len(lines) else ""


def judge(
    tree: Path, package: Package, strict: Outcome, lax: Outcome, findings: list[dict[str, Any]]
) -> tuple[list[Judgement], list[str], list[str]]:
    """The judgements of ``package``'s sites (see the module's documentation), the compiles that
    did not finish, and the evidence no site owns."""
    folder = (tree / package.name).resolve()
    flagged = {
        (Path(f["path"]).name, int(f["line"])): f"{f['symbol']} ({f['severity']})"
        for f in findings
        if f["severity"] in ("warning", "error")
    }
    anything_flagged = any(site.owns(*key) for site in package.sites for key in flagged)
    spans = [
        (Path(f["path"]).name, int(f["line"]), int(f.get("end_line") or f["line"]), str(f["symbol"]))
        for f in findings
        if f["severity"] in ("warning", "error")
    ]
    answered: set[int] = set()
    evidence: dict[int, list[str]] = {site.index: [] for site in package.sites}
    missed: set[int] = set()
    unattributed: list[str] = []
    problems = [p for outcome in (strict, lax) for p in outcome.problems if is_hazard(p, package.sites)]
    problems += [Problem(ERROR, f"{o.status}: {o.reason}", (), o.job.level) for o in (strict, lax) if o.status in LOST]
    for problem in problems:
        located = [(Path(path).name, line) for path, line in problem.locations if Path(path).resolve().parent == folder]
        owned = [(site, file, line) for file, line in located for site in package.sites if site.owns(file, line)]
        if not owned and len(package.sites) == 1:  # a program of one form: whatever it shows is the form's
            owned = [(package.sites[0], *package.sites[0].hazard)]
        for site, file, line in owned:
            evidence[site.index].append(f"{problem.level} {problem.kind} at {file}:{line}: {problem.message[:160]}")
        answered.update(s.index for s in package.sites if s.hazard in located and _confirms(spans, problem, s.hazard))
        in_body = [(site, file, line) for site, file, line in owned if site.is_body(file, line)]
        if in_body:
            missed.update(s.index for s, f, n in in_body if (f, n) not in flagged and s.hazard not in flagged)
        elif not anything_flagged:  # only the way to a form, or no line at all: the program is judged
            if owned:
                missed.add(owned[0][0].index)
            else:
                unattributed.append(f"{package.name}: {problem.level} {problem.kind}: {problem.message[:120]}")
    missed -= answered
    stopped = _stopped(lax)
    compared = _compared(strict) and _compared(lax)
    clean = strict.status == COMPILED and lax.status == COMPILED and not problems and compared
    judgements = []
    for site in package.sites:
        said = [f"{file}:{line} {what}" for (file, line), what in sorted(flagged.items()) if site.owns(file, line)]
        judgement = Judgement(package, site, sorted(set(evidence[site.index])), said)
        if site.index in missed:
            judgement.verdict = MISS
        elif clean and said:
            judgement.verdict = FALSE_ALARM
        elif (stopped or not compared) and not evidence[site.index]:
            judgement.verdict = HIDDEN
        else:
            judgement.verdict = AGREE
        judgements.append(judgement)
    if clean:
        unowned = sorted(key for key in flagged if not any(site.owns(*key) for site in package.sites))
        unattributed += [f"{package.name}: mslint {flagged[key]} at {key[0]}:{key[1]}" for key in unowned]
    not_compiled = [
        f"{package.name} {o.job.level}: {o.status} ({o.reason})" for o in (strict, lax) if o.status != COMPILED
    ]
    return judgements, not_compiled, unattributed


def _confirms(spans: list[tuple[str, int, int, str]], problem: Problem, place: tuple[str, int]) -> bool:
    """Whether a finding whose lines cover ``place`` (a site's hazard line) predicts ``problem``, as
    verify confirms a finding (:func:`mslint.verify.verdicts.predicts`): a finding that starts on
    another line answers for the site, as one on its hazard line does (branch-shape-mismatch stands
    on `z = None`, where LAX interprets, and spans the `if`, where STRICT fails to join)."""
    file, line = place
    return any(
        name == file and first <= line <= last and predicts(symbol, problem) for name, first, last, symbol in spans
    )


def run(
    seed: int, count: int, workers: int, timeout: float, keep: Path | None = None, progress: Progress | None = None
) -> Run:
    """Compile and lint ``count`` programs, :data:`CHUNK` at a time (``progress`` is told the run
    so far after each chunk); copy the programs to ``keep`` if given."""
    packages = generate(seed, count)
    started = time.perf_counter()
    result = Run(0, 0, 0.0, 0.0, [], [], [], 0)
    for start in range(0, len(packages), CHUNK):
        with tempfile.TemporaryDirectory(prefix="mslint-difftest-") as scratch:
            part = run_chunk(Path(scratch), packages[start : start + CHUNK], workers, timeout)
            if keep is not None:
                shutil.copytree(scratch, keep, dirs_exist_ok=True)
        result = Run(
            result.programs + part.programs,
            result.compiles + part.compiles,
            time.perf_counter() - started,
            result.compile_s + part.compile_s,
            result.judgements + part.judgements,
            result.not_compiled + part.not_compiled,
            result.unattributed + part.unattributed,
            result.solos + part.solos,
        )
        if progress is not None:
            progress(result)
    return result


def run_chunk(tree: Path, packages: list[Package], workers: int, timeout: float) -> Run:
    """Compile and lint ``packages`` in ``tree``. The sites of a program whose compile stops on an
    error (whose location may not be the culprit's, and which hides the lines after it) are judged
    on programs of their own, each the site alone at the same position: there, whatever the
    compiler shows is that form's."""
    started = time.perf_counter()
    write_tree(tree, packages)
    by_package = _by_package(lint(tree, packages))
    outcomes, compiles = compile_all(tree, packages, workers, timeout, by_package)
    stopped = [p for p, pair in zip(packages, outcomes) if any(map(_judged_alone, pair))]
    solos = [solo(p, site) for p in stopped for site in p.sites]
    write_tree(tree, solos)
    by_package.update(_by_package(lint(tree, solos)))
    solo_outcomes, solo_compiles = compile_all(tree, solos, workers, timeout, by_package)
    compile_s = time.perf_counter() - started
    judged = [p for p in packages if p not in stopped] + solos
    pairs = dict(zip([p.name for p in packages + solos], outcomes + solo_outcomes))
    runs = [judge(tree, p, *pairs[p.name], by_package.get(p.name, [])) for p in judged]
    interplay = [_interplay(p, pairs[p.name], [pairs[f"{p.name}_{s.index}"] for s in p.sites]) for p in stopped]
    return Run(
        len(packages),
        compiles + solo_compiles,
        time.perf_counter() - started,
        compile_s,
        [j for judgements, _, _ in runs for j in judgements],
        [n for _, lost, _ in runs for n in lost],
        [u for _, _, unowned in runs for u in unowned] + [note for note in interplay if note],
        len(solos),
    )


def _by_package(findings: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """mslint's findings by the program (the folder of the tree) they are in."""
    found: dict[str, list[dict[str, Any]]] = {}
    for finding in findings:
        found.setdefault(Path(finding["path"]).parts[0], []).append(finding)
    return found


def _judged_alone(outcome: Outcome) -> bool:
    """Whether the forms of the program compiled are judged each on its own: where the compile
    stopped, where graph mode and PyNative differ (a difference in the outputs is located on
    one line, which need not be the form that made it), or where they could not be compared (one
    form's counter or `raise` spoils the comparison of the others)."""
    return _stopped(outcome) or not _compared(outcome) or any(p.kind == DIVERGENCE for p in outcome.problems)


def _compared(outcome: Outcome) -> bool:
    """Whether a compile that went through was compared with PyNative: where the comparison was not
    made (two PyNative runs disagree, the program raises when run), no divergence is not known."""
    return _stopped(outcome) or (outcome.comparison or {}).get("status") == COMPARED


def _stopped(outcome: Outcome) -> bool:
    """Whether the compile ended on an error (or not at all): the lines after it were never compiled."""
    return outcome.status != COMPILED or any(p.kind == ERROR for p in outcome.problems)


def _interplay(package: Package, outcomes: Outcomes, solos: list[Outcomes]) -> str:
    """A note where ``package`` stops or diverges, and none of its forms does alone."""
    if any(_judged_alone(o) for pair in solos for o in pair):
        return ""
    what = [f"{o.status}: {o.reason}" for o in outcomes if o.status != COMPILED]
    what += [p.message for o in outcomes for p in o.problems if p.kind in (ERROR, DIVERGENCE)]
    return f"{package.name}: shows what no form shows alone: {what[0][:160] if what else ''}"


def solo(package: Package, site: Site) -> Package:
    """The program of ``site`` alone, at its position in ``package``."""
    return compose(f"{package.name}_{site.index}", package.entry, [site.placement])


@dataclass
class Known:
    """A disagreement class known and explained: exactly one form at exactly one position (a
    :attr:`Judgement.position_class`), the program of a run that shows it, and why it stands."""

    kind: str
    form: str
    position: str
    seed: int
    program: str
    """The program of the run of ``seed`` that shows the class (``p00042``)."""
    reason: str
    """A fact about MindSpore, or, after ``open defect:``, a defect of mslint the next change must fix."""

    def covers(self, kind: str, form: str, position: str) -> bool:
        return (self.kind, self.form, self.position) == (kind, form, position)

    def shown_by(self, group: dict[str, Any]) -> bool:
        """Whether ``group``, a class of a run, is this entry's, with its program among its members."""
        programs = {j.package.name.split("_")[0] for j in group["judgements"]}
        return self.covers(group["kind"], group["form"], group["position"]) and self.program in programs


KNOWN_FIELDS = "kind, form, position, reproduction (seed, program), reason"
_GLOB = re.compile(r"[*?[\]]")


def load_known(path: Path) -> list[Known]:
    if not path.is_file():
        return []
    try:
        entries = json.loads(path.read_text())
        known = [
            Known(
                e["kind"],
                e["form"],
                e["position"],
                int(e["reproduction"]["seed"]),
                str(e["reproduction"]["program"]),
                e["reason"],
            )
            for e in entries
        ]
    except (ValueError, KeyError, TypeError) as error:
        raise SystemExit(f"{path}: not a list of known limits ({KNOWN_FIELDS}): {error}") from None
    for entry in known:
        if _GLOB.search(entry.form) or _GLOB.search(entry.position):
            raise SystemExit(f"{path}: {entry.form} at {entry.position}: a known limit names one form at one position")
    return known


def unmatched(known: list[Known], found: list[dict[str, Any]], seed: int, programs: int) -> list[str]:
    """The entries whose program this run compiled that no class of the run matches: fixed, or moved."""
    ran = {f"p{index:05d}" for index in range(programs)}
    return [
        f"{k.kind} {k.form} at {k.position} (seed {k.seed}, {k.program})"
        for k in known
        if k.seed == seed and k.program in ran and not any(k.shown_by(group) for group in found)
    ]


def classes(judgements: list[Judgement], known: list[Known]) -> list[dict[str, Any]]:
    """Disagreements grouped by (kind, form, position), most frequent first."""
    grouped: dict[tuple[str, str, str], list[Judgement]] = {}
    for j in judgements:
        if j.verdict in (MISS, FALSE_ALARM):
            grouped.setdefault((j.verdict, j.site.form.id, j.position_class), []).append(j)
    found = []
    for (kind, form, position), members in sorted(grouped.items(), key=lambda item: (-len(item[1]), item[0])):
        reason = next((k.reason for k in known if k.covers(kind, form, position)), None)
        example = members[0]
        found.append(
            {
                "kind": kind,
                "form": form,
                "position": position,
                "count": len(members),
                "known": reason,
                "example": example.package.name,
                "evidence": example.evidence,
                "mslint": example.findings,
                "judgements": members,
            }
        )
    return found


def summary(result: Run, found: list[dict[str, Any]]) -> dict[str, Any]:
    judged = [j for j in result.judgements if j.verdict != HIDDEN]
    verdicts = [j.verdict for j in judged]
    disagreements = verdicts.count(MISS) + verdicts.count(FALSE_ALARM)
    return {
        "programs": result.programs,
        "compiles": result.compiles,
        "wall_s": round(result.wall_s, 1),
        "compile_s": round(result.compile_s, 1),
        "sites": len(result.judgements),
        "judged": len(judged),
        "hidden": len(result.judgements) - len(judged),
        "solo_programs": result.solos,
        "with_evidence": sum(1 for j in judged if j.evidence),
        "misses": verdicts.count(MISS),
        "false_alarms": verdicts.count(FALSE_ALARM),
        "disagreement_rate": round(disagreements / len(judged), 4) if judged else 0.0,
        "unknown_classes": sum(1 for c in found if c["known"] is None),
        "classes": [{k: v for k, v in c.items() if k != "judgements"} for c in found],
        "not_compiled": result.not_compiled,
        "unattributed": result.unattributed,
        "forms": _tally(judged),
    }


def _tally(judged: list[Judgement]) -> dict[str, dict[str, int]]:
    """Per form: sites where both flag it (``caught``), both pass it (``clean``), and disagreements."""
    tally: dict[str, dict[str, int]] = {}
    for j in judged:
        outcome = j.verdict if j.verdict != AGREE else "caught" if j.evidence else "clean"
        counts = tally.setdefault(j.site.form.id, {"caught": 0, "clean": 0, MISS: 0, FALSE_ALARM: 0})
        counts[outcome] += 1
    return dict(sorted(tally.items()))


def write_reproductions(out: Path, tree: Path, found: list[dict[str, Any]]) -> None:
    """One program per class, with what the compiler and mslint said about it."""
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    for number, group in enumerate(found, start=1):
        slug = re.sub(r"[^\w.-]+", "_", f"{number:03d}-{group['kind']}-{group['form']}-{group['position']}")
        folder = out / slug
        shutil.copytree(tree / group["example"], folder / group["example"])
        (folder / "pyproject.toml").write_text("[tool.mslint]\n")
        case = {k: v for k, v in group.items() if k != "judgements"}
        case["hazard"] = "{}:{}".format(*group["judgements"][0].site.hazard)
        (folder / "case.json").write_text(json.dumps(case, indent=2) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--programs", type=int, default=100)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per compile")
    parser.add_argument("--known", type=Path, default=KNOWN, help="known limits (JSON)")
    parser.add_argument("--out", type=Path, help="write one reproduction program per class here")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--progress", type=Path, help="rewrite the JSON report of the run so far here after each chunk")
    args = parser.parse_args(argv)
    if args.programs < 1 or args.workers < 1:
        parser.error("--programs and --workers must be at least 1")
    known = load_known(args.known)
    with tempfile.TemporaryDirectory(prefix="mslint-difftest-keep-") as kept:

        def report_so_far(so_far: Run) -> None:
            if args.progress is not None:
                args.progress.write_text(json.dumps(summary(so_far, classes(so_far.judgements, known)), indent=2))
            print(f"{so_far.programs}/{args.programs} programs done", file=sys.stderr, flush=True)

        keep = Path(kept) if args.out else None
        result = run(args.seed, args.programs, args.workers, args.timeout, keep, report_so_far)
        found = classes(result.judgements, known)
        if args.out:
            write_reproductions(args.out, Path(kept), found)
    report = summary(result, found)
    report["unmatched_known"] = unmatched(known, found, args.seed, args.programs)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print_report(report)
    return 1 if report["unknown_classes"] or report["unmatched_known"] else 0


def print_report(report: dict[str, Any]) -> None:
    print(
        f"{report['programs']} programs, {report['compiles']} compiles in {report['wall_s']} s "
        f"(compiling {report['compile_s']} s; {report['solo_programs']} of them programs of one form); "
        f"{report['sites']} sites, {report['judged']} judged "
        f"({report['with_evidence']} with compiler evidence), {report['hidden']} hidden"
    )
    print(
        f"misses {report['misses']}, false alarms {report['false_alarms']}: "
        f"disagreement rate {100 * report['disagreement_rate']:.2f} %"
    )
    for group in report["classes"]:
        status = f"known: {group['known']}" if group["known"] else "NEW"
        print(f"  {group['count']:4d}  {group['kind']:<11} {group['form']:<36} {group['position']:<24} {status}")
    for line in report["not_compiled"] + report["unattributed"]:
        print(f"  note: {line}")
    for line in report["unmatched_known"]:
        print(f"  known limit not shown by its program: {line}")


if __name__ == "__main__":
    sys.exit(main())
