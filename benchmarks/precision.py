"""How often mslint is right on real code: findings per rule against a tracked review.

    python benchmarks/precision.py [--corpus NAME=PATH ...] [--output docs/precision.md] [--before OLD.md]

Runs ``mslint check --no-cache`` (MindSpore 2.10 tables) on each corpus and matches every
finding with ``benchmarks/review.jsonl``: one JSON object per reviewed finding, with
``corpus``, ``path`` (relative to the corpus), ``line``, ``symbol``, ``verdict`` (TRUE or
FALSE), ``reason`` and ``reproduction`` (how the verdict was decided: the compiler's output on
a reproduction, or "obvious" with why). Precision counts reviewed findings only; every error
is meant to be reviewed, warnings on a sample. Reviewed findings that are no longer reported
are listed: a FALSE one is a fixed false alarm, a TRUE one a lost finding, and the run exits 1.

Corpora: mindcv, mindocr and mindyolo (released wheels), mindformers 2.1.0 (its wheel), and,
where given or found, mindspore-courses/applications (``../shared/corpora/applications``) and
mindspore-courses/External-Attention-MindSpore (a checkout, ``--corpus external-attention=PATH``).

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
from dataclasses import dataclass
from pathlib import Path

from corpora import released_package, zoo

REPO = Path(__file__).resolve().parent.parent
REVIEW = REPO / "benchmarks" / "review.jsonl"
CORPUS_SETTINGS = REPO / "benchmarks" / "settings"
SHARED_APPLICATIONS = REPO.parent / "shared" / "corpora" / "applications"
Key = tuple[str, str, int, str]
Row = tuple[str, str, str]
"""corpus, rule, severity: one row of the table."""


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
        key = (entry["corpus"], entry["path"], int(entry["line"]), entry["symbol"])
        review[key] = Verdict(entry["verdict"] == "TRUE", entry["reason"], entry["reproduction"])
    return review


def key_of(corpus: str, finding: dict[str, object]) -> Key:
    path = str(finding["path"]).removeprefix("./")
    return corpus, path, int(str(finding["line"])), str(finding["symbol"])


def load_before(path: Path) -> dict[Row, tuple[str, str]]:
    """Findings and precision per row of a page this script wrote earlier."""
    before = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("| ") and len(cells) >= 8 and cells[0] != "corpus":
            before[(cells[0], cells[1], cells[2])] = (cells[3], cells[7])
    return before


def render(
    results: dict[str, list[dict[str, object]]],
    review: dict[Key, Verdict],
    gone: list[Key],
    before: dict[Row, tuple[str, str]] | None = None,
) -> str:
    header = ["corpus", "rule", "severity", "findings", "reviewed", "true", "false", "precision"]
    if before is not None:
        header += ["findings before", "precision before"]
    lines = [
        "# Precision on real code",
        "",
        "Generated by `python benchmarks/precision.py` from `benchmarks/review.jsonl`. A finding",
        "counts once it is reviewed: TRUE when the compiler (or the cited fact) confirms it, FALSE",
        "when it does not. Every error is meant to be reviewed, warnings on a sample.",
        "",
        "A graph rule's finding is judged in the mode that the scripts running the code give it:",
        "GRAPH mode, as mslint assumes, where one of them selects GRAPH mode or compiles the code",
        "with `jit`, or where none of them selects a mode; PyNative mode where one selects PyNative",
        "and none GRAPH (a script that selects no mode runs in 2.10's default, PyNative), or where",
        "the code lies in a tree the project keeps for PyNative. Code that no script runs is judged",
        "by the scripts meant to run it where the project shows them (an import of it under another",
        "path, the design it ports), and in GRAPH mode where nothing does, like any latent failure.",
        "",
        "| " + " | ".join(header) + " |",
        "|---" * len(header) + "|",
    ]
    for corpus, found in results.items():
        counts: Counter[tuple[str, str, str]] = Counter()
        for finding in found:
            symbol, severity = str(finding["symbol"]), str(finding["severity"])
            verdict = review.get(key_of(corpus, finding))
            counts[(symbol, severity, "all")] += 1
            if verdict is not None:
                counts[(symbol, severity, "true" if verdict.true else "false")] += 1
        rows = {(s, v) for s, v, _ in counts} | {(s, v) for c, s, v in before or {} if c == corpus}
        for symbol, severity in sorted(rows):
            true, false = counts[(symbol, severity, "true")], counts[(symbol, severity, "false")]
            precision = f"{true / (true + false):.0%}" if true + false else "-"
            row = [corpus, symbol, severity, counts[(symbol, severity, "all")], true + false, true, false, precision]
            if before is not None:
                row += before.get((corpus, symbol, severity), ("0", "-"))
            lines.append("| " + " | ".join(str(cell) for cell in row) + " |")
    if gone:
        lines += ["", "Reviewed findings no longer reported:", ""]
        lines += [
            f"* {'TRUE (lost)' if review[k].true else 'FALSE (fixed)'}: {k[0]} `{k[1]}:{k[2]}` {k[3]}" for k in gone
        ]
    false_alarms = [(k, v) for k, v in sorted(review.items()) if not v.true and k not in gone]
    if false_alarms:
        lines += ["", "False findings still reported:", ""]
        lines += [f"* {k[0]} `{k[1]}:{k[2]}` {k[3]}: {v.reason}" for k, v in false_alarms]
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", action="append", default=[], metavar="NAME=PATH", help="add or replace a corpus")
    parser.add_argument("--review", type=Path, default=REVIEW)
    parser.add_argument("--output", type=Path, default=REPO / "docs" / "precision.md")
    parser.add_argument("--before", type=Path, help="an earlier page of this script, shown beside the new figures")
    args = parser.parse_args()
    corpora = default_corpora()
    for given in args.corpus:
        name, _, path = given.partition("=")
        if not path or not Path(path).is_dir():
            parser.error(f"--corpus takes NAME=PATH to a folder, not {given!r}")
        corpora[name] = Path(path).resolve()
    review = load_review(args.review)
    results = {name: findings(name, path) for name, path in corpora.items()}
    reported = {key_of(name, f) for name, found in results.items() for f in found}
    gone = sorted(k for k in review if k[0] in results and k not in reported)
    if args.before is not None and not args.before.is_file():
        parser.error(f"--before takes a page this script wrote, not {str(args.before)!r}")
    before = load_before(args.before) if args.before is not None else None
    args.output.write_text(render(results, review, gone, before), encoding="utf-8")
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
