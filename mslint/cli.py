"""The ``mslint`` command: ``check``, ``rule`` and ``rules``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from mslint import __version__
from mslint.diagnostics import Severity
from mslint.discovery import UsageError, discover
from mslint.engine import check_files
from mslint.output import render_json, render_text
from mslint.rules import all_rules, rule_named, validate_selectors
from mslint.settings import SYNTAX_LEVELS, TARGETS, ConfigError, Settings, find_config, load_settings

EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


def _rule_list(text: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in text.split(",") if part.strip())


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mslint", description="Find MindSpore code that will not survive static-graph compilation."
    )
    parser.add_argument("--version", action="version", version=f"mslint {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)

    check = commands.add_parser("check", help="lint files and folders")
    check.add_argument("paths", nargs="*", type=Path, help="files or folders (default: .)")
    check.add_argument("--select", type=_rule_list, help="rules to enable: symbols, codes or code prefixes, or ALL")
    check.add_argument("--ignore", type=_rule_list, help="rules to disable, as for --select")
    check.add_argument("--format", choices=("text", "json"), default="text")
    check.add_argument("--syntax-level", choices=SYNTAX_LEVELS, help="MindSpore JIT syntax level (default: lax)")
    check.add_argument("--target", choices=TARGETS, help="device the graphs run on (default: ascend)")
    check.add_argument("--fail-on", choices=("error", "warning", "info"), help="lowest severity that fails the run")
    check.add_argument("--config", type=Path, help="pyproject.toml to read instead of the nearest one")

    rule = commands.add_parser("rule", help="print a rule's documentation")
    rule.add_argument("name", help="a rule symbol or code")

    rules = commands.add_parser("rules", help="list all rules")
    rules.add_argument("--format", choices=("text", "json"), default="text")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.command == "check":
            return _check(args)
        if args.command == "rule":
            return _rule(args.name)
        return _rules(args.format)
    except (UsageError, ConfigError) as error:
        print(f"mslint: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:
        return EXIT_CLEAN


def _settings(args: argparse.Namespace) -> Settings:
    if args.config is not None and not args.config.is_file():
        raise UsageError(f"{args.config}: no such configuration file")
    first = args.paths[0] if args.paths else Path.cwd()
    settings = load_settings(args.config or find_config(first)).with_options(
        select=args.select,
        ignore=args.ignore,
        syntax_level=args.syntax_level,
        target=args.target,
        fail_on=Severity.parse(args.fail_on) if args.fail_on else None,
    )
    try:
        validate_selectors((*settings.select, *settings.ignore))
        for selectors in settings.per_file_ignores.values():
            validate_selectors(selectors)
    except ValueError as error:
        raise UsageError(str(error)) from None
    return settings


def _check(args: argparse.Namespace) -> int:
    settings = _settings(args)
    files = discover(args.paths or [Path(".")], settings)
    report = check_files(files, settings)
    for line in report.unreadable:
        print(f"mslint: error: {line}", file=sys.stderr)
    if args.format == "json":
        sys.stdout.write(render_json(report.diagnostics))
    else:
        sys.stdout.write(render_text(report.diagnostics, report.files))
    if report.unreadable:
        return EXIT_USAGE
    failing = any(d.severity >= settings.fail_on for d in report.diagnostics)
    return EXIT_FINDINGS if failing else EXIT_CLEAN


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
