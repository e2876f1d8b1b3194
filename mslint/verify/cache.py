"""The verifier's result cache: a compile runs again only when something that decides it changed.

A compile's key is what the compile was asked (the entry's file and name, the syntax level,
the input specs and constructor arguments, whether it is an example factory, whether graph
mode is compared with PyNative), the MindSpore version and device it runs on, the Python
version, and mslint's version and the content of its verifier. Its entry also records the
files its result depends on, each with the digest of its content: the entry's file and every
project module it imports, at any depth (and those of the project's classes handed to its
constructor); for an example factory, the factory's file and the
modules that the Cell it returned imports. The entry is used only while each of those files
still has its digest; then the compile is not run and its recorded outcome stands.

A replica comparison of ``distributed-without-seed`` (:mod:`mslint.verify.replicas`) is kept
alike. Its key is what the ranks were asked to build (each entry's file and name, constructor
arguments, whether it is an example factory), with the MindSpore version, CPU (where ``msrun``
runs the ranks), the Python version, and mslint's version and verifier. Its entry records each
rank's record and depends on each build's file, and on the files of the Cells the ranks built
(each rank records the source file of each Cell's class) and of the entries that are no
factory, with every project module they import.

Only compiles that ran to their end are kept (a compile that stopped at an error of the code
too), and only replica runs in which ``msrun`` ended and every rank built every Cell (a rank's
error may be the machine's): a crash, a timeout or a lack of memory may not happen again. Nor
is one whose files changed while the run went on: its compile may have read either version. An
entry is one file named by its key; it holds the key and is signed with the user's key as the
check cache is (:mod:`mslint.cache_signature`): one that is not signed so, or whose key is not
its name, is never used (it is written anew), so that an entry edited by hand or by a pull
request cannot turn a failed compile into one that compiled. Entries are written beside their
place, synced to disk and renamed into it, so that a reader, or a CI job that saves the folder,
never sees half of one.
An entry, and each file it names, is read only as a regular file of bounded size: a FIFO or
``/dev/zero`` named there must not block or exhaust ``verify``.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mslint import __version__
from mslint.atomic_write import write_atomically
from mslint.cache_signature import sign, signed_payload, signing_key
from mslint.model.module import ModuleInfo, imported_names
from mslint.model.project import Project
from mslint.settings import Settings
from mslint.source import read_regular_file
from mslint.verify.compiler_output import Problem
from mslint.verify.literals_json import kwargs_to_json
from mslint.verify.references import references_in
from mslint.verify.runner import Job, Outcome
from mslint.verify.statuses import RAN

CACHE_FOLDER = ".mslint_cache"
_VERIFIER = Path(__file__).resolve().parent
LARGEST_ENTRY = 16 * 1024 * 1024
"""Bytes: a larger entry is not read, as a missing one."""
LARGEST_SOURCE = 64 * 1024 * 1024
"""Bytes: a file an entry depends on that is larger is not digested, and the entry not used."""


@dataclass(frozen=True)
class Runtime:
    """What compiles here: the installed MindSpore and the device the compiles use."""

    mindspore: str
    device: str


def default_folder(settings: Settings) -> Path:
    """``verify`` in the project's cache folder (``.mslint_cache`` beside the configuration, or
    ``$MSLINT_CACHE_DIR``), as ``mslint check`` keeps its own."""
    return Path(os.environ.get("MSLINT_CACHE_DIR") or settings.root / CACHE_FOLDER) / "verify"


class ResultCache:
    def __init__(self, folder: Path, runtime: Runtime, project: Project) -> None:
        self.folder = folder
        self.runtime = runtime
        self._project = project
        self._modules: dict[str, ModuleInfo] = {}
        self._modules_read = 0
        self._digests: dict[str, str | None] = {}
        self._since = time.time_ns()

    def lookup(self, job: Job) -> Outcome | None:
        """The recorded outcome of ``job``, if its entry is whole and its files are unchanged."""
        entry = self._read(self.key(job))
        try:
            return None if entry is None else _outcome(job, entry["outcome"])
        except (ValueError, KeyError, TypeError, AttributeError):
            return None

    def store(self, job: Job, outcome: Outcome) -> None:
        """Keep a compile that ran to its end, with the files it depends on; nothing where a
        file it depends on is unknown (a Cell outside the checked files)."""
        if outcome.status not in RAN or outcome.cached:
            return
        files = self._dependencies(job, outcome)
        if files is not None:
            self._write(self.key(job), files, {"outcome": _outcome_json(outcome)})

    def lookup_ranks(self, builds: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
        """The recorded ranks' records of building ``builds`` under ``msrun``, if whole and unchanged."""
        entry = self._read(self.ranks_key(builds))
        records = None if entry is None else entry.get("ranks")
        return records if isinstance(records, list) else None

    def store_ranks(self, builds: list[dict[str, Any]], records: list[dict[str, Any]]) -> None:
        """Keep the ranks' records of a run in which every rank built every Cell, with the files
        they depend on: each build's file, and the files of the Cells built and every project
        module they import; nothing where one is unknown (a Cell outside the checked files)."""
        if any(record.get("error") for record in records):  # a rank's error may be the machine's
            return
        cell_files = {path for record in records for path in record["sources"]}
        own_files = {str(Path(b["path"]).resolve()) for b in builds}
        entries = {str(Path(b["path"]).resolve()) for b in builds if not b["factory"]}
        modules = [self._module_at(path) if path else None for path in cell_files | entries]
        if not cell_files or None in modules:
            return
        files = sorted(own_files | set(self._closure(m for m in modules if m is not None)))
        self._write(self.ranks_key(builds), files, {"ranks": records})

    def _read(self, key: str) -> dict[str, Any] | None:
        """The entry of ``key``, if it is signed by the user's key, is whole, and each file it
        depends on still has its digest."""
        signer = signing_key()
        if signer is None:
            return None
        entry = read_entry(self._place(key), key, signer)
        if entry is None:
            return None
        try:
            sources = entry["sources"]
            if not sources or any(self._file_digest(path) != digest for path, digest in sources.items()):
                return None
            return entry
        except (KeyError, TypeError, AttributeError):
            return None

    def _write(self, key: str, files: list[str], result: dict[str, Any]) -> None:
        """Keep ``result`` under ``key`` with the digests of ``files``; nothing where one cannot be read."""
        sources = {path: self._file_digest(path) for path in files}
        if any(digest is None for digest in sources.values()) or self._edited_during_run(files):
            return
        signer = signing_key()
        if signer is None:
            return
        keep_entry(self._place(key), {"key": key, "sources": sources, **result}, signer)

    def key(self, job: Job) -> str:
        asked = {
            "path": str(job.path.resolve()),
            "name": job.name,
            "level": job.level,
            "inputs": job.inputs,
            "kwargs": kwargs_to_json(job.kwargs),
            "factory": job.factory,
            "compare": job.compare,
            **({"candidates": list(job.candidates), "synthesised": job.synthesised} if job.synthesised else {}),
        }
        return self._key(asked)

    def ranks_key(self, builds: list[dict[str, Any]]) -> str:
        return self._key({"replicas": builds})

    def _key(self, asked: dict[str, Any]) -> str:
        """The digest of what was asked and of what answers it here."""
        here = {
            "mindspore": self.runtime.mindspore,
            "device": self.runtime.device,
            "python": sys.version.split()[0],
            "mslint": __version__,
            "verifier": verifier_digest(),
        }
        return hashlib.sha256(json.dumps({**asked, **here}, sort_keys=True, default=str).encode()).hexdigest()

    def _place(self, key: str) -> Path:
        return self.folder / key[:2] / f"{key}.json"

    def _dependencies(self, job: Job, outcome: Outcome) -> list[str] | None:
        own = str(job.path.resolve())
        compiled = (outcome.compiled or {}).get("path")
        module = self._module_at(str(Path(str(compiled)).resolve()) if job.factory and compiled else own)
        # The project's classes handed to the constructor are built with it (`block=BottleNeck`).
        handed = [self._module_at(r.module) for r in references_in(list(job.kwargs.values())) if r.in_file]
        if module is None or None in handed:
            return None
        return sorted({own, *self._closure([module, *(m for m in handed if m is not None)])})

    def _module_at(self, path: str) -> ModuleInfo | None:
        if self._modules_read != len(self._project.modules):  # modules are loaded on demand
            self._modules = {str(m.path.resolve()): m for m in self._project.modules}
            self._modules_read = len(self._project.modules)
        return self._modules.get(path)

    def _closure(self, roots: Iterable[ModuleInfo]) -> list[str]:
        """The files of ``roots`` and of every project module they import, at any depth."""
        found = {id(m): m for m in roots}
        walked = list(found.values())
        for current in walked:  # grows while it is walked
            for name in imported_names(current):
                module = self._project.module_of(name, current)
                if module is not None and id(module) not in found:
                    found[id(module)] = module
                    walked.append(module)
        return sorted(str(m.path.resolve()) for m in walked)

    def _edited_during_run(self, files: list[str]) -> bool:
        """Whether one of ``files`` changed since this run began: a compile that overlapped the
        edit read one version or the other, and its outcome under the new digest may be the old
        file's (an editor's save during a long ``verify --all``)."""
        try:
            return any(os.stat(path).st_mtime_ns >= self._since for path in files)
        except OSError:
            return True

    def _file_digest(self, path: str) -> str | None:
        if path not in self._digests:
            try:
                self._digests[path] = hashlib.sha256(read_regular_file(Path(path), LARGEST_SOURCE)).hexdigest()
            except OSError:
                self._digests[path] = None
        return self._digests[path]


@functools.cache
def verifier_digest() -> str:
    """The content of the verifier's files: a development install with another verifier does
    not read the results of this one (across machines too, unlike modification times)."""
    content = hashlib.sha256()
    for path in sorted(p for p in _VERIFIER.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        content.update(path.relative_to(_VERIFIER).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return content.hexdigest()


def _outcome_json(outcome: Outcome) -> dict[str, Any]:
    return {**outcome.result_json(), "problems": [p.to_json() for p in outcome.problems]}


def _outcome(job: Job, data: dict[str, Any]) -> Outcome:
    problems = [Problem.from_json(p) for p in data["problems"]]
    return Outcome.from_result_json(job, data, problems, cached=True)


def read_entry(place: Path, key: str, signer: bytes) -> dict[str, Any] | None:
    """The entry kept at ``place`` for ``key``: None unless it is a regular file of bounded size,
    signed with ``signer``, that names ``key`` (one written for another key, or by hand, is not read)."""
    try:
        payload = signed_payload(read_regular_file(place, LARGEST_ENTRY), signer)
        entry = json.loads(payload) if payload is not None else None
    except (OSError, ValueError):
        return None
    return entry if isinstance(entry, dict) and entry.get("key") == key else None


def keep_entry(place: Path, entry: dict[str, Any], signer: bytes) -> None:
    """Keep ``entry`` at ``place``, signed with ``signer``."""
    _keep(place, sign(json.dumps(entry, sort_keys=True).encode("utf-8"), signer))


def _keep(path: Path, content: bytes) -> None:
    """Write a record; a folder that cannot be written to (a read-only checkout) keeps nothing."""
    try:
        ours = not path.parent.parent.exists()
        path.parent.mkdir(parents=True, exist_ok=True)
        if ours:  # a folder of the user's (--cache-dir .) keeps its files seen by git
            (path.parent.parent / ".gitignore").write_text("# Created by mslint\n*\n")
        write_atomically(path, content, streams=False)
    except OSError:
        pass
