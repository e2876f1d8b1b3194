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
import time
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from mslint import __version__
from mslint.atomic_write import write_atomically
from mslint.baseline import BaselineError, compare, write_baseline
from mslint.diagnostics import Diagnostic, Severity
from mslint.discovery import Discovery, UsageError, discover
from mslint.engine import Report, check_files, enabled_rules, undecodable
from mslint.extras import install_command
from mslint.fix_files import fixed_sources, write_fixes
from mslint.fixes import unified_diff
from mslint.incremental import cache_file, check_incrementally
from mslint.mindspore_tables import release_for
from mslint.notebook import left_alone
from mslint.output import FORMATS, SUMMARIZED, render, render_statistics, write_output_file
from mslint.output.color import WHEN as COLOR_WHEN
from mslint.output.color import use_color
from mslint.output.text import TextOptions
from mslint.report import FORMATS as REPORT_FORMATS
from mslint.report.status import plural
from mslint.rule_docs import rule_text, severity_on
from mslint.rules import all_rules, rule_named, validate_selectors
from mslint.settings import NEVER, SYNTAX_LEVELS, TARGETS, ConfigError, Settings, find_config, load_settings
from mslint.source import Source, UndecodableSource, decode_source
from mslint.stdout_guard import OutputError
from mslint.verify.devices import DEVICES

if TYPE_CHECKING:
    from mslint.verify.runner import Outcome
    from mslint.verify.verdicts import Verdict

EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2
STDIN = Path("-")
VERIFY_MERGE = "verify merge"
"""``mslint verify merge SHARD.json... -o ALL.json``: parsed apart, as ``verify`` takes paths."""


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
    check.add_argument("-e", "--exit-zero", action="store_true", help="exit with 0 even when there are findings")
    check.add_argument("--statistics", action="store_true", help="print the number of findings per rule instead")
    check.add_argument("-o", "--output-file", type=Path, metavar="FILE", help="write the findings to FILE, not stdout")
    check.add_argument("-q", "--quiet", action="store_true", help="print the findings only, no summary or notes")
    check.add_argument(
        "--stdin-filename", type=Path, metavar="PATH", help="with the path -: check stdin as if it were this file"
    )
    check.add_argument("--baseline", type=Path, metavar="FILE", help="report only findings not recorded in FILE")
    check.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="say which configuration and cache are used, the time taken, and baseline entries no longer found",
    )
    check.add_argument("--fix", action="store_true", help="apply safe fixes to the files")
    check.add_argument(
        "--fix-only", action="store_true", help="apply the fixes and report nothing else (implies --fix; exit 0)"
    )
    check.add_argument(
        "--exit-non-zero-on-fix",
        action="store_true",
        help="with --fix or --fix-only, exit 1 when a file was fixed, even with no finding left",
    )
    check.add_argument("--unsafe-fixes", action="store_true", help="with --fix or --diff, also apply unsafe fixes")
    check.add_argument("--diff", action="store_true", help="print the fixes as a diff instead of applying them")
    check.add_argument(
        "--show-fixes", action="store_true", help="list the findings fixed; without --fix, show each fix as a diff"
    )
    check.add_argument(
        "--add-noqa", action="store_true", help="add a `# noqa: CODE` comment to every line with a finding"
    )
    check.add_argument("-n", "--no-cache", action="store_true", help="neither read nor write the cache")
    check.add_argument("--cache-dir", type=Path, metavar="DIR", help="keep the cache in DIR (default: .mslint_cache)")
    check.add_argument(
        "--color", choices=COLOR_WHEN, default="auto", help="color the text reports (default: auto, on a terminal)"
    )
    check.add_argument("--show-settings", action="store_true", help="print the settings the first path is checked with")
    check.add_argument("--show-files", action="store_true", help="print the files that would be checked")
    check.add_argument("-w", "--watch", action="store_true", help="check again whenever a file changes (Ctrl-C stops)")
    check.add_argument(
        "--jobs",
        type=int,
        help="processes analysing independent files (default: the idle cores for a run large enough to gain, else 1)",
    )

    baseline = commands.add_parser("baseline", help="record the current findings in a baseline file")
    _add_lint_options(baseline, ("text",))
    baseline.add_argument("-o", "--output", type=Path, required=True, metavar="FILE", help="the baseline to write")

    verify = commands.add_parser(
        "verify",
        help="compile the entries behind the findings with MindSpore and confirm each finding",
        epilog="`mslint verify merge SHARD.json... -o ALL.json` merges the JSON results of --shard into one",
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
    verify.add_argument(
        "--show-examples",
        metavar="FILE",
        type=Path,
        help="write what was compiled from specs as example factories, for --example FILE:FUNCTION",
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
    verify.add_argument(
        "--no-replicas",
        dest="replicas",
        action="store_false",
        help="do not build the Cells on two msrun ranks to judge distributed-without-seed findings",
    )
    verify.add_argument(
        "--shard", metavar="I/N", help="verify only the I-th of N parts of the entries, or auto: the job array's part"
    )
    verify.add_argument(
        "--durations", type=Path, metavar="FILE", help="an earlier `verify --format json` result: balance the shards"
    )
    verify.add_argument("--no-cache", action="store_true", help="compile every entry, even those compiled before")
    verify.add_argument(
        "--cache-dir", type=Path, metavar="DIR", help="the result cache's folder (default: .mslint_cache/verify)"
    )
    verify.add_argument(
        "--expect", type=Path, metavar="STATUS.csv", help="fail only when an entry's status is worse than in this file"
    )
    verify.add_argument("--update-expect", action="store_true", help="with --expect: write this run's statuses to it")
    verify.add_argument("--ray", metavar="ADDRESS", help="compile on the Ray cluster at ADDRESS (auto: the one here)")
    verify.add_argument(
        "--fail-on-unverified",
        action="store_true",
        help="exit with 1 when a finding at or above the failing severity could not be verified",
    )
    verify_merge = argparse.ArgumentParser(
        prog="mslint verify merge", description="merge the JSON results of the shards of `mslint verify --shard`"
    )
    verify_merge.add_argument("shards", nargs="+", type=Path, metavar="SHARD.json", help="every shard's result")
    verify_merge.add_argument("-o", "--output", type=Path, required=True, metavar="ALL.json", help="the file to write")

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
    subcommands = {**commands.choices, VERIFY_MERGE: verify_merge}
    for each in (parser, *subcommands.values()):
        each.formatter_class = _HelpFormatter
        each._optionals.title = "options"  # Python 3.9 says "optional arguments"
    return parser, subcommands


class _HelpFormatter(argparse.HelpFormatter):
    """``--help`` the same on every Python (the docs show it): an option's value is named once,
    after its last spelling (``-o, --output-file FILE``), as Python 3.13 prints it."""

    def _format_action_invocation(self, action: argparse.Action) -> str:
        if not action.option_strings or action.nargs == 0:
            return super()._format_action_invocation(action)
        value = self._format_args(action, self._get_default_metavar_for_optional(action))
        return f"{', '.join(action.option_strings)} {value}"


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
    parser.add_argument("--isolated", action="store_true", help="read no configuration file: the defaults and options")
    _add_file_selection_options(parser)


def _add_file_selection_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--exclude", type=_rule_list, metavar="PATTERNS", help="files and folders to skip, replacing `exclude`"
    )
    parser.add_argument(
        "--extend-exclude", type=_rule_list, metavar="PATTERNS", help="files and folders to skip besides `exclude`"
    )
    parser.add_argument(
        "--force-exclude",
        action=argparse.BooleanOptionalAction,
        help="skip excluded files even when named on the command line (pre-commit)",
    )
    parser.add_argument(
        "--respect-gitignore",
        action=argparse.BooleanOptionalAction,
        help="skip what .gitignore, .git/info/exclude and .ignore files ignore (default: on)",
    )


def main(argv: list[str] | None = None) -> int:
    _write_any_text(sys.stdout)
    parser, subcommands = _parsers()
    arguments = sys.argv[1:] if argv is None else argv
    if arguments[:2] == VERIFY_MERGE.split():  # a command of its own: `verify` takes paths, not subcommands
        args = subcommands[VERIFY_MERGE].parse_args(arguments[2:])
        args.command = VERIFY_MERGE
    else:
        args, unknown = parser.parse_known_args(arguments)
        if unknown:  # argparse would print the top-level usage, which does not list the subcommand's options
            subcommands[args.command].error(f"unrecognized arguments: {' '.join(unknown)}")
    if argv is None and args.command in ("check", "baseline") and not getattr(args, "watch", False):
        # A process of its own that ends with the run: the cyclic collector would only scan
        # the syntax trees and the model again once the engine turns it back on (7 % of a run).
        gc.disable()
    try:
        if args.command == "check":
            return _check(args)
        if args.command == "verify":
            return _verify(args)
        if args.command == VERIFY_MERGE:
            return _verify_merge(args.shards, args.output)
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
    settings = load_settings(_configuration(args))
    settings = settings.with_options(
        select=(*(settings.select if args.select is None else args.select), *(args.extend_select or ())),
        ignore=(*(settings.ignore if args.ignore is None else args.ignore), *(args.extend_ignore or ())),
        exclude=args.exclude,
        extend_exclude=(*settings.extend_exclude, *(args.extend_exclude or ())),
        force_exclude=args.force_exclude,
        respect_gitignore=args.respect_gitignore,
        cache_dir=getattr(args, "cache_dir", None),
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


def _configuration(args: argparse.Namespace) -> Path | None:
    """The pyproject.toml a run reads: ``--config``, else the nearest one above the first path;
    none with ``--isolated``."""
    if args.isolated:
        if args.config is not None:
            raise UsageError("--isolated reads no configuration: it cannot be combined with --config")
        return None
    if args.config is not None and not args.config.is_file():
        raise UsageError(f"{args.config}: no such configuration file")
    first = args.paths[0] if args.paths else Path.cwd()
    if first == STDIN:
        first = getattr(args, "stdin_filename", None) or Path.cwd()
    return args.config or find_config(first)


def _check(args: argparse.Namespace) -> int:
    if args.watch:
        return _watch(args)
    settings = _settings(args)
    if args.jobs is not None and args.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    if args.statistics and args.format not in ("text", "json"):
        raise UsageError(f"--statistics prints text or json, not {args.format}")
    _check_fix_modes(args)
    if STDIN in args.paths:
        return _check_stdin(args, settings)
    if args.stdin_filename is not None:
        raise UsageError("--stdin-filename needs the path - (read the file from stdin)")
    discovery = _discover(args, settings)
    files = discovery.files
    cache = None if args.no_cache else cache_file(settings)
    if args.show_settings or args.show_files:
        return _show(args, settings, discovery, cache)
    started = time.perf_counter()
    # Edits are never read from the cache: they are computed from the text they are applied to.
    edits = args.fix or args.diff or args.add_noqa
    report = check_incrementally(files, settings, None if edits else cache, args.jobs)
    if args.verbose:
        _describe_run(args, len(files), cache, time.perf_counter() - started)
    if args.diff:
        return _print_fixes(report, args.unsafe_fixes)
    if args.add_noqa:
        return _add_noqa(report, discovery.unreadable + report.unreadable)
    not_fixed: list[str] = []
    fixed: list[Diagnostic] = []
    if args.fix:
        fixed, not_fixed = _apply_fixes(report, args.unsafe_fixes, args.quiet)
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
    # ruff's --exit-non-zero-on-fix: a file fixed fails the run, so that a hook or CI says so
    fixed_fails = args.exit_non_zero_on_fix and bool(fixed)
    if args.fix_only:  # ruff's: the findings left are not reported and do not fail the run
        if report.unreadable or not_fixed:
            return EXIT_USAGE
        return EXIT_FINDINGS if fixed_fails else EXIT_CLEAN
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
    return EXIT_FINDINGS if fixed_fails else _findings_exit(args, settings, report.diagnostics)


def _discover(args: argparse.Namespace, settings: Settings) -> Discovery:
    """The files to check, after a note for each path skipped."""
    discovery = discover(args.paths or [Path(".")], settings)
    for line in discovery.skipped:
        print(f"mslint: note: {line}", file=sys.stderr)
    return discovery


def _print_report(
    args: argparse.Namespace, diagnostics: list[Diagnostic], files: int, stream: TextIO, unreadable: int = 0
) -> None:
    color = use_color(args.color, stream if args.output_file is None else None)
    options = TextOptions(show_fixes=args.show_fixes and not args.fix, color=color)
    if args.statistics:
        text = render_statistics(args.format, diagnostics)
    elif args.quiet and args.format in SUMMARIZED:
        text = render(args.format, diagnostics, files, unreadable, options)
        text = text.rpartition("Found ")[0] if diagnostics else ""
    else:
        text = render(args.format, diagnostics, files, unreadable, options)
    _write(args, text, stream)


def _watch(args: argparse.Namespace) -> int:
    from mslint.watch import watch

    if args.fix or args.fix_only or args.diff or args.add_noqa or STDIN in args.paths:
        raise UsageError("--watch checks files: not with --fix, --fix-only, --diff, --add-noqa or stdin")
    once = argparse.Namespace(**{**vars(args), "watch": False})

    def watched() -> list[Path]:
        configuration = _configuration(once)
        files = discover(once.paths or [Path(".")], _settings(once)).files
        return [*files, *([configuration] if configuration is not None else [])]

    return watch(lambda: _check(once), watched, clear=sys.stdout.isatty())


def _describe_run(args: argparse.Namespace, files: int, cache: Path | None, seconds: float) -> None:
    """``--verbose``: what the run read and wrote, and how long it took."""
    print(f"mslint: configuration: {_configuration(args) or 'none (the defaults)'}", file=sys.stderr)
    print(f"mslint: cache: {cache or 'none'}", file=sys.stderr)
    print(f"mslint: analysed {files} file{'s' if files != 1 else ''} in {seconds:.2f} s", file=sys.stderr)


def _show(args: argparse.Namespace, settings: Settings, discovery: Discovery, cache: Path | None) -> int:
    """``--show-settings`` (for the first path) or ``--show-files``: nothing is checked."""
    from mslint.settings_display import show_settings

    for line in discovery.unreadable:
        print(f"mslint: error: {line}", file=sys.stderr)
    if args.show_settings:
        first = discovery.files[0] if discovery.files else (args.paths or [Path(".")])[0]
        text = show_settings(first, settings, _configuration(args), cache)
    else:
        text = "".join(f"{path}\n" for path in discovery.files)
    _write(args, text, sys.stdout)
    return EXIT_USAGE if discovery.unreadable else EXIT_CLEAN


def _write(args: argparse.Namespace, text: str, stream: TextIO) -> None:
    if args.output_file is None:
        stream.write(text)
    else:
        write_output_file(args.output_file, text)


def _check_fix_modes(args: argparse.Namespace) -> None:
    """``--fix-only`` implies ``--fix``; the modes that change files or print diffs exclude each other."""
    args.fix = args.fix or args.fix_only
    if args.add_noqa and (args.fix or args.diff):
        raise UsageError("--add-noqa cannot be combined with --fix, --fix-only or --diff")
    if args.add_noqa and STDIN in args.paths:
        raise UsageError("--add-noqa writes files: it cannot read stdin")
    if args.show_fixes and not args.fix and (args.format != "text" or args.statistics or STDIN in args.paths):
        raise UsageError(
            "--show-fixes without --fix shows each fix under its finding in the text report of files "
            "(use --diff for stdin; the json formats hold the fixes)"
        )


def _add_noqa(report: Report, unreadable: list[str]) -> int:
    from mslint.add_noqa import add_noqa

    added = add_noqa(report.diagnostics, report.analysed)
    for line in [*unreadable, *added.failures]:
        print(f"mslint: error: {line}", file=sys.stderr)
    for line in added.skipped:
        print(f"mslint: note: {line}", file=sys.stderr)
    count = added.comments
    print(f"mslint: added {plural(count, 'noqa comment')} in {plural(added.files, 'file')}", file=sys.stderr)
    return EXIT_USAGE if unreadable or added.failures else EXIT_CLEAN


def _findings_exit(args: argparse.Namespace, settings: Settings, diagnostics: list[Diagnostic]) -> int:
    if args.exit_zero or args.fail_on == NEVER or settings.fail_on is None:
        return EXIT_CLEAN
    return EXIT_FINDINGS if any(d.severity >= settings.fail_on for d in diagnostics) else EXIT_CLEAN


def _check_stdin(args: argparse.Namespace, settings: Settings) -> int:
    """Check the text on stdin as the file ``--stdin-filename`` (editors, pre-commit wrappers):
    with the files of its folder as context; ``--fix`` prints the fixed text to stdout and the
    findings left to stderr."""
    if args.paths != [STDIN]:
        raise UsageError("the path - (stdin) cannot be combined with other paths")
    path = args.stdin_filename or Path("stdin.py")
    content = sys.stdin.buffer.read()
    try:  # the bytes of a file, decoded as the file's are (byte order mark, coding comment)
        source = decode_source(content)
    except UndecodableSource as error:
        return _undecodable_stdin(args, settings, undecodable(path, error, settings), content)
    context = sorted(p for p in path.resolve().parent.glob("*.py") if p.resolve() != path.resolve())
    report = check_files([path], settings, sources={path: source.text}, context=context)
    if args.diff or args.fix:
        changed, _ = fixed_sources(report.diagnostics, args.unsafe_fixes, {}, {str(path): source})
        fixed = changed[str(path)].fixed if changed else source.written
        if args.diff:
            sys.stdout.write(unified_diff(str(path), source.written, fixed) if changed else "")
            return EXIT_FINDINGS if changed else EXIT_CLEAN
        sys.stdout.flush()
        sys.stdout.buffer.write(source.encode(fixed))  # the file's own encoding, as --fix writes it
        sys.stdout.flush()
        fixed_fails = args.exit_non_zero_on_fix and bool(changed)
        if args.fix_only:
            return EXIT_FINDINGS if fixed_fails else EXIT_CLEAN
        report = check_files([path], settings, sources={path: Source(fixed, source.encoding).text}, context=context)
        _print_report(args, report.diagnostics, report.files, sys.stderr)
        if fixed_fails:
            return EXIT_FINDINGS
    else:
        _print_report(args, report.diagnostics, report.files, sys.stdout)
    return _findings_exit(args, settings, report.diagnostics)


def _undecodable_stdin(args: argparse.Namespace, settings: Settings, found: list[Diagnostic], content: bytes) -> int:
    """Stdin that is not text has one finding, as such a file has; nothing is fixed in it, and
    ``--fix`` prints its bytes back as they came (an editor replaces its buffer with them)."""
    if args.diff:
        return EXIT_CLEAN
    if args.fix:
        sys.stdout.flush()
        sys.stdout.buffer.write(content)
        sys.stdout.flush()
        if args.fix_only:
            return EXIT_CLEAN
        _print_report(args, found, 1, sys.stderr)
    else:
        _print_report(args, found, 1, sys.stdout)
    return _findings_exit(args, settings, found)


def _print_fixes(report: Report, unsafe: bool) -> int:
    changed, stale = fixed_sources(report.diagnostics, unsafe, report.analysed)
    for path, file in changed.items():
        sys.stdout.write(unified_diff(path, file.source.written, file.fixed))
    for line in stale:
        print(f"mslint: error: {line}", file=sys.stderr)
    for line in left_alone(report.diagnostics):
        print(f"mslint: note: {line}", file=sys.stderr)
    count = sum(file.applied for file in changed.values())
    print(f"mslint: {count} fix{'es' if count != 1 else ''} would be applied", file=sys.stderr)
    if stale:
        return EXIT_USAGE
    return EXIT_FINDINGS if changed else EXIT_CLEAN


def _apply_fixes(report: Report, unsafe: bool, quiet: bool) -> tuple[list[Diagnostic], list[str]]:
    """Write the fixes: the findings whose fix was written, and one line per file that was not."""
    written, count, failures = write_fixes(report, unsafe)
    for line in left_alone(report.diagnostics):
        print(f"mslint: note: {line}", file=sys.stderr)
    if written and not quiet:
        print(f"mslint: fixed {plural(count, 'problem')} in {plural(len(written), 'file')}", file=sys.stderr)
    applied = [
        d for d in report.diagnostics if d.path in written and d.fix and (unsafe or d.fix.applicability == "safe")
    ]
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
            write_atomically(args.output, written.text.encode("utf-8"))
        except OSError as error:
            raise UsageError(f"{args.output}: cannot write: {error.strerror or error}") from None
        print(f"Wrote {args.output}: {summary_line(written.document)}")
    return EXIT_USAGE if discovery.unreadable or written.unreadable else EXIT_CLEAN


def _verify(args: argparse.Namespace) -> int:
    from mslint.verify.cache import default_folder
    from mslint.verify.command import VerifyRequest, verify
    from mslint.verify.devices import VerifierUnavailable
    from mslint.verify.expect import read_expectations, run_gate
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
    if args.durations is not None and shard is None:
        raise UsageError("--durations balances the shards of --shard: give --shard too")
    memory_limit = default_memory_limit_mib(args.jobs) if args.memory_limit is None else _mebibytes(args.memory_limit)
    if args.ray is not None and args.memory_limit is None:
        from mslint.verify.cluster import NODE_DEFAULT_MEMORY

        memory_limit = NODE_DEFAULT_MEMORY  # each node's own share, as --jobs's here
    if args.no_cache and args.cache_dir is not None:
        raise UsageError("--no-cache and --cache-dir: give one of them")
    if args.update_expect and args.expect is None:
        raise UsageError("--update-expect writes the file of --expect: give --expect too")
    if args.expect is not None and not args.update_expect:
        read_expectations(args.expect)  # a broken file fails now, not after the compiles
    settings = _settings(args)
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
        replicas=args.replicas,
        shard=shard,
        durations=args.durations,
        cache=None if args.no_cache else args.cache_dir or default_folder(settings),
        ray=args.ray,
    )
    try:
        report = verify(request, settings)
    except VerifierUnavailable as error:
        raise UsageError(str(error)) from None
    except Interrupted as interrupted:
        print(f"mslint: interrupted by {interrupted}", file=sys.stderr)
        return 128 + interrupted.signum
    for line in report.unreadable:
        print(f"mslint: error: {line}", file=sys.stderr)
    sys.stdout.write(render(args.format, report))
    if args.show_examples is not None:
        _write_examples(args.show_examples, report.outcomes)
    if report.unreadable:
        return EXIT_USAGE
    failed = report.failed()
    if args.expect is not None:
        lines, failed = run_gate(args.expect, args.update_expect, report.outcomes)
        for line in lines:
            print(f"mslint: {line}", file=sys.stderr)
    if args.fail_on_unverified and _unverified(report.verdicts, settings):
        failed = True
    return EXIT_FINDINGS if failed else EXIT_CLEAN


def _write_examples(path: Path, outcomes: list[Outcome]) -> None:
    from mslint.verify.examples_file import examples_file

    text, count = examples_file(outcomes)
    try:
        write_atomically(path, text.encode())
    except OSError as error:
        raise UsageError(f"--show-examples {path}: cannot write: {error.strerror or error}") from None
    print(f"mslint: wrote {path}: {count} example factor{'ies' if count != 1 else 'y'}", file=sys.stderr)


def _unverified(verdicts: list[Verdict], settings: Settings) -> int:
    """``verify --fail-on-unverified``: the findings at or above the failing severity that could
    not be verified, said on stderr (a CI job must not pass on no evidence)."""
    from mslint.verify.verdicts import NOT_VERIFIABLE

    fail_on = settings.fail_on if settings.fail_on is not None else Severity.INFO
    count = sum(v.verdict == NOT_VERIFIABLE and v.diagnostic.severity >= fail_on for v in verdicts)
    if count:
        print(
            f"mslint: {count} finding{'s' if count != 1 else ''} could not be verified (--fail-on-unverified)",
            file=sys.stderr,
        )
    return count


def _verify_merge(shards: list[Path], output: Path) -> int:
    from mslint.verify.merge import merge

    merged = merge(shards)
    try:
        write_atomically(output, (json.dumps(merged, indent=2) + "\n").encode("utf-8"))
    except OSError as error:
        raise UsageError(f"{output}: cannot write: {error.strerror or error}") from None
    counts = f"{len(merged['compiles'])} compiles, {len(merged['findings'])} findings"
    print(f"Merged {len(shards)} shards into {output}: {counts}.")
    return EXIT_CLEAN


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
    print(rule_text(rule))
    return EXIT_CLEAN


def _rules(output_format: str) -> int:
    defaults = Settings()
    if output_format == "json":
        entries = [
            {"code": r.code, "symbol": r.symbol, "severity": severity_on(r, defaults), "summary": r.summary}
            for r in all_rules()
        ]
        print(json.dumps(entries, indent=2))
        return EXIT_CLEAN
    for rule in all_rules():
        print(f"{rule.code}  {rule.symbol:<28} {severity_on(rule, defaults):<8} {rule.summary}")
    return EXIT_CLEAN
