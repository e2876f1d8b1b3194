"""Run a compiled entry in graph mode and in PyNative on the same inputs, and compare the results.

Silent hazards compile cleanly and leave nothing in the compiler's output: graph mode never
increments a global counter, drops ``self.items.append(x)``, freezes ``random.random()`` at
compile time, draws the weights of a Cell built in ``construct`` once. Running both modes shows
them. Each mode gets a fresh instance, built the same way from the same seeds and the same
module globals (restored between modes), in eval mode, and is called twice; after each call
the outputs, the Python state of the user's Cells (attributes that are not Cells or
Parameters), the module globals the entry's code names, and the Parameter values are taken.

PyNative runs twice, the second time with another MindSpore seed (Python's and numpy's stay):
when the two disagree, the result depends on MindSpore's random operators (or on something
else that changes from run to run, such as a clock), and the entry is *not comparable*: a
difference from graph mode would prove nothing. ``random.random()`` follows Python's seed, so
it stays comparable, and graph mode's frozen value shows.

Runs only in the verifier's compile process, which has imported MindSpore.
"""

from __future__ import annotations

import contextlib
import copy
import inspect
import math
import random
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import FunctionType, MethodType, ModuleType
from typing import Any

from mslint.verify.compiler_output import COMPILE_TIME, DIVERGENCE, UNTRACKED, Location, Problem
from mslint.verify.sources import Write, function_defined_at, writes

COMPARED, NOT_COMPARABLE, NOT_RUN = "compared", "not-comparable", "not-run"
CALLS = 2
_SEED, _OTHER_MINDSPORE_SEED = 0, 1
_OUTPUT = "the output"
_DEPTH = 8
"""How deep nested containers are snapshotted; deeper values compare as equal."""
_SILENT_HAZARDS = (COMPILE_TIME, UNTRACKED)
"""Problems of the same compile that explain a different output: code run once while compiling,
and Parameters made while compiling (a Cell built in ``construct``)."""

Build = Callable[[], "tuple[Any, tuple[Any, ...]]"]
Snapshot = dict[str, Any]
"""What one call left behind, by label (``the output``, ``self.count``, ``global m.calls``)."""


@dataclass
class Comparison:
    status: str
    reason: str | None = None
    seconds: float = 0.0
    problems: list[Problem] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"status": self.status, "reason": self.reason, "seconds": self.seconds}


@dataclass(frozen=True)
class _Global:
    """A module global or class attribute the entry's code names: saved once, restored before each run."""

    holder: Any
    """The module or class that holds it."""
    name: str
    label: str
    saved: Any


@dataclass(frozen=True)
class _Function:
    function: FunctionType
    owner: type | None
    """The class whose instance is ``self`` in the function, for methods."""


def compare_modes(
    build: Build,
    compiled: Any,
    inputs: tuple[Any, ...],
    is_user_file: Callable[[str], bool],
    hazards: list[Problem],
    definition: tuple[Location, ...],
    level: str,
) -> Comparison:
    """Compare graph mode with PyNative on fresh instances from ``build``; ``compiled`` is the
    instance already compiled on ``inputs`` (its classes and code name the state to watch).
    ``hazards`` are the same compile's problems, ``definition`` where the entry is defined."""
    import mindspore as ms

    started = time.perf_counter()
    if any(dim < 0 for value in inputs if isinstance(value, ms.Tensor) for dim in value.shape):
        return Comparison(NOT_RUN, "the inputs have dynamic dimensions: no data to run on")
    functions = _reachable(compiled, is_user_file)
    state = _module_state(functions, is_user_file)
    try:
        graph = _run(build, ms.GRAPH_MODE, state, functions, _SEED)
    except Exception as error:  # the user's code failing to run is no divergence: say why nothing was compared
        return _not_comparable(f"graph mode raised {_one_line(error)}", started)
    try:
        pynative = _run(build, ms.PYNATIVE_MODE, state, functions, _SEED)
        again = _run(build, ms.PYNATIVE_MODE, state, functions, _OTHER_MINDSPORE_SEED)
    except Exception as error:
        return _not_comparable(f"PyNative raised {_one_line(error)}", started)
    if not _same_runs(pynative, again):
        label = _first_difference(pynative, again)
        reason = f"two PyNative runs disagree on {label} (random operators, or values that change from run to run)"
        return _not_comparable(reason, started)
    problems = _divergences(graph, pynative, functions, hazards, definition, level)
    return Comparison(COMPARED, None, round(time.perf_counter() - started, 3), problems)


def _not_comparable(reason: str, started: float) -> Comparison:
    return Comparison(NOT_COMPARABLE, reason, round(time.perf_counter() - started, 3))


def _one_line(error: Exception) -> str:
    text = str(error).strip()
    return f"{type(error).__name__}: {text.splitlines()[0][:200] if text else ''}"


def _run(
    build: Build, mode: int, state: list[_Global], functions: list[_Function], mindspore_seed: int
) -> list[Snapshot]:
    """Build a fresh instance in ``mode`` and call it ``CALLS`` times: a snapshot after each call."""
    import mindspore as ms
    import numpy as np

    for item in state:
        setattr(item.holder, item.name, copy.deepcopy(item.saved))
    ms.set_context(mode=mode)
    _seed(_SEED)
    target, inputs = build()
    cell = _cell_of(target)
    if cell is not None:
        cell.set_train(False)
    if mode == ms.GRAPH_MODE and not isinstance(target, ms.nn.Cell) and not hasattr(target, "__wrapped__"):
        target = ms.jit(target)
    if mode == ms.PYNATIVE_MODE and not isinstance(target, ms.nn.Cell):
        target = _python_function(target)
    ms.set_seed(mindspore_seed)
    np.random.seed(_SEED)
    random.seed(_SEED)
    owners = {f.owner for f in functions if f.owner is not None}
    snapshots = []
    for _ in range(CALLS):
        output = target(*inputs)
        snapshots.append(
            {
                _OUTPUT: _frozen(output, _DEPTH),
                **_attributes(cell, owners, functions),
                **{item.label: _frozen(getattr(item.holder, item.name, None), _DEPTH) for item in state},
                **_parameters(cell),
            }
        )
    return snapshots


def _python_function(target: Any) -> Any:
    """The Python function under ``@jit`` (which compiles even in PyNative), bound as ``target`` is."""
    if isinstance(target, MethodType):
        return MethodType(inspect.unwrap(target.__func__), target.__self__)
    return inspect.unwrap(target)


def _seed(seed: int) -> None:
    import mindspore as ms
    import numpy as np

    ms.set_seed(seed)
    np.random.seed(seed)
    random.seed(seed)


def _cell_of(target: Any) -> Any:
    """The Cell whose state a call changes: the entry itself, or the Cell of a bound method."""
    import mindspore as ms

    for candidate in (target, getattr(target, "__self__", None)):
        if isinstance(candidate, ms.nn.Cell):
            return candidate
    return None


def _reachable(entry: Any, is_user_file: Callable[[str], bool]) -> list[_Function]:
    """The user's functions the entry can run: ``construct`` of each Cell of its tree (or the
    function itself), then, transitively, the methods, functions and classes their code names."""
    import mindspore as ms

    cell = _cell_of(entry)
    queue: list[_Function] = []
    if cell is not None:
        for _, sub in cell.cells_and_names():
            queue += [_Function(f, type(sub)) for f in _functions_of(_class_member(type(sub), "construct"))]
    if not isinstance(entry, ms.nn.Cell):
        queue += [_Function(f, type(cell) if cell is not None else None) for f in _functions_of(entry)]
    found: dict[tuple[int, int], _Function] = {}
    while queue:
        item = queue.pop()
        key = (id(item.function), id(item.owner))
        if key in found or not is_user_file(item.function.__code__.co_filename):
            continue
        found[key] = item
        for name in _names(item.function.__code__):
            if item.owner is not None:
                queue += [_Function(f, item.owner) for f in _functions_of(_class_member(item.owner, name))]
            value = item.function.__globals__.get(name)
            if isinstance(value, type):
                queue += [_Function(f, value) for klass in value.__mro__ for f in _functions_of(*vars(klass).values())]
            else:
                queue += [_Function(f, None) for f in _functions_of(value)]
    return list(found.values())


def _class_member(klass: type, name: str) -> Any:
    """``klass.<name>`` as stored (a property is not run)."""
    return inspect.getattr_static(klass, name, None)


def _functions_of(*values: Any) -> Iterator[FunctionType]:
    for value in values:
        function = value.__func__ if isinstance(value, (staticmethod, classmethod, MethodType)) else value
        function = inspect.unwrap(function) if callable(function) else function
        if isinstance(function, FunctionType):
            yield function


def _names(code: Any) -> set[str]:
    """The global and attribute names ``code`` and the code nested in it (lambdas, comprehensions) use."""
    names = set(code.co_names)
    for constant in code.co_consts:
        if hasattr(constant, "co_names"):
            names |= _names(constant)
    return names


def _module_state(functions: list[_Function], is_user_file: Callable[[str], bool]) -> list[_Global]:
    """The module globals (of the user's modules) and class attributes the functions' code names."""
    found: dict[tuple[int, str], _Global] = {}

    def add(holder: Any, name: str, label: str) -> None:
        if (id(holder), name) in found or name not in vars(holder) or not _is_state(vars(holder)[name]):
            return
        with contextlib.suppress(Exception):  # a value that cannot be copied cannot be restored: left out
            found[(id(holder), name)] = _Global(holder, name, label, copy.deepcopy(vars(holder)[name]))

    for item in functions:
        names = _names(item.function.__code__)
        module = sys.modules.get(str(item.function.__globals__.get("__name__")))
        for name in names:
            value = item.function.__globals__.get(name)
            if module is not None:
                add(module, name, f"global {module.__name__}.{name}")
            if isinstance(value, ModuleType) and is_user_file(str(getattr(value, "__file__", "") or "")):
                for attribute in names & set(vars(value)):
                    add(value, attribute, f"global {value.__name__}.{attribute}")
            for klass in [item.owner] if item.owner is not None else []:
                for base in klass.__mro__:
                    if _defined_by_user(base, is_user_file) and name in vars(base):
                        add(base, name, f"{base.__qualname__}.{name}")
    return list(found.values())


def _defined_by_user(klass: type, is_user_file: Callable[[str], bool]) -> bool:
    module = sys.modules.get(klass.__module__)
    return is_user_file(str(getattr(module, "__file__", "") or ""))


def _is_state(value: Any) -> bool:
    """Python data that can change: not code, classes, modules, Cells or Parameters."""
    import mindspore as ms

    if isinstance(value, (ModuleType, type, ms.nn.Cell, ms.Parameter, ms.ops.Primitive)):
        return False
    return not callable(value)


def _attributes(cell: Any, owners: set[type], functions: list[_Function]) -> Snapshot:
    """The Python state of the user's Cells in ``cell``'s tree: attributes their code names as
    ``self.<name>``, other than Cells and Parameters, by ``self.<path>.<name>``."""
    if cell is None:
        return {}
    snapshot: Snapshot = {}
    for path, sub in cell.cells_and_names():
        if type(sub) not in owners:
            continue
        used = _self_attributes(type(sub), functions)
        prefix = f"self.{path}." if path else "self."
        for name, value in vars(sub).items():
            if name in used and _is_state(value):
                snapshot[prefix + name] = _frozen(value, _DEPTH)
    return snapshot


def _self_attributes(owner: type, functions: list[_Function]) -> set[str]:
    return {name for f in functions if f.owner is owner for name in f.function.__code__.co_names}


def _parameters(cell: Any) -> Snapshot:
    if cell is None:
        return {}
    return {f"Parameter {p.name}": _frozen(p, _DEPTH) for p in cell.get_parameters()}


def _frozen(value: Any, depth: int) -> Any:
    """A deep copy of ``value`` in plain, comparable form: numbers, strings, numpy arrays, and
    tagged tuples for containers and the user's objects."""
    import mindspore as ms
    import numpy as np

    if depth == 0:
        return ("deeper",)
    if value is None or isinstance(value, (bool, int, float, complex, str, bytes)):
        return value
    if isinstance(value, ms.Tensor):
        if value.dtype == ms.bfloat16:
            value = value.astype(ms.float32)
        return np.array(value.asnumpy())
    if isinstance(value, (np.ndarray, np.generic)):
        return np.array(value)
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, tuple(_frozen(item, depth - 1) for item in value))
    if isinstance(value, dict):
        items = sorted(value.items(), key=lambda item: repr(item[0]))
        return ("dict", tuple((_frozen(k, depth - 1), _frozen(v, depth - 1)) for k, v in items))
    if isinstance(value, (set, frozenset)):
        return ("set", tuple(sorted(repr(item) for item in value)))
    if isinstance(value, ms.nn.Cell):
        return ("Cell", type(value).__qualname__)
    if hasattr(value, "__dict__") and not isinstance(value, (ModuleType, type)) and not callable(value):
        return ("object", type(value).__qualname__, _frozen(dict(vars(value)), depth - 1))
    return ("opaque", type(value).__qualname__)


def _same(a: Any, b: Any) -> bool:
    import numpy as np

    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and _close_arrays(a, b)
    if isinstance(a, float) and isinstance(b, float):
        return math.isclose(a, b, rel_tol=1e-4, abs_tol=1e-6) or (math.isnan(a) and math.isnan(b))
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and bool(a == b)


def _close_arrays(a: Any, b: Any) -> bool:
    """Equal shapes and values, floats within the precision of their dtype (kernels differ between modes)."""
    import numpy as np

    if a.shape != b.shape or a.dtype.kind != b.dtype.kind:
        return False
    if a.dtype.kind not in "fc":
        return bool(np.array_equal(a, b))
    low = min(a.dtype.itemsize, b.dtype.itemsize) <= 2
    return bool(np.allclose(a, b, rtol=1e-2 if low else 1e-4, atol=1e-3 if low else 1e-5, equal_nan=True))


def _same_runs(first: list[Snapshot], second: list[Snapshot]) -> bool:
    return _first_difference(first, second) is None


def _first_difference(first: list[Snapshot], second: list[Snapshot]) -> str | None:
    for a, b in zip(first, second):
        for label in dict.fromkeys([*a, *b]):
            if not _same(a.get(label), b.get(label)):
                return label
    return None


def _divergences(
    graph: list[Snapshot],
    pynative: list[Snapshot],
    functions: list[_Function],
    hazards: list[Problem],
    definition: tuple[Location, ...],
    level: str,
) -> list[Problem]:
    """A problem for each label whose value differs after some call, at the last such call.

    Python state is located on the lines that write it; a different output or Parameter on the
    lines of the compile's silent hazards, else on the entry's definition. A different output
    that changed state explains is not reported again."""
    differing: dict[str, int] = {}
    for call, (after_graph, after_pynative) in enumerate(zip(graph, pynative), start=1):
        for label in dict.fromkeys([*after_graph, *after_pynative]):
            if not _same(after_graph.get(label), after_pynative.get(label)):
                differing[label] = call
    explained = any(not _is_result(label) for label in differing)
    hazard_lines = tuple(dict.fromkeys(loc for p in hazards if p.kind in _SILENT_HAZARDS for loc in p.locations))
    problems = []
    for label, call in differing.items():
        in_graph, in_pynative = graph[call - 1].get(label), pynative[call - 1].get(label)
        if _is_result(label):
            if explained and not hazard_lines:
                continue
            locations = hazard_lines or definition
        else:
            locations = _writing_lines(label, functions) or definition
        problems.append(Problem(DIVERGENCE, _message(label, call, in_graph, in_pynative), locations, level))
    return problems


def _is_result(label: str) -> bool:
    return label == _OUTPUT or label.startswith("Parameter ")


def _message(label: str, call: int, graph: Any, pynative: Any) -> str:
    if label == _OUTPUT:
        return f"graph mode returns {_shown(graph)} on call {call}; PyNative returns {_shown(pynative)}"
    calls = f"{call} call{'s' if call > 1 else ''}"
    return f"graph mode keeps {label} at {_shown(graph)} after {calls}; PyNative has {_shown(pynative)}"


def _shown(value: Any, limit: int = 80) -> str:
    """A short text for a snapshotted value."""
    import numpy as np

    if isinstance(value, np.ndarray):
        text = np.array2string(value, precision=4, threshold=6, edgeitems=2, separator=", ")
    elif isinstance(value, tuple) and value and value[0] in ("list", "tuple"):
        items = ", ".join(_shown(item, limit) for item in value[1])
        text = f"[{items}]" if value[0] == "list" else f"({items}{',' if len(value[1]) == 1 else ''})"
    elif isinstance(value, tuple) and value and value[0] == "dict":
        text = "{" + ", ".join(f"{_shown(k, limit)}: {_shown(v, limit)}" for k, v in value[1]) + "}"
    elif isinstance(value, tuple) and value and value[0] in ("object", "Cell", "opaque", "set"):
        text = f"a {value[1]}" if value[0] != "set" else "{" + ", ".join(value[1]) + "}"
    else:
        text = repr(value)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _writing_lines(label: str, functions: list[_Function]) -> tuple[Location, ...]:
    """The lines of the entry's reachable code that write the state ``label`` names."""
    found: dict[Location, None] = {}
    for item in functions:
        code = item.function.__code__
        node = function_defined_at(code.co_filename, code.co_firstlineno)
        if node is None:
            continue
        arguments = [*node.args.posonlyargs, *node.args.args]
        self_name = arguments[0].arg if item.owner is not None and arguments else None
        declared = {name for n in _walk_globals(node) for name in n}
        for write in writes(node):
            if _writes_label(write, label, item, self_name, declared):
                found[(str(Path(code.co_filename).resolve()), write.line)] = None
    return tuple(found)


def _walk_globals(node: Any) -> Iterator[list[str]]:
    import ast

    for child in ast.walk(node):
        if isinstance(child, ast.Global):
            yield child.names


def _writes_label(write: Write, label: str, item: _Function, self_name: str | None, declared: set[str]) -> bool:
    """Whether ``write`` in ``item`` changes the state ``label`` names (``self.x.count``,
    ``global module.name``, ``Class.name``)."""
    if label.startswith("self."):
        attribute = label.rsplit(".", 1)[1]
        return write.root == self_name and write.attribute == attribute
    if label.startswith("global "):
        module, _, name = label[len("global ") :].rpartition(".")
        if item.function.__globals__.get("__name__") == module and write.root == name:
            return not write.rebinds_root or name in declared
        bound = item.function.__globals__.get(write.root)
        return isinstance(bound, ModuleType) and bound.__name__ == module and write.attribute == name
    owner, _, name = label.rpartition(".")
    bases = {k.__qualname__ for k in item.owner.__mro__} if item.owner is not None else set()
    on_self = write.root == self_name and owner in bases
    return write.attribute == name and (on_self or write.root == owner.rsplit(".", 1)[-1])
