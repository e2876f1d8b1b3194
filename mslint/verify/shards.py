"""``mslint verify --shard I/N`` and ``--shard auto``: one of N parts of the entries to verify.

The entries (``--example`` factories and the Cells and functions built from specs) are named
by their file, relative to the working folder, and their name. Each entry costs what its
compiles took in an earlier result (``--durations``); an entry without one costs its size in
lines at the seconds per line of the entries of its kind that have one (:func:`entry_costs`),
and an entry that cannot be built costs nothing. An entry that an example factory built in
the earlier result (:func:`built_by`) goes with that example, at no cost of its own: the shard
that compiles the example judges the entry's findings with that compile, as a single run does,
and no other shard builds the entry from its specs. The costliest entry goes first to the
least loaded shard, and so on (ties by name, then by the lower shard), so the N shards end
together, every entry is in exactly one shard, and every machine that runs the same command on
the same files and durations computes the same split. Without durations and with entries of
one size this deals the entries out in turn, sorted by name.

``--shard auto`` reads I and N from the job array the process runs in (:data:`JOB_ARRAYS`).
"""

from __future__ import annotations

import hashlib
import heapq
import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

_SHARD = re.compile(r"\s*(\d{1,18})\s*/\s*(\d{1,18})\s*")
AUTO = "auto"
MOST_SHARDS = 10_000
"""More shards than any job array runs (Slurm's default limit is 1,001, GitLab's 200): the split
holds one set per shard, and ``verify merge`` one place, so a larger count is refused before
either is made."""


@dataclass(frozen=True)
class JobArray:
    """Where a kind of job array keeps the index of the running job and the number of jobs."""

    name: str
    index: str
    """The variable of the job's index."""
    count: str
    """The variable of the number of jobs."""
    first: int
    """The index of the first job: 0 or 1."""


JOB_ARRAYS = (
    # Set by hand where the array has no variables (GitHub Actions' strategy.job-index/job-total).
    JobArray("mslint's own variables", "MSLINT_SHARD_INDEX", "MSLINT_SHARD_COUNT", 0),
    JobArray("a Slurm array", "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT", 0),
    # Kubernetes gives the index only: the pod's spec passes the Job's completions as the count.
    JobArray("a Kubernetes Indexed Job", "JOB_COMPLETION_INDEX", "MSLINT_SHARD_COUNT", 0),
    JobArray("a GitLab parallel job", "CI_NODE_INDEX", "CI_NODE_TOTAL", 1),
)
"""The job arrays ``--shard auto`` recognizes, in the order it looks for them."""
_SLURM_MIN, _SLURM_STEP = "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_STEP"
"""A Slurm array's task ids run from its minimum by its step (``--array=1-7:2``)."""


@dataclass(frozen=True)
class Shard:
    index: int
    """1-based, as CI matrices count."""
    count: int
    found_in: str | None = None
    """For ``--shard auto``: the job array I and N came from."""

    @classmethod
    def parse(cls, text: str, environ: Mapping[str, str] = os.environ) -> Shard:
        if text.strip() == AUTO:
            return from_job_array(environ)
        match = _SHARD.fullmatch(text)
        if match is None:
            raise ValueError(f"--shard {text!r}: expected I/N, e.g. 2/4, or auto")
        index, count = int(match.group(1)), int(match.group(2))
        if not 1 <= index <= count:
            raise ValueError(f"--shard {text!r}: expected 1 <= I <= N")
        if count > MOST_SHARDS:
            raise ValueError(f"--shard {text!r}: at most {MOST_SHARDS:,} shards")
        return cls(index, count)

    def select(self, costs: Mapping[str, float]) -> set[str]:
        """This shard's entries, out of all of them (named as by :func:`entry_name`) with their costs."""
        return split(costs, self.count)[self.index - 1]


def from_job_array(environ: Mapping[str, str]) -> Shard:
    """The shard of the first job array of :data:`JOB_ARRAYS` whose index variable is set."""
    array = next((a for a in JOB_ARRAYS if environ.get(a.index, "").strip()), None)
    if array is None:
        names = ", ".join(a.index for a in JOB_ARRAYS)
        raise ValueError(f"--shard auto: not in a job array: none of {names} is set")
    index = _whole_number(environ, array.index, array)
    if array.count not in environ:
        raise ValueError(f"--shard auto: {array.index} is set ({array.name}) but not {array.count}, the number of jobs")
    count = _whole_number(environ, array.count, array)
    if count > MOST_SHARDS:
        raise ValueError(f"--shard auto: {array.count}={count} ({array.name}): at most {MOST_SHARDS:,} shards")
    position = index - array.first
    if array.index == "SLURM_ARRAY_TASK_ID":
        first = _whole_number(environ, _SLURM_MIN, array) if _SLURM_MIN in environ else 0
        step = _whole_number(environ, _SLURM_STEP, array) if _SLURM_STEP in environ else 1
        position, off_step = divmod(index - first, max(1, step))
        if off_step:
            raise ValueError(f"--shard auto: task {index} of a Slurm array that does not run from {first} by {step}")
    if not 0 <= position < count:
        raise ValueError(
            f"--shard auto: {array.index}={environ[array.index].strip()} is not one of the "
            f"{count} jobs of {array.name} ({array.count}={count})"
        )
    return Shard(position + 1, count, f"{array.name} ({array.index}, {array.count})")


def _whole_number(environ: Mapping[str, str], variable: str, array: JobArray) -> int:
    text = environ[variable].strip()
    if not (text.isascii() and text.isdigit()):
        raise ValueError(f"--shard auto: {variable}={text!r} ({array.name}): expected a whole number")
    if len(text) > 18:  # int() of thousands of digits is slow, then refused
        raise ValueError(f"--shard auto: {variable}={text[:20]}... ({array.name}): at most {MOST_SHARDS:,} shards")
    return int(text)


def split(costs: Mapping[str, float], count: int, together: Mapping[str, str] | None = None) -> list[set[str]]:
    """The entries in ``count`` shards of about equal cost: longest first to the least loaded.

    ``together`` maps an entry to the entry whose shard it goes to, at no cost of its own (a
    Cell to the example factory that built it: :func:`built_by`); a name that is not among the
    entries, or that goes with another entry itself, leads nothing."""
    leader = {name: name for name in costs}
    for name, other in (together or {}).items():
        if name in costs and other in costs and other != name and other not in (together or {}):
            leader[name] = other
    units = sorted({leader[name] for name in costs}, key=lambda n: (-costs[n], n))
    placed: dict[str, int] = {}
    loads = [(0.0, index) for index in range(count)]
    for unit in units:
        load, index = heapq.heappop(loads)
        placed[unit] = index
        heapq.heappush(loads, (load + costs[unit], index))
    shards: list[set[str]] = [set() for _ in range(count)]
    for name in costs:
        shards[placed[leader[name]]].add(name)
    return shards


def entry_costs(kinds: Sequence[Mapping[str, int]], durations: Mapping[str, float]) -> dict[str, float]:
    """Each entry's recorded duration, or its size at the recorded seconds per line of its kind.

    ``kinds`` holds the sizes of each kind of entry (example factories, entries built from
    specs), whose lines are not comparable: a two-line factory may build a large model. A kind
    of which nothing is recorded costs the mean recorded duration at its mean size; with
    nothing recorded at all, an entry costs its size (only the proportions matter)."""
    recorded = [durations[name] for sizes in kinds for name in sizes if name in durations]
    costs: dict[str, float] = {}
    for sizes in kinds:
        lines = {name: max(1, size) for name, size in sizes.items()}
        known = {name: durations[name] for name in lines if name in durations}
        if not lines:
            continue
        if known:
            per_line = sum(known.values()) / sum(lines[name] for name in known)
        elif recorded:
            per_line = sum(recorded) / len(recorded) / (sum(lines.values()) / len(lines))
        else:
            per_line = 1.0
        costs.update({name: known.get(name, size * per_line) for name, size in lines.items()})
    return costs


def durations_of(results: Mapping[str, object]) -> dict[str, float]:
    """The seconds each entry's compiles took, from a ``mslint verify --format json`` result."""
    found: dict[str, float] = {}
    compiles = results.get("compiles")
    for compile_ in compiles if isinstance(compiles, list) else []:
        if not isinstance(compile_, dict) or not isinstance(compile_.get("wall_s"), (int, float)):
            continue
        name = compile_.get("entry") or entry_name(str(compile_.get("path")), str(compile_.get("name")))
        found[str(name)] = found.get(str(name), 0.0) + float(compile_["wall_s"])
    return found


def built_by(results: Mapping[str, object]) -> dict[str, str]:
    """The entry each example factory built in a ``mslint verify --format json`` result (the
    Cell its compile reports), to that example's entry; a Cell that several examples built, to
    the first of them by name."""
    found: dict[str, str] = {}
    compiles = results.get("compiles")
    for compile_ in compiles if isinstance(compiles, list) else []:
        built = compile_.get("compiled") if isinstance(compile_, dict) else None
        if not (isinstance(built, dict) and compile_.get("example") and built.get("path") and built.get("name")):
            continue
        cell = entry_name(str(built["path"]), str(built["name"]))
        example = str(compile_.get("entry") or entry_name(str(compile_.get("path")), str(compile_.get("name"))))
        found[cell] = min(example, found.get(cell, example))
    return found


def split_digest(shards: list[set[str]]) -> str:
    """Names the whole split: shards of one run carry the same digest."""
    text = json.dumps([sorted(shard) for shard in shards])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def entry_name(path: Path | str, name: str) -> str:
    """``models/resnet.py:ResNet``: the same on every machine that checks out the project in
    the working folder."""
    resolved = Path(path).resolve()
    try:
        shown = resolved.relative_to(Path.cwd().resolve())
    except ValueError:
        shown = resolved
    return f"{shown.as_posix()}:{name}"
