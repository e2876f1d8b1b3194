"""How often mslint is right on real code: findings per rule against a tracked review.

    python benchmarks/precision.py [--corpus NAME=PATH ...] [--held-out-root DIR] [--output docs/precision.md]
                                   [--before OLD.md]

Runs ``mslint check --no-cache`` (MindSpore 2.10 tables) on each corpus and matches every
finding with ``benchmarks/review.jsonl``: one JSON object per reviewed finding, with
``corpus``, ``path`` (relative to the corpus), ``cell`` (in a notebook: the code cell, as mslint
numbers it), ``line``, ``symbol``, ``verdict`` (TRUE or FALSE), ``reason`` and
``reproduction`` (how the verdict was decided: the compiler's output on a reproduction, or
"obvious" with why). Precision counts reviewed findings only; every error
is meant to be reviewed, warnings on a sample. Reviewed findings that are no longer reported
are listed: a FALSE one is a fixed false alarm, a TRUE one a lost finding, and the run exits 1.

Corpora: mindcv, mindocr and mindyolo (released wheels), mindformers 2.1.0 (its wheel), and,
where given or found, mindspore-courses/applications (``../shared/corpora/applications``) and
mindspore-courses/External-Attention-MindSpore (a checkout, ``--corpus external-attention=PATH``).
These six are the tuning half: mslint's rules were adjusted on their findings.

The held-out half is code mslint was never tuned on, listed in ``benchmarks/held_out.json`` in
rounds: each round has its title, how its findings were sampled for review, and its corpora (the
repository, commit and subfolder of each). A later round holds corpora chosen and reviewed after
the earlier rounds' findings had been looked at. Each corpus lies in ``DIR/NAME``
(``--held-out-root``, by default ``../heldout`` beside the repository): the subfolder of that
commit, without the paths the list excludes. The page shows the tuning half and each round apart,
with the precision of each error rule and of the warnings overall in each.

``--before`` takes a page this script wrote earlier (``git show REV:docs/precision.md > old.md``)
and shows its findings and precision beside the new ones, rule by rule and corpus by corpus;
rules that no longer report anything keep their row.

Settings per corpus: where ``benchmarks/settings/NAME.toml`` exists, the run on corpus NAME
reads it (``mslint check --config``) instead of looking for a ``pyproject.toml`` around the
corpus. mindformers' settings name its PyNative-only trainer and models (``pynative``): the review
judges the code as the project runs it. Its patterns name folders and files (``"pynative"``),
which match wherever the corpus lies; paths relative to the settings folder would not.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from corpora import released_package, zoo

REPO = Path(__file__).resolve().parent.parent
REVIEW = REPO / "benchmarks" / "review.jsonl"
CORPUS_SETTINGS = REPO / "benchmarks" / "settings"
SHARED_APPLICATIONS = REPO.parent / "shared" / "corpora" / "applications"
HELD_OUT = REPO / "benchmarks" / "held_out.json"
HELD_OUT_ROOT = REPO.parent / "heldout"
Key = tuple[str, str, int, str]
Row = tuple[str, str, str]
"""corpus, rule, severity: one row of the table."""
Counts = Counter[tuple[tuple[str, str], str]]
"""(rule, severity) and all/true/false: the findings and verdicts of each row of a table."""
ALL_WARNINGS = ("all warnings", "warning")


@dataclass(frozen=True)
class Verdict:
    true: bool
    reason: str
    reproduction: str


def default_corpora() -> dict[str, Path]:
    corpora = {path.name: path for path in zoo()}
    corpora["mindformers"] = released_package("mindformers", "2.1.0")
    if SHARED_APPLICATIONS.is_dir():
        corpora["applications"] = SHARED_APPLICATIONS
    return corpora


@dataclass(frozen=True)
class HeldOutCorpus:
    name: str
    repo: str
    commit: str
    subfolder: str
    exclude: tuple[str, ...]


@dataclass(frozen=True)
class HeldOutList:
    """One round of held-out corpora."""

    title: str
    corpora: list[HeldOutCorpus]
    sampling: str
    """How the findings of the round's corpora were chosen for review."""


def load_held_out(path: Path) -> list[HeldOutList]:
    """The rounds of held-out corpora, in the order listed."""
    rounds = json.loads(path.read_text(encoding="utf-8"))["rounds"]
    return [
        HeldOutList(
            listed["title"],
            [
                HeldOutCorpus(c["name"], c["repo"], c["commit"], c.get("subfolder", ""), tuple(c.get("exclude", [])))
                for c in listed["corpora"]
            ],
            listed["sampling"],
        )
        for listed in rounds
    ]


def held_out_corpora(listed: HeldOutList, root: Path) -> dict[str, Path]:
    """Each held-out corpus's folder under ``root``; a missing one ends the run with what to check out."""
    corpora = {}
    for corpus in listed.corpora:
        folder = root / corpus.name
        if not folder.is_dir():
            sys.exit(f"held-out corpus {corpus.name} is not at {folder}: put {source(corpus)} there (--held-out-root)")
        corpora[corpus.name] = folder.resolve()
    return corpora


def source(corpus: HeldOutCorpus) -> str:
    """Where a held-out corpus comes from, in words."""
    where = f"`{corpus.subfolder}/` of " if corpus.subfolder else ""
    without = f" without {', '.join(_excluded(path) for path in corpus.exclude)}" if corpus.exclude else ""
    return f"{where}{corpus.repo} at {corpus.commit}{without}"


def _excluded(path: str) -> str:
    """An excluded path in words: a folder with its slash, a file (one with a suffix) as it is."""
    return f"`{path}`" if PurePosixPath(path).suffix else f"`{path}/`"


def describe(listed: HeldOutList) -> str:
    corpora = "\n".join(f"* {corpus.name}: {source(corpus)}" for corpus in listed.corpora)
    return f"{listed.sampling}\n\n{corpora}"


def findings(name: str, corpus: Path) -> list[dict[str, object]]:
    command = [sys.executable, "-m", "mslint", "check", ".", "--no-cache", "--format", "json"]
    command += ["--mindspore-version", "2.10", "--fail-on", "error"]
    settings = CORPUS_SETTINGS / f"{name}.toml"
    if settings.is_file():
        command += ["--config", str(settings)]
    done = subprocess.run(command, cwd=corpus, capture_output=True, text=True)
    if done.returncode not in (0, 1):
        sys.exit(f"mslint failed on {corpus} ({done.returncode}): {done.stderr.strip()}")
    found: list[dict[str, object]] = json.loads(done.stdout)
    return found


def load_review(path: Path) -> dict[Key, Verdict]:
    review = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        entry = json.loads(line)
        if entry["verdict"] not in ("TRUE", "FALSE"):
            sys.exit(f"{path}:{number}: verdict must be TRUE or FALSE")
        key = (entry["corpus"], located(entry["path"], entry.get("cell")), int(entry["line"]), entry["symbol"])
        review[key] = Verdict(entry["verdict"] == "TRUE", entry["reason"], entry["reproduction"])
    return review


def key_of(corpus: str, finding: dict[str, object]) -> Key:
    path = located(str(finding["path"]).removeprefix("./"), finding.get("cell"))
    return corpus, path, int(str(finding["line"])), str(finding["symbol"])


def located(path: str, cell: object) -> str:
    """The path, and in a notebook the cell: a line number is the cell's, and one notebook
    repeats a line (an import at the top of several cells) with a verdict of its own in each."""
    return path if cell is None else f"{path}[cell {cell}]"


def load_before(path: Path) -> dict[Row, tuple[str, str]]:
    """Findings and precision per row of a page this script wrote earlier."""
    before = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("| ") and len(cells) >= 8 and cells[0] != "corpus":
            before[(cells[0], cells[1], cells[2])] = (cells[3], cells[7])
    return before


def tally(
    corpus: str,
    found: list[dict[str, object]],
    review: dict[Key, Verdict],
    row_of: Callable[[dict[str, object]], tuple[str, str] | None],
) -> Counts:
    """Findings and verdicts per row (``row_of`` a finding; None leaves it out)."""
    counts: Counts = Counter()
    for finding in found:
        row = row_of(finding)
        if row is None:
            continue
        verdict = review.get(key_of(corpus, finding))
        counts[(row, "all")] += 1
        if verdict is not None:
            counts[(row, "true" if verdict.true else "false")] += 1
    return counts


def by_rule(finding: dict[str, object]) -> tuple[str, str]:
    return str(finding["symbol"]), str(finding["severity"])


def errors_by_rule_and_warnings(finding: dict[str, object]) -> tuple[str, str] | None:
    symbol, severity = by_rule(finding)
    if severity == "error":
        return symbol, severity
    return ALL_WARNINGS if severity == "warning" else None


def figures(counts: Counts, row: tuple[str, str]) -> list[object]:
    """findings, reviewed, true, false and precision of one row."""
    true, false = counts[(row, "true")], counts[(row, "false")]
    precision = f"{true / (true + false):.0%}" if true + false else "-"
    return [counts[(row, "all")], true + false, true, false, precision]


def summary(results: dict[str, list[dict[str, object]]], review: dict[Key, Verdict], names: list[str]) -> list[str]:
    """Precision of each error rule and of the warnings overall, over the corpora ``names``."""
    counts: Counts = Counter()
    for name in names:
        counts += tally(name, results[name], review, errors_by_rule_and_warnings)
    rows = [*sorted({row for row, _ in counts if row != ALL_WARNINGS}), ALL_WARNINGS]
    header = ["rule", "severity", "findings", "reviewed", "true", "false", "precision"]
    lines = ["| " + " | ".join(header) + " |", "|---" * len(header) + "|"]
    lines += ["| " + " | ".join(str(cell) for cell in [*row, *figures(counts, row)]) + " |" for row in rows]
    return lines


def corpus_table(
    results: dict[str, list[dict[str, object]]],
    review: dict[Key, Verdict],
    names: list[str],
    before: dict[Row, tuple[str, str]] | None,
) -> list[str]:
    header = ["corpus", "rule", "severity", "findings", "reviewed", "true", "false", "precision"]
    if before is not None:
        header += ["findings before", "precision before"]
    lines = ["| " + " | ".join(header) + " |", "|---" * len(header) + "|"]
    for corpus in names:
        counts = tally(corpus, results[corpus], review, by_rule)
        rows = {row for row, _ in counts} | {(s, v) for c, s, v in before or {} if c == corpus}
        for row in sorted(rows):
            cells = [corpus, *row, *figures(counts, row)]
            if before is not None:
                cells += before.get((corpus, *row), ("0", "-"))
            lines.append("| " + " | ".join(str(cell) for cell in cells) + " |")
    return lines


def verdict_lists(review: dict[Key, Verdict], gone: list[Key], names: list[str]) -> list[str]:
    """The reviewed findings of corpora ``names`` no longer reported, and the false ones still reported."""
    lines = []
    gone_here = [k for k in gone if k[0] in names]
    if gone_here:
        lines += ["", "Reviewed findings no longer reported:", ""]
        lines += [
            f"* {'TRUE (lost)' if review[k].true else 'FALSE (fixed)'}: {k[0]} `{k[1]}:{k[2]}` {k[3]}"
            for k in gone_here
        ]
    false_alarms = [(k, v) for k, v in sorted(review.items()) if k[0] in names and not v.true and k not in gone]
    if false_alarms:
        lines += ["", "False findings still reported:", ""]
        lines += [f"* {k[0]} `{k[1]}:{k[2]}` {k[3]}: {v.reason}" for k, v in false_alarms]
    return lines


def render(
    results: dict[str, list[dict[str, object]]],
    review: dict[Key, Verdict],
    gone: list[Key],
    halves: dict[str, tuple[str, list[str]]],
    before: dict[Row, tuple[str, str]] | None = None,
) -> str:
    """The page: for each half (title: what it is, its corpora), its summary, its table and its verdicts."""
    lines = [
        "# Precision on real code",
        "",
        "Generated by `python benchmarks/precision.py` from `benchmarks/review.jsonl`. A finding",
        "counts once it is reviewed: TRUE when the compiler (or the cited fact) confirms it, FALSE",
        "when it does not. Every error is meant to be reviewed, warnings on a sample.",
        "",
        "A graph rule's finding is judged in the mode that the scripts running the code give it:",
        "GRAPH mode, as mslint assumes, where one of them selects GRAPH mode or compiles the code",
        "with `jit`, or where no script of the project selects any mode (the code is then judged as",
        "the graph code it is written as: a failure there is latent, not absent); PyNative mode where",
        "one selects PyNative and none GRAPH (the scripts that select no mode then run in 2.10's",
        "default, PyNative, beside it), or where the code lies in a tree the project keeps for",
        "PyNative, or where the mode comes from a configuration that says PyNative. Code that no script runs is judged",
        "by the scripts meant to run it where the project shows them (an import of it under another",
        "path, the design it ports), and in GRAPH mode where nothing does, like any latent failure.",
        "",
        "The corpora come in two halves, shown apart: the tuning half, whose findings mslint's rules",
        "were adjusted on, and the held-out half, code reviewed only after the rules were set, in rounds:",
        "a later round's corpora were chosen and reviewed after an earlier round's findings were seen.",
    ]
    for title, (about, names) in halves.items():
        lines += ["", f"## {title}", "", about, ""]
        lines += summary(results, review, names)
        lines += ["", "By corpus and rule:", ""]
        lines += corpus_table(results, review, names, before)
        lines += verdict_lists(review, gone, names)
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", action="append", default=[], metavar="NAME=PATH", help="add or replace a corpus")
    parser.add_argument("--review", type=Path, default=REVIEW)
    parser.add_argument("--held-out", type=Path, default=HELD_OUT, help="the list of held-out corpora")
    parser.add_argument(
        "--held-out-root", type=Path, default=HELD_OUT_ROOT, help="the folder holding each held-out corpus as NAME"
    )
    parser.add_argument("--output", type=Path, default=REPO / "docs" / "precision.md")
    parser.add_argument("--before", type=Path, help="an earlier page of this script, shown beside the new figures")
    args = parser.parse_args()
    corpora = default_corpora()
    for given in args.corpus:
        name, _, path = given.partition("=")
        if not path or not Path(path).is_dir():
            parser.error(f"--corpus takes NAME=PATH to a folder, not {given!r}")
        corpora[name] = Path(path).resolve()
    held_out = load_held_out(args.held_out)
    tuning = list(corpora)
    for listed in held_out:
        corpora |= held_out_corpora(listed, args.held_out_root)
    review = load_review(args.review)
    results = {name: findings(name, path) for name, path in corpora.items()}
    reported = {key_of(name, f) for name, found in results.items() for f in found}
    gone = sorted(k for k in review if k[0] in results and k not in reported)
    if args.before is not None and not args.before.is_file():
        parser.error(f"--before takes a page this script wrote, not {str(args.before)!r}")
    before = load_before(args.before) if args.before is not None else None
    halves = {"Tuning half": ("The corpora mslint's rules were adjusted on.", tuning)}
    halves |= {listed.title: (describe(listed), [corpus.name for corpus in listed.corpora]) for listed in held_out}
    args.output.write_text(render(results, review, gone, halves, before), encoding="utf-8")
    for name, found in results.items():
        errors = [f for f in found if f["severity"] == "error"]
        unreviewed = sum(key_of(name, f) not in review for f in errors)
        print(f"{name}: {len(found)} findings, {len(errors)} errors ({unreviewed} not reviewed)")
    lost = [k for k in gone if review[k].true]
    for k in lost:
        print(f"lost a TRUE finding: {k}", file=sys.stderr)
    return 1 if lost else 0


if __name__ == "__main__":
    sys.exit(main())
