"""The ``mslint`` command: ``check``, ``baseline``, ``verify``, ``report``, ``explain``, ``rule`` and ``rules``."""

from __future__ import annotations

import argparse
import gc
import importlib.util
import io
import json
import math
import os
import sys
from pathlib import Path
from typing import TextIO

from mslint import __version__
from mslint.baseline import BaselineError, compare, write_baseline
from mslint.console import OutputError
from mslint.diagnostics import Diagnostic, Severity
from mslint.discovery import Discovery, UsageError, discover
from mslint.engine import check_files, enabled_rules
from mslint.extras import install_command
from mslint.fixes import apply_fixes, fixable, unified_diff
from mslint.incremental import cache_file, check_incrementally
from mslint.mindspore_tables import release_for
from mslint.output import FORMATS, render, render_statistics
from mslint.report import FORMATS as REPORT_FORMATS
from mslint.rules import all_rules, rule_named, validate_selectors
from mslint.settings import SYNTAX_LEVELS, TARGETS, ConfigError, Settings, find_config, load_settings
from mslint.source import Source, UndecodableSource, decode_source, read_source
from mslint.verify.devices import DEVICES

EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2
STDIN = Path("-")
NEVER = "none"
"""``--fail-on none``: findings never fail the run."""


def _rule_list(text: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in text.split(",") if part.strip())


def build_parser() -> argparse.ArgumentParser:
    return _parsers()[0]


def _parsers() -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    """The ``mslint`` parser and its subcommands' parsers, by name."""
    parser = argparse.ArgumentParser(
        prog="mslint", description="Find MindSpore code that will not survive static-graph compilation."
    )
    parser.add_argument("--version", action="version", version=f"mslint {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)

    check = commands.add_parser("check", help="lint files and folders")
    _add_lint_options(check, FORMATS)
    check.add_argument(
        "--fail-on", choices=("error", "warning", "info", NEVER), help="lowest severity that fails the run"
    )
    check.add_argument("--exit-zero", action="store_true", help="exit with 0 even when there are findings")
    check.add_argument("--statistics", action="store_true", help="print the number of findings per rule instead")
    check.add_argument("-q", "--quiet", action="store_true", help="print the findings only, no summary or notes")
    check.add_argument(
        "--stdin-filename", type=Path, metavar="PATH", help="with the path -: check stdin as if it were this file"
    )
    check.add_argument("--baseline", type=Path, metavar="FILE", help="report only findings not recorded in FILE")
    check.add_argument("--verbose", action="store_true", help="also list baseline entries that no longer match")
    check.add_argument("--fix", action="store_true", help="apply safe fixes to the files")
    check.add_argument("--unsafe-fixes", action="store_true", help="with --fix or --diff, also apply unsafe fixes")
    check.add_argument("--diff", action="store_true", help="print the fixes as a diff instead of applying them")
    check.add_argument("--show-fixes", action="store_true", help="with --fix, list the findings that were fixed")
    check.add_argument("--no-cache", action="store_true", help="neither read nor write the cache")
    check.add_argument("--jobs", type=int, default=1, help="processes analysing independent files (default: 1)")

    baseline = commands.add_parser("baseline", help="record the current findings in a baseline file")
    _add_lint_options(baseline, ("text",))
    baseline.add_argument("-o", "--output", type=Path, required=True, metavar="FILE", help="the baseline to write")

    verify = commands.add_parser(
        "verify", help="compile the entries behind the findings with MindSpore and confirm each finding"
    )
    _add_lint_options(verify, ("text", "json", "sarif", "github"))
    verify.add_argument("--all", action="store_true", help="compile every entry, not only those with findings")
    verify.add_argument(
        "--example",
        action="append",
        default=[],
        metavar="FILE:FUNCTION",
        help="FUNCTION() returns (cell_or_jit_function, inputs); repeatable",
    )
    verify.add_argument("--run", metavar="COMMAND", help="run this command and capture every graph compile it makes")
    verify.add_argument("--timeout", type=float, default=300.0, help="seconds per compile or --run (default: 300)")
    verify.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="compiles in parallel (default: cores)")
    verify.add_argument("--device", choices=DEVICES, help="device to compile for (default: the best available)")
    verify.add_argument(
        "--memory-limit",
        metavar="MiB",
        help="resident memory per compile, or none (default: 3/4 of the machine's, shared among --jobs)",
    )
    verify.add_argument(
        "--no-compare",
        dest="compare",
        action="store_false",
        help="do not run the compiled entries in graph mode and PyNative to compare their results",
    )
    verify.add_argument("--shard", metavar="I/N", help="verify only the I-th of N parts of the entries (a CI matrix)")

    report = commands.add_parser(
        "report", help="write a readiness report: each graph entry's status at STRICT and LAX (HTML, JSON, Markdown)"
    )
    _add_lint_options(report, REPORT_FORMATS, syntax_level=False)  # it shows both levels
    report.set_defaults(format="html")
    report.add_argument("-o", "--output", type=Path, metavar="FILE", help="the file to write (default: stdout)")
    report.add_argument(
        "--verify-results", type=Path, metavar="FILE", help="the output of `mslint verify --format json` to show"
    )
    report.add_argument("--compare", type=Path, metavar="OLD.json", help="an earlier report in JSON: mark what changed")

    explain = commands.add_parser("explain", help="map a MindSpore error output to the rules that predict it")
    explain.add_argument("file", nargs="?", type=Path, default=STDIN, help="the output to read (default: -, stdin)")
    explain.add_argument("--format", choices=("text", "json"), default="text")

    commands.add_parser("server", help="run the language server on stdin/stdout (needs mslint[lsp])")

    rule = commands.add_parser("rule", help="print a rule's documentation")
    rule.add_argument("name", help="a rule symbol or code")

    rules = commands.add_parser("rules", help="list all rules")
    rules.add_argument("--format", choices=("text", "json"), default="text")
    return parser, dict(commands.choices)


def _add_lint_options(parser: argparse.ArgumentParser, formats: tuple[str, ...], syntax_level: bool = True) -> None:
    parser.add_argument("paths", nargs="*", type=Path, help="files or folders (default: .)")
    parser.add_argument("--select", type=_rule_list, help="rules to enable: symbols, codes or code prefixes, or ALL")
    parser.add_argument("--ignore", type=_rule_list, help="rules to disable, as for --select")
    parser.add_argument("--extend-select", type=_rule_list, help="rules to enable besides those selected")
    parser.add_argument("--extend-ignore", type=_rule_list, help="rules to disable besides those ignored")
    parser.add_argument("--format", "--output-format", dest="format", choices=formats, default="text")
    if syntax_level:
        parser.add_argument("--syntax-level", choices=SYNTAX_LEVELS, help="MindSpore JIT syntax level (default: lax)")
    parser.add_argument("--target", choices=TARGETS, help="device the graphs run on (default: ascend)")
    parser.add_argument(
        "--mindspore-version",
        metavar="VERSION",
        help="MindSpore release whose APIs the code must use, e.g. 2.9 (default: the installed one, else the newest)",
    )
    parser.add_argument("--config", type=Path, help="pyproject.toml to read instead of the nearest one")


def main(argv: list[str] | None = None) -> int:
    _write_any_text(sys.stdout)
    parser, subcommands = _parsers()
    args, unknown = parser.parse_known_args(argv)
    if unknown:  # argparse would print the top-level usage, which does not list the subcommand's options
        subcommands[args.command].error(f"unrecognized arguments: {' '.join(unknown)}")
    if argv is None and args.command in ("check", "baseline"):
        # A process of its own that ends with the run: the cyclic collector would only scan
        # the syntax trees and the model again once the engine turns it back on (7 % of a run).
        gc.disable()
    try:
        if args.command == "check":
            return _check(args)
        if args.command == "verify":
            return _verify(args)
        if args.command == "report":
            return _report(args)
        if args.command == "explain":
            return _explain(args.file, args.format)
        if args.command == "baseline":
            return _baseline(args)
        if args.command == "server":
            return _server()
        if args.command == "rule":
            return _rule(args.name)
        return _rules(args.format)
    except (UsageError, ConfigError, BaselineError) as error:
        print(f"mslint: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except OutputError:
        raise  # stdout cannot be written: no bug, the console says so
    except Exception as error:  # a bug in mslint: one line and exit 2, as 1 would read as findings
        detail = str(error).splitlines()[0] if str(error) else ""
        print(
            f"mslint: internal error: {type(error).__name__}: {detail} "
            "(a bug in mslint: please report it, with the command and the file that caused it)",
            file=sys.stderr,
        )
        return EXIT_USAGE


def _write_any_text(stream: TextIO) -> None:
    """A file name that is not UTF-8 (kept by Python as surrogates) or a character the locale's
    encoding lacks is printed escaped, as on stderr, instead of failing the run."""
    if isinstance(stream, io.TextIOWrapper) and stream.errors == "strict":
        stream.reconfigure(errors="backslashreplace")


def _settings(args: argparse.Namespace) -> Settings:
    if args.config is not None and not args.config.is_file():
        raise UsageError(f"{args.config}: no such configuration file")
    first = args.paths[0] if args.paths else Path.cwd()
    if first == STDIN:
        first = getattr(args, "stdin_filename", None) or Path.cwd()
    settings = load_settings(args.config or find_config(first))
    settings = settings.with_options(
        select=(*(settings.select if args.select is None else args.select), *(args.extend_select or ())),
        ignore=(*(settings.ignore if args.ignore is None else args.ignore), *(args.extend_ignore or ())),
        syntax_level=getattr(args, "syntax_level", None),
        target=args.target,
        mindspore_version=args.mindspore_version,
        fail_on=Severity.parse(args.fail_on) if getattr(args, "fail_on", None) not in (None, NEVER) else None,
    )
    if not settings.select:
        raise UsageError("no rule selected: --select and select in the configuration need a rule, or ALL")
    try:
        if settings.mindspore_version:
            release_for(settings.mindspore_version)
        validate_selectors((*settings.select, *settings.ignore))
        for selectors in settings.per_file_ignores.values():
            validate_selectors(selectors)
    except ValueError as error:
        raise UsageError(str(error)) from None
    if not enabled_rules(settings):
        raise UsageError("no rule left: every rule selected is also ignored (--select, --ignore or the configuration)")
    return settings


def _check(args: argparse.Namespace) -> int:
    settings = _settings(args)
    if args.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    if args.statistics and args.format not in ("text", "json"):
        raise UsageError(f"--statistics prints text or json, not {args.format}")
    if STDIN in args.paths:
        return _check_stdin(args, settings)
    if args.stdin_filename is not None:
        raise UsageError("--stdin-filename needs the path - (read the file from stdin)")
    discovery = _discover(args, settings)
    files = discovery.files
    cache = None if args.no_cache else cache_file(settings)
    report = check_incrementally(files, settings, cache, args.jobs)
    if args.diff:
        return _print_fixes(report.diagnostics, args.unsafe_fixes)
    not_fixed: list[str] = []
    if args.fix:
        fixed, not_fixed = _apply_fixes(report.diagnostics, args.unsafe_fixes, args.quiet)
        if args.show_fixes:
            for diagnostic in fixed:
                print(
                    f"mslint: fixed {diagnostic.path}:{diagnostic.line}:{diagnostic.column}: "
                    f"{diagnostic.code} {diagnostic.symbol}",
                    file=sys.stderr,
                )
        if fixed:
            report = check_incrementally(files, settings, cache, args.jobs)
    report.unreadable[:0] = discovery.unreadable
    for line in [*report.unreadable, *not_fixed]:
        print(f"mslint: error: {line}", file=sys.stderr)
    if args.baseline is not None:
        comparison = compare(report.diagnostics, args.baseline, files)
        report.diagnostics = comparison.new
        if args.verbose:
            for record in comparison.stale:
                print(
                    f"mslint: baseline entry no longer found: {record['path']}:{record.get('line', '?')}: "
                    f"{record['code']} {record.get('symbol', '')}",
                    file=sys.stderr,
                )
    _print_report(args, report.diagnostics, report.files, sys.stdout, len(report.unreadable))
    if report.unreadable or not_fixed:
        return EXIT_USAGE
    return _findings_exit(args, settings, report.diagnostics)


def _discover(args: argparse.Namespace, settings: Settings) -> Discovery:
    """The files to check, after a note for each path skipped."""
    discovery = discover(args.paths or [Path(".")], settings)
    for line in discovery.skipped:
        print(f"mslint: note: {line}", file=sys.stderr)
    return discovery


def _print_report(
    args: argparse.Namespace, diagnostics: list[Diagnostic], files: int, stream: TextIO, unreadable: int = 0
) -> None:
    if args.statistics:
        stream.write(render_statistics(args.format, diagnostics))
    elif args.quiet and args.format == "text":
        text = render(args.format, diagnostics, files, unreadable)
        stream.write(text.rpartition("Found ")[0] if diagnostics else "")
    else:
        stream.write(render(args.format, diagnostics, files, unreadable))


def _findings_exit(args: argparse.Namespace, settings: Settings, diagnostics: list[Diagnostic]) -> int:
    if args.exit_zero or args.fail_on == NEVER:
        return EXIT_CLEAN
    return EXIT_FINDINGS if any(d.severity >= settings.fail_on for d in diagnostics) else EXIT_CLEAN


def _check_stdin(args: argparse.Namespace, settings: Settings) -> int:
    """Check the text on stdin as the file ``--stdin-filename`` (editors, pre-commit wrappers):
    with the files of its folder as context; ``--fix`` prints the fixed text to stdout and the
    findings left to stderr."""
    if args.paths != [STDIN]:
        raise UsageError("the path - (stdin) cannot be combined with other paths")
    path = args.stdin_filename or Path("stdin.py")
    try:  # the bytes of a file, decoded as the file's are (byte order mark, coding comment)
        source = decode_source(sys.stdin.buffer.read())
    except UndecodableSource as error:
        raise UsageError(f"{path}: cannot read: {error}") from None
    context = sorted(p for p in path.resolve().parent.glob("*.py") if p.resolve() != path.resolve())
    report = check_files([path], settings, sources={path: source.text}, context=context)
    if args.diff or args.fix:
        changed = _fixed_sources(report.diagnostics, args.unsafe_fixes, {str(path): source})
        fixed = changed[str(path)][1] if changed else source.written
        if args.diff:
            sys.stdout.write(unified_diff(str(path), source.written, fixed) if changed else "")
            return EXIT_FINDINGS if changed else EXIT_CLEAN
        sys.stdout.flush()
        sys.stdout.buffer.write(source.encode(fixed))  # the file's own encoding, as --fix writes it
        sys.stdout.flush()
        report = check_files([path], settings, sources={path: Source(fixed, source.encoding).text}, context=context)
        _print_report(args, report.diagnostics, report.files, sys.stderr)
    else:
        _print_report(args, report.diagnostics, report.files, sys.stdout)
    return _findings_exit(args, settings, report.diagnostics)


def _fixed_sources(
    diagnostics: list[Diagnostic], unsafe: bool, sources: dict[str, Source] | None = None
) -> dict[str, tuple[Source, str, int]]:
    """path -> (source, fixed text as written, fixes applied) for every file a fix changes;
    ``sources`` gives the text of paths that are not read from disk (stdin)."""
    by_path: dict[str, list[Diagnostic]] = {}
    for diagnostic in diagnostics:
        by_path.setdefault(diagnostic.path, []).append(diagnostic)
    changed = {}
    for path, found in by_path.items():
        fixes = fixable(found, unsafe)
        if fixes:
            source = sources[path] if sources and path in sources else read_source(Path(path))
            fixed, applied = apply_fixes(source.written, fixes)
            if fixed != source.written:
                changed[path] = (source, fixed, applied)
    return changed


def _print_fixes(diagnostics: list[Diagnostic], unsafe: bool) -> int:
    changed = _fixed_sources(diagnostics, unsafe)
    for path, (source, fixed, _) in changed.items():
        sys.stdout.write(unified_diff(path, source.written, fixed))
    count = sum(applied for _, _, applied in changed.values())
    print(f"mslint: {count} fix{'es' if count != 1 else ''} would be applied", file=sys.stderr)
    return EXIT_FINDINGS if changed else EXIT_CLEAN


def _apply_fixes(diagnostics: list[Diagnostic], unsafe: bool, quiet: bool) -> tuple[list[Diagnostic], list[str]]:
    """Write the fixed files back in their own encoding: the findings whose fix was written,
    and one line per file that could not be."""
    written: set[str] = set()
    count, failures = 0, []
    for path, (source, fixed_text, fixes) in _fixed_sources(diagnostics, unsafe).items():
        try:
            Path(path).write_bytes(source.encode(fixed_text))
        except (OSError, UnicodeEncodeError) as error:
            failures.append(f"{path}: cannot write the fixes: {getattr(error, 'strerror', None) or error}")
            continue
        written.add(path)
        count += fixes
    if written and not quiet:
        print(f"mslint: fixed {count} problem{'s' if count != 1 else ''} in {len(written)} files", file=sys.stderr)
    applied = [d for d in diagnostics if d.path in written and d.fix and (unsafe or d.fix.applicability == "safe")]
    return applied, failures


def _baseline(args: argparse.Namespace) -> int:
    settings = _settings(args)
    discovery = _discover(args, settings)
    report = check_files(discovery.files, settings)
    report.unreadable[:0] = discovery.unreadable
    for line in report.unreadable:
        print(f"mslint: error: {line}", file=sys.stderr)
    write_baseline(report.diagnostics, args.output)
    count = len(report.diagnostics)
    print(f"Recorded {count} finding{'s' if count != 1 else ''} of {report.files} files in {args.output}.")
    return EXIT_USAGE if report.unreadable else EXIT_CLEAN


def _report(args: argparse.Namespace) -> int:
    from mslint.report.command import ReportRequest, make_report, summary_line

    settings = _settings(args)
    discovery = _discover(args, settings)
    request = ReportRequest(args.paths or [Path(".")], discovery.files, args.format, args.verify_results, args.compare)
    written = make_report(request, settings)
    for line in [*discovery.unreadable, *written.unreadable]:
        print(f"mslint: error: {line}", file=sys.stderr)
    if args.output is None:
        sys.stdout.write(written.text)
    else:
        try:
            args.output.write_text(written.text, encoding="utf-8")
        except OSError as error:
            raise UsageError(f"{args.output}: cannot write: {error.strerror or error}") from None
        print(f"Wrote {args.output}: {summary_line(written.document)}")
    return EXIT_USAGE if discovery.unreadable or written.unreadable else EXIT_CLEAN


def _verify(args: argparse.Namespace) -> int:
    from mslint.verify.command import VerifierUnavailable, VerifyRequest, verify
    from mslint.verify.processes import Interrupted
    from mslint.verify.report import render
    from mslint.verify.runner import default_memory_limit_mib
    from mslint.verify.shards import Shard

    if not (math.isfinite(args.timeout) and args.timeout > 0):
        raise UsageError(f"--timeout {args.timeout:g}: expected a positive, finite number of seconds")
    if args.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    try:
        shard = None if args.shard is None else Shard.parse(args.shard)
    except ValueError as error:
        raise UsageError(str(error)) from None
    if shard is not None and args.run is not None:
        raise UsageError("--shard splits the entries mslint compiles, not a --run command: run it in one job")
    memory_limit = default_memory_limit_mib(args.jobs) if args.memory_limit is None else _mebibytes(args.memory_limit)
    request = VerifyRequest(
        paths=args.paths or [Path(".")],
        examples=[_example(text) for text in args.example],
        run=args.run,
        all_entries=args.all,
        timeout=args.timeout,
        jobs=args.jobs,
        device=args.device,
        memory_limit_mib=memory_limit,
        compare=args.compare,
        shard=shard,
    )
    try:
        report = verify(request, _settings(args))
    except VerifierUnavailable as error:
        raise UsageError(str(error)) from None
    except Interrupted as interrupted:
        print(f"mslint: interrupted by {interrupted}", file=sys.stderr)
        return 128 + interrupted.signum
    for line in report.unreadable:
        print(f"mslint: error: {line}", file=sys.stderr)
    sys.stdout.write(render(args.format, report))
    if report.unreadable:
        return EXIT_USAGE
    return EXIT_FINDINGS if report.failed() else EXIT_CLEAN


def _explain(file: Path, output_format: str) -> int:
    from mslint.compiler_messages import message_table
    from mslint.explain import REPORTED, explain, read_problems, render_json, render_text

    try:
        data = sys.stdin.buffer.read() if file == STDIN else file.read_bytes()
        text = data.decode("utf-8", errors="replace")  # a log may hold bytes of any encoding
    except OSError as error:
        raise UsageError(f"{file}: cannot read ({error.strerror or error})") from None
    table = message_table()
    explanations = explain(read_problems(text), table)
    print(render_json(explanations, table.release) if output_format == "json" else render_text(explanations), end="")
    return EXIT_CLEAN if all(e.status == REPORTED for e in explanations) else EXIT_FINDINGS


def _mebibytes(text: str) -> int | None:
    """``--memory-limit``: a positive whole number of MiB, or ``none``."""
    if text.strip().lower() == "none":
        return None
    try:
        mebibytes = int(text)
    except ValueError:
        mebibytes = 0
    if mebibytes <= 0:
        raise UsageError(f"--memory-limit {text!r}: expected a positive whole number of MiB, or none")
    return mebibytes


def _example(text: str) -> tuple[Path, str]:
    path_text, _, function = text.rpartition(":")
    if not path_text or not function.isidentifier():
        raise UsageError(f"--example {text!r}: expected FILE:FUNCTION")
    path = Path(path_text)
    if not path.is_file():
        raise UsageError(f"--example {text!r}: no such file {path_text}")
    return path.resolve(), function


def _server() -> int:
    if importlib.util.find_spec("pygls") is None:
        raise UsageError(f"the language server needs pygls: {install_command('lsp')}")
    from mslint.server import server

    server.start_io()
    return EXIT_CLEAN


def _rule(name: str) -> int:
    rule = rule_named(name)
    if rule is None:
        raise UsageError(f"unknown rule {name!r} (see `mslint rules`)")
    severity = rule.severity(Settings())
    print(f"# {rule.symbol} ({rule.code})\n\n{rule.summary}. Default severity: {severity}.\n")
    print(rule.documentation())
    return EXIT_CLEAN


def _rules(output_format: str) -> int:
    defaults = Settings()
    if output_format == "json":
        entries = [
            {"code": r.code, "symbol": r.symbol, "severity": str(r.severity(defaults)), "summary": r.summary}
            for r in all_rules()
        ]
        print(json.dumps(entries, indent=2))
        return EXIT_CLEAN
    for rule in all_rules():
        print(f"{rule.code}  {rule.symbol:<28} {rule.severity(defaults)!s:<8} {rule.summary}")
    return EXIT_CLEAN
