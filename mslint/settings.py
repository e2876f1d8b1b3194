"""Effective settings of a run: defaults, ``[tool.mslint]`` in pyproject.toml, then the command line."""

from __future__ import annotations

import fnmatch
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from mslint.diagnostics import Severity
from mslint.mindspore_tables import release_for
from mslint.model.inputs import parse_input_specs

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

NEVER = "none"
"""``fail-on = "none"``: findings never fail the run."""
SYNTAX_LEVELS = ("strict", "lax")
TARGETS = ("ascend", "gpu", "cpu")
DEFAULT_EXCLUDE = (
    ".git",
    ".hg",
    ".svn",
    ".venv",
    "venv",
    ".tox",
    ".nox",
    "__pycache__",
    ".mypy_cache",
    ".pytest_cache",
    ".ruff_cache",
    "build",
    "dist",
    "node_modules",
    "site-packages",
)


class ConfigError(Exception):
    """A bad setting; reported as one line with exit code 2."""


@dataclass(frozen=True)
class VerifyEntry:
    """How ``mslint verify`` builds one Cell or ``@jit`` function: ``"pkg.module:Net" = {...}``."""

    inputs: str = ""
    """Input specs, e.g. ``float32[N,3,224,224], int32[N]``."""
    kwargs: dict[str, Any] = field(default_factory=dict)
    """Constructor keyword arguments."""


@dataclass(frozen=True)
class Settings:
    syntax_level: str = "lax"
    """MindSpore's own default; ``strict`` turns interpreter fallbacks into errors."""
    target: str = "ascend"
    mindspore_version: str | None = None
    """The release whose API tables are used; None: the installed MindSpore, else the newest described."""
    select: tuple[str, ...] = ("ALL",)
    ignore: tuple[str, ...] = ()
    per_file_ignores: dict[str, tuple[str, ...]] = field(default_factory=dict)
    exclude: tuple[str, ...] = ()
    extend_exclude: tuple[str, ...] = ()
    """Added to ``exclude`` (ruff's ``extend-exclude``)."""
    force_exclude: bool = False
    """Exclusions apply to paths named on the command line too (pre-commit passes file names)."""
    respect_gitignore: bool = True
    """A folder walk leaves out what ``.gitignore``, ``.git/info/exclude`` and ``.ignore`` files ignore."""
    fail_on: Severity | None = Severity.WARNING
    """The lowest severity that makes ``mslint check`` exit with 1; None (``none``): no finding does."""
    pynative: tuple[str, ...] = ()
    """Where the code runs only in PyNative mode: path globs, or ``module:Cell`` names."""
    verify_entries: dict[str, VerifyEntry] = field(default_factory=dict)
    """``[tool.mslint.verify]``, keyed by ``module:Name``."""
    root: Path = field(default_factory=Path.cwd)
    """The folder of the configuration file; per-file-ignores and exclude are relative to it."""
    cache_dir: Path | None = None
    """``--cache-dir``: where the cache lives instead of ``.mslint_cache`` beside the configuration."""

    def with_options(self, **options: Any) -> Settings:
        return replace(self, **{k: v for k, v in options.items() if v is not None})

    def is_excluded(self, path: Path) -> bool:
        """Whether discovery skips ``path`` (checked for each folder and file as it is reached)."""
        own = (*self.exclude, *self.extend_exclude)
        if any(fnmatch.fnmatch(path.name, p) for p in (*DEFAULT_EXCLUDE, *own)):
            return True
        if not own:
            return False  # no path of its own to resolve: discovery asks for every file and folder
        relative = _relative(path, self.root)
        return any(fnmatch.fnmatch(relative, p) or fnmatch.fnmatch(relative, p.rstrip("/") + "/*") for p in own)

    def is_force_excluded(self, path: Path) -> bool:
        """With ``force-exclude``, whether a path named on the command line is skipped: it or a
        folder around it below the configuration folder is excluded."""
        if not self.force_exclude:
            return False
        try:
            inside = path.resolve().relative_to(self.root.resolve()).parents
        except (ValueError, RuntimeError, OSError):  # outside the root: only the path itself
            return self.is_excluded(path)
        return self.is_excluded(path) or any(self.is_excluded(self.root / folder) for folder in list(inside)[:-1])

    def runs_pynative(self, path: Path, cell: str) -> bool:
        """Whether the ``pynative`` setting names the Cell ``cell`` (``module:Name``) defined in ``path``:
        by name, or by a pattern matching the file or a folder around it (its path or its name)."""
        if not self.pynative:
            return False
        parts = _relative(path, self.root).split("/")
        places = [("/".join(parts[: i + 1]), part) for i, part in enumerate(parts)]
        return any(
            entry == cell
            if ":" in entry
            else any(fnmatch.fnmatch(place, entry) or fnmatch.fnmatch(name, entry) for place, name in places)
            for entry in self.pynative
        )

    def ignored_in(self, path: Path) -> tuple[str, ...]:
        if not self.per_file_ignores:
            return ()  # no path of its own to resolve: asked for every module checked
        relative = _relative(path, self.root)
        return tuple(
            selector
            for pattern, selectors in self.per_file_ignores.items()
            if fnmatch.fnmatch(relative, pattern) or fnmatch.fnmatch(path.name, pattern)
            for selector in selectors
        )


def _relative(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except (ValueError, RuntimeError):  # outside the root, or a symlink loop (RuntimeError before 3.13)
        return path.as_posix()


def find_config(start: Path) -> Path | None:
    """The nearest pyproject.toml with a ``[tool.mslint]`` table, from ``start`` upwards."""
    try:
        folder = start.resolve()
        if not folder.is_dir():
            folder = folder.parent
    except (OSError, RuntimeError):  # a symlink loop, a folder that cannot be entered
        folder = start.absolute().parent
    for candidate in (folder, *folder.parents):
        pyproject = candidate / "pyproject.toml"
        if _is_file(pyproject) and _mslint_table(_load_toml(pyproject)) is not None:
            return pyproject
    return None


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except OSError:  # in a folder that cannot be entered: discovery reports the folder
        return False


def _load_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as stream:
            data: dict[str, Any] = tomllib.load(stream)
            return data
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise ConfigError(f"cannot read {path}: {error}") from None
    except UnicodeDecodeError as error:
        raise ConfigError(f"cannot read {path}: byte 0x{error.object[error.start]:02x} is not UTF-8") from None
    except RecursionError:
        raise ConfigError(f"cannot read {path}: its tables or arrays are nested too deeply") from None


def _mslint_table(document: dict[str, Any]) -> Any:
    """``[tool.mslint]`` of a parsed pyproject.toml; None where it has none (another tool's
    pyproject.toml may give ``tool`` any value)."""
    tool = document.get("tool")
    return tool.get("mslint") if isinstance(tool, dict) else None


def load_settings(pyproject: Path | None) -> Settings:
    """Settings from a pyproject.toml's ``[tool.mslint]`` table (defaults when None)."""
    if pyproject is None:
        return Settings()
    table = _mslint_table(_load_toml(pyproject))
    if table is None:
        return Settings(root=pyproject.parent)
    if not isinstance(table, dict):
        raise ConfigError(f"{pyproject}: [tool.mslint] must be a table")
    known = {
        "select",
        "ignore",
        "extend-select",
        "extend-ignore",
        "per-file-ignores",
        "exclude",
        "extend-exclude",
        "force-exclude",
        "respect-gitignore",
        "syntax-level",
        "target",
        "fail-on",
        "verify",
        "mindspore-version",
        "pynative",
    }
    unknown = sorted(set(table) - known)
    if unknown:
        raise ConfigError(f"{pyproject}: unknown key {unknown[0]!r} in [tool.mslint]")

    def strings(key: str) -> tuple[str, ...] | None:
        value = table.get(key)
        if value is None:
            return None
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"{pyproject}: [tool.mslint] {key} must be a list of strings")
        return tuple(value)

    per_file = table.get("per-file-ignores", {})
    if not isinstance(per_file, dict) or not all(
        isinstance(v, list) and all(isinstance(s, str) for s in v) for v in per_file.values()
    ):
        raise ConfigError(f"{pyproject}: [tool.mslint] per-file-ignores must map patterns to lists of rules")
    try:
        settings = Settings(
            root=pyproject.parent,
            per_file_ignores={k: tuple(v) for k, v in per_file.items()},
            verify_entries=_verify_entries(table.get("verify", {})),
        ).with_options(
            select=_extended(strings("select"), strings("extend-select"), Settings.select),
            ignore=_extended(strings("ignore"), strings("extend-ignore"), Settings.ignore),
            exclude=strings("exclude"),
            extend_exclude=strings("extend-exclude"),
            force_exclude=_boolean(table.get("force-exclude"), "force-exclude"),
            respect_gitignore=_boolean(table.get("respect-gitignore"), "respect-gitignore"),
            pynative=_pynative(strings("pynative")),
            syntax_level=choice(table.get("syntax-level"), SYNTAX_LEVELS, "syntax-level"),
            target=choice(table.get("target"), TARGETS, "target"),
            fail_on=_severity(table.get("fail-on")),
            mindspore_version=_release(table.get("mindspore-version")),
        )
    except ValueError as error:
        raise ConfigError(f"{pyproject}: {error}") from None
    return replace(settings, fail_on=None) if table.get("fail-on") == NEVER else settings


def _extended(
    rules: tuple[str, ...] | None, extra: tuple[str, ...] | None, default: tuple[str, ...]
) -> tuple[str, ...] | None:
    """``select`` and ``extend-select`` (or ``ignore`` and ``extend-ignore``) together."""
    if extra is None:
        return rules
    return (*(default if rules is None else rules), *extra)


def _verify_entries(table: Any) -> dict[str, VerifyEntry]:
    if not isinstance(table, dict):
        raise ValueError("[tool.mslint.verify] must be a table")
    entries = {}
    for key, value in table.items():
        if ":" not in key or not isinstance(value, dict):
            expected = '"pkg.module:Net" = {inputs = [...], kwargs = {...}}'
            raise ValueError(f"[tool.mslint.verify] entries look like {expected}, not {key!r}")
        unknown = sorted(set(value) - {"inputs", "kwargs"})
        if unknown:
            raise ValueError(f"[tool.mslint.verify] {key!r}: unknown key {unknown[0]!r} (expected inputs, kwargs)")
        inputs, kwargs = value.get("inputs", []), value.get("kwargs", {})
        if not isinstance(inputs, list) or not all(isinstance(i, str) for i in inputs):
            raise ValueError(f"[tool.mslint.verify] {key!r}: inputs must be a list of specs such as 'float32[N,4]'")
        if not isinstance(kwargs, dict):
            raise ValueError(f"[tool.mslint.verify] {key!r}: kwargs must be a table")
        spec = ", ".join(inputs)
        parse_input_specs(spec)
        entries[key] = VerifyEntry(spec, kwargs)
    return entries


def _pynative(entries: tuple[str, ...] | None) -> tuple[str, ...] | None:
    for entry in entries or ():
        module, _, name = entry.partition(":")
        if ":" in entry and not (module and name.isidentifier()):
            raise ValueError(f"pynative entries are path patterns or 'package.module:Cell', not {entry!r}")
    return entries


def _boolean(value: Any, name: str) -> bool | None:
    if value is not None and not isinstance(value, bool):
        raise ValueError(f"{name} must be true or false, not {value!r}")
    return value


def _severity(value: Any) -> Severity | None:
    if value is None or value == NEVER:
        return None
    if not isinstance(value, str) or value.upper() not in Severity.__members__:
        raise ValueError(f"fail-on must be one of error, warning, info, none, not {value!r}")
    return Severity.parse(value)


def _release(value: Any) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise ValueError('mindspore-version must be a string such as "2.9"')
    release_for(value)
    return value


def choice(value: Any, allowed: tuple[str, ...], name: str) -> str | None:
    if value is None:
        return None
    if value not in allowed:
        raise ValueError(f"{name} must be one of {', '.join(allowed)}, not {value!r}")
    return str(value)
