"""Watch the APIs that apply an amp level: ``build_train_network`` (which ``Model(...,
amp_level=...)`` calls) and ``auto_mixed_precision``.

At levels O2 and O3 MindSpore 2.10 calls ``to_float(float16)`` on the whole network, which
rewrites the precision the user gave sub-Cells with ``to_float``; O1 and ``auto`` keep it.
Each call is judged by the real Cells: the precision each had before the call, against the
one MindSpore left it with. A Cell moved to float32 (BatchNorm and LayerNorm kept at full
precision by O2) lost nothing, so only a Cell left in another low precision is reported.
"""

from __future__ import annotations

import functools
import inspect
import sys
from collections.abc import Callable
from typing import Any

from mslint.verify.compiler_output import RUNTIME, Problem
from mslint.verify.runtime.callers import IsUserFile, Report, caller_location

_FLAGS = {"fp16": "float16", "fp32": "float32", "bf16": "bfloat16"}
"""The flags ``Cell.to_float`` sets, and the dtype each stands for."""
_WATCHED = ("build_train_network", "auto_mixed_precision")


def install(report: Report, is_user_file: IsUserFile) -> None:
    from mindspore.train import amp

    depth = [0]  # build_train_network calls auto_mixed_precision: only the outer call is judged

    def watched(original: Callable[..., Any]) -> Callable[..., Any]:
        signature = inspect.signature(original)

        @functools.wraps(original)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            bound = signature.bind_partial(*args, **kwargs).arguments
            network = bound.get("network")
            before = _precisions(network) if depth[0] == 0 else {}
            depth[0] += 1
            try:
                return original(*args, **kwargs)
            finally:
                depth[0] -= 1
                changed = _overridden(before)
                if changed:
                    level = bound.get("level", bound.get("amp_level", "O0"))
                    message = f'MindSpore\'s amp level "{level}" changed the precision `to_float` gave: {changed}'
                    report(Problem(RUNTIME, message, caller_location(is_user_file)))

        return wrapper

    for name in _WATCHED:
        original = getattr(amp, name)
        wrapper = watched(original)
        # ``mindspore.amp`` and ``mindspore`` re-export the functions: replace every binding
        for module in [m for m in sys.modules.values() if m is not None and m.__name__.startswith("mindspore")]:
            if getattr(module, name, None) is original:
                setattr(module, name, wrapper)


def _precision(cell: Any) -> str | None:
    """The dtype ``to_float`` last gave the Cell (read as MindSpore's amp reads it)."""
    return next((dtype for flag, dtype in _FLAGS.items() if getattr(cell, flag, False)), None)


def _precisions(network: Any) -> dict[str, tuple[Any, str]]:
    """The Cells of ``network`` that have a precision, by name ("" for the network), with it."""
    from mindspore import nn

    if not isinstance(network, nn.Cell):
        return {}
    found = {}
    for name, cell in network.cells_and_names():
        precision = _precision(cell)
        if precision is not None:
            found[name] = (cell, precision)
    return found


def _overridden(before: dict[str, tuple[Any, str]]) -> str:
    """The Cells now in another low precision, outermost only: `head` (Dense) float32 -> float16."""
    changed: list[str] = []
    for name, (cell, precision) in before.items():
        now = _precision(cell)
        if now not in (precision, "float32") and not any(c == "" or name.startswith(f"{c}.") for c in changed):
            changed.append(name)
    return ", ".join(
        f"{f'`{name}`' if name else 'the network'} ({type(before[name][0]).__name__}) "
        f"{before[name][1]} -> {_precision(before[name][0])}"
        for name in changed
    )
