"""A stand-in for the verifier's compiles, for tests of what ``mslint verify`` does around them
(shards, merging, the cache, the gate): no MindSpore, and every compile is recorded.

An entry "compiles" at both levels; at LAX it falls back on each line of its class that ends
with ``# falls back``, and at STRICT it fails on the first line that ends with ``# fails``. An
example factory ``make_x`` builds the Cell ``X`` of ``net.py`` beside it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from mslint.verify import command
from mslint.verify.cache import Runtime
from mslint.verify.compiler_output import ERROR, FALLBACK, Problem
from mslint.verify.runner import Job, Outcome
from mslint.verify.statuses import COMPILE_STAGE, COMPILED

FALLS_BACK, FAILS = "# falls back", "# fails"
STRICT_NUMPY = (
    "ValueError: When handling script '__call_func_str__(__input_0__,) in graph mode', the inputs should be "
    "constant, but found variable '__input_0__' to be nonconstant. Try to set jit_syntax_level to LAX."
)
"""What STRICT says of a numpy call on a tensor (third-party-call-in-graph's example): a message the
message table maps to that rule, as a real compile's would be."""
FALLBACK_DUMP = "listed by the fallback dump after the optimizer phase (runs in the Python interpreter)"


def install(monkeypatch: pytest.MonkeyPatch, cache: Path) -> list[Job]:
    """Replace the compiles, and keep the result cache in ``cache`` (MindSpore 2.10.0 on CPU);
    returns the list of the jobs run, in order."""
    jobs: list[Job] = []

    def run_jobs(batch: list[Job], *_: object) -> list[Outcome]:
        jobs.extend(batch)
        return [_outcome(job) for job in batch]

    monkeypatch.setattr(command, "run_jobs", run_jobs)
    monkeypatch.setattr(command, "check_device", lambda requested: None)
    monkeypatch.setattr(command, "mindspore_runtime", lambda requested: Runtime("2.10.0", requested or "CPU"))
    monkeypatch.setenv("MSLINT_CACHE_DIR", str(cache))
    return jobs


def _outcome(job: Job) -> Outcome:
    path = job.path.resolve().with_name("net.py") if job.factory else job.path.resolve()
    name = job.name[len("make_") :].upper() if job.factory else job.name
    lines = path.read_text().splitlines()
    tree = ast.parse("\n".join(lines))
    cell = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name)
    span = range(cell.lineno, (cell.end_lineno or cell.lineno) + 1)
    marker, kind = (FALLS_BACK, FALLBACK) if job.level == "lax" else (FAILS, ERROR)
    marked = [number for number in span if lines[number - 1].rstrip().endswith(marker)]
    if kind == ERROR:
        marked = marked[:1]
    problems = [
        Problem(kind, STRICT_NUMPY if kind == ERROR else FALLBACK_DUMP, ((str(path), n),), job.level) for n in marked
    ]
    compiled = {"path": str(path), "name": name, "line": cell.lineno}
    stopped = COMPILE_STAGE if kind == ERROR and marked else None
    return Outcome(job, COMPILED, compiled=compiled, problems=problems, device="CPU", wall_s=0.5, stopped=stopped)


def write_tree(folder: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (folder / name).write_text(text.lstrip("\n"))
