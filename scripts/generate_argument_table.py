"""Measure which argument values the ops and layers ports use most accept on the installed MindSpore.

For each API in ``PROBES``, calls are generated over each parameter's value classes (int or
float, tuple, list or a number, negative, None, each mode string) and their combinations, on
inputs of the ranks the API takes. Each call runs in PyNative and compiled in a graph (STRICT,
``fullgraph=True``); what each raised, or ``null``, is written to
``mslint/data/arguments-<version>.json``, which ``unknown-mindspore-api`` reads. With
``--check`` the script only says whether the file matches the installed MindSpore.

The calls run in a few worker processes, many calls each: every call gets a function of its
own in a generated file (graph mode compiles only code it can read the source of), and a
refused call raises in Python before anything is left half-built. Measured whole, the 581 calls
take about 260 CPU-s, the largest test of a CI run; so the script also writes the record of its
measurements, ``mslint/data/compiles/arguments-<version>.json`` (:mod:`compile_record`), and
``--check`` reads each call's outcome from it by the key of what is run (the call's source, its
input, the worker that runs it and the release), measuring only the calls the record does not hold
(then those ``.mslint_cache/tables`` does not, :class:`mindspore_table.MeasurementCache`).
``--recompile`` measures what the record holds too; ``--check-sample`` (the suite's test, for what
the key leaves out: the Python) measures one call in ``SAMPLE_STRIDE`` again and compares each with
its shipped row.
"""

from __future__ import annotations

import argparse
import itertools
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from compile_record import CompileRecord, keep_or_check
from mindspore_table import OUTPUT, MeasurementCache, installed_mindspore, write_or_check

WORKERS = 3
CALLS_PER_WORKER = 100
"""A worker more for every this many calls, up to ``WORKERS``: each imports MindSpore (about 5 CPU-s)."""
SAMPLE_STRIDE = 10
"""``--check-sample`` measures every call whose index is a multiple of this: 59 of 581, all APIs
but a few."""

ABSENT = None
"""A parameter left out of the call."""

Case = tuple[str, str, dict[str, Any], bool, str]
"""The API's qualified name, the call's text (``{arguments}`` for the generated arguments, ``x``
for the input), the arguments' texts by parameter, whether the call builds a layer (a Cell
built in Python, then called on the input), and the input's spec (``float32[1,2,4,4]``)."""


def _spatial(text: str, rank: int) -> str:
    """``text`` repeated for each spatial dimension of an input of ``rank`` (a tuple's items)."""
    return ", ".join([text] * (rank - 2))


RANK_OF_MODE = {
    None: [3, 4, 5],
    "'nearest'": [3, 4, 5],
    "'area'": [4],
    "'linear'": [3],
    "'bilinear'": [4],
    "'bicubic'": [4],
    "'trilinear'": [5],
}
"""The input ranks each interpolation mode is for (PyTorch's, which ports follow)."""


def _resize_grid(rank: int, layer: bool) -> dict[str, list[Any]]:
    """The sizes and scale factors of an input of ``rank``; a layer's fewer (it passes them to
    ``ops.interpolate``)."""
    one = "," if rank == 3 else ""
    if layer:
        return {
            "size": [ABSENT],
            "scale_factor": ["2", "2.0"],
            "align_corners": [ABSENT, "True"],
            "recompute_scale_factor": [ABSENT, "True"],
        }
    return {
        "size": [ABSENT, "8", f"({_spatial('8', rank)}{one})"],
        "scale_factor": [ABSENT, "2", "2.0", f"({_spatial('2.0', rank)}{one})"],
        "align_corners": [ABSENT, "True"],
        "recompute_scale_factor": [ABSENT, "True"],
    }


def _one_resize_way(arguments: dict[str, Any]) -> bool:
    """A size or a scale factor (neither is refused whatever the rest is, both too); the scale
    factor recomputed only where there is one."""
    size, scale = arguments["size"], arguments["scale_factor"]
    return (size is ABSENT) != (scale is ABSENT) and (
        scale is not ABSENT or arguments["recompute_scale_factor"] is ABSENT
    )


def _resize_cases(api: str, call: str, layer: bool) -> Iterator[Case]:
    for mode, ranks in RANK_OF_MODE.items():
        for rank in ranks:
            grid = _resize_grid(rank, layer)
            for values in itertools.product(*grid.values()):
                arguments = {"mode": mode, **dict(zip(grid, values))}
                if _one_resize_way(arguments):
                    yield api, call, arguments, layer, f"float32[1,2,{','.join(['4'] * (rank - 2))}]"


def _grid_cases(api: str, call: str, grid: dict[str, list[Any]], spec: str, layer: bool = False) -> Iterator[Case]:
    for values in itertools.product(*grid.values()):
        yield api, call, dict(zip(grid, values)), layer, spec


IMAGE = "float32[1,2,8,8]"
MATRIX = "float32[2,6]"
AXES = [ABSENT, "-1", "(0, 1)", "[0, 1]", "1.0"]


def all_cases() -> Iterator[Case]:
    """(api, call, arguments, is a layer, input spec) for every call to measure."""
    yield from _resize_cases("mindspore.ops.interpolate", "ops.interpolate(x, {arguments})", False)
    yield from _resize_cases("mindspore.nn.Upsample", "nn.Upsample({arguments})", True)
    for pool in ("MaxPool2d", "AvgPool2d"):
        pooling: dict[str, list[Any]] = {
            "kernel_size": ["2", "(2, 2)", "2.0"],
            "stride": [ABSENT, "2"],
            "pad_mode": [ABSENT, "'pad'"],
            "padding": [ABSENT, "1"],
        }
        yield from _grid_cases(f"mindspore.nn.{pool}", f"nn.{pool}({{arguments}})", pooling, IMAGE, True)
    # `padding` without `pad_mode="pad"` is conv-padding-without-pad-mode's, which fixes it
    convolution: dict[str, list[Any]] = {
        "kernel_size": ["3", "(3, 3)", "3.0"],
        "stride": [ABSENT, "2", "2.0"],
        "pad_mode": [ABSENT, "'valid'", "'pad'"],
    }
    yield from _grid_cases("mindspore.nn.Conv2d", "nn.Conv2d(2, 4, {arguments})", convolution, IMAGE, True)
    yield from _grid_cases(
        "mindspore.nn.Dense",
        "nn.Dense({arguments})",
        {"in_channels": ["6", "6.0"], "out_channels": ["4", "4.0"]},
        MATRIX,
        True,
    )
    yield from _grid_cases(
        "mindspore.nn.LayerNorm",
        "nn.LayerNorm({arguments})",
        {"normalized_shape": ["(6,)", "[6]", "6"], "epsilon": [ABSENT, "0"]},
        MATRIX,
        True,
    )
    yield from _grid_cases(
        "mindspore.nn.BatchNorm2d",
        "nn.BatchNorm2d({arguments})",
        {"num_features": ["2"], "eps": [ABSENT, "1"], "momentum": [ABSENT, "1", "0.1"]},
        IMAGE,
        True,
    )
    yield from _grid_cases(
        "mindspore.nn.Embedding",
        "nn.Embedding(10, 4, {arguments})",
        {"padding_idx": [ABSENT, "0", "-1", "None"]},
        "int32[2,3]",
        True,
    )
    for name in ("softmax",):
        yield from _grid_cases(
            f"mindspore.ops.{name}",
            f"ops.{name}(x, {{arguments}})",
            {"axis": [ABSENT, "-1", "1", "(-1,)", "[-1]", "1.0"]},
            MATRIX,
        )
    yield from _grid_cases(
        "mindspore.ops.sum", "ops.sum(x, {arguments})", {"dim": AXES, "keepdim": [ABSENT, "True"]}, MATRIX
    )
    yield from _grid_cases(
        "mindspore.ops.mean", "ops.mean(x, {arguments})", {"axis": AXES, "keep_dims": [ABSENT, "True"]}, MATRIX
    )
    for name in ("amax",):
        keyword = "keepdim" if name != "prod" else "keep_dims"
        yield from _grid_cases(
            f"mindspore.ops.{name}", f"ops.{name}(x, {{arguments}})", {"axis": AXES, keyword: [ABSENT, "True"]}, MATRIX
        )
    yield from _grid_cases(
        "mindspore.ops.split",
        "ops.split(x, {arguments})",
        {"split_size_or_sections": ["3", "(2, 4)", "[2, 4]", "3.0"], "axis": [ABSENT, "-1"]},
        "float32[6,6]",
    )
    yield from _grid_cases(
        "mindspore.ops.chunk",
        "ops.chunk(x, {arguments})",
        {"chunks": ["2", "2.0"], "axis": [ABSENT, "-1"]},
        "float32[6,6]",
    )
    yield from _grid_cases(
        "mindspore.ops.pad",
        "ops.pad(x, {arguments})",
        {
            "padding": ["(1, 1)", "[1, 1]", "1"],
            "mode": [ABSENT, "'reflect'", "'replicate'"],
            "value": [ABSENT, "0.5"],
        },
        IMAGE,
    )
    for name in ("cat", "stack"):
        yield from _grid_cases(
            f"mindspore.ops.{name}",
            f"ops.{name}({{arguments}})",
            {"tensors": ["(x, x)", "[x, x]"], "axis": [ABSENT, "-1", "1.0"]},
            MATRIX,
        )
    yield from _grid_cases(
        "mindspore.ops.topk",
        "ops.topk(x, {arguments})",
        {"k": ["2", "2.0"], "dim": [ABSENT, "-1", "None"], "largest": [ABSENT, "False"]},
        MATRIX,
    )
    yield from _grid_cases(
        "mindspore.ops.clamp",
        "ops.clamp(x, {arguments})",
        {"min": [ABSENT, "0", "0.0"], "max": [ABSENT, "1", "1.0"]},
        MATRIX,
    )
    yield from _grid_cases(
        "mindspore.ops.one_hot",
        "ops.one_hot(x, {arguments})",
        {
            "depth": ["4", "4.0"],
            "on_value": [ABSENT, "1", "1.0"],
            "off_value": [ABSENT, "0.0"],
        },
        "int32[2,3]",
    )
    yield from _grid_cases(
        "mindspore.ops.broadcast_to",
        "ops.broadcast_to(x, {arguments})",
        {"shape": ["(3, 2, 6)", "[3, 2, 6]", "(3, -1, 6)", "(3, 2, -1)"]},
        MATRIX,
    )

    yield from _indexing_cases()
    yield from _creation_cases()
    yield from _tensor_method_cases()
    yield from _mint_cases()


INDEX = "ops.zeros((2, 3), ms.int32)"
"""An index tensor for gathering from and scattering into a ``MATRIX`` (built in the call: the
call takes one input)."""
DIMENSIONS = ["1", "-1", "1.0"]


def _indexing_cases() -> Iterator[Case]:
    """Gather and scatter, sort, cumsum, where and masked_fill: the axis as an int, a negative
    int or a float; the fill value as an int, a float or a bool on a float input."""
    yield from _grid_cases(
        "mindspore.ops.gather", f"ops.gather(x, {INDEX}, {{arguments}})", {"axis": DIMENSIONS}, MATRIX
    )
    yield from _grid_cases(
        "mindspore.ops.gather_elements",
        f"ops.gather_elements(x, {{arguments}}, index={INDEX})",
        {"dim": DIMENSIONS},
        MATRIX,
    )
    yield from _grid_cases(
        "mindspore.ops.scatter",
        f"ops.scatter(x, {{arguments}}, index={INDEX}, src=x)",
        {"axis": DIMENSIONS},
        MATRIX,
    )
    yield from _grid_cases(
        "mindspore.ops.sort",
        "ops.sort(x, {arguments})",
        {"axis": [ABSENT, *DIMENSIONS], "descending": [ABSENT, "True"]},
        MATRIX,
    )
    yield from _grid_cases("mindspore.ops.cumsum", "ops.cumsum(x, {arguments})", {"axis": DIMENSIONS}, MATRIX)
    yield from _grid_cases(
        "mindspore.ops.where", "ops.where(x > 1, x, {arguments})", {"other": ["0", "0.0", "x"]}, MATRIX
    )
    yield from _grid_cases(
        "mindspore.ops.masked_fill",
        "ops.masked_fill(x, x > 1, {arguments})",
        {"value": ["0", "0.0", "-1e9", "True"]},
        MATRIX,
    )


def _creation_cases() -> Iterator[Case]:
    """arange and linspace: ints or floats (the input is not read). A negative step towards a
    larger end aborts the process in a graph (2.10: SIGABRT from Range's shape inference), which
    would end the worker, so it is not measured."""
    yield from _grid_cases(
        "mindspore.ops.arange",
        "ops.arange({arguments})",
        {"start": [ABSENT, "1.0"], "end": ["6", "6.0"], "step": [ABSENT, "2", "0.5"]},
        MATRIX,
    )
    yield from _grid_cases(
        "mindspore.ops.linspace",
        "ops.linspace({arguments})",
        {"start": ["0", "0.0"], "end": ["1.0"], "steps": ["5", "5.0"]},
        MATRIX,
    )


def _tensor_method_cases() -> Iterator[Case]:
    """The Tensor-method spellings ports write (``x.sum(dim=1)``, ``x.topk(2)``), over the value
    classes of their arguments; which forms and keywords a method takes in a graph is the Tensor
    signature table's (``x.expand(2, 3, 4)`` fails there in every form, differs-from-pytorch)."""
    yield from _grid_cases(
        "mindspore.Tensor.sum",
        "x.sum({arguments})",
        {"dim": ["1", "-1", "(0, 1)", "[0, 1]", "1.0"], "keepdim": [ABSENT, "True"]},
        MATRIX,
    )
    yield from _grid_cases("mindspore.Tensor.softmax", "x.softmax({arguments})", {"*axis": DIMENSIONS}, MATRIX)
    yield from _grid_cases(
        "mindspore.Tensor.masked_fill",
        "x.masked_fill(x > 1, {arguments})",
        {"*value": ["0", "0.0", "-1e9", "True"]},
        MATRIX,
    )
    yield from _grid_cases("mindspore.Tensor.cumsum", "x.cumsum({arguments})", {"*dim": DIMENSIONS}, MATRIX)
    yield from _grid_cases("mindspore.Tensor.topk", "x.topk({arguments})", {"*k": ["2", "2.0"]}, MATRIX)
    # `round(x, 2)` of a tensor compiles to the same operator, and is checked against these
    yield from _grid_cases("mindspore.Tensor.round", "x.round({arguments})", {"*decimals": ["0", "2", "-1"]}, MATRIX)


def _mint_cases() -> Iterator[Case]:
    """The ``mindspore.mint`` spellings of the measured ops (PyTorch's parameter names)."""
    yield from _grid_cases(
        "mindspore.mint.sum", "mint.sum(x, {arguments})", {"dim": ["1", "-1", "(0, 1)", "[0, 1]", "1.0"]}, MATRIX
    )
    yield from _grid_cases("mindspore.mint.softmax", "mint.softmax(x, {arguments})", {"dim": DIMENSIONS}, MATRIX)
    yield from _grid_cases(
        "mindspore.mint.gather", f"mint.gather(x, {{arguments}}, index={INDEX})", {"dim": DIMENSIONS}, MATRIX
    )
    yield from _grid_cases("mindspore.mint.cumsum", "mint.cumsum(x, {arguments})", {"dim": DIMENSIONS}, MATRIX)
    yield from _grid_cases("mindspore.mint.topk", "mint.topk(x, {arguments})", {"k": ["2", "2.0"]}, MATRIX)
    yield from _grid_cases(
        "mindspore.mint.split",
        "mint.split(x, {arguments})",
        {"split_size_or_sections": ["3", "[2, 4]", "3.0"]},
        "float32[6,6]",
    )
    yield from _grid_cases(
        "mindspore.mint.mean", "mint.mean(x, {arguments})", {"dim": ["1", "-1", "(0, 1)", "1.0"]}, MATRIX
    )
    for name in ("cat", "stack"):
        yield from _grid_cases(
            f"mindspore.mint.{name}",
            f"mint.{name}({{arguments}})",
            {"tensors": ["(x, x)", "[x, x]"], "dim": [ABSENT, "-1", "1.0"]},
            MATRIX,
        )
    yield from _grid_cases(
        "mindspore.mint.chunk", "mint.chunk(x, {arguments})", {"chunks": ["2", "2.0"]}, "float32[6,6]"
    )
    yield from _grid_cases(
        "mindspore.mint.broadcast_to",
        "mint.broadcast_to(x, {arguments})",
        {"shape": ["(3, 2, 6)", "[3, 2, 6]"]},
        MATRIX,
    )


def _argument_text(arguments: dict[str, Any]) -> str:
    """The arguments as keywords, but a parameter named ``*name`` by position (a Tensor method's
    overloads have no keyword that every spelling shares, ``x.topk(2)``)."""
    written = [(name, value) for name, value in arguments.items() if value is not ABSENT]
    return ", ".join(value if name.startswith("*") else f"{name}={value}" for name, value in written)


def _case_source(index: int, call: str, arguments: dict[str, Any], layer: bool) -> str:
    text = call.format(arguments=_argument_text(arguments)).replace(", )", ")").replace("(, ", "(")
    if layer:
        return f"def build_{index}():\n    return {text}\n\n\ndef case_{index}(layer, x):\n    return layer(x)\n\n\n"
    return f"def build_{index}():\n    return None\n\n\ndef case_{index}(layer, x):\n    return {text}\n\n\n"


CASES_HEADER = "import mindspore as ms\nfrom mindspore import mint, nn, ops\n\n\n"

WORKER = """\
import json, sys
import numpy as np
import mindspore as ms
ms.set_context(mode=ms.PYNATIVE_MODE)
sys.path.insert(0, sys.argv[1])
import cases

def first_line(error):
    lines = [line.strip() for line in str(error).splitlines() if line.strip(" -")]  # not a rule of dashes
    line = lines[0] if lines else ""
    if len(line) > 1 and line[0] == line[-1] == "'":  # graph mode quotes the message
        line = line[1:-1]
    return f"{type(error).__name__}: {line}"

def tensor(spec):
    dtype, shape = spec.rstrip("]").split("[")
    shape = tuple(int(n) for n in shape.split(","))
    values = np.arange(int(np.prod(shape))).reshape(shape) % 4
    return ms.Tensor(values.astype(dtype))

with open(f"{sys.argv[1]}/jobs-{sys.argv[2]}.json", encoding="utf-8") as jobs:
    share = json.load(jobs)
for index, spec in share:
    x = tensor(spec)
    outcome = {}
    for level in ("pynative", "graph"):
        try:
            layer = getattr(cases, f"build_{index}")()
            function = getattr(cases, f"case_{index}")
            result = function(layer, x) if level == "pynative" else ms.jit(function, fullgraph=True)(layer, x)
            outcome[level] = None
        except Exception as error:
            outcome[level] = first_line(error)
    print(json.dumps([index, outcome]), flush=True)
"""


def question(case: Case) -> dict[str, Any]:
    """What a case runs: its call's source and its input (the measurement cache's key, which names the worker)."""
    _, call, arguments, layer, spec = case
    return {"call": _case_source(0, call, arguments, layer), "input": spec}


def record_key(record: CompileRecord, case: Case) -> str:
    """The key of a case's outcome in the record: what it runs, and the program that runs it and reads its errors."""
    return record.key({**question(case), "worker": WORKER, "header": CASES_HEADER})


def measure(cases: list[Case], record: CompileRecord) -> tuple[list[dict[str, Any]], int]:
    """Each case's row (its input, its arguments and what it raised in each mode), and how many
    were measured now: read from ``record`` by the key of what is run, else from the measurement
    cache (same call, input, worker and MindSpore, on this Python), else run in the workers; each
    gathered in the record's :attr:`~compile_record.CompileRecord.used`."""
    cache = MeasurementCache(WORKER, CASES_HEADER)
    questions = [question(case) for case in cases]
    keys = [record_key(record, case) for case in cases]
    outcomes: dict[int, dict[str, str | None]] = {}
    for index, asked in enumerate(questions):
        kept = record.lookup(keys[index])
        if kept is None:
            kept = cache.lookup(asked)
        if kept is not None:
            outcomes[index] = dict(kept)
    to_run = [index for index in range(len(cases)) if index not in outcomes]
    for index, outcome in _run_workers([cases[i] for i in to_run]).items():
        outcomes[to_run[index]] = outcome
        cache.keep(questions[to_run[index]], outcome)
    missing = [i for i in range(len(cases)) if i not in outcomes]
    if missing:
        raise SystemExit(f"no outcome for {len(missing)} calls (a worker died at call {missing[0]})")
    record.used.update((keys[index], outcome) for index, outcome in outcomes.items())
    rows = [
        {
            "input": spec,
            "arguments": {name: value for name, value in arguments.items() if value is not ABSENT},
            # in this order whether measured now or read from the cache or the record (which sort their keys)
            "pynative": outcomes[index]["pynative"],
            "graph": outcomes[index]["graph"],
        }
        for index, (_, _, arguments, _, spec) in enumerate(cases)
    ]
    return rows, len(to_run)


def _run_workers(cases: list[Case]) -> dict[int, dict[str, str | None]]:
    """What each case raised in each mode, by its index, from the workers that ran to it. The
    workers read their share of the cases from a file and write their outcomes to another."""
    outcomes: dict[int, dict[str, str | None]] = {}
    if not cases:
        return outcomes
    with tempfile.TemporaryDirectory(prefix="mslint-arguments-") as name:
        folder = Path(name)
        sources = [_case_source(i, call, arguments, layer) for i, (_, call, arguments, layer, _) in enumerate(cases)]
        (folder / "cases.py").write_text(CASES_HEADER + "".join(sources), encoding="utf-8")
        (folder / "worker.py").write_text(WORKER, encoding="utf-8")
        workers = []
        count = min(WORKERS, -(-len(cases) // CALLS_PER_WORKER))
        for number in range(count):
            share = [[index, case[4]] for index, case in enumerate(cases) if index % count == number]
            (folder / f"jobs-{number}.json").write_text(json.dumps(share), encoding="utf-8")
            with open(folder / f"outcomes-{number}.jsonl", "w", encoding="utf-8") as output:
                command = [sys.executable, str(folder / "worker.py"), name, str(number)]
                workers.append(subprocess.Popen(command, stdout=output, stderr=subprocess.DEVNULL, cwd=name))
        for worker in workers:
            worker.wait(timeout=1800)
        for number in range(len(workers)):
            for line in (folder / f"outcomes-{number}.jsonl").read_text(encoding="utf-8").splitlines():
                if line.startswith("["):
                    index, outcome = json.loads(line)
                    outcomes[index] = outcome
    return outcomes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="compare with the shipped table, write nothing")
    parser.add_argument(
        "--check-sample",
        action="store_true",
        help=f"measure every {SAMPLE_STRIDE}th call again and compare only those with the shipped table",
    )
    parser.add_argument(
        "--recompile",
        action="store_true",
        help="measure the calls the record of measurements holds too, instead of reading their outcomes",
    )
    options = parser.parse_args(argv)
    version = installed_mindspore("generate_argument_table.py")
    if version is None:
        return 2
    every = list(all_cases())
    cases = every[::SAMPLE_STRIDE] if options.check_sample else every
    record = CompileRecord("arguments", version, read=not (options.recompile or options.check_sample))
    start = time.monotonic()
    measured, ran = measure(cases, record)
    seconds = time.monotonic() - start
    if options.check_sample:
        return _check_sample(version, cases, measured, ran, seconds)
    apis: dict[str, dict[str, Any]] = {}
    for (api, call, arguments, _, _), row in zip(cases, measured):
        entry = apis.setdefault(api, {"call": call, "parameters": list(arguments), "calls": []})
        entry["calls"].append(row)
    table = {
        "mindspore": version,
        "source": (
            "scripts/generate_argument_table.py: each call run on MindSpore in PyNative and compiled with "
            "ms.jit(fullgraph=True); `pynative` and `graph` are the first line of what it raised, null where it ran"
        ),
        "apis": apis,
    }
    text = json.dumps(table, indent=1, ensure_ascii=False) + "\n"
    refused = sum(1 for row in measured if row["pynative"] or row["graph"])
    summary = f"{len(cases)} calls of {len(apis)} APIs, {ran} measured in {seconds:.0f} s, {refused} refused"
    print(summary, file=sys.stderr)
    written = write_or_check(f"arguments-{version}.json", text, summary)
    whole = {record_key(record, case) for case in every}
    return max(written, keep_or_check(record, whole, options.check, "python scripts/generate_argument_table.py"))


def _check_sample(version: str, cases: list[Case], measured: list[dict[str, Any]], ran: int, seconds: float) -> int:
    """Whether each sampled call raised in each mode what its shipped row says."""
    shipped = json.loads((OUTPUT / f"arguments-{version}.json").read_text())["apis"]
    rows = {
        (api, json.dumps(row["input"]), json.dumps(row["arguments"], sort_keys=True)): row
        for api, entry in shipped.items()
        for row in entry["calls"]
    }
    differ = 0
    for (api, _, _, _, _), row in zip(cases, measured):
        held = rows.get((api, json.dumps(row["input"]), json.dumps(row["arguments"], sort_keys=True)))
        if held != row:
            differ += 1
            print(f"{api} {row['arguments']} on {row['input']}: shipped {held}, measured {row}")
    matched = len(cases) - differ
    print(
        f"arguments-{version}.json: {matched} of {len(cases)} sampled calls match ({ran} measured in {seconds:.0f} s)"
    )
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
