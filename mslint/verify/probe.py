"""Compile one graph entry with MindSpore and gather the evidence, in a process of its own.

:mod:`mslint.verify.batch` forks one process per compile: MindSpore carries fallback state
from one compile into the next, and the compiler may crash or hang. ``probe`` builds a Cell
class or ``@jit`` function from input specs and constructor kwargs, or calls a factory
``NAME()`` that returns ``(cell_or_function, inputs)``.
"""

from __future__ import annotations

import ast
import contextlib
import functools
import importlib
import importlib.util
import inspect
import json
import os
import re
import sys
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from mslint.compiler_messages import message_line, missing_kernel
from mslint.model.inputs import ConstantSpec, InputSpec, is_constant, parse_input_specs
from mslint.model.module import module_name_for
from mslint.source import source_text
from mslint.verify.capture_modes import (
    BYTECODE,
    TRACE,
    bytecode_refusal,
    capture_mode,
    fullgraph_twin,
    graph_break_locations,
    trace_divergence,
)
from mslint.verify.compiler_output import (
    ERROR,
    UNTRACKED,
    Problem,
    compile_time_problems,
    dynamic_shape_problems,
    error_locations,
    fallback_problems,
    kernel_locations,
    unowned_parameter_problems,
    user_file_filter,
)
from mslint.verify.devices import available_devices
from mslint.verify.divergence import COMPILED_BEFORE_COMPARING, compare_modes
from mslint.verify.literals_json import kwargs_from_json
from mslint.verify.references import resolved
from mslint.verify.runtime import watch
from mslint.verify.statuses import BUILD_FAILED, BUILD_STAGE, COMPILE_STAGE, COMPILED, KERNEL_STAGE, NOT_VERIFIABLE
from mslint.verify.stubs import MissingPackages


class NotVerifiable(Exception):
    """The entry cannot be compiled as given (constructor arguments, factory errors, ...)."""


class ConstructionFailed(Exception):
    """A Cell of the user's raised while being built: MindSpore's evidence, like a failed compile."""

    def __init__(self, cell: Any, problem: Problem) -> None:
        super().__init__(problem.message)
        self.cell = cell
        """The half-built Cell, for the file and line of its class."""
        self.problem = problem


def load_module(path: Path) -> Any:
    """Import ``path`` under its package name, so that its relative imports work."""
    root, name = module_name_for(path)
    sys.path.insert(0, str(root))
    if "." in name:
        return importlib.import_module(name)
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise NotVerifiable(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


_MOST_STUBS = 20
"""How many missing packages one import may replace by stubs before it gives up."""


def _import_user_module(path: Path, missing: MissingPackages) -> Any:
    """Import ``path``; a third-party package it imports that is not installed is replaced by a
    stub (:mod:`mslint.verify.stubs`), and the import tried again."""
    for _ in range(_MOST_STUBS + 1):
        try:
            return load_module(path)
        except MemoryError:
            raise
        except ModuleNotFoundError as error:
            if not missing.stub(error):
                raise NotVerifiable(f"importing {path.name} raised ModuleNotFoundError: {error}") from None
        except Exception as error:  # the user's module failing to import is their evidence to read
            said = message_line(str(error))
            raise NotVerifiable(f"importing {path.name} raised {type(error).__name__}: {said}") from None
    raise NotVerifiable(f"importing {path.name} needs more than {_MOST_STUBS} packages that are not installed")


def _resolved(kwargs: dict[str, Any], missing: MissingPackages) -> dict[str, Any]:
    """The constructor arguments with the classes and functions they refer to imported."""

    def load(path: Path) -> Any:
        # The entry's own module, imported already: its classes, not a second copy of them.
        loaded = sys.modules.get(module_name_for(path)[1])
        same = loaded is not None and Path(getattr(loaded, "__file__", "") or "").resolve() == path.resolve()
        return loaded if same else _import_user_module(path, missing)

    try:
        return resolved(kwargs, load)
    except (ImportError, AttributeError) as error:
        raise NotVerifiable(
            f"a class handed to the constructor cannot be imported: {message_line(str(error))}"
        ) from None


def make_inputs(specs: list[InputSpec], concrete: bool) -> tuple[Any, ...]:
    """Tensors for ``specs``: shape placeholders (named dims dynamic), or data when ``concrete``;
    constants as they are."""
    import mindspore as ms
    import numpy as np

    tensors = []
    for spec in specs:
        if isinstance(spec, ConstantSpec):
            tensors.append(spec.value)
            continue
        dtype = getattr(ms, spec.dtype, None)
        if dtype is None:
            raise NotVerifiable(f"unknown dtype {spec.dtype!r} in the input specs")
        if concrete or all(dim is not None for dim in spec.shape):
            shape = tuple(dim if dim is not None else 2 for dim in spec.shape)
            data = np.arange(1, int(np.prod(shape)) + 1).reshape(shape) % 7
            tensors.append(ms.Tensor(data, dtype=dtype))
        else:
            tensors.append(ms.Tensor(shape=list(spec.shape), dtype=dtype))
    return tuple(tensors)


def _concrete(value: Any) -> Any:
    """Data for a shape placeholder, which a ``@jit`` function cannot run on."""
    import mindspore as ms
    import numpy as np

    if isinstance(value, ms.Tensor) and any(dim < 0 for dim in value.shape):
        shape = tuple(dim if dim >= 0 else 2 for dim in value.shape)
        return ms.Tensor(np.ones(shape), dtype=value.dtype)
    return value


def described_inputs(inputs: tuple[Any, ...]) -> str:
    """``float32[2,3,224,224], 3``: the inputs as specs (a dynamic dimension is ``N``), which
    :func:`mslint.model.inputs.parse_input_specs` reads back; what is neither a tensor nor a
    Python constant is named by its type."""
    import mindspore as ms

    described = []
    for value in inputs:
        if isinstance(value, ms.Tensor):
            dims = ",".join("N" if dim < 0 else str(dim) for dim in value.shape)
            described.append(f"{str(value.dtype).lower()}[{dims}]")
        else:
            described.append(repr(value) if is_constant(value) else type(value).__name__)
    return ", ".join(described)


def untracked_parameters(net: Any) -> dict[str, Problem]:
    """Cell attributes keeping Cells or Parameters in a plain container the Cell does not own, of
    which training would reach some (``requires_grad=False`` ones are state no training reaches,
    and so are the Parameters an optimizer keeps: its state, which it updates itself)."""
    import mindspore as ms

    owned = {id(p) for p in net.get_parameters()}
    found = {}
    for cell, attribute, params in _parameters_in_plain_containers(net):
        if isinstance(cell, ms.nn.Optimizer) and not _holds_cells(vars(cell)[attribute]):
            continue
        if not all(id(p) in owned for p in params if p.requires_grad):
            message = f"{type(cell).__name__}.{attribute} holds parameters the Cell does not own (never trained)"
            found[attribute] = Problem(UNTRACKED, message, _assignment_locations(type(cell), attribute))
    return found


def _holds_cells(container: list[Any] | tuple[Any, ...] | dict[Any, Any]) -> bool:
    import mindspore as ms

    items = container.values() if isinstance(container, dict) else container
    return any(isinstance(item, ms.nn.Cell) for item in items)


def _parameters_in_plain_containers(net: Any) -> Iterator[tuple[Any, str, list[Any]]]:
    """``(cell, attribute, parameters)`` for each attribute of a Cell of ``net``'s tree that keeps
    Cells or Parameters in a plain list, tuple or dict: the Parameters found there."""
    import mindspore as ms

    for _, cell in net.cells_and_names():
        for attribute, value in vars(cell).items():
            if not isinstance(value, (list, tuple, dict)):
                continue
            items = value.values() if isinstance(value, dict) else value
            held = [item for item in items if isinstance(item, (ms.nn.Cell, ms.Parameter))]
            params = [p for item in held for p in ([item] if isinstance(item, ms.Parameter) else item.get_parameters())]
            if params:
                yield cell, attribute, params


def held_parameter_names(obj: Any) -> set[str] | None:
    """Names of the Parameters a Cell's tree holds, in plain containers too (None for a function):
    any other Parameter its graph uses was made elsewhere, by a Cell built in graph code while
    compiling (``nn.Dense(4, 3)(x)`` in ``construct``) or kept outside the Cell."""
    import mindspore as ms

    if not isinstance(obj, ms.nn.Cell) or "_params" not in vars(obj):
        return None
    contained = {p.name for _, _, params in _parameters_in_plain_containers(obj) for p in params}
    return {p.name for p in obj.get_parameters()} | contained


def _assignment_locations(cls: type, attribute: str) -> tuple[tuple[str, int], ...]:
    """Where the classes of ``cls``'s hierarchy assign ``self.<attribute>``."""
    locations = []
    for klass in cls.__mro__:
        with contextlib.suppress(TypeError, OSError):
            path = inspect.getsourcefile(klass)
            if path is None:
                continue
            tree = ast.parse(source_text(Path(path)))
            for class_def in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and n.name == klass.__name__):
                for node in ast.walk(class_def):
                    if isinstance(node, ast.Assign) and any(
                        isinstance(t, ast.Attribute)
                        and t.attr == attribute
                        and isinstance(t.value, ast.Name)
                        and t.value.id == "self"
                        for t in node.targets
                    ):
                        locations.append((str(Path(path).resolve()), node.lineno))
    return tuple(locations)


def describe(target: Any) -> dict[str, Any]:
    """The source file, name and line of what is compiled: a Cell's class or a function."""
    import mindspore as ms

    obj = type(target) if isinstance(target, ms.nn.Cell) else inspect.unwrap(getattr(target, "__func__", target))
    try:
        path = inspect.getsourcefile(obj)
        line = inspect.getsourcelines(obj)[1]
    except (TypeError, OSError):
        path, line = None, 0
    return {"path": str(Path(path).resolve()) if path else None, "name": obj.__qualname__, "line": line}


def build(
    module: Any,
    name: str,
    factory: bool,
    specs: list[InputSpec],
    kwargs: dict[str, Any],
    is_user_file: Callable[[str], bool],
) -> tuple[Any, tuple[Any, ...]]:
    """The Cell or function to compile and its inputs; raises ConstructionFailed when a Cell
    of the user's raises while being built."""
    target = getattr(module, name, None)
    if target is None:
        raise NotVerifiable(f"{name!r} is not defined in {module.__file__}")
    if factory:
        try:
            made = target()
        except MemoryError:
            raise
        except Exception as error:  # the user's factory failing is their evidence to read
            _raise_construction_failed(error, is_user_file)
            said = message_line(str(error))
            raise NotVerifiable(f"example factory {name}() raised {type(error).__name__}: {said}") from None
        if not (isinstance(made, tuple) and len(made) == 2):
            raise NotVerifiable(f"example factory {name}() must return (cell_or_function, inputs)")
        obj, inputs = made
        return obj, tuple(inputs) if isinstance(inputs, (tuple, list)) else (inputs,)
    if isinstance(target, type):
        try:
            return target(**kwargs), make_inputs(specs, concrete=False)
        except MemoryError:
            raise
        except Exception as error:
            _raise_construction_failed(error, is_user_file)
            if isinstance(error, TypeError) and "argument" in str(error):
                hint = "give kwargs in [tool.mslint.verify] or an --example factory"
                raise NotVerifiable(f"constructor needs arguments ({error}); {hint}") from None
            raise NotVerifiable(f"constructor raised {type(error).__name__}: {error}") from None
    return target, make_inputs(specs, concrete=True)


def _raise_construction_failed(error: Exception, is_user_file: Callable[[str], bool]) -> None:
    """Raise ConstructionFailed when ``error`` came out of the ``__init__`` of a Cell defined
    in the user's files (a constructor that never ran, for missing arguments, is not one).

    The problem is located on the user's lines of the traceback, outermost first like the
    compiler's own tracebacks, so that the innermost comes last."""
    import mindspore as ms

    frames = [
        (frame, line)
        for frame, line in traceback.walk_tb(error.__traceback__)
        if is_user_file(frame.f_code.co_filename)
    ]
    cells = [
        frame.f_locals.get(frame.f_code.co_varnames[0])
        for frame, _ in frames
        if frame.f_code.co_name == "__init__" and frame.f_code.co_argcount
    ]
    cell = next((c for c in cells if isinstance(c, ms.nn.Cell)), None)
    if cell is None:
        return
    message = f"{type(error).__name__}: {message_line(str(error))} (raised building {type(cell).__name__})"
    locations = tuple(dict.fromkeys((str(Path(frame.f_code.co_filename).resolve()), line) for frame, line in frames))
    raise ConstructionFailed(cell, Problem(ERROR, message, locations)) from None


def compile_target(obj: Any, inputs: tuple[Any, ...], is_user_file: Callable[[str], bool], level: str) -> list[Problem]:
    """Compile ``obj``; the compile error, if any, and hidden parameters are the problems found."""
    import mindspore as ms

    untracked: dict[str, Problem] = {}
    problems: list[Problem] = []
    try:
        if isinstance(obj, ms.nn.Cell):
            # A Cell whose __init__ never ran Cell.__init__ has no parameter table: its compile says so.
            untracked = untracked_parameters(obj) if "_params" in vars(obj) else {}
            problems.extend(untracked.values())
            obj.compile(*inputs)
        else:
            function = obj if hasattr(obj, "__wrapped__") else ms.jit(obj)
            mode = capture_mode(function)
            refusal = bytecode_refusal() if mode == BYTECODE else None
            if refusal:
                raise NotVerifiable(refusal)
            if mode == BYTECODE and level == "strict":  # STRICT is fullgraph: a graph break raises
                function = fullgraph_twin(function)
            concrete = tuple(_concrete(value) for value in inputs)
            if mode == TRACE:  # tracing raises on little: what it freezes shows as a divergence
                problems.extend(trace_divergence(function, concrete, is_user_file, level))
            else:
                function(*concrete)
    except (MemoryError, NotVerifiable):
        raise
    except Exception as error:  # a failed compile is the evidence sought, not a crash
        text = str(error)
        said = message_line(text)
        message = f"{type(error).__name__}: {said}" if said else type(error).__name__
        locations = graph_break_locations(text, is_user_file) or error_locations(text, is_user_file)
        problems.append(Problem(ERROR, message, locations + _causes(untracked, locations), level))
    return [Problem(p.kind, p.message, p.locations, level) for p in problems]


def _causes(untracked: dict[str, Problem], locations: tuple[tuple[str, int], ...]) -> tuple[tuple[str, int], ...]:
    """Where the hidden containers used on the failing lines are assigned: the cause of
    errors such as "its name 'weight' already exists" is the plain list, not the loop over it."""
    causes: list[tuple[str, int]] = []
    for path, line in locations:
        text = source_text(Path(path)).split("\n")[line - 1] if line > 0 else ""
        for attribute, problem in untracked.items():
            if re.search(rf"\bself\.{attribute}\b", text):
                causes.extend(loc for loc in problem.locations if loc not in causes)
    return tuple(causes)


def probe(job: dict[str, Any], level: str, device: str | None, work_dir: str) -> dict[str, Any]:
    """Compile ``job`` (``target`` ``FILE:NAME``, ``inputs``, ``kwargs``, ``factory``) at
    ``level``, then, with ``compare``, compare graph mode with PyNative on it; MindSpore's dumps
    go to ``work_dir``."""
    import mindspore as ms

    ms.set_context(mode=ms.GRAPH_MODE, jit_syntax_level=ms.STRICT if level == "strict" else ms.LAX)
    # ``@jit`` functions (a ``value_and_grad`` too) ignore the context's level; they read this.
    os.environ["MS_DEV_JIT_SYNTAX_LEVEL"] = "0" if level == "strict" else "2"
    ms.set_context(device_target=device or available_devices()[0])
    is_user_file = user_file_filter([os.path.dirname(ms.__file__), os.path.dirname(os.path.dirname(__file__))])
    path_text, _, name = str(job["target"]).rpartition(":")
    result: dict[str, Any] = {"level": level, "device": ms.get_context("device_target"), "problems": []}
    log_path = Path(work_dir, "stderr.log")
    held: set[str] | None = None
    rebuild: Callable[[], tuple[Any, tuple[Any, ...]]] | None = None
    seen_running: list[Problem] = []
    watch(seen_running.append, is_user_file)
    missing = MissingPackages()
    with _stderr_to(log_path):
        try:
            module = _import_user_module(Path(path_text).resolve(), missing)
            result["stubbed"] = missing.names
            kwargs = _resolved(kwargs_from_json(job.get("kwargs", {})), missing)
            tried = [str(job.get("inputs", "")), *map(str, job.get("candidates") or [])]
            for number, text in enumerate(tried):
                specs = parse_input_specs(text)
                rebuild = functools.partial(build, module, name, bool(job.get("factory")), specs, kwargs, is_user_file)
                obj, inputs = rebuild()
                result["target"], result["inputs"] = describe(obj), described_inputs(inputs)
                started = time.perf_counter()
                missing.watching = True
                problems = compile_target(obj, inputs, is_user_file, level)
                missing.watching = False
                result["compile_s"] = round(time.perf_counter() - started, 3)
                at_shape = next((p for p in problems if _at_input_shape(p)), None)
                if at_shape is None:
                    break
                if number == len(tried) - 1 and job.get("synthesised"):
                    raise NotVerifiable(
                        f"the compile on synthesised inputs {text} failed at a shape ({at_shape.message}): "
                        "give input specs or an --example factory"
                    )
                if number == len(tried) - 1:
                    break
                _forget_compile(log_path, Path(work_dir))
            if missing.touched:
                used = ", ".join(sorted(missing.touched))
                raise NotVerifiable(f"the graph code uses {used}, which is not installed here (imported as a stub)")
            held = held_parameter_names(obj)
            errors = [p.message for p in problems if p.kind == ERROR]
            if errors:
                result["stopped"] = KERNEL_STAGE if all(map(missing_kernel, errors)) else COMPILE_STAGE
        except ConstructionFailed as failure:
            result["target"] = describe(failure.cell)
            result["stopped"] = BUILD_STAGE
            problems = [replace(failure.problem, level=level)]
        except NotVerifiable as error:
            return {**result, "status": NOT_VERIFIABLE, "reason": str(error)}
        except ValueError as error:  # malformed input specs
            return {**result, "status": NOT_VERIFIABLE, "reason": str(error)}
    log = log_path.read_text(errors="replace")
    ir_text = "\n".join(p.read_text(errors="replace") for p in Path(work_dir).rglob("*validate*.ir"))
    found: list[Problem] = []
    for problem in problems:
        if problem.kind == ERROR:
            located = {*problem.locations}
            extra = tuple(loc for loc in error_locations(log, is_user_file) if loc not in located)
            kernel = missing_kernel(problem.message)
            in_ir = kernel_locations(ir_text, kernel, is_user_file) if kernel else ()
            locations = problem.locations + extra or in_ir or _definition(result["target"], is_user_file)
            problem = Problem(problem.kind, problem.message, locations, problem.level)
        found.append(problem)
    found += (
        [replace(p, level=level) for p in seen_running]
        + fallback_problems(log, is_user_file, level)
        + compile_time_problems(log, is_user_file, level)
        + dynamic_shape_problems(ir_text, is_user_file, level)
        + (unowned_parameter_problems(ir_text, held, is_user_file, level) if held is not None else [])
    )
    if job.get("compare") and rebuild is not None and not any(p.kind == ERROR for p in found):
        compiled = {**result, "problems": [p.to_json() for p in found], "status": COMPILED}
        Path(work_dir, COMPILED_BEFORE_COMPARING).write_text(json.dumps(compiled))
        definition = _definition(result["target"], is_user_file)
        with _stderr_to(Path(work_dir, "compare.log")):  # after the compile's log was read: its dumps stay apart
            comparison = compare_modes(rebuild, obj, inputs, is_user_file, found, definition, level)
        result["comparison"] = comparison.to_json()
        found += comparison.problems
    result["problems"] = [p.to_json() for p in found]
    return {**result, "status": BUILD_FAILED if result.get("stopped") == BUILD_STAGE else COMPILED}


_SHAPE_WORDS = re.compile(r"shape|dimension|\brank\b|size|TupleGetItem evaluator index", re.IGNORECASE)
"""Words of the errors a synthesised input's shape may cause; the last is MindSpore's for
``b, n, c = x.shape`` on an input of two dimensions."""


def _at_input_shape(problem: Problem) -> bool:
    """Whether a compile error may come from the size of synthesised inputs (an image too small
    for the network's strides, an ``assert`` on the input's size, a shape unpacked into more
    names than it has dimensions), so that the next candidate is
    worth a compile."""
    return problem.kind == ERROR and (
        _SHAPE_WORDS.search(problem.message) is not None or problem.message.startswith("AssertionError")
    )


def _forget_compile(log_path: Path, work_dir: Path) -> None:
    """Empty the log and remove the IR dumps of a compile whose inputs are tried no more: the
    evidence read after the compiles is the last one's."""
    sys.stderr.flush()
    os.truncate(log_path, 0)
    os.lseek(2, 0, os.SEEK_SET)  # stderr is the log (see _stderr_to): write from its start again
    for dump in work_dir.rglob("*.ir"):
        dump.unlink(missing_ok=True)


def _definition(target: dict[str, Any], is_user_file: Callable[[str], bool]) -> tuple[tuple[str, int], ...]:
    """Where a compile error that names no line of the user's is located: the definition of
    what was compiled (a Cell without ``construct`` fails inside MindSpore's own Cell)."""
    path = target.get("path")
    return ((path, int(target["line"])),) if path and is_user_file(path) else ()


@contextlib.contextmanager
def _stderr_to(log_path: Path) -> Iterator[None]:
    """Send this process's stderr, the C++ log included, to ``log_path``."""
    sys.stderr.flush()
    saved = os.dup(2)
    with open(log_path, "wb") as log:
        os.dup2(log.fileno(), 2)
        try:
            yield
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
