"""Compile a ``@jit`` function in its own capture mode (see :mod:`mslint.model.capture`).

* ast: as the rest of the verifier does, at the level the job asks.
* bytecode: in LAX as written (a graph break runs in Python and is no problem), in STRICT again
  with ``fullgraph=True``, which raises at the first form bytecode capture cannot put in the graph:
  its ``In file PATH:LINE`` confirms a graph break there.
* trace: the function is traced on the inputs, then called on the inputs negated (which take the
  other side of a sign test), and that result is compared with the function run as Python on the
  same negated inputs. A difference is a divergence, located on the lines where tracing read a
  tensor's value in Python (``Tensor.__bool__``, ``.item()``, ``.asnumpy()``, ...: what it froze),
  else on the function's definition.

Runs only in the verifier's compile process, which has imported MindSpore.
"""

from __future__ import annotations

import contextlib
import inspect
import re
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from mslint.verify.compiler_output import DIVERGENCE, Location, Problem

AST, BYTECODE, TRACE = "ast", "bytecode", "trace"
_HOST_READS = ("__bool__", "__int__", "__float__", "__index__", "item", "asnumpy", "tolist")


def capture_mode(function: Any) -> str:
    """The capture mode of a ``jit``-wrapped function, read from the wrapper MindSpore made."""
    if getattr(function, "__trace_func__", False):
        return TRACE
    cells = [c.cell_contents for c in getattr(function, "__closure__", None) or ()]
    return BYTECODE if any(type(c).__name__ == "PIJitCaptureContext" for c in cells) else AST


def bytecode_refusal() -> str | None:
    """Why the installed MindSpore refuses bytecode capture on this Python, or None where it captures.

    MindSpore 2.10 raises "does not support Python 3.12+" at every call of a bytecode-captured
    function on 3.12 and later; its own flag for that is read (a compile there would report that
    refusal as the user's error, on the line of the call)."""
    import mindspore as ms

    try:
        from mindspore.graph._utils import pijit_context
    except ImportError:  # another release, which keeps no such flag there
        return None
    if not getattr(pijit_context, "_PY312_OR_LATER", False):
        return None
    python = ".".join(map(str, sys.version_info[:3]))
    return f'MindSpore {ms.__version__} has no @jit(capture_mode="bytecode") on Python {python} (3.11 or older)'


def fullgraph_twin(function: Any) -> Any:
    """The bytecode-captured function again, with ``fullgraph=True``."""
    import mindspore as ms

    return ms.jit(inspect.unwrap(function), capture_mode=BYTECODE, fullgraph=True)


_USER_CODE_LINE = re.compile(r"^In file (.+):(\d+)\s*$", re.MULTILINE)


def graph_break_locations(text: str, is_user_file: Callable[[str], bool]) -> tuple[Location, ...]:
    """The user's lines in the "From user code:" part of what ``fullgraph=True`` raised at a graph
    break (``In file PATH:LINE`` lines, without the column that the compiler's messages give)."""
    _, marker, user_code = text.partition("From user code:")
    found = (m for m in _USER_CODE_LINE.finditer(user_code) if marker and is_user_file(m.group(1)))
    return tuple(dict.fromkeys((str(Path(m.group(1)).resolve()), int(m.group(2))) for m in found))


def trace_divergence(
    function: Any, inputs: tuple[Any, ...], is_user_file: Callable[[str], bool], level: str
) -> list[Problem]:
    """A divergence where the traced ``function`` returns, on inputs that take another path, other
    than Python does; none where they agree or the function cannot run as Python."""
    import mindspore as ms
    import numpy as np

    plain = inspect.unwrap(function)
    read: dict[Location, None] = {}
    with _host_reads_recorded(read, is_user_file):
        _on_a_fresh_stack(function, inputs)  # the first call traces
    other = tuple(-value if _is_float_tensor(value) else value for value in inputs)
    traced = _on_a_fresh_stack(function, other)
    saved = ms.get_context("mode")
    ms.set_context(mode=ms.PYNATIVE_MODE)
    try:
        eager = plain(*other)
    except Exception:  # the function as Python fails on these inputs: nothing to compare with
        return []
    finally:
        ms.set_context(mode=saved)
    if _same(traced, eager, np):
        return []
    code = plain.__code__
    locations = tuple(read) or ((str(Path(code.co_filename).resolve()), code.co_firstlineno),)
    message = (
        "the traced function returns another result than Python on inputs that take another path: "
        "tracing froze what the first call decided"
    )
    return [Problem(DIVERGENCE, message, locations, level)]


def _on_a_fresh_stack(function: Any, inputs: tuple[Any, ...]) -> Any:
    """``function(*inputs)`` in a thread of its own. Tracing reads the source line of every frame
    on the stack (MindSpore 2.10's ``_get_caller_lines``) and fails with "'NoneType' object is not
    subscriptable" on a frame without one, which the verifier's worker process has: a new
    thread's stack holds only this module's frames and the user's."""
    result: list[Any] = []
    failure: list[BaseException] = []

    def run() -> None:
        try:
            result.append(function(*inputs))
        except BaseException as error:  # re-raised in the caller's thread
            failure.append(error)

    thread = threading.Thread(target=run, name="mslint-trace")
    thread.start()
    thread.join()
    if failure:
        raise failure[0]
    return result[0]


def _is_float_tensor(value: Any) -> bool:
    import mindspore as ms

    return isinstance(value, ms.Tensor) and ms.dtype_to_nptype(value.dtype).__name__.startswith("float")


def _same(left: Any, right: Any, np: Any) -> bool:
    if isinstance(left, (tuple, list)) and isinstance(right, (tuple, list)):
        return len(left) == len(right) and all(_same(a, b, np) for a, b in zip(left, right))
    a = np.asarray(left.asnumpy() if hasattr(left, "asnumpy") else left, dtype=np.float64)
    b = np.asarray(right.asnumpy() if hasattr(right, "asnumpy") else right, dtype=np.float64)
    return bool(a.shape == b.shape and np.allclose(a, b, equal_nan=True))


@contextlib.contextmanager
def _host_reads_recorded(found: dict[Location, None], is_user_file: Callable[[str], bool]) -> Iterator[None]:
    """Record, in ``found``, the user's lines that read a tensor's value into Python."""
    import mindspore as ms

    originals = {name: vars(ms.Tensor)[name] for name in _HOST_READS if name in vars(ms.Tensor)}

    def recording(original: Callable[..., Any]) -> Callable[..., Any]:
        def read(self: Any, *args: Any, **kwargs: Any) -> Any:
            frame = sys._getframe(1)
            while frame is not None and not is_user_file(frame.f_code.co_filename):
                frame = frame.f_back  # type: ignore[assignment]
            if frame is not None:
                found[(str(Path(frame.f_code.co_filename).resolve()), frame.f_lineno)] = None
            return original(self, *args, **kwargs)

        return read

    for name, original in originals.items():
        setattr(ms.Tensor, name, recording(original))
    try:
        yield
    finally:
        for name, original in originals.items():
            setattr(ms.Tensor, name, original)
