"""Write mslint/data/trace-<version>.json: what ``@jit(capture_mode="trace")`` freezes, measured.

Tracing runs the function once, in Python, and keeps the operators it ran: a decision Python took on
that run is part of the graph. Each case below is a small function run in a process of its own:
eagerly (no ``jit``) and traced, on two inputs that take different paths (``x`` and ``-x``), or twice
on one input where the case is about randomness or side effects. A case's verdict:

* ``frozen``: the traced function returns, on the second call, something other than Python does
  (or repeats the first call's random draw, or skips the second call's side effect);
* ``fails``: tracing raises;
* ``follows``: the traced function agrees with Python on both calls (a control: what tracing keeps).

Run it where the release is installed: ``python scripts/generate_trace_table.py``; ``--check`` only
compares with the shipped table.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import textwrap
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mindspore_table import (
    OUTPUT,
    MeasurementCache,
    capture_table,
    installed_mindspore,
    kept_verdict,
    run_child,
    write_or_check,
)

WORKERS = 2
TIMEOUT_S = 120.0


@dataclass(frozen=True)
class Case:
    id: str
    """``kind.name``: the kind is what the rule matches (control, host-read, side-effect, randomness,
    dynamic-shape, static)."""
    body: str
    """The body of ``f(x)``, which returns a Tensor; ``x`` is float32 of shape (2, 3)."""
    calls: str = "branches"
    """``branches``: called with ``x`` then ``-x``; ``repeat``: with ``x`` twice; ``effects``: with
    ``x`` twice, comparing how many times ``EFFECTS`` grew."""

    @property
    def kind(self) -> str:
        return self.id.split(".", 1)[0]


CASES = (
    Case("control.if", "if x.sum() > 0:\n    return x * 2\nreturn x + 10"),
    Case("control.if-else-assign", "if x.sum() > 0:\n    y = x * 2\nelse:\n    y = x + 10\nreturn y"),
    Case("control.while", "y = x\nwhile y.sum() < 20:\n    y = y + 3\nreturn y"),
    Case("control.ifexp", "return x * 2 if x.sum() > 0 else x + 10"),
    Case("control.and-or", "return x * 2 + ops.cast((x.sum() > 0) and (x.max() > 0), ms.float32)"),
    Case("control.bool", "return x * 2 if bool(x.sum() > 0) else x + 10"),
    Case("control.not", "if not x.sum() > 0:\n    return x + 10\nreturn x * 2"),
    Case("control.assert", "assert x.sum() > 0\nreturn x * 2"),
    Case("host-read.asnumpy", "return x * float(x.asnumpy().sum())"),
    Case("host-read.item", "return x * x.sum().item()"),
    Case("host-read.int", "return x * int(x.sum())"),
    Case("host-read.float", "return x * float(x.max())"),
    Case("host-read.tolist", "return x * sum(x.sum(axis=1).tolist())"),
    Case("host-read.range", "y = x\nfor _ in range(int(x.max()) % 3):\n    y = y + 1\nreturn y"),
    Case("side-effect.print", "print('called')\nEFFECTS.append(1)\nreturn x * 2", calls="effects"),
    Case("side-effect.append", "EFFECTS.append(x)\nreturn x * 2", calls="effects"),
    Case("randomness.random", "return x * random.random()", calls="repeat"),
    Case("randomness.numpy", "return x * float(np.random.rand())", calls="repeat"),
    Case("dynamic-shape.mask", "return x[x > 0].sum() + x * 0"),
    Case("dynamic-shape.nonzero", "return ops.nonzero(x > 0).sum() + x * 0"),
    Case("dynamic-shape.masked-select", "return ops.masked_select(x, x > 0).sum() + x * 0"),
    Case("static.shape-if", "if x.shape[0] > 1:\n    return x * 2\nreturn x + 10"),
    Case("static.ops-select", "return ops.select(x.sum() > 0, x * 2, x + 10)"),
    Case("static.where", "return ops.where(x > 0, x * 2, x + 10)"),
)

_CHILD = r"""
import json, random, sys
import numpy as np
import mindspore as ms
from mindspore import ops, Tensor

EFFECTS = []

def f(x):
__BODY__

def output(function, value):
    try:
        return np.asarray(function(value).asnumpy(), dtype=np.float64)
    except Exception as error:  # Python raising where the trace does not is a difference too
        return type(error).__name__

def calls(function, mode):
    random.seed(0)
    np.random.seed(0)
    x = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3) - 1.5)
    second = -x if mode == "branches" else x
    del EFFECTS[:]
    first_out = output(function, x)
    grown = len(EFFECTS)
    second_out = output(function, second)
    return first_out, second_out, len(EFFECTS) - grown

mode = sys.argv[1]
eager = calls(f, mode)
try:
    traced = calls(ms.jit(f, capture_mode="trace"), mode)
except Exception as error:
    lines = [line for line in str(error).strip().splitlines() if line.strip()]
    print("RESULT " + json.dumps({"fails": f"{type(error).__name__}: {lines[0] if lines else ''}"}))
    sys.exit(0)
if isinstance(traced[0], str):
    print("RESULT " + json.dumps({"fails": traced[0]}))
    sys.exit(0)

def same(a, b):
    if isinstance(a, str) or isinstance(b, str):
        return isinstance(a, str) and isinstance(b, str) and a == b
    return bool(a.shape == b.shape and np.allclose(a, b))

same = [same(a, b) for a, b in zip(eager[:2], traced[:2])]
print("RESULT " + json.dumps({"same": same, "effects": [eager[2], traced[2]]}))
"""


def measure(case: Case, scratch: Path) -> dict[str, Any]:
    body = textwrap.indent(case.body, "    ")
    program = scratch / f"{case.id.replace('.', '_').replace('-', '_')}.py"  # tracing reads the source file
    program.write_text(_CHILD.replace("__BODY__", body))
    run = run_child([str(program), case.calls], scratch, TIMEOUT_S)
    if run.timed_out:
        return {"verdict": "timed-out"}
    result = run.result
    if result is None:
        return {"verdict": "crashed", "detail": run.last_error[:240]}
    if "fails" in result:
        return {"verdict": "fails", "detail": result["fails"][:240]}
    first_same, second_same = result["same"]
    eager_effects, traced_effects = result["effects"]
    if case.calls == "effects":
        frozen = traced_effects != eager_effects
        detail = f"the second call ran the side effect {traced_effects} times, Python {eager_effects}"
    else:
        frozen = not (first_same and second_same)
        detail = "the second call" + (" returned" if frozen else " agreed with") + " what Python returns"
        detail = detail if frozen or first_same else "the first call already differs from Python"
        if frozen and first_same:
            detail = "the first call agrees with Python; the second returns what the first call's path computes"
            if case.calls == "repeat":
                detail = "the second call repeats the first call's draw, where Python draws again"
    return {"verdict": "frozen" if frozen else "follows", "detail": detail}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--only", action="append", default=[], metavar="PREFIX", help="re-measure these cases only")
    parser.add_argument("--check", action="store_true", help="compare with the shipped table, write nothing")
    args = parser.parse_args(argv)
    version = installed_mindspore("generate_trace_table.py")
    if version is None:
        return 2
    cases = [c for c in CASES if not args.only or any(c.id.startswith(p) for p in args.only)]
    if not cases:
        print(f"no case id starts with {', '.join(args.only)}", file=sys.stderr)
        return 2
    existing = OUTPUT / f"trace-{version}.json"
    rows: dict[str, Any] = json.loads(existing.read_text())["rows"] if args.only and existing.is_file() else {}
    started = time.perf_counter()
    cache = MeasurementCache(_CHILD, measure)

    def verdict_of(case: Case) -> dict[str, Any]:
        # the program is this generator's, around the case's body; tracing reads it from a file named by its id
        asked = {"case": case.id, "body": case.body, "calls": case.calls}
        return kept_verdict(cache, asked, lambda: measure(case, scratch))

    with tempfile.TemporaryDirectory(prefix="mslint-trace-") as folder, ThreadPoolExecutor(WORKERS) as pool:
        scratch = Path(folder)
        verdicts = list(pool.map(verdict_of, cases))
    rows.update({case.id: {"code": case.body, "calls": case.calls, **v} for case, v in zip(cases, verdicts)})
    counts = Counter(v["verdict"] for v in verdicts)
    summary = f"{len(cases)} cases in {time.perf_counter() - started:.0f} s; " + ", ".join(
        f"{kind} {n}" for kind, n in counts.most_common()
    )
    print(summary, file=sys.stderr)
    return write_or_check(f"trace-{version}.json", capture_table("trace", version, rows), summary)


if __name__ == "__main__":
    sys.exit(main())
