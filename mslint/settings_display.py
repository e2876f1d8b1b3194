"""``check --show-settings``: the effective settings a file is checked with, as ruff shows them,
written as ``[tool.mslint]`` keys so that they can be read and compared."""

from __future__ import annotations

import json
from pathlib import Path

from mslint.engine import enabled_rules
from mslint.mindspore_tables import targeted_release
from mslint.settings import Settings


def show_settings(path: Path, settings: Settings, configuration: Path | None, cache: Path | None) -> str:
    """``configuration``: the pyproject.toml read (None: defaults); ``cache``: the cache file (None: not used)."""
    values = {
        "select": list(settings.select),
        "ignore": list(settings.ignore),
        "per-file-ignores": {pattern: list(rules) for pattern, rules in settings.per_file_ignores.items()},
        "exclude": list(settings.exclude),
        "extend-exclude": list(settings.extend_exclude),
        "force-exclude": settings.force_exclude,
        "respect-gitignore": settings.respect_gitignore,
        "syntax-level": settings.syntax_level,
        "target": settings.target,
        "mindspore-version": targeted_release(settings.mindspore_version),
        "fail-on": str(settings.fail_on) if settings.fail_on is not None else "none",
        "pynative": list(settings.pynative),
    }
    lines = [
        f"# Settings for {path}",
        f"# configuration: {configuration if configuration is not None else 'none (the defaults)'}",
        f"# root: {settings.root}",
        f"# cache: {cache if cache is not None else 'none'}",
        "[tool.mslint]",
        *(f"{key} = {json.dumps(value)}" for key, value in values.items()),
        "",
        "# Rules enabled for this file:",
        *(f"# {rule.code} {rule.symbol}" for rule in enabled_rules(settings, path)),
    ]
    return "\n".join(lines) + "\n"
