"""Run a compiled entry in graph mode and in PyNative on the same inputs, and compare the results.

Silent hazards compile cleanly and leave nothing in the compiler's output: graph mode never
increments a global counter, drops ``self.items.append(x)``, freezes ``random.random()`` at
compile time, draws the weights of a Cell built in ``construct`` once. Running both modes shows
them. Each mode gets a fresh instance, built the same way from the same seeds and the same
module globals (restored between modes), in eval mode, and is called twice; after each call
the outputs, the Python state of the user's Cells (attributes that are not Cells or
Parameters), the module globals the entry's code names, and the Parameter values are taken.

PyNative is the Python program as written: every ``@jit`` in it (the entry's, a helper's, a
training step's) runs as plain Python there (MindSpore's ``MS_JIT=0``), since a ``@jit``
function compiles even in PyNative and would lose a global write the same way graph mode does.
Where graph mode and PyNative differ, PyNative runs a second time, with another MindSpore seed
(Python's and numpy's stay): when the two PyNative runs disagree, the result depends on
MindSpore's random operators (or on something else that changes from run to run, such as a
clock), and the entry is *not comparable*: a difference from graph mode would prove nothing.
``random.random()`` follows Python's seed, so it stays comparable, and graph mode's frozen
value shows.

Runs only in the verifier's compile process, which has imported MindSpore.
"""

from __future__ import annotations

import ast
import collections
import contextlib
import copy
import inspect
import math
import os
import random
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import FunctionType, MethodType, ModuleType
from typing import Any

from mslint.compiler_messages import message_line
from mslint.verify.compiler_output import COMPILE_TIME, DIVERGENCE, UNTRACKED, Location, Problem
from mslint.verify.sources import Write, function_defined_at, statement_at, writes

COMPARED, NOT_COMPARABLE, NOT_RUN = "compared", "not-comparable", "not-run"
COMPILED_BEFORE_COMPARING = "compiled.json"
"""The compile's result, written to the compile's folder before the comparison starts: a
comparison that crashes or runs past the timeout must not lose the compile's evidence."""
CALLS = 2
_SEED, _OTHER_MINDSPORE_SEED = 0, 1
_OUTPUT = "the output"
_INPUT = "input "
"""The prefix of an input's label: graph mode writes ``x += 1`` into the caller's tensor."""
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
    watched = _Watched(functions, _module_state(functions, is_user_file), is_user_file)
    try:
        graph = _run(build, ms.GRAPH_MODE, watched, _SEED)
    except Exception as error:  # the user's code failing to run is no divergence: say why nothing was compared
        return _not_comparable(f"graph mode raised {_one_line(error)}", started)
    try:
        pynative = _run(build, ms.PYNATIVE_MODE, watched, _SEED)
        # Only a difference needs ruling out that PyNative itself varies: where the modes agree,
        # no second run could make a divergence of it (and it costs a third of the comparison).
        differs = _first_difference(graph, pynative) is not None
        again = _run(build, ms.PYNATIVE_MODE, watched, _OTHER_MINDSPORE_SEED) if differs else None
    except Exception as error:
        return _not_comparable(f"PyNative raised {_one_line(error)}", started)
    label = _first_difference(pynative, again) if again is not None else None
    if label is not None:
        reason = f"two PyNative runs disagree on {label} (random operators, or values that change from run to run)"
        return _not_comparable(reason, started)
    label = _first_difference(graph[:1], pynative[:1])
    if label is not None:  # a constructor that reads the mode, say: the calls do not start alike
        return _not_comparable(f"the instances differ on {label} before any call", started)
    problems = _divergences(graph, pynative, functions, hazards, definition, level)
    return Comparison(COMPARED, None, round(time.perf_counter() - started, 3), problems)


def _not_comparable(reason: str, started: float) -> Comparison:
    return Comparison(NOT_COMPARABLE, reason, round(time.perf_counter() - started, 3))


def _one_line(error: Exception) -> str:
    """The exception's type and the line of its message that says what failed."""
    return f"{type(error).__name__}: {message_line(str(error))[:200]}"


def _run(build: Build, mode: int, watched: _Watched, mindspore_seed: int) -> list[Snapshot]:
    """Build a fresh instance in ``mode`` and call it ``CALLS`` times: a snapshot of the instance
    as built, then one after each call."""
    import mindspore as ms

    for item in watched.state:
        setattr(item.holder, item.name, copy.deepcopy(item.saved))
    ms.set_context(mode=mode)
    with _jit_disabled(mode == ms.PYNATIVE_MODE):
        return _calls(build, mode, watched, mindspore_seed)


def _calls(build: Build, mode: int, watched: _Watched, mindspore_seed: int) -> list[Snapshot]:
    import mindspore as ms
    import numpy as np

    _seed(_SEED)
    target, inputs = build()
    cells = _cells_of(target)
    for cell in cells.values():
        cell.set_train(False)
    if mode == ms.GRAPH_MODE and not isinstance(target, ms.nn.Cell) and not hasattr(target, "__wrapped__"):
        target = ms.jit(target)
    ms.set_seed(mindspore_seed)
    np.random.seed(_SEED)
    random.seed(_SEED)
    names = _input_labels(target, len(inputs))
    built = watched.snapshot(None, cells, zip(names, inputs))
    return [built, *(watched.snapshot(target(*inputs), cells, zip(names, inputs)) for _ in range(CALLS))]


def _input_labels(target: Any, count: int) -> list[str]:
    """``input <name>`` for each of the ``count`` inputs, by the entry's parameter names where its
    signature gives them (``input x``), else by position (``input 1``)."""
    function = getattr(target, "construct", target)
    try:
        parameters = [p.name for p in inspect.signature(function).parameters.values() if p.kind != p.VAR_POSITIONAL]
    except (TypeError, ValueError):
        parameters = []
    return [f"{_INPUT}{parameters[i] if i < len(parameters) else i + 1}" for i in range(count)]


@contextlib.contextmanager
def _jit_disabled(disabled: bool) -> Iterator[None]:
    """MindSpore's ``@jit`` reads ``MS_JIT`` at each call: ``0`` runs the function as Python."""
    saved = os.environ.get("MS_JIT")
    if disabled:
        os.environ["MS_JIT"] = "0"
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop("MS_JIT", None)
        else:
            os.environ["MS_JIT"] = saved


def _seed(seed: int) -> None:
    import mindspore as ms
    import numpy as np

    ms.set_seed(seed)
    np.random.seed(seed)
    random.seed(seed)


def _cells_of(target: Any) -> dict[str, Any]:
    """The Cells whose state a call of ``target`` changes, by the name their attributes are shown
    under: ``self`` for the entry or the Cell of a bound method; for a function, the Cells held
    by the globals its code names, and by the closures of functions among them
    (``grad = ms.value_and_grad(Net())``), under their class name."""
    import mindspore as ms

    for candidate in (target, getattr(target, "__self__", None)):
        if isinstance(candidate, ms.nn.Cell):
            return {"self": candidate}
    function = _unwrapped(target)
    globals_ = getattr(function, "__globals__", {})
    named = [globals_.get(name) for name in _names(function.__code__)] if hasattr(function, "__code__") else []
    closures = [getattr(_unwrapped(value), "__closure__", None) or () for value in named]
    held = [*named, *(c.cell_contents for closure in closures for c in closure)]
    return {type(value).__qualname__: value for value in held if isinstance(value, ms.nn.Cell)}


def _unwrapped(value: Any) -> Any:
    """The function under ``@jit`` and other ``functools.wraps`` decorators."""
    return inspect.unwrap(value) if callable(value) else value


def _reachable(entry: Any, is_user_file: Callable[[str], bool]) -> list[_Function]:
    """The user's functions the entry can run: ``construct`` of each Cell of its tree (or the
    function itself), then, transitively, the methods, functions and classes their code names."""
    import mindspore as ms

    cells = _cells_of(entry)
    queue: list[_Function] = []
    for cell in cells.values():
        for _, sub in cell.cells_and_names():
            queue += [_Function(f, type(sub)) for f in _functions_of(_class_member(type(sub), "construct"))]
    if not isinstance(entry, ms.nn.Cell):
        owner = type(cells["self"]) if "self" in cells else None
        queue += [_Function(f, owner) for f in _functions_of(entry)]
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
        function = _unwrapped(value.__func__ if isinstance(value, (staticmethod, classmethod, MethodType)) else value)
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


@dataclass(frozen=True)
class _Watched:
    """What a call of the entry can change, and how it is snapshotted."""

    functions: list[_Function]
    state: list[_Global]
    is_user_file: Callable[[str], bool]

    def snapshot(self, output: Any, cells: dict[str, Any], inputs: Iterable[tuple[str, Any]]) -> Snapshot:
        """The output, the inputs (the same objects at every call), the Cells' state and globals."""
        snapshot = {_OUTPUT: self._frozen(output)}
        snapshot.update({label: self._frozen(value) for label, value in inputs})
        for root, cell in cells.items():
            snapshot.update(self._attributes(root, cell))
            snapshot.update({f"Parameter {p.name}": self._frozen(p) for p in cell.get_parameters()})
        snapshot.update({item.label: self._frozen(getattr(item.holder, item.name, None)) for item in self.state})
        return snapshot

    def _attributes(self, root: str, cell: Any) -> Snapshot:
        """The Python state of the user's Cells in ``cell``'s tree: attributes their code names as
        ``self.<name>``, other than Cells and Parameters, by ``<root>.<path>.<name>``."""
        snapshot: Snapshot = {}
        for path, sub in cell.cells_and_names():
            used = {name for f in self.functions if f.owner is type(sub) for name in f.function.__code__.co_names}
            prefix = f"{root}.{path}." if path else f"{root}."
            for name, value in vars(sub).items():
                if name in used and _is_state(value):
                    snapshot[prefix + name] = self._frozen(value)
        return snapshot

    def _frozen(self, value: Any, depth: int = _DEPTH) -> Any:
        """A deep copy of ``value`` in plain, comparable form: numbers, strings, numpy arrays, and
        tagged tuples for containers and the user's objects (others are named, not compared)."""
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
        if isinstance(value, (list, tuple, collections.deque)):
            return (type(value).__name__, tuple(self._frozen(item, depth - 1) for item in value))
        if isinstance(value, dict):
            items = sorted(value.items(), key=lambda item: repr(item[0]))
            return ("dict", tuple((self._frozen(k, depth - 1), self._frozen(v, depth - 1)) for k, v in items))
        if isinstance(value, (set, frozenset)):
            return ("set", tuple(sorted(repr(item) for item in value)))
        if isinstance(value, ms.nn.Cell):  # its own state is snapshotted as the Cell's, if it is in the tree
            return ("Cell", type(value).__qualname__)
        if _defined_by_user(type(value), self.is_user_file) and hasattr(value, "__dict__"):
            return ("object", type(value).__qualname__, self._frozen(dict(vars(value)), depth - 1))
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
    lines of the compile's silent hazards and the reachable code's in-place updates of tensors
    that outlive the call (``x += 1`` on an input, ``i += 1`` on ``i = Tensor(1)``), else on the
    entry's definition. A different output that changed state explains is not reported
    again."""
    built, graph, pynative = graph[0], graph[1:], pynative[1:]
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
        if label.startswith(_INPUT):
            locations = _in_place_updates(functions) or definition
        elif _is_result(label):
            if explained and not hazard_lines:
                continue
            locations = tuple(dict.fromkeys((*hazard_lines, *_in_place_updates(functions)))) or definition
        else:
            written, writers = _writing_lines(label, functions)
            locations = (*_callers(hazard_lines, writers), *written) or definition
        message = _message(label, call, in_graph, in_pynative, built.get(label))
        problems.append(Problem(DIVERGENCE, message, locations, level))
    return problems


def _in_place_updates(functions: list[_Function]) -> tuple[Location, ...]:
    """The lines of the entry's reachable code that update in place what outlives the call: ``x +=
    1`` on a parameter, or on a name bound only to parameters (``y = x``), which graph mode makes on
    the caller's tensor (``x[0] += 1`` PyNative makes on it); ``t += 1`` on a name bound only to
    calls of MindSpore (``Tensor(1)``, ``ops.zeros_like(x)``), which graph mode may fold into a
    constant of the graph that then keeps its value from one call to the next."""
    found: dict[Location, None] = {}
    for item in functions:
        code = item.function.__code__
        node = function_defined_at(code.co_filename, code.co_firstlineno)
        if node is None:
            continue
        arguments = {a.arg for a in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs)}
        assigned: dict[str, list[ast.expr]] = {}
        for statement in ast.walk(node):
            if isinstance(statement, ast.Assign):
                for target in statement.targets:
                    if isinstance(target, ast.Name):
                        assigned.setdefault(target.id, []).append(statement.value)
        for statement in ast.walk(node):
            if not isinstance(statement, ast.AugAssign):
                continue
            target = statement.target.value if isinstance(statement.target, ast.Subscript) else statement.target
            if not isinstance(target, ast.Name):
                continue
            values = assigned.get(target.id)
            outlive = values and all(_outlives(v, arguments, item.function) for v in values)
            if (target.id in arguments and not values) or outlive:
                found[(str(Path(code.co_filename).resolve()), statement.lineno)] = None
    return tuple(found)


def _outlives(value: ast.expr, arguments: set[str], function: FunctionType) -> bool:
    """Whether a name bound to ``value`` holds what graph mode keeps past the call: an argument,
    or a tensor MindSpore made."""
    return (isinstance(value, ast.Name) and value.id in arguments) or _makes_tensor(value, function)


def _makes_tensor(value: ast.expr, function: FunctionType) -> bool:
    """Whether ``value`` calls MindSpore (``Tensor(1)``, ``ops.zeros_like(x)``) as ``function``'s
    module names it: a result graph mode may fold into a constant of the graph."""
    if not isinstance(value, ast.Call):
        return False
    callee, called = value.func, None
    if isinstance(callee, ast.Name):
        called = function.__globals__.get(callee.id)
    elif isinstance(callee, ast.Attribute) and isinstance(callee.value, ast.Name):
        holder = function.__globals__.get(callee.value.id)
        called = vars(holder).get(callee.attr) if isinstance(holder, ModuleType) else None
    return str(getattr(called, "__module__", "") or "").split(".")[0] == "mindspore"


def _is_result(label: str) -> bool:
    return label == _OUTPUT or label.startswith(("Parameter ", _INPUT))


def _message(label: str, call: int, graph: Any, pynative: Any, before: Any) -> str:
    """What differs after ``call``; ``before`` is the value before the first call (an input's)."""
    if label == _OUTPUT:
        return f"graph mode returns {_shown(graph)} on call {call}; PyNative returns {_shown(pynative)}"
    calls = f"{call} call{'s' if call > 1 else ''}"
    in_graph, in_pynative = _shown(graph), _shown(pynative)
    if label.startswith(_INPUT) and not _same(graph, before):
        return f"graph mode writes into the caller's {label}: {in_graph} after {calls}; PyNative leaves {in_pynative}"
    if label.startswith(_INPUT):
        kept = f"graph mode leaves the caller's {label} at {in_graph} after {calls}"
        return f"{kept}; PyNative writes {in_pynative} into it"
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


def _callers(hazard_lines: tuple[Location, ...], writers: set[str]) -> list[Location]:
    """The lines the compile ran once that name a function writing the state: the cause of a
    difference in it (``threading.Thread(target=log_step).start()`` run while compiling)."""
    return [(path, line) for path, line in hazard_lines if _names_in(statement_at(path, line)) & writers]


def _names_in(statement: ast.stmt | None) -> set[str]:
    nodes = ast.walk(statement) if statement is not None else ()
    return {n.id if isinstance(n, ast.Name) else n.attr for n in nodes if isinstance(n, (ast.Name, ast.Attribute))}


def _writing_lines(label: str, functions: list[_Function]) -> tuple[tuple[Location, ...], set[str]]:
    """The lines of the entry's reachable code that write the state ``label`` names, and the
    names of the functions that hold them."""
    found: dict[Location, None] = {}
    writers = set()
    for item in functions:
        code = item.function.__code__
        node = function_defined_at(code.co_filename, code.co_firstlineno)
        if node is None:
            continue
        arguments = [*node.args.posonlyargs, *node.args.args]
        self_name = arguments[0].arg if item.owner is not None and arguments else None
        declared = {name for n in ast.walk(node) if isinstance(n, ast.Global) for name in n.names}
        for write in writes(node):
            if _writes_label(write, label, item, self_name, declared):
                found[(str(Path(code.co_filename).resolve()), write.line)] = None
                writers.add(item.function.__name__)
    return tuple(found), writers


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
