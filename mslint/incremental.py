"""Cached and parallel checking: only files whose results may have changed are analysed again.

Findings cross files (a base class in one file makes a class in another a Cell; a caller
in one file makes a helper in another graph code), so results are cached per *component*:
files joined by imports in either direction. A component's results are reused when the
contents of all its files, the files read outside the run to resolve its names, the
mslint version and the effective settings are unchanged; editing one file re-analyses its
component only. Components are independent, so ``jobs`` processes analyse them in parallel.
"""

from __future__ import annotations

import codecs
import contextlib
import functools
import hashlib
import json
import os
import pickle
import re
import signal
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, NoReturn

from mslint import __version__
from mslint.atomic_write import write_atomically
from mslint.cache_signature import sign, signed_payload, signing_key
from mslint.diagnostics import Diagnostic
from mslint.engine import Report, check_files
from mslint.mindspore_tables import targeted_release
from mslint.model.file_facts import FileFacts
from mslint.model.import_roots import module_files
from mslint.model.module import Packages, resolved_module_name
from mslint.rules import all_rules
from mslint.settings import Settings
from mslint.source import read_regular_file
from mslint.workers import Lifeline, automatic_jobs, available_cores, process_pool

CACHE_FOLDER = ".mslint_cache"
LARGEST_CACHE = 256 * 1024 * 1024
"""Bytes; a larger cache file (or one that is not a regular file) is not read, as a missing one."""
_RULE_SYMBOLS = {rule.code: rule.symbol for rule in all_rules()}


@dataclass
class RunFile:
    path: Path
    resolved: str
    """The absolute path, symbolic links resolved: the file's identity in the cache."""
    digest: str
    root: Path
    """The import root (the folder above the file's packages)."""
    module: str
    size: int

    @property
    def imports_key(self) -> str:
        """The key of the file's imports: its content and its module name, which resolves its
        relative imports (the same file in two projects may sit in packages of other names)."""
        return f"{self.digest} {self.module}"


@dataclass
class Stored:
    """A component's cached results."""

    files: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    """Resolved path -> its diagnostics (JSON, with ``entry_path``)."""
    context: dict[str, str] = field(default_factory=dict)
    """Resolved path -> digest of each path outside the run that the results depend on: the
    files read, and the paths probed for imports and found without a module."""


@dataclass
class CacheData:
    components: dict[str, Stored] = field(default_factory=dict)
    imports: dict[str, list[str]] = field(default_factory=dict)
    """:attr:`RunFile.imports_key` -> module names the file imports."""
    joins: list[list[str]] = field(default_factory=list)
    """Pairs of files (resolved paths) whose analysis showed them joined where the import scan
    did not: kept so that later runs split the files the same way and reuse the results."""


def cache_file(settings: Settings) -> Path:
    """One cache file per mslint version (and build of its files), effective settings and MindSpore release checked
    against (installing another MindSpore changes the default), in the project's cache folder
    (``.mslint_cache`` beside the configuration, or ``$MSLINT_CACHE_DIR``, or ``--cache-dir``)."""
    fingerprint = json.dumps(
        [
            code_fingerprint(Path(__file__).resolve().parent),
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
    name = hashlib.sha256(fingerprint.encode(errors="surrogateescape")).hexdigest()[:16]
    folder = settings.cache_dir or Path(os.environ.get("MSLINT_CACHE_DIR") or settings.root / CACHE_FOLDER)
    return folder / __version__ / f"{name}.json"


@functools.cache
def code_fingerprint(package: Path) -> str:
    """The size and modification time of each file of the mslint package: a development install
    (or a reinstall of the same version) with other rules or tables must not read the results
    of the old ones. A stat per file, not a read: a run costs well under a millisecond more."""
    files = sorted(p for p in package.rglob("*") if p.suffix in (".py", ".json") and "__pycache__" not in p.parts)
    return hashlib.sha256(
        "\n".join(f"{p.relative_to(package)} {p.stat().st_size} {p.stat().st_mtime_ns}" for p in files).encode()
    ).hexdigest()


def check_incrementally(paths: list[Path], settings: Settings, cache: Path | None, jobs: int | None = 1) -> Report:
    """:func:`mslint.engine.check_files`, component by component: cached components reused, the
    others analysed in ``jobs`` processes (None: as many as :func:`mslint.workers.automatic_jobs`
    gives for the source they hold). A serial run frees each component's syntax trees before it
    reads the next: its memory is that of the largest component, not of the run."""
    if cache is None and len(paths) <= 1:
        return check_files(paths, settings)  # one component: nothing to split
    # Speculating makes an explicit --jobs cost nothing on one group; the default has nothing
    # to lose there (it is serial for one group), and decides once the groups are known.
    speculate = cache is None and min(jobs or 1, available_cores()) > 1
    with _speculating(paths, settings, speculate) as speculation:
        return _check_components(paths, settings, cache, jobs, speculation)


def _check_components(
    paths: list[Path], settings: Settings, cache: Path | None, jobs: int | None, speculation: _Speculation | None
) -> Report:
    report = Report(files=len(paths))
    data = _load(cache) if cache else CacheData()
    run_files: list[RunFile] = []
    packages: Packages = {}
    for path in paths:
        try:
            content = read_regular_file(path)
        except OSError as error:
            report.unreadable.append(f"{path}: cannot read: {error.strerror or error}")
            continue
        digest = hashlib.sha256(content).hexdigest()
        resolved = path.resolve()
        root, module = resolved_module_name(resolved, packages)
        run_file = RunFile(path, str(resolved), digest, root, module, len(content))
        if run_file.imports_key not in data.imports:
            data.imports[run_file.imports_key] = _imported_modules(path, module, content)
        run_files.append(run_file)

    fresh: dict[str, Stored] = {}
    in_run = {f.resolved for f in run_files}
    joins = [pair for pair in data.joins if in_run.issuperset(pair)]
    components = _components(run_files, data.imports, joins)
    whole = None
    if speculation is not None:
        if len(components) == 1 and len(run_files) == len(paths):
            whole = speculation.report()
        else:
            speculation.cancel()  # before the components' processes start
    results, found_joins = _closed_results(components, data, settings, jobs, whole)
    for component, result in results:
        key = _component_key(component)
        if isinstance(result, Stored):
            fresh[key] = result
            report.diagnostics.extend(_restore(result, component))
            report.analysed.update({str(f.path): f.digest for f in component})
            report.cached_files += len(component)
        else:
            report.diagnostics.extend(result.diagnostics)
            report.unreadable.extend(result.unreadable)
            report.analysed.update(result.analysed)
            # Results are kept under the text they were computed from: a file saved between its
            # digest above and its analysis is analysed again next time, not answered wrongly.
            if cache and all(result.analysed.get(str(f.path)) == f.digest for f in component):
                fresh[key] = _store(component, result)  # reads every file the results depend on
    report.diagnostics.sort(key=lambda d: d.sort_key)
    if cache and not report.unreadable:
        kept = {k: v for k, v in data.components.items() if not in_run.intersection(v.files)}
        imports = {f.imports_key: data.imports[f.imports_key] for f in run_files}
        _save(cache, CacheData({**kept, **fresh}, imports, [*joins, *found_joins]))
    return report


# Searched from their keyword, then kept where it starts a line (after spaces and tabs): as
# ``^[ \t]*from ...`` in MULTILINE mode finds them, five times faster (a literal first).
_FROM_IMPORT = re.compile(
    rb"from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+"
    rb"(\([^)]*\)|(?:[^\n#;\\]|\\[ \t]*\r?\n)*)",  # a parenthesised list, or a line with continuations
)
_COMMENT = re.compile(r"#[^\n]*")
_IMPORT = re.compile(rb"import[ \t]+([^\n#;]+)")


def _statements(pattern: re.Pattern[bytes], content: bytes) -> Iterator[re.Match[bytes]]:
    """The matches of ``pattern`` that start a line, after spaces and tabs only."""
    position = 0
    while True:
        match = pattern.search(content, position)
        if match is None:
            return
        start = match.start()
        if content[content.rfind(b"\n", 0, start) + 1 : start].strip(b" \t"):
            position = start + 1  # inside a line: no statement starts here
            continue
        yield match
        position = match.end()


def _imported_modules(path: Path, name: str, content: bytes) -> list[str]:
    """Every module name the file (module ``name``) may import, top-level or local, relative imports resolved.

    A scan of the text rather than a parse: ten times faster, and the over-approximation
    (an import statement quoted in a docstring) only joins more files into a component."""
    content = content.removeprefix(codecs.BOM_UTF8)  # or an import on the first line is not at its start
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for match in _statements(_IMPORT, content):
        for alias in match.group(1).decode("utf-8", "replace").split(","):
            found.add(alias.split(" as ")[0].strip())
    for match in _statements(_FROM_IMPORT, content):
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


class DisjointSets:
    """Union-find over ``0 .. count - 1``."""

    def __init__(self, count: int) -> None:
        self._parent = list(range(count))

    def root(self, item: int) -> int:
        parent = self._parent
        while parent[item] != item:
            parent[item] = parent[parent[item]]
            item = parent[item]
        return item

    def join(self, first: int, second: int) -> None:
        self._parent[self.root(first)] = self.root(second)


def _components(run_files: list[RunFile], imports: dict[str, list[str]], joins: list[list[str]]) -> list[list[RunFile]]:
    """Files joined by an import in either direction (a name and each of its parents count).

    An import can find a run file under any folder that encloses the importer (its import roots,
    the package folders of scripts, the folders a project marker hides: see
    :meth:`mslint.model.project.Project.module_named`), and under no other folder: projects side
    by side with the same module names stay apart."""
    sets = DisjointSets(len(run_files))
    by_path = {run_file.resolved: index for index, run_file in enumerate(run_files)}
    found_from: dict[tuple[str, str], int | None] = {}
    # The dotted names a run file can be found by, under some folder: most imports (numpy,
    # mindspore) name none, and are not looked for folder by folder.
    findable = {name for run_file in run_files for name in _dotted_tails(run_file.resolved)}

    def run_file_under(folder: str, name: str) -> int | None:
        """One of the run files an import of ``name`` finds under ``folder`` or a folder above it,
        the others joined to it already (a name asked from a thousand folders of one tree is
        looked up once per folder)."""
        key = (folder, name)
        if name not in findable:
            return None
        if key not in found_from:
            found = [by_path[p] for p in module_files(name, folder) if p in by_path]
            parent = os.path.dirname(folder)
            above = run_file_under(parent, name) if parent != folder else None
            found.extend([above] if above is not None else [])
            for other in found[1:]:
                sets.join(other, found[0])
            found_from[key] = found[0] if found else None
        return found_from[key]

    for index, run_file in enumerate(run_files):
        folder = os.path.dirname(run_file.resolved)
        for imported in imports[run_file.imports_key]:
            parts = imported.split(".")
            for length in range(1, len(parts) + 1):
                other = run_file_under(folder, ".".join(parts[:length]))
                if other is not None:
                    sets.join(other, index)
    for first, second in joins:
        sets.join(by_path[first], by_path[second])
    groups: dict[int, list[RunFile]] = {}
    for index, run_file in enumerate(run_files):
        groups.setdefault(sets.root(index), []).append(run_file)
    return list(groups.values())


def _dotted_tails(path: str) -> Iterator[str]:
    """The module names ``path`` has under the folders above it: ``/a/b/c.py`` gives ``c``,
    ``b.c`` and ``a.b.c``; ``/a/b/__init__.py`` gives ``b`` and ``a.b``."""
    parts = path.split(os.sep)[1:]
    parts[-1] = parts[-1].removesuffix(".py")
    if parts[-1] == "__init__":
        parts.pop()
    for start in range(len(parts) - 1, -1, -1):
        yield ".".join(parts[start:])


def _component_key(component: list[RunFile]) -> str:
    """The files, their contents and their module names (an ``__init__.py`` added above renames them)."""
    members = sorted(f"{f.resolved}\0{f.digest}\0{f.module}" for f in component)
    return hashlib.sha256("\n".join(members).encode(errors="surrogateescape")).hexdigest()


def _reusable(stored: Stored | None, component: list[RunFile]) -> bool:
    """Whether cached results hold for the component: stored for exactly its files, and every
    path outside the run that they depend on is as it was."""
    if stored is None or set(stored.files) != {f.resolved for f in component}:
        return False
    return all(_digest_of(Path(path)) == digest for path, digest in stored.context.items())


def _digest_of(path: Path) -> str:
    if path.is_dir():
        return "folder"
    try:
        return hashlib.sha256(read_regular_file(path)).hexdigest()
    except OSError:
        return "missing"


def _restore(stored: Stored, component: list[RunFile]) -> list[Diagnostic]:
    spelled = {f.resolved: str(f.path) for f in component}
    return [
        Diagnostic.from_json({**d["diagnostic"], "path": spelled[path]}, d["entry_path"])
        for path, found in stored.files.items()
        for d in found
    ]


def _store(component: list[RunFile], report: Report) -> Stored:
    spelled = {str(f.path): f.resolved for f in component}
    stored = Stored(files={f.resolved: [] for f in component})
    for d in report.diagnostics:
        stored.files[spelled[d.path]].append({"diagnostic": d.to_json(), "entry_path": d.entry_path})
    stored.context = {str(p.resolve()): _digest_of(p) for p in [*report.context_files, *sorted(report.probed_paths)]}
    return stored


def _closed_results(
    components: list[list[RunFile]],
    data: CacheData,
    settings: Settings,
    jobs: int | None,
    whole: Report | None = None,
) -> tuple[list[tuple[list[RunFile], Stored | Report]], list[list[str]]]:
    """Each component with its cached results or its new report, and the joins found; ``whole``
    is the report of the one component, when it was analysed already.

    A component whose analysis read a file of another one (an import the text scan missed) is
    merged with it and analysed again, so that the results are always those of one analysis
    of every file together."""
    reports: dict[str, Report] = {_component_key(components[0]): whole} if whole is not None else {}
    joins: list[list[str]] = []
    while True:
        keyed = {_component_key(c): c for c in components}
        reused = {k for k, c in keyed.items() if k not in reports and _reusable(data.components.get(k), c)}
        dirty = [k for k in keyed if k not in reused and k not in reports]
        reports.update(zip(dirty, _analyse([keyed[k] for k in dirty], settings, jobs)))
        keys = list(keyed)
        owner = {f.resolved: i for i, k in enumerate(keys) for f in keyed[k]}
        links: dict[int, set[int]] = {}
        for i, key in enumerate(keys):
            read = {owner.get(str(p.resolve()), i) for p in reports[key].context_files} if key in reports else set()
            if read - {i}:
                links[i] = read - {i}
                joins.extend([keyed[key][0].resolved, keyed[keys[j]][0].resolved] for j in links[i])
        if not links:
            return [(keyed[k], data.components[k] if k in reused else reports[k]) for k in keys], joins
        groups = _merge_groups(len(keys), links)
        components = [
            [f for j in sorted(group) for f in keyed[keys[j]]] for i, group in groups.items() if min(group) == i
        ]


def _merge_groups(count: int, links: dict[int, set[int]]) -> dict[int, frozenset[int]]:
    """For each index, the indexes linked to it directly or not (itself included)."""
    groups = {i: frozenset([i]) for i in range(count)}
    for i, others in links.items():
        for j in others:
            union = groups[i].union(groups[j])
            for k in union:
                groups[k] = union
    return groups


class _Speculation:
    """The whole run analysed in a forked process while the parent splits it into components.

    Where the split finds one component (a package whose ``__init__`` imports all its modules),
    that report is ready when a serial run's would be: the split cost nothing, and ``--jobs``
    is never slower than a serial run. Where it finds several, the process is killed."""

    def __init__(self, pid: int, results: int, lifeline: Lifeline) -> None:
        self._pid: int | None = pid
        self._results = results
        self._lifeline = lifeline

    @classmethod
    def start(cls, paths: list[Path], settings: Settings) -> _Speculation:
        results, written = os.pipe()
        lifeline = Lifeline()  # the process ends with this one, killed or not
        pid = os.fork()
        if pid == 0:  # the child
            os.close(results)
            lifeline.follow()
            _send_report(written, paths, settings)
        os.close(written)
        return cls(pid, results, lifeline)

    def report(self) -> Report | None:
        """The report, or None where the process died without one (the parent analyses again)."""
        results, self._results = self._results, -1  # the stream closes it
        with os.fdopen(results, "rb") as stream:
            payload = stream.read()
        self._reap()
        if not payload:
            return None
        analysed, found = pickle.loads(payload)
        if not analysed:
            raise found  # as the serial run would have raised it
        assert isinstance(found, Report)
        return found

    def cancel(self) -> None:
        if self._pid is not None:
            # Ctrl-C may land between the process's end and its reaping: it is gone already then.
            with contextlib.suppress(ProcessLookupError):
                os.kill(self._pid, signal.SIGKILL)
            if self._results >= 0:
                os.close(self._results)
                self._results = -1
            self._reap()

    def _reap(self) -> None:
        if self._pid is not None:
            os.waitpid(self._pid, 0)
            self._pid = None
            self._lifeline.close()


def _send_report(results: int, paths: list[Path], settings: Settings) -> NoReturn:
    """In the forked process: write the pickled ``(True, report)``, or ``(False, exception)``, and exit."""
    try:
        try:
            payload = pickle.dumps((True, check_files(paths, settings)))
        except Exception as error:
            payload = pickle.dumps((False, error))
        with os.fdopen(results, "wb") as stream:
            stream.write(payload)
    finally:
        os._exit(0)  # no cleanup of the parent's state: buffered output is the parent's to write


@contextlib.contextmanager
def _speculating(paths: list[Path], settings: Settings, enabled: bool) -> Iterator[_Speculation | None]:
    """A :class:`_Speculation` where the results cannot come from a cache and ``fork`` exists."""
    speculation = _Speculation.start(paths, settings) if enabled and hasattr(os, "fork") else None
    try:
        yield speculation
    finally:
        if speculation is not None:
            speculation.cancel()


def _analyse(components: list[list[RunFile]], settings: Settings, jobs: int | None) -> list[Report]:
    """One report per component; components are spread over ``jobs`` processes, largest first
    (None: as many as :func:`mslint.workers.automatic_jobs` gives for their source)."""
    if jobs is None:
        jobs = automatic_jobs([sum(f.size for f in c) for c in components])
    workers = min(jobs, len(components), available_cores())  # more processes than cores only cost memory
    if workers <= 1:
        file_facts = FileFacts()  # the components of one run share what they learn of the file system
        return [check_files([f.path for f in c], settings, file_facts=file_facts) for c in components]
    largest_first = sorted(range(len(components)), key=lambda i: -sum(f.size for f in components[i]))
    with process_pool(workers) as pool:
        futures = {i: pool.submit(check_files, [f.path for f in components[i]], settings) for i in largest_first}
        return [futures[i].result() for i in range(len(components))]


def _load(cache: Path) -> CacheData:
    """The cache, or an empty one when it is missing or not exactly what :func:`_save` writes:
    a damaged cache must cost a slower run, never other results or a crash."""
    key = signing_key()
    try:
        payload = signed_payload(read_regular_file(cache, LARGEST_CACHE), key) if key else None
        if payload is None:
            return CacheData()
        raw = json.loads(payload)
    except (OSError, ValueError, RecursionError):
        return CacheData()
    if not (isinstance(raw, dict) and set(raw) == {"components", "imports", "joins"}):
        return CacheData()
    components, imports, joins = raw["components"], raw["imports"], raw["joins"]
    if not (isinstance(joins, list) and all(isinstance(j, list) and len(j) == 2 and _all_strings(j) for j in joins)):
        return CacheData()
    if not (_is_map_of(components, dict) and _is_map_of(imports, list)):
        return CacheData()
    if not all(_all_strings(names) for names in imports.values()):
        return CacheData()
    if not all(_valid_component(value) for value in components.values()):
        return CacheData()
    stored = {key: Stored(value["files"], value["context"]) for key, value in components.items()}
    return CacheData(stored, imports, joins)


def _is_map_of(value: Any, kind: type) -> bool:
    return isinstance(value, dict) and all(isinstance(v, kind) for v in value.values())


def _all_strings(values: list[Any]) -> bool:
    return all(isinstance(v, str) for v in values)


def _valid_component(value: dict[str, Any]) -> bool:
    if set(value) != {"files", "context"} or not _is_map_of(value["files"], list):
        return False
    context = value["context"]
    if not _is_map_of(context, str):
        return False
    return all(_valid_finding(f) for found in value["files"].values() for f in found)


_DIAGNOSTIC_FIELDS: dict[str, type[Any]] = {
    **dict.fromkeys(("line", "column", "end_line", "end_column"), int),
    **dict.fromkeys(("path", "code", "symbol", "severity", "message"), str),
}


def _valid_finding(found: Any) -> bool:
    """A stored diagnostic with every field of the right type, for a rule that exists."""
    if not (isinstance(found, dict) and set(found) == {"diagnostic", "entry_path"}):
        return False
    diagnostic, entry_path = found["diagnostic"], found["entry_path"]
    if not (isinstance(diagnostic, dict) and isinstance(entry_path, (str, type(None)))):
        return False
    if set(diagnostic) != {*_DIAGNOSTIC_FIELDS, "hint", "entry", "fix"}:
        return False
    for name, kind in _DIAGNOSTIC_FIELDS.items():
        value = diagnostic[name]
        if not isinstance(value, kind) or isinstance(value, bool) or (kind is int and value < 1):
            return False
    if not all(isinstance(diagnostic[name], (str, type(None))) for name in ("hint", "entry")):
        return False
    if _RULE_SYMBOLS.get(diagnostic["code"]) != diagnostic["symbol"]:
        return False
    try:
        restored = Diagnostic.from_json(diagnostic, entry_path)
    except (TypeError, ValueError, KeyError, AttributeError):
        return False
    return restored.to_json() == diagnostic


def _save(cache: Path, data: CacheData) -> None:
    """Write signed and atomically, so that concurrent runs never read half a cache."""
    key = signing_key()
    if key is None:
        return
    try:
        folder = cache.parent.parent
        ours = not folder.exists()  # a folder of the user's ($MSLINT_CACHE_DIR=.) keeps its files seen by git
        cache.parent.mkdir(parents=True, exist_ok=True)
        if ours:
            write_atomically(folder / ".gitignore", b"# Created by mslint\n*\n", streams=False)
        components = {k: asdict(v) for k, v in data.components.items()}
        document = {"components": components, "imports": data.imports, "joins": data.joins}
        write_atomically(cache, sign(json.dumps(document).encode("utf-8"), key), streams=False)
    except OSError:
        pass  # a read-only project still gets its results, only not cached
