"""Write mslint/data/messages-<version>.json: the rules that predict each compiler message measured
on the installed MindSpore (read by :mod:`mslint.compiler_messages` and ``mslint explain``).

Two sources, both the compiler's own words:

* the bad examples in ``rules/``: ``mslint verify`` compiles each of their entries in STRICT and
  in LAX, built by the factories the suite builds them with (``tests/compiler.py``, whose compiles
  the result cache keeps: a table checked after the suite compiles nothing again); every problem
  the compiler shows on the line of a finding (its first: a location of the compiler's trace is
  that line) maps its message (an error, a runtime check) or its kind (a fallback, a dynamic
  shape, ...) to the finding's rule. ``mslint verify`` then confirms a finding only by a problem
  on its lines that this table maps to its rule: a problem that only a neighbouring line of a
  finding's span showed (a statement over seven lines) is not taken for the rule's;
* the syntax table (``mslint/data/syntax-<version>.json``): each error message a form produced
  maps to the rules ``mslint check`` reports on the form's hazard line, rendered at the position
  and checked at the level that produced it; a message no rule reports there is kept with no rule.

Run it in an environment with the release to describe: ``python scripts/generate_message_table.py``;
``--check`` only compares with the shipped table.
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
import tempfile
import time
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

from graph_syntax.catalog import catalog
from graph_syntax.forms import Form, render
from mindspore_table import OUTPUT, installed_mindspore, write_or_check

from mslint.compiler_messages import normalise
from mslint.diagnostics import Diagnostic
from mslint.engine import check_files
from mslint.settings import Settings
from mslint.syntax_table import ERROR, syntax_table
from mslint.verify.cache import default_folder
from mslint.verify.capture_modes import bytecode_refusal
from mslint.verify.command import VerifyRequest, verify
from mslint.verify.compiler_output import RUNTIME, Problem
from mslint.verify.verdicts import located

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
from tests.compiler import example_factories  # noqa: E402  (the suite's factories, and so its cached compiles)
from tests.example_record import ExampleRecord  # noqa: E402
from tests.examples import example_target, uses_bytecode_capture  # noqa: E402

WORKERS = 2
TIMEOUT_S = 120.0
SOURCES_KEPT = 3
"""Where a message was measured in the syntax table, for a reader: the first few places are enough.
Every example that gave it is kept: ``--check`` reads what the examples unchanged since their
record gave from the table (:func:`recorded_unchanged`), by these places."""

MESSAGE_KINDS = (ERROR, RUNTIME)
"""Evidence known by its message; the other kinds (fallback, dynamic shape, ...) say no more than their kind."""

Mapping = dict[str, dict[str, set[str]]]
"""Normalised message or kind -> {"rules": symbols, "sources": where it was measured}."""


def example_messages(examples: list[Path]) -> tuple[Mapping, Mapping]:
    """(messages, kinds) from the problems on the lines of the bad examples' findings, each
    example checked for its rule's target (:func:`tests.examples.example_target`)."""
    if not examples:  # a run of none would verify the working folder
        return {}, {}
    factories = {path: [_factory(argument) for argument in example_factories(path)] for path in examples}
    every = [factory for path in examples for factory in factories[path]]
    # every compile in one run on every core, into the cache (no ranks: they would build every example's Cells)
    verify(replace(_request(examples, every), replicas=False), Settings())
    messages: Mapping = {}
    kinds: Mapping = {}
    for path in examples:
        # each example alone, as the suite verifies it: the ranks of a replica run import one example's
        # module (every example's is `bad`), and its compiles are read from the cache
        report = verify(_request([path], factories[path]), Settings(target=example_target(path)))
        problems = [problem for outcome in report.outcomes for problem in outcome.problems]
        for verdict in report.verdicts:
            where = f"{Path(verdict.diagnostic.path).resolve().relative_to(REPO)}:{verdict.diagnostic.line}"
            # a replica's divergence is judged apart from the compiles (mslint.verify.replicas): its own evidence
            shown = problems + [p for p in verdict.evidence if p not in problems]
            for problem in on_finding_line(verdict.diagnostic, shown):
                if problem.kind in MESSAGE_KINDS:
                    _add(messages, normalise(problem.message), [verdict.diagnostic.symbol], where)
                else:
                    _add(kinds, problem.kind, [verdict.diagnostic.symbol], where)
    return messages, kinds


def _factory(argument: str) -> tuple[Path, str]:
    """``FILE:NAME``, an --example argument, as a request names a factory."""
    path, _, name = argument.rpartition(":")
    return Path(path), name


def _request(paths: list[Path], factories: list[tuple[Path, str]]) -> VerifyRequest:
    return VerifyRequest(paths, factories, timeout=TIMEOUT_S, jobs=WORKERS, cache=default_folder(Settings()))


def on_finding_line(diagnostic: Diagnostic, problems: list[Problem]) -> list[Problem]:
    """The problems of the finding's lines whose trace names the line the finding starts on."""
    line = (str(Path(diagnostic.path).resolve()), diagnostic.line)
    return [p for p in located(diagnostic, problems) if line in p.locations]


def syntax_table_messages(release: str | None = None) -> Mapping:
    """The error messages of the syntax table, each with the rules reported on its form's hazard line."""
    table = syntax_table(release)
    forms = {form.id: form for form in catalog()}
    messages: Mapping = {}
    with tempfile.TemporaryDirectory(prefix="mslint-messages-") as scratch:
        for row in table.ids():
            if row not in forms:
                continue
            for position in table.positions(row):
                for level in ("strict", "lax"):
                    outcome = table.outcome(row, position, level)
                    if outcome.kind != ERROR:
                        continue
                    symbols = hazard_line_rules(forms[row], position, level, Path(scratch))
                    if symbols is not None:
                        _add(messages, normalise(outcome.message), symbols, f"syntax:{row}@{position}/{level}")
    return messages


def hazard_line_rules(form: Form, position: str, level: str, scratch: Path) -> list[str] | None:
    """The rules ``mslint check`` reports on the hazard line of ``form`` rendered at ``position``;
    None where this Python cannot parse the form (``match`` before 3.10), whose line mslint
    then reports as a syntax error."""
    program = render(form, position)
    try:
        ast.parse(program.source)
    except SyntaxError:
        return None
    path = scratch / "program.py"
    path.write_text(program.source)
    report = check_files([path], Settings(syntax_level=level))
    return [d.symbol for d in report.diagnostics if d.line <= program.hazard_line <= d.end_line]


def _add(mapping: Mapping, key: str, symbols: Iterable[str], source: str) -> None:
    if not any(c.isalpha() for c in key):  # a first line of dashes: the message was on the next lines
        return
    entry = mapping.setdefault(key, {"rules": set(), "sources": set()})
    entry["rules"].update(symbols)
    entry["sources"].add(source)


def merge(*mappings: Mapping) -> Mapping:
    merged: Mapping = {}
    for mapping in mappings:
        for key, entry in mapping.items():
            for source in entry["sources"]:
                _add(merged, key, entry["rules"], source)
    return merged


def measured_in(entries: dict[str, dict[str, list[str]]], examples: list[Path], inside: bool = True) -> Mapping:
    """The entries of a shipped table with their sources in ``examples`` (``inside``), or elsewhere."""
    names = {str(p.relative_to(REPO)) for p in examples}
    found: Mapping = {}
    for key, entry in entries.items():
        for source in entry["sources"]:
            if (source.rpartition(":")[0] in names) == inside:
                _add(found, key, entry["rules"], source)
    return found


def kept_sources(sources: set[str]) -> list[str]:
    examples = sorted(source for source in sources if source.startswith("rules/"))
    return examples + sorted(source for source in sources if not source.startswith("rules/"))[:SOURCES_KEPT]


def render_table(version: str, messages: Mapping, kinds: Mapping) -> str:
    """Compact, deterministic JSON, an entry per line (a release's change is a readable diff)."""

    def lines(mapping: Mapping) -> str:
        return ",\n".join(
            f"{json.dumps(key)}:"
            + json.dumps(
                {"rules": sorted(entry["rules"]), "sources": kept_sources(entry["sources"])},
                separators=(",", ":"),
            )
            for key, entry in sorted(mapping.items())
        )

    head = f'{{"mindspore":{json.dumps(version)},\n'
    return head + f'"kinds":{{\n{lines(kinds)}\n}},\n"messages":{{\n{lines(messages)}\n}}}}\n'


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="compare with the shipped table, write nothing")
    parser.add_argument(
        "--only",
        action="append",
        default=[],
        metavar="RULE",
        help="re-measure the bad examples of this rule only; every other entry is kept as shipped",
    )
    args = parser.parse_args(argv)
    version = installed_mindspore("generate_message_table.py")
    if version is None:
        return 2
    started = time.perf_counter()
    examples = sorted((REPO / "rules").glob("*/bad*.py"))
    if args.only:
        return _remeasure(version, [p for p in examples if p.parent.name in args.only], started)
    refusal = bytecode_refusal()
    unmeasurable = [p for p in examples if refusal and uses_bytecode_capture(p)]
    if unmeasurable:  # Python 3.12+: what those examples gave is the shipped table's, as measured on 3.11
        kept = ", ".join(str(p.relative_to(REPO)) for p in unmeasurable)
        print(f"{refusal}: the messages of {kept} are kept as shipped", file=sys.stderr)
    recorded = recorded_unchanged(examples) if args.check else []
    if recorded:
        print(f"the messages of {len(recorded)} examples unchanged since their record are as shipped", file=sys.stderr)
    as_shipped = unmeasurable + recorded
    from_examples, kinds = example_messages([p for p in examples if p not in as_shipped])
    if as_shipped:
        shipped = json.loads((OUTPUT / f"messages-{version}.json").read_text())
        from_examples = merge(from_examples, measured_in(shipped["messages"], as_shipped))
        kinds = merge(kinds, measured_in(shipped["kinds"], as_shipped))
    messages = merge(from_examples, syntax_table_messages(version))
    mapped = [key for key, entry in messages.items() if entry["rules"]]
    rules = {rule for entry in [*messages.values(), *kinds.values()] for rule in entry["rules"]}
    summary = (
        f"{len(messages)} messages ({len(mapped)} mapped to a rule), {len(kinds)} evidence kinds, {len(rules)} rules, "
        f"from {len(examples)} examples and the syntax table in {time.perf_counter() - started:.0f} s"
    )
    print(summary, file=sys.stderr)
    return write_or_check(f"messages-{version}.json", render_table(version, messages, kinds), summary)


def recorded_unchanged(examples: list[Path]) -> list[Path]:
    """The examples whose compiles ``--check`` reads from the shipped table: those the record of
    the compiler's facts on the examples holds unchanged, but for its sample of this run, which the
    suite compiles (:mod:`tests.example_record`); the table is written from every example's compiles."""
    record = ExampleRecord()
    return [path for path in examples if record.lookup(path) is not None and not record.sampled(path)]


def _remeasure(version: str, examples: list[Path], started: float) -> int:
    """Write the shipped table with the entries of ``examples`` measured again."""
    if not examples:
        print("generate_message_table.py: no bad example of those rules", file=sys.stderr)
        return 2
    shipped = json.loads((OUTPUT / f"messages-{version}.json").read_text())
    from_examples, kinds = example_messages(examples)
    messages = merge(from_examples, measured_in(shipped["messages"], examples, inside=False))
    kinds = merge(kinds, measured_in(shipped["kinds"], examples, inside=False))
    summary = (
        f"{len(messages)} messages, {len(kinds)} evidence kinds; {len(examples)} examples measured again "
        f"in {time.perf_counter() - started:.0f} s"
    )
    print(summary, file=sys.stderr)
    return write_or_check(f"messages-{version}.json", render_table(version, messages, kinds), summary)


if __name__ == "__main__":
    sys.exit(main())
