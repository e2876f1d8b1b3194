"""Cached and parallel checking: only files whose results may have changed are analysed again.

Findings cross files (a base class in one file makes a class in another a Cell; a caller
in one file makes a helper in another graph code), so results are cached per *component*:
files joined by imports in either direction. A component's results are reused when the
contents of all its files, the files read outside the run to resolve its names, the
mslint version and the effective settings are unchanged; editing one file re-analyses its
component only. Components are independent, so ``jobs`` processes analyse them in parallel.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from mslint import __version__
from mslint.diagnostics import Diagnostic
from mslint.engine import Report, check_files
from mslint.mindspore_tables import targeted_release
from mslint.model.module import module_name_for
from mslint.settings import Settings

CACHE_FOLDER = ".mslint_cache"


@dataclass
class RunFile:
    path: Path
    digest: str
    module: str
    size: int


@dataclass
class Stored:
    """A component's cached results."""

    files: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    """Resolved path -> its diagnostics (JSON, with ``entry_path``)."""
    context: dict[str, str] = field(default_factory=dict)
    """Resolved path -> digest of each file read outside the run."""


@dataclass
class CacheData:
    components: dict[str, Stored] = field(default_factory=dict)
    imports: dict[str, list[str]] = field(default_factory=dict)
    """File digest -> module names the file imports."""


def cache_file(settings: Settings) -> Path:
    """One cache file per mslint version, effective settings and MindSpore release checked
    against (installing another MindSpore changes the default), in the project's cache folder
    (``.mslint_cache`` beside the configuration, or ``$MSLINT_CACHE_DIR``)."""
    fingerprint = json.dumps(
        [
            settings.syntax_level,
            settings.target,
            targeted_release(settings.mindspore_version),
            settings.select,
            settings.ignore,
            sorted(settings.per_file_ignores.items()),
            settings.pynative,
            str(settings.root.resolve()),
        ]
    )
    name = hashlib.sha256(fingerprint.encode()).hexdigest()[:16]
    folder = Path(os.environ.get("MSLINT_CACHE_DIR") or settings.root / CACHE_FOLDER)
    return folder / __version__ / f"{name}.json"


def check_incrementally(paths: list[Path], settings: Settings, cache: Path | None, jobs: int = 1) -> Report:
    """:func:`mslint.engine.check_files`, reusing cached components and analysing the rest in ``jobs`` processes."""
    if cache is None and jobs <= 1:
        return check_files(paths, settings)
    report = Report(files=len(paths))
    data = _load(cache) if cache else CacheData()
    run_files: list[RunFile] = []
    for path in paths:
        try:
            content = path.read_bytes()
        except OSError as error:
            report.unreadable.append(f"{path}: cannot read: {error.strerror or error}")
            continue
        digest = hashlib.sha256(content).hexdigest()
        if digest not in data.imports:
            data.imports[digest] = _imported_modules(path, content)
        run_files.append(RunFile(path, digest, module_name_for(path)[1], len(content)))

    fresh: dict[str, Stored] = {}
    dirty: list[list[RunFile]] = []
    for component in _components(run_files, data.imports):
        key = _component_key(component)
        stored = data.components.get(key)
        if stored is not None and _context_unchanged(stored):
            fresh[key] = stored
            report.diagnostics.extend(_restore(stored, component))
            report.cached_files += len(component)
        else:
            dirty.append(component)

    for component, analysed in zip(dirty, _analyse(dirty, settings, jobs)):
        report.diagnostics.extend(analysed.diagnostics)
        report.unreadable.extend(analysed.unreadable)
        fresh[_component_key(component)] = _store(component, analysed)
    report.diagnostics.sort(key=lambda d: d.sort_key)
    if cache and not report.unreadable:
        in_run = {str(f.path.resolve()) for f in run_files}
        kept = {k: v for k, v in data.components.items() if not in_run.intersection(v.files)}
        _save(cache, CacheData({**kept, **fresh}, {f.digest: data.imports[f.digest] for f in run_files}))
    return report


_FROM_IMPORT = re.compile(
    rb"^[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+"
    rb"(\([^)]*\)|(?:[^\n#;\\]|\\[ \t]*\r?\n)*)",  # a parenthesised list, or a line with continuations
    re.M,
)
_COMMENT = re.compile(r"#[^\n]*")
_IMPORT = re.compile(rb"^[ \t]*import[ \t]+([^\n#;]+)", re.M)


def _imported_modules(path: Path, content: bytes) -> list[str]:
    """Every module name the file may import, top-level or local, relative imports resolved.

    A scan of the text rather than a parse: ten times faster, and the over-approximation
    (an import statement quoted in a docstring) only joins more files into a component."""
    name = module_name_for(path)[1]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for match in _IMPORT.finditer(content):
        for alias in match.group(1).decode("utf-8", "replace").split(","):
            found.add(alias.split(" as ")[0].strip())
    for match in _FROM_IMPORT.finditer(content):
        dots, base = re.match(r"(\.*)(.*)", match.group(1).decode("utf-8", "replace")).groups()  # type: ignore[union-attr]
        if dots:
            parts = package.split(".") if package else []
            parent = parts[: len(parts) - (len(dots) - 1)] if len(dots) > 1 else parts
            base = ".".join([*parent, *([base] if base else [])])
        if base:
            found.add(base)
        names = _COMMENT.sub("", match.group(2).decode("utf-8", "replace")).strip("()")
        for alias in names.replace("\\", " ").split(","):
            imported = alias.split(" as ")[0].strip()
            if imported and imported != "*" and imported.isidentifier():
                found.add(f"{base}.{imported}" if base else imported)
    return sorted(m for m in found if m)


def _components(run_files: list[RunFile], imports: dict[str, list[str]]) -> list[list[RunFile]]:
    """Files joined by an import in either direction (a name and each of its parents count)."""
    parent = list(range(len(run_files)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    by_module: dict[str, list[int]] = {}
    for index, run_file in enumerate(run_files):
        by_module.setdefault(run_file.module, []).append(index)
    for index, run_file in enumerate(run_files):
        for imported in imports[run_file.digest]:
            parts = imported.split(".")
            for length in range(1, len(parts) + 1):
                for other in by_module.get(".".join(parts[:length]), ()):
                    parent[root(other)] = root(index)
    groups: dict[int, list[RunFile]] = {}
    for index, run_file in enumerate(run_files):
        groups.setdefault(root(index), []).append(run_file)
    return list(groups.values())


def _component_key(component: list[RunFile]) -> str:
    members = sorted(f"{f.path.resolve()}\0{f.digest}" for f in component)
    return hashlib.sha256("\n".join(members).encode()).hexdigest()


def _context_unchanged(stored: Stored) -> bool:
    return all(_digest_of(Path(path)) == digest for path, digest in stored.context.items())


def _digest_of(path: Path) -> str:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return "missing"


def _restore(stored: Stored, component: list[RunFile]) -> list[Diagnostic]:
    spelled = {str(f.path.resolve()): str(f.path) for f in component}
    return [
        Diagnostic.from_json({**d["diagnostic"], "path": spelled[path]}, d["entry_path"])
        for path, found in stored.files.items()
        for d in found
    ]


def _store(component: list[RunFile], report: Report) -> Stored:
    spelled = {str(f.path): str(f.path.resolve()) for f in component}
    stored = Stored(files={str(f.path.resolve()): [] for f in component})
    for d in report.diagnostics:
        stored.files[spelled[d.path]].append({"diagnostic": d.to_json(), "entry_path": d.entry_path})
    stored.context = {str(p.resolve()): _digest_of(p) for p in report.context_files}
    return stored


def _analyse(components: list[list[RunFile]], settings: Settings, jobs: int) -> list[Report]:
    """One report per component; components are spread over ``jobs`` processes, largest first."""
    if jobs <= 1 or len(components) <= 1:
        return [check_files([f.path for f in c], settings) for c in components]
    import multiprocessing  # only parallel runs pay for importing it
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    largest_first = sorted(range(len(components)), key=lambda i: -sum(f.size for f in components[i]))
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        futures = {i: pool.submit(check_files, [f.path for f in components[i]], settings) for i in largest_first}
        return [futures[i].result() for i in range(len(components))]


def _load(cache: Path) -> CacheData:
    try:
        raw = json.loads(cache.read_text(encoding="utf-8"))
        return CacheData(
            {key: Stored(**value) for key, value in raw["components"].items()},
            raw["imports"],
        )
    except (OSError, ValueError, KeyError, TypeError):
        return CacheData()  # no cache yet, or one written by another version: start afresh


def _save(cache: Path, data: CacheData) -> None:
    """Write atomically, so that concurrent runs never read half a cache."""
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        ignore = cache.parent.parent / ".gitignore"
        if not ignore.exists():
            ignore.write_text("# Created by mslint\n*\n")
        temporary = cache.with_suffix(f".{os.getpid()}.tmp")
        document = {"components": {k: asdict(v) for k, v in data.components.items()}, "imports": data.imports}
        temporary.write_text(json.dumps(document), encoding="utf-8")
        os.replace(temporary, cache)
    except OSError:
        pass  # a read-only project still gets its results, only not cached
