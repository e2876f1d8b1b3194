"""Benchmark ``mslint verify`` on a model zoo: mindcv's models, through one ``--example`` file.

    python benchmarks/verify_zoo.py [--models PATTERN ... | --small] [--jobs 2] [--json OUT]
        [--shards N [--array slurm|kubernetes|gitlab|github] [--ray]]

mindcv 0.3.0 (and tqdm, which mindcv imports and the ``verify`` extra does not install) are
fetched as released wheels into ``benchmarks/.corpus`` (:mod:`corpora`) and reach the
verifier's compile processes through ``PYTHONPATH``. The models are those of mindcv's registry
(``list_models()``) that match ``--models`` (fnmatch patterns, default all 275); ``--small``
takes the smallest variant of each of mindcv's model modules instead (``SMALL_VARIANTS``).

A sizing pass (one PyNative process, untimed) runs each model once on a 1x3x64x64 input and
keeps 64 where it runs, else the model's own ``input_size`` from its pretrained config (224
where it names none): fixed-size models (position embeddings, windows) need theirs. Then one factory per
model is generated into an ``--example`` file (``create_model(NAME, num_classes=10)`` in eval
mode, and a tensor of ones of that size), and one ``mslint verify mindcv/models --example
FILE:FUNCTION ...`` run compiles them all, STRICT and LAX, with the comparison with PyNative.
The report gives the models, the wall time and seconds per model, the compiles by status, the
verdict counts, each model whose compile stopped at an error (the error, and the finding it
confirms) or that could not be compiled, with why, and each model that ran in PyNative at
neither size (MindSpore 2.10 no longer has an API it calls, say). Nothing here asserts a
time: it reports.

``--shards N`` verifies the zoo as a cluster would, on a copy of mindcv in a scratch folder:
one run over every model (the single machine, which also fills a result cache and writes the
expectations of ``--expect``), then N runs with ``--shard auto`` under a simulated job array
(``--array``: its variables set for each task in turn), balanced by the first run's durations,
merged by ``mslint verify merge``. It reports whether the merged result equals the single run
(all but times and cache marks), each shard's wall time, CPU time (mslint's and that of the
compiles it waited for: unlike the wall, not stretched by what else the machine runs), compile
time and planned time (the single run's durations of its entries, which the split balanced)
against the mean;
then a rerun with the cache (how many compiles ran), a rerun after a comment is appended to one
model's file (which models compiled again) with the gate (its exit code), and a rerun after an
``import`` is put into that model's ``construct`` (the gate's exit code and regressions).
With ``--ray`` it also verifies the zoo through a Ray cluster of ``--jobs`` CPUs that it starts
here (``ray start --head``, the ``ray`` extra), and reports whether that result equals the
single run, and its wall time.
"""

from __future__ import annotations

import argparse
import ast
import collections
import contextlib
import fnmatch
import json
import os
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, NamedTuple

from corpora import released_package
from run import BIN

from mslint.verify.shards import durations_of

MINDCV = ("mindcv", "0.3.0")
MINDCV_NEEDS = {"tqdm": "4.70.1"}
"""mindcv's requirements (its wheel's ``Requires-Dist``: numpy, PyYAML, tqdm) that mslint's
``verify`` extra does not install, fetched like the corpora."""
SMALL_VARIANTS = (
    "BiT_resnet50",
    "cait_xxs24_224",
    "cmt_tiny",
    "coat_lite_tiny",
    "convit_tiny",
    "convnext_tiny",
    "convnextv2_atto",
    "crossvit_9",
    "densenet121",
    "dpn92",
    "edgenext_xx_small",
    "efficientnet_b0",
    "ghostnet_050",
    "googlenet",
    "halonet_50t",
    "hrnet_w32",
    "inception_v3",
    "inception_v4",
    "mae_b_16_224_finetune",
    "mixnet_s",
    "mlp_mixer_s_p32",
    "mnasnet_050",
    "mobilenet_v1_025",
    "mobilenet_v2_035_96",
    "mobilenet_v3_small_075",
    "mobilevit_xx_small",
    "nasnet_a_4x1056",
    "pit_ti",
    "pnasnet",
    "poolformer_s12",
    "pvt_tiny",
    "pvt_v2_b0",
    "regnet_x_200mf",
    "repmlp_t224",
    "repvgg_a0",
    "res2net50",
    "resnest14",
    "resnet18",
    "resnetv2_50",
    "rexnet_09",
    "seresnet18",
    "shufflenet_v1_g3_05",
    "shufflenet_v2_x0_5",
    "skresnet18",
    "squeezenet1_1",
    "swin_tiny",
    "swinv2_tiny_window8",
    "vgg11",
    "visformer_tiny",
    "vit_b_32_224",
    "volo_d1",
    "xception",
    "xcit_tiny_12_p16_224",
)
"""The smallest variant (by name: depth, width, patch count) of each of mindcv's model modules."""
NUM_CLASSES = 10
SMALL_SIZE = 64

_SIZING = """
import json, sys
import numpy as np
import mindspore as ms
from mindcv.models import create_model
from mindcv.models.registry import get_pretrained_cfg_value

ms.set_context(mode=ms.PYNATIVE_MODE)
sizes, failures = {}, {}
for name in json.loads(sys.argv[1]):
    native = get_pretrained_cfg_value(name, "input_size")
    for size in dict.fromkeys([%(small)d, int(native[-1]) if native else 224]):
        try:
            model = create_model(name, num_classes=%(classes)d)
            model.set_train(False)
            model(ms.Tensor(np.ones((1, 3, size, size), np.float32)))
        except Exception as error:
            failures[name] = f"{type(error).__name__}: {str(error).strip().splitlines()[0][:200]}"
        else:
            failures.pop(name, None)
            break
    sizes[name] = size
print(json.dumps([sizes, failures]))
"""

_FACTORIES_HEAD = '''"""Generated by benchmarks/verify_zoo.py: one example factory per mindcv model."""

import mindspore as ms
import numpy as np
from mindcv.models import create_model


def _example(name, size):
    model = create_model(name, num_classes=%(classes)d)
    model.set_train(False)
    return model, (ms.Tensor(np.ones((1, 3, size, size), np.float32)),)
'''


def corpus_paths() -> tuple[Path, list[Path]]:
    """mindcv's package folder and the folders that make it importable (for ``PYTHONPATH``)."""
    mindcv = released_package(*MINDCV)
    extra = [released_package(name, version).parent for name, version in MINDCV_NEEDS.items()]
    return mindcv, [mindcv.parent, *extra]


def missing_in_venv() -> list[str]:
    """mindcv's requirements that this Python cannot import without the fetched folders."""
    return [
        name
        for name in MINDCV_NEEDS
        if subprocess.run([sys.executable, "-c", f"import {name}"], capture_output=True).returncode != 0
    ]


def select_models(patterns: list[str], env: dict[str, str]) -> list[str]:
    script = "import json; from mindcv.models import list_models; print(json.dumps(list_models()))"
    names: list[str] = json.loads(_python(script, [], env))
    return sorted(n for n in names if any(fnmatch.fnmatchcase(n, p) for p in patterns))


def input_sizes(models: list[str], env: dict[str, str]) -> tuple[dict[str, int], dict[str, str]]:
    """The input size of each model, and why a model runs at none of the sizes tried (it is
    then verified at its native size all the same)."""
    sizing = _SIZING % {"small": SMALL_SIZE, "classes": NUM_CLASSES}
    sizes, failures = json.loads(_python(sizing, [json.dumps(models)], env).splitlines()[-1])
    return sizes, failures


def _python(script: str, argv: list[str], env: dict[str, str]) -> str:
    done = subprocess.run([sys.executable, "-c", script, *argv], env=env, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"mindcv could not be used: {done.stderr.strip().splitlines()[-1:]}")
    return done.stdout


def function_name(model: str) -> str:
    return "model_" + "".join(c if c.isalnum() else "_" for c in model)


def write_factories(sizes: dict[str, int], path: Path) -> None:
    lines = [_FACTORIES_HEAD % {"classes": NUM_CLASSES}]
    for model, size in sizes.items():
        lines.append(f"\n\ndef {function_name(model)}():\n    return _example({model!r}, {size})\n")
    path.write_text("".join(lines))


def summarize(report: dict[str, Any], sizes: dict[str, int], wall: float) -> dict[str, Any]:
    by_function = {function_name(m): m for m in sizes}
    compiles = [c for c in report["compiles"] if c.get("example")]
    stopped: dict[str, set[str]] = collections.defaultdict(set)
    not_compiled: dict[str, set[str]] = collections.defaultdict(set)
    for compile_ in compiles:
        model = by_function.get(compile_["name"], compile_["name"])
        if compile_["status"] != "compiled":
            not_compiled[model].add(f"{compile_['status']}: {compile_['reason']}")
        elif compile_.get("stopped"):
            stopped[model].update(_errors(report, compile_) or {f"stopped at {compile_['stopped']}"})
    comparisons = collections.Counter(
        (c.get("comparison") or {}).get("status", "none") for c in compiles if c["level"] == "lax"
    )
    return {
        "models": len(sizes),
        "sizes": dict(collections.Counter(sizes.values())),
        "wall_s": round(wall, 1),
        "s_per_model": round(wall / max(1, len(sizes)), 2),
        "compiles": len(report["compiles"]),
        "compiles_by_status": dict(collections.Counter(c["status"] for c in report["compiles"])),
        "compile_s_total": round(sum(c.get("compile_s") or 0 for c in compiles), 1),
        "compile_wall_s_total": round(sum(c.get("wall_s") or 0 for c in compiles), 1),
        "comparison_s_total": round(sum((c.get("comparison") or {}).get("seconds") or 0 for c in compiles), 1),
        "comparisons": dict(comparisons),
        "findings": len(report["findings"]),
        "verdicts": dict(collections.Counter(f["verdict"] for f in report["findings"])),
        "compiler_only": len(report["compiler_only"]),
        "stopped_at_an_error": {m: sorted(why) for m, why in sorted(stopped.items())},
        "not_compiled": {m: sorted(why) for m, why in sorted(not_compiled.items())},
    }


def _errors(report: dict[str, Any], compile_: dict[str, Any]) -> set[str]:
    """The errors that stopped the compile: evidence of a finding (which rule) or compiler-only."""
    name = str((compile_.get("compiled") or {}).get("name"))

    def mine(entry: object) -> bool:
        return isinstance(entry, str) and (entry == name or entry.startswith(name + "."))

    found = {
        f"{e['message']} (confirms {f['symbol']}, {Path(f['path']).name}:{f['line']})"
        for f in report["findings"]
        for e in f["evidence"]
        if e["kind"] == "error" and e.get("level") == compile_["level"] and mine(e.get("entry"))
    }
    found |= {
        f"{p['message']} (compiler-only, {Path(p['path']).name}:{p['line']})"
        for p in report["compiler_only"]
        if p["kind"] == "error" and p.get("level") == compile_["level"] and mine(p.get("entry"))
    }
    return found


ARRAYS = {
    "slurm": lambda i, n: {
        "SLURM_ARRAY_TASK_ID": str(i),
        "SLURM_ARRAY_TASK_COUNT": str(n),
        "SLURM_ARRAY_TASK_MIN": "0",
        "SLURM_ARRAY_TASK_STEP": "1",
    },
    "kubernetes": lambda i, n: {"JOB_COMPLETION_INDEX": str(i), "MSLINT_SHARD_COUNT": str(n)},
    "gitlab": lambda i, n: {"CI_NODE_INDEX": str(i + 1), "CI_NODE_TOTAL": str(n)},
    "github": lambda i, n: {"MSLINT_SHARD_INDEX": str(i), "MSLINT_SHARD_COUNT": str(n)},
}
"""The variables each job array sets for task ``i`` (from 0) of ``n``."""
_TIMES = ("wall_s", "compile_s", "cached")


class _Run(NamedTuple):
    code: int
    out: str
    err: str
    wall: float
    cpu: float
    """CPU seconds of mslint and of the compile processes it waited for: what the run costs
    whatever else the machine runs (its wall time grows with the machine's load, this does not)."""


def _mslint(arguments: list[str], env: dict[str, str], cwd: Path) -> _Run:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "mslint", *arguments], env=env, cwd=cwd, capture_output=True, text=True
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        sys.exit(f"mslint {' '.join(arguments[:2])} failed with status {done.returncode}: {done.stderr.strip()[-500:]}")
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return _Run(done.returncode, done.stdout, done.stderr, wall, cpu)


def comparable(result: dict[str, Any]) -> dict[str, Any]:
    """A result without what differs between machines and runs: times and cache marks."""
    compiles = []
    for compile_ in result["compiles"]:
        kept = {k: v for k, v in compile_.items() if k not in _TIMES}
        if kept.get("comparison"):
            kept["comparison"] = {k: v for k, v in kept["comparison"].items() if k != "seconds"}
        compiles.append(kept)
    compiles.sort(key=lambda c: (c["path"], c["name"], c["level"]))
    return {"findings": result["findings"], "compiler_only": result["compiler_only"], "compiles": compiles}


def across_machines(
    verify: list[str],
    env: dict[str, str],
    scratch: Path,
    shards: int,
    array: str,
    by_function: dict[str, str],
    ray_cpus: int | None = None,
) -> dict[str, Any]:
    """The single run, the shards and their merge, the cache and the gate (see the module's doc)."""
    cache = ["--cache-dir", "cache"]
    code, out, _, wall, cpu = _mslint([*verify, *cache, "--expect", "status.csv", "--update-expect"], env, scratch)
    whole = json.loads(out)
    (scratch / "whole.json").write_text(out)
    found: dict[str, Any] = {"single_run_s": round(wall, 1), "single_run_cpu_s": round(cpu, 1)}
    _progress(found, "single_run_s", "single_run_cpu_s")
    durations = durations_of(whole)  # what balances the shards: each entry's compile time in this run
    runs = []
    measured: dict[str, float] = {}
    for index in range(shards):
        shard_env = {**env, **ARRAYS[array](index, shards)}
        arguments = [*verify, "--no-cache", "--shard", "auto", "--durations", "whole.json"]
        _, out, _, wall, cpu = _mslint(arguments, shard_env, scratch)
        (scratch / f"shard{index}.json").write_text(out)
        result = json.loads(out)
        measured.update(durations_of(result))
        planned = sum(durations.get(entry, 0.0) for entry in result["shard"]["entries"])
        runs.append({"wall_s": round(wall, 1), "cpu_s": round(cpu, 1)})
        runs[-1]["compile_s"] = round(sum(c["wall_s"] for c in result["compiles"]), 1)
        runs[-1].update(entries=len(result["shard"]["entries"]), planned_s=round(planned, 1))
        print(f"shard {index + 1}/{shards}: {json.dumps(runs[-1])}", flush=True)
    merge = ["verify", "merge", *(f"shard{index}.json" for index in range(shards)), "-o", "all.json"]
    _mslint(merge, env, scratch)
    merged = json.loads((scratch / "all.json").read_text())
    found["merged_equals_single_run"] = comparable(merged) == comparable(whole)
    found["shards"] = runs
    found["entry_s_single_run_and_shard"] = {
        by_function.get(entry.rpartition(":")[2], entry): [round(durations[entry], 1), round(seconds, 1)]
        for entry, seconds in sorted(measured.items())
        if entry in durations
    }
    for measure in ("wall_s", "cpu_s", "compile_s", "planned_s"):
        values = [run[measure] for run in runs]
        found[f"longest_shard_{measure}_over_mean"] = round(max(values) / max(statistics.mean(values), 1e-9), 2)
    measures = ("wall_s", "cpu_s", "compile_s")
    _progress(found, "merged_equals_single_run", *(f"longest_shard_{m}_over_mean" for m in measures))
    if ray_cpus is not None:
        found.update(through_ray(verify, env, scratch, whole, ray_cpus))
        _progress(found, "ray_s", "ray_equals_single_run")

    _, out, _, wall, _ = _mslint([*verify, *cache], env, scratch)
    found["rerun"] = {"wall_s": round(wall, 1), "compiled": _run_now(json.loads(out), by_function)}
    _progress(found, "rerun")
    edited = _model_to_edit(whole)
    if edited is None:
        found["edit"] = "no model compiled at both levels: nothing to edit"
        return found
    path, name, model = Path(edited["path"]), str(edited["name"]), by_function[edited["function"]]
    original = path.read_text()
    path.write_text(original + "\n# edited by benchmarks/verify_zoo.py\n")
    code, out, err, wall, _ = _mslint([*verify, *cache, "--expect", "status.csv"], env, scratch)
    found["edit"] = {
        "model": model,
        "file": path.name,
        "compiled": _run_now(json.loads(out), by_function),
        "wall_s": round(wall, 1),
        "gate_exit": code,
        "gate": err.strip().splitlines(),
    }
    _progress(found, "edit")
    path.write_text(_import_in_construct(original, name))
    code, out, err, wall, _ = _mslint([*verify, *cache, "--expect", "status.csv"], env, scratch)
    found["break"] = {"compiled": _run_now(json.loads(out), by_function), "gate_exit": code}
    found["break"]["gate"] = [line for line in err.strip().splitlines() if "regression" in line]
    _progress(found, "break")
    return found


def _progress(found: dict[str, Any], *keys: str) -> None:
    """What a stage found, as soon as it is known: a run of an hour that is stopped keeps it."""
    print(json.dumps({key: found[key] for key in keys}), flush=True)


def through_ray(
    verify: list[str], env: dict[str, str], scratch: Path, whole: dict[str, Any], cpus: int
) -> dict[str, Any]:
    """The zoo verified through a Ray cluster started here, whose workers get the zoo's
    ``PYTHONPATH`` (they inherit ``ray start``'s environment); ended by its process group."""
    ray = Path(sys.executable).with_name("ray")
    if not ray.is_file():
        sys.exit(f"--ray: no {ray}: pip install '.[ray]'")
    ports = []
    for _ in range(2):
        with socket.socket() as listener:
            listener.bind(("127.0.0.1", 0))
            ports.append(str(listener.getsockname()[1]))
    folder = tempfile.mkdtemp(prefix="ray", dir="/tmp")  # Ray's sockets need a short path
    start = [str(ray), "start", "--head", "--num-cpus", str(cpus), "--port", ports[0], "--temp-dir", folder]
    start += ["--include-dashboard", "false", "--dashboard-port", ports[1], "--disable-usage-stats"]
    starting = subprocess.Popen(
        start, env=env, start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    said, _ = starting.communicate(timeout=120)
    try:
        if starting.returncode != 0:
            sys.exit(f"ray start failed: {said.decode(errors='replace')[-500:]}")
        _, out, _, wall, _ = _mslint([*verify, "--no-cache", "--ray", f"127.0.0.1:{ports[0]}"], env, scratch)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(starting.pid, signal.SIGKILL)
        shutil.rmtree(folder, ignore_errors=True)
    return {"ray_s": round(wall, 1), "ray_equals_single_run": comparable(json.loads(out)) == comparable(whole)}


def _run_now(result: dict[str, Any], by_function: dict[str, str]) -> list[str]:
    """The models (or entries) a run compiled instead of taking them from the cache."""
    return sorted({by_function.get(c["name"], c["name"]) for c in result["compiles"] if not c.get("cached")})


def _model_to_edit(whole: dict[str, Any]) -> dict[str, str] | None:
    """The first example whose compiles ran to the end at both levels: its Cell's file and class."""
    levels: dict[str, list[dict[str, Any]]] = collections.defaultdict(list)
    for compile_ in whole["compiles"]:
        if compile_.get("example"):
            levels[compile_["name"]].append(compile_)
    for function, compiles in sorted(levels.items()):
        if len(compiles) == 2 and all(c["status"] == "compiled" and not c["stopped"] for c in compiles):
            compiled = compiles[0]["compiled"]
            return {"function": function, "path": compiled["path"], "name": compiled["name"]}
    return None


def _import_in_construct(source: str, class_name: str) -> str:
    """``source`` with ``import os`` as the first statement of ``class_name.construct``: a
    statement graph mode rejects."""
    tree = ast.parse(source)
    cell = next(n for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and n.name == class_name)
    construct = next(n for n in cell.body if isinstance(n, ast.FunctionDef) and n.name == "construct")
    first = construct.body[0]
    lines = source.splitlines(keepends=True)
    indent = lines[first.lineno - 1][: first.col_offset]
    lines.insert(first.lineno - 1, f"{indent}import os\n")
    return "".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--models", nargs="+", default=["*"], help="fnmatch patterns of mindcv model names")
    parser.add_argument("--small", action="store_true", help="the smallest variant of each mindcv model module")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per compile (mslint verify --timeout)")
    parser.add_argument("--json", type=Path, help="write the summary and mslint's JSON report here")
    parser.add_argument("--shards", type=int, help="also verify as N shards of a job array, merge, rerun and gate")
    parser.add_argument("--array", choices=sorted(ARRAYS), default="kubernetes", help="the job array simulated")
    parser.add_argument("--ray", action="store_true", help="with --shards: also through a Ray cluster started here")
    args = parser.parse_args()
    mindcv, import_paths = corpus_paths()
    missing = missing_in_venv()
    if missing:
        print(f"mindcv imports {', '.join(missing)}, which this environment lacks: fetched into {import_paths[1:]}")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(map(str, [*import_paths, os.environ.get("PYTHONPATH", "")]))}
    models = select_models(list(SMALL_VARIANTS) if args.small else args.models, env)
    if not models:
        sys.exit(f"no mindcv model matches {args.models}")
    print(f"sizing {len(models)} models (PyNative, untimed)...", flush=True)
    sizes, failures = input_sizes(models, env)
    if args.shards:
        with tempfile.TemporaryDirectory(prefix="mslint-zoo-") as folder_name:
            folder = Path(folder_name)
            shutil.copytree(mindcv, folder / "mindcv", ignore=shutil.ignore_patterns("__pycache__"))
            write_factories(sizes, folder / "mindcv_examples.py")
            paths = os.pathsep.join(map(str, [folder, *import_paths[1:], os.environ.get("PYTHONPATH", "")]))
            verify = ["verify", "mindcv/models", "--format", "json", "--jobs", str(args.jobs)]
            verify += ["--timeout", f"{args.timeout:g}"]
            verify += [arg for model in sizes for arg in ("--example", f"mindcv_examples.py:{function_name(model)}")]
            print(f"mslint verify on {len(models)} models, then as {args.shards} shards...", flush=True)
            by_function = {function_name(m): m for m in sizes}
            zoo_env = {**env, "PYTHONPATH": paths}
            ray_cpus = args.jobs if args.ray else None
            found = across_machines(verify, zoo_env, folder, args.shards, args.array, by_function, ray_cpus)
        print(json.dumps({"models": len(sizes), "array": args.array, **found}, indent=2))
        if args.json:
            args.json.write_text(json.dumps({"models": sorted(sizes), "array": args.array, **found}, indent=1))
        return 0
    with tempfile.TemporaryDirectory(prefix="mslint-zoo-") as scratch:
        factories = Path(scratch, "mindcv_examples.py")
        write_factories(sizes, factories)
        command = [str(BIN / "mslint"), "verify", str(mindcv / "models"), "--format", "json"]
        command += ["--jobs", str(args.jobs), "--timeout", f"{args.timeout:g}"]
        command += [arg for model in sizes for arg in ("--example", f"{factories}:{function_name(model)}")]
        print(f"mslint verify on {len(models)} models...", flush=True)
        started = time.perf_counter()
        done = subprocess.run(command, env=env, cwd=scratch, capture_output=True, text=True)
        wall = time.perf_counter() - started
    if done.returncode not in (0, 1):
        sys.exit(f"mslint verify failed with status {done.returncode}: {done.stderr.strip()[-500:]}")
    report = json.loads(done.stdout)
    summary = summarize(report, sizes, wall)
    summary["not_run_in_pynative"] = failures
    details = ("stopped_at_an_error", "not_compiled", "not_run_in_pynative")
    print(json.dumps({k: v for k, v in summary.items() if k not in details}, indent=2))
    for model, why in summary["stopped_at_an_error"].items():
        print(f"compile stopped at an error: {model}: {' | '.join(why)}")
    for model, why in summary["not_compiled"].items():
        print(f"not compiled: {model}: {' | '.join(why)}")
    for model, error in failures.items():
        print(f"runs in PyNative at no size tried: {model} ({sizes[model]}x{sizes[model]}): {error}")
    if args.json:
        args.json.write_text(json.dumps({"summary": summary, "sizes": sizes, "report": report}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
