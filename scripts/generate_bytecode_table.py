"""Write mslint/data/bytecode-<version>.json: what ``@jit(capture_mode="bytecode")`` does with forms of
the syntax table (:mod:`graph_syntax.catalog`), with and without ``fullgraph=True``.

Each form is rendered as a ``@jit`` function (:func:`graph_syntax.forms.render`, position ``jit``) and
run in a process of its own: first without ``jit`` (the eager result), then with
``capture_mode="bytecode"``, then, where that ran, with ``fullgraph=True`` as well. A row's verdict:

* ``compiles``: the whole function became one graph (``fullgraph=True`` runs);
* ``graph-break``: it runs, but only with the unsupported part left to Python (``fullgraph=True``
  raises; its message is the reason);
* ``fails``: bytecode capture raises even without ``fullgraph``;
* ``diverges``: it runs, with a result other than the eager one.

The sample, bounded: every form the shipped syntax table says ast capture rejects in STRICT at the
``jit`` position, and the first two forms of each family that ast capture compiles (controls). Run it
in an environment with the release to describe: ``python scripts/generate_bytecode_table.py``;
``--only PREFIX`` (repeatable) re-measures those rows and keeps the others; ``--check`` only compares.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from generate_syntax_table import code
from graph_syntax.catalog import catalog
from graph_syntax.forms import Form, render
from mindspore_table import (
    OUTPUT,
    MeasurementCache,
    capture_table,
    installed_mindspore,
    kept_verdict,
    run_child,
    write_or_check,
)

from mslint.verify.capture_modes import bytecode_refusal

WORKERS = 2
TIMEOUT_S = 120.0
AST_REJECTS = frozenset({"error", "crashed", "timed-out", "dynamic-shape"})
"""Outcomes of the syntax table at the ``jit`` position that make a form worth measuring here."""
CONTROLS_PER_FAMILY = 2

_DECORATOR = "@ms.jit\n"
_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")

_CHILD = r"""
import importlib.util, json, sys
import numpy as np

def run(path):
    spec = importlib.util.spec_from_file_location(path.rsplit("/", 1)[-1][:-3], path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    entry, inputs = module.make()
    out = entry(*inputs)
    return np.asarray(out.asnumpy() if hasattr(out, "asnumpy") else out, dtype=np.float64)

def attempt(path):
    try:
        return run(path), None
    except Exception as error:  # what the capture raised is the measurement
        lines = [line for line in str(error).strip().splitlines() if line.strip()]
        return None, f"{type(error).__name__}: {lines[0] if lines else ''}"

eager, eager_error = attempt(sys.argv[1])
part, part_error = attempt(sys.argv[2])
result = {"eager": eager_error, "part": part_error}
if part_error is None:
    result["same"] = bool(eager is not None and eager.shape == part.shape and np.allclose(eager, part, equal_nan=True))
    result["full"] = attempt(sys.argv[3])[1]
print("RESULT " + json.dumps(result))
"""


def sample(forms: Sequence[Form], syntax_rows: dict[str, Any]) -> list[Form]:
    """The forms measured: those ast capture rejects at the ``jit`` position, and a few controls."""
    chosen, controls = [], Counter[str]()
    for form in forms:
        if "jit" not in form.positions():
            continue
        outcome = syntax_rows.get(form.id, {}).get("outcomes", {}).get("jit", {}).get("strict", ["ok"])[0]
        if outcome in AST_REJECTS:
            chosen.append(form)
        elif outcome == "ok" and controls[form.family] < CONTROLS_PER_FAMILY:
            controls[form.family] += 1
            chosen.append(form)
    return chosen


def measure_one(form: Form, index: int, scratch: Path) -> dict[str, Any]:
    source = render(form, "jit").source
    assert _DECORATOR in source, form.id
    paths = []
    for name, decorator in (
        ("eager", ""),
        ("part", '@ms.jit(capture_mode="bytecode")\n'),
        ("full", '@ms.jit(capture_mode="bytecode", fullgraph=True)\n'),
    ):
        path = scratch / f"form{index}_{name}.py"
        path.write_text(source.replace(_DECORATOR, decorator))
        paths.append(str(path))
    run = run_child(["-c", _CHILD, *paths], scratch, TIMEOUT_S)
    if run.timed_out:
        return {"verdict": "timed-out"}
    result = run.result
    if result is None:
        return {"verdict": "crashed", "reason": _clean([run.last_error], scratch)}
    if result["part"] is not None:
        return {"verdict": "fails", "reason": _clean([result["part"]], scratch)}
    if not result["same"]:
        return {"verdict": "diverges"}
    if result["full"] is not None:
        return {"verdict": "graph-break", "reason": _clean([result["full"]], scratch)}
    return {"verdict": "compiles"}


def _clean(lines: list[str], scratch: Path) -> str:
    """A message without what changes from run to run (paths, addresses, program names)."""
    text = lines[0].replace(str(scratch.resolve()) + "/", "").replace(str(scratch) + "/", "")
    return re.sub(r"\bform\d+_(?:eager|part|full)\b", "program", _ADDRESS.sub("0x?", text))[:240]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--only", action="append", default=[], metavar="PREFIX", help="re-measure these rows only")
    parser.add_argument("--check", action="store_true", help="compare with the shipped table, write nothing")
    args = parser.parse_args(argv)
    version = installed_mindspore("generate_bytecode_table.py")
    if version is None:
        return 2
    refusal = bytecode_refusal()
    if refusal:
        print(f"generate_bytecode_table.py: {refusal}: nothing can be measured here", file=sys.stderr)
        return 2
    syntax_rows = json.loads((OUTPUT / f"syntax-{version}.json").read_text())["rows"]
    forms = [f for f in sample(catalog(), syntax_rows) if not args.only or any(f.id.startswith(p) for p in args.only)]
    if not forms:
        print(f"no sampled form id starts with {', '.join(args.only)}", file=sys.stderr)
        return 2
    existing = OUTPUT / f"bytecode-{version}.json"
    rows: dict[str, Any] = json.loads(existing.read_text())["rows"] if args.only and existing.is_file() else {}
    started = time.perf_counter()
    cache = MeasurementCache(_CHILD, _DECORATOR, measure_one, _clean, _ADDRESS.pattern)

    def verdict_of(index: int, form: Form) -> dict[str, Any]:
        # its three programs are this generator's edits of the form's at the jit position
        return kept_verdict(cache, {"source": render(form, "jit").source}, lambda: measure_one(form, index, scratch))

    with tempfile.TemporaryDirectory(prefix="mslint-bytecode-") as folder, ThreadPoolExecutor(WORKERS) as pool:
        scratch = Path(folder)
        verdicts = list(pool.map(verdict_of, range(len(forms)), forms))
    for form, verdict in zip(forms, verdicts):
        rows[form.id] = {"code": code(form), "family": form.family, **verdict}
    counts = Counter(v["verdict"] for v in verdicts)
    summary = f"{len(forms)} forms in {time.perf_counter() - started:.0f} s; " + ", ".join(
        f"{kind} {n}" for kind, n in counts.most_common()
    )
    print(summary, file=sys.stderr)
    return write_or_check(f"bytecode-{version}.json", capture_table("bytecode", version, rows), summary)


if __name__ == "__main__":
    sys.exit(main())
