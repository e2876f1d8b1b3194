"""Measure which ``ops`` and ``mint`` functions and Tensor methods MindSpore's CPU backend has no kernel for.

Each public function of ``mindspore.ops`` and ``mindspore.mint`` and each public method of
``mindspore.Tensor`` is called on small tensors (``float32[2,3]``, ``int32[2,3]``, ``bool[2,3]``,
``float32[3,3]``) in the call forms of ``FORMS``, tried in order: first as Python (PyNative),
then, for the first forms PyNative runs (or refuses only for a missing kernel), compiled with
``ms.jit`` and run. An API is *missing* on CPU when its graph compiles and its first run fails
with ``Unsupported op [X] on CPU`` (kernel selection happens when the compiled graph is first
run). GPU and Ascend kernels cannot be measured on this machine: the table is the CPU's.

The APIs are measured in batches, one process each; a process that crashes loses only the API
it was measuring (``crashed``), the rest of its batch goes on in a new one. Writes
``mslint/data/kernels-<version>.json``, which ``unsupported-kernel`` reads with ``--target cpu``,
and the record of its measurements, ``mslint/data/compiles/kernels-<version>.json``
(:mod:`compile_record`): the whole table is about 105 CPU-s from an empty cache, 5 to 7 minutes
on two shared cores, more than CI can repeat. ``--check`` (the generated-files test) reads each
API's outcome from the record by the key of what was run (:func:`asked`: its calls, the inputs,
the release), measures only the APIs the record does not hold, and fails where the table is not
what the outcomes make or where the record holds an outcome no API gives. The record holds a crash
as the table was made with it (on 2.10, four APIs crash the measuring process: Tensor.assign_value,
ops.all_reduce, ops.list_equal, ops.tuple_equal). An outcome the record does not hold is read from
``.mslint_cache/tables`` where it was measured here with the same reading
(:class:`mindspore_table.MeasurementCache`). ``--recompile`` measures what the record holds too;
``--check-sample`` (the suite's test, for what the key leaves out: the reading of a measurement, the
Python) re-measures the APIs the table lists and one in ten of the others, 267 APIs in about a minute.
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from compile_record import CompileRecord, keep_or_check
from mindspore_table import OUTPUT, REPO, MeasurementCache, installed_mindspore, write_or_check

from mslint.compiler_messages import missing_kernel

BATCH = 60
"""APIs per measuring process: MindSpore's import (seconds) is paid once per batch."""
BATCH_TIMEOUT_S = 900
SAMPLE_STRIDE = 10
"""``--check-sample`` re-measures the listed APIs and one in this many of the others."""
GRAPH_TRIES = 3
"""Call forms compiled per API at most: the first that PyNative runs usually compiles."""

FORMS: tuple[tuple[str, str], ...] = (
    ("x", ""),
    ("x", "y"),
    ("x", "1"),
    ("x", "0"),
    ("i", ""),
    ("i", "j"),
    ("b", ""),
    ("b", "x, y"),
    ("m", ""),
    ("x", "(3, 2)"),
    ("x", "x, x"),
    ("x", "y, 1"),
    ("x", "1, 1"),
    ("", "(2, 3)"),
    ("", "2, 3"),
    ("", "6"),
)
"""(receiver, arguments): ``f(receiver, arguments)`` for a function, ``receiver.f(arguments)``
for a method (never without a receiver). The inputs are named as in ``_INPUTS``."""

_INPUTS = "x, y, i, j, b, m"
_PYNATIVE_REFUSAL = "is not supported on this device"
"""How PyNative says that a device has no kernel, without naming it: the graph may still run (another kernel)."""
_NAMESPACES = ("ops", "mint")


def call_of(api: str, receiver: str, arguments: str) -> str | None:
    """The source of one call form of ``api`` (``ops.abs``, ``Tensor.abs``); None where it has none."""
    namespace, name = api.split(".")
    if namespace == "Tensor":
        return f"{receiver}.{name}({arguments})" if receiver else None
    return f"{api}({', '.join(part for part in (receiver, arguments) if part)})"


def apis() -> list[str]:
    """Every public function of ``ops`` and ``mint`` and method of ``Tensor``, as ``ops.abs``."""
    from mindspore import Tensor, mint, ops

    def functions(owner: object) -> list[str]:
        found = []
        for name in dir(owner):
            value = getattr(owner, name, None)
            if name[:1].islower() and callable(value) and not inspect.isclass(value) and not inspect.ismodule(value):
                found.append(name)
        return found

    named = [f"{space}.{n}" for space, owner in zip(_NAMESPACES, (ops, mint)) for n in functions(owner)]
    return named + [f"Tensor.{n}" for n in dir(Tensor) if n[:1].islower() and callable(getattr(Tensor, n))]


def calls(api: str) -> list[tuple[int, str]]:
    """Each call form of ``api``: its index in ``FORMS`` and its source."""
    forms = ((k, call_of(api, receiver, arguments)) for k, (receiver, arguments) in enumerate(FORMS))
    return [(k, call) for k, call in forms if call is not None]


def program(batch: list[str]) -> str:
    """A module with a function per call form of each API of ``batch``, named ``f<api index>_<form index>``."""
    lines = ["import mindspore as ms", "from mindspore import Tensor, mint, ops", ""]
    for a, api in enumerate(batch):
        for k, call in calls(api):
            lines += [f"def f{a}_{k}({_INPUTS}):", f"    return {call}", ""]
    return "\n".join(lines)


def child(folder: str, apis_json: str) -> int:
    """Measure the APIs of a batch (``program`` in ``folder/measured.py``), a ``ROW`` line each as it ends."""
    os.environ.setdefault("GLOG_v", "3")
    sys.path.insert(0, folder)
    import measured  # type: ignore[import-not-found]

    called_on = inputs()
    for a, api in enumerate(json.loads(apis_json)):
        print("ROW " + json.dumps({"api": api, **measure_api(measured, a, called_on)}), flush=True)
    return 0


def inputs() -> tuple[Any, ...]:
    """The tensors every call form is called on, named in ``_INPUTS``."""
    import mindspore as ms
    import numpy as np

    values = np.arange(1, 7, dtype=np.float32).reshape(2, 3) / 7
    return (
        ms.Tensor(values),
        ms.Tensor(values[::-1].copy()),
        ms.Tensor(np.array([[1, 2, 3], [0, 1, 2]], np.int32)),
        ms.Tensor(np.array([[2, 1, 1], [1, 3, 2]], np.int32)),
        ms.Tensor(np.array([[True, False, True], [False, True, True]])),
        ms.Tensor(np.eye(3, dtype=np.float32) * 2 + 0.5),
    )


_INPUTS_SOURCE = inspect.getsource(inputs)
"""Part of what is run to measure an API (:func:`asked`)."""


def measure_api(measured: Any, a: int, called_on: tuple[Any, ...]) -> dict[str, Any]:
    """The outcome of one API: ``missing`` (with the kernel), ``runs``, ``fails`` or ``no-form``."""
    import mindspore as ms

    tried = 0
    last = ""
    for k, (receiver, arguments) in enumerate(FORMS):
        function = getattr(measured, f"f{a}_{k}", None)
        if function is None:
            continue
        try:
            function(*called_on)
        except Exception as error:  # any failure: PyNative refused this form
            if not (missing_kernel(str(error)) or _PYNATIVE_REFUSAL in str(error)):
                continue
        tried += 1
        try:
            ms.jit(function)(*called_on)
        except Exception as error:  # the compiler's refusal is the measurement
            text = str(error)
            kernel = missing_kernel(text)
            if kernel is not None:
                return {"outcome": "missing", "kernel": kernel, "form": [receiver, arguments]}
            last = next((line for line in text.splitlines() if line.strip(" -")), type(error).__name__)
            if tried >= GRAPH_TRIES:
                break
            continue
        return {"outcome": "runs", "form": [receiver, arguments]}
    return {"outcome": "fails", "error": last[:200]} if tried else {"outcome": "no-form"}


def measure_batch(batch: list[str]) -> dict[str, dict[str, Any]]:
    """Each API's outcome, in as many processes as crashes need: the API a crash stopped at is ``crashed``."""
    found: dict[str, dict[str, Any]] = {}
    left = list(batch)
    while left:
        with tempfile.TemporaryDirectory(prefix="mslint-kernels-") as folder:
            (Path(folder) / "measured.py").write_text(program(left))
            command = [sys.executable, __file__, "--child", folder, json.dumps(left)]
            try:
                done = subprocess.run(
                    command, capture_output=True, text=True, timeout=BATCH_TIMEOUT_S, cwd=REPO, env=_quiet()
                )
                output = done.stdout
            except subprocess.TimeoutExpired as expired:
                raw = expired.stdout or b""
                output = raw.decode() if isinstance(raw, bytes) else raw
        rows = [json.loads(line[4:]) for line in output.splitlines() if line.startswith("ROW ")]
        found.update({row.pop("api"): row for row in rows})
        left = left[len(rows) :]
        if left:
            found[left.pop(0)] = {"outcome": "crashed"}
    return found


def _quiet() -> dict[str, str]:
    return {**os.environ, "GLOG_v": "3"}


def table(version: str, outcomes: dict[str, dict[str, Any]]) -> str:
    """The APIs measured missing, an entry per line; the other outcomes are counted on the command
    line only (a crash may turn out otherwise in another run)."""
    missing = {
        api: {"kernel": o["kernel"], "call": call_of(api, *o["form"])}
        for api, o in outcomes.items()
        if o["outcome"] == "missing"
    }
    head = {
        "mindspore": version,
        "target": "CPU",
        "apis": len(outcomes),
        "source": "scripts/generate_kernel_table.py: each public ops and mint function and Tensor method called "
        "on small tensors, compiled with ms.jit and run on CPU; `missing`: the first run of `call` failed with "
        "'Unsupported op [kernel] on CPU'. GPU and Ascend were not measured (no such device here).",
    }
    lines = [f" {json.dumps(api)}: {json.dumps(missing[api], sort_keys=True)}" for api in sorted(missing)]
    return json.dumps(head, indent=1, sort_keys=True)[:-2] + ',\n "missing": {\n' + ",\n".join(lines) + "\n }\n}\n"


def main(argv: list[str] | None = None) -> int:
    arguments = sys.argv[1:] if argv is None else argv
    if arguments[:1] == ["--child"]:
        return child(arguments[1], arguments[2])
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="compare with the shipped table, write nothing")
    parser.add_argument(
        "--check-sample",
        action="store_true",
        help=f"re-measure the shipped table's APIs and every {SAMPLE_STRIDE}th other, and compare only those",
    )
    parser.add_argument(
        "--recompile",
        action="store_true",
        help="measure the APIs the record of measurements holds too, instead of reading their outcomes "
        "(what its key leaves out: the reading of a measurement, the Python)",
    )
    options = parser.parse_args(arguments)
    version = installed_mindspore("generate_kernel_table.py")
    if version is None:
        return 2
    started = time.perf_counter()
    shipped: dict[str, Any] = json.loads((OUTPUT / f"kernels-{version}.json").read_text())["missing"]
    every = apis()
    chosen = sampled(every, shipped) if options.check_sample else every
    record = CompileRecord("kernels", version, read=not (options.recompile or options.check_sample))
    outcomes, measured = _measure(chosen, record)
    counts = Counter(o["outcome"] for o in outcomes.values())
    summary = f"{len(outcomes)} APIs, {measured} measured in {time.perf_counter() - started:.0f} s; " + ", ".join(
        f"{kind} {n}" for kind, n in counts.most_common()
    )
    print(summary, file=sys.stderr)
    if options.check_sample:
        return _check_sample(version, outcomes, shipped)
    written = write_or_check(f"kernels-{version}.json", table(version, outcomes), summary)
    whole = {record.key(asked(api)) for api in every}
    return max(written, keep_or_check(record, whole, options.check, "python scripts/generate_kernel_table.py"))


def sampled(every: list[str], shipped: dict[str, Any]) -> list[str]:
    """The APIs the table lists as missing, and every ``SAMPLE_STRIDE``th of the others."""
    others = [api for api in every if api not in shipped]
    return sorted({*shipped, *others[::SAMPLE_STRIDE]} & set(every))


def _check_sample(version: str, outcomes: dict[str, dict[str, Any]], shipped: dict[str, Any]) -> int:
    """Whether each sampled API is missing exactly where the shipped table says, with its kernel and call."""
    measured = json.loads(table(version, outcomes))["missing"]
    differ = sorted(
        api for api, o in outcomes.items() if o["outcome"] != "crashed" and measured.get(api) != shipped.get(api)
    )
    for api in differ:
        print(f"{api}: shipped {shipped.get(api)}, measured {measured.get(api)}")
    print(f"kernels-{version}.json: {len(outcomes) - len(differ)} of {len(outcomes)} sampled APIs match")
    return 1 if differ else 0


def asked(api: str) -> dict[str, Any]:
    """What is run to measure ``api``: its call forms, the source of the inputs they are called on, and
    how many of them are compiled at most."""
    return {"api": api, "calls": calls(api), "inputs": _INPUTS_SOURCE, "graph_tries": GRAPH_TRIES}


def _measure(chosen: list[str], record: CompileRecord) -> tuple[dict[str, dict[str, Any]], int]:
    """Each API's outcome, and how many were measured now: read from ``record`` by the key of what
    is run, else kept in ``.mslint_cache/tables``, else measured (and kept there, but a crash); each
    gathered in the record's :attr:`~compile_record.CompileRecord.used`."""
    cache = MeasurementCache(program, child, measure_api, missing_kernel, FORMS)
    keys = {api: record.key(asked(api)) for api in chosen}
    outcomes: dict[str, dict[str, Any]] = {}
    for api in chosen:
        kept = record.lookup(keys[api])
        if kept is None:
            kept = cache.lookup(asked(api))
        if kept is not None:
            outcomes[api] = kept
    todo = [api for api in chosen if api not in outcomes]
    for start in range(0, len(todo), BATCH):
        for api, outcome in measure_batch(todo[start : start + BATCH]).items():
            outcomes[api] = outcome
            if outcome["outcome"] != "crashed":  # a crash may not happen again
                cache.keep(asked(api), outcome)
        print(f"{min(start + BATCH, len(todo))}/{len(todo)} measured", file=sys.stderr, flush=True)
    record.used.update((keys[api], recorded(outcome)) for api, outcome in outcomes.items())
    return outcomes, len(todo)


def recorded(outcome: dict[str, Any]) -> dict[str, Any]:
    """An API's outcome as its record holds it: without a failure's error, which the table does not
    show and which changes from run to run (it names the batch's scratch file, lines and addresses)."""
    return {key: value for key, value in outcome.items() if key != "error"}


if __name__ == "__main__":
    sys.exit(main())
