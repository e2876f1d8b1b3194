"""Compile one graph entry with MindSpore in this process and print the evidence as JSON.

Run as ``python -m mslint.verify.probe FILE ENTRY --inputs SPEC --level strict|lax``.
It is meant to run in a child process of its own: MindSpore leaks fallback
entries from one compile into the next, and the compiler may crash or hang.
The evidence is what the compiler itself said, mapped to lines of FILE:

* ``error``: the exception of a failed compile and the FILE lines its traceback names;
* ``fallback_lines``: lines listed under "After Optimizer Phase" by
  ``MS_DEV_FALLBACK_DUMP_NODE=1`` (code really interpreted at run time);
* ``dynamic_shape_lines``: lines of IR nodes whose output shape is unknown while
  their inputs' shapes are known;
* ``untracked_cells``: Cell attributes holding Cells or Parameters in a plain Python
  container, whose parameters the Cell does not own (never trained, never saved).
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import importlib.util
import json
import os
import re
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from mslint.verify.inputs import TensorSpec, parse_input_specs

_IN_FILE = re.compile(r"In file (.+?):(\d+)(?:~\d+)?,")
_IR_LOCATION = re.compile(r"# In file (.+?):(\d+)(~\d+)?[,/]")
_TENSOR_SHAPE = re.compile(r"<Tensor\[\w+\], \(([^)]*)\)>")


def lines_named_in(text: str, path: str) -> list[int]:
    """Lines of ``path`` named by ``In file PATH:LINE`` locations in compiler output."""
    return sorted({int(m.group(2)) for m in _IN_FILE.finditer(text) if _same_file(m.group(1), path)})


def optimizer_fallback_lines(stderr: str, path: str) -> list[int]:
    """Lines of ``path`` under "After Optimizer Phase" in a fallback dump."""
    lines: set[int] = set()
    in_optimizer_section = False
    for line in stderr.splitlines():
        if "After Parser Phase" in line:
            in_optimizer_section = False
        elif "After Optimizer Phase" in line:
            in_optimizer_section = True
        elif in_optimizer_section:
            match = _IN_FILE.search(line)
            if match is not None and _same_file(match.group(1), path):
                lines.add(int(match.group(2)))
    return sorted(lines)


def dynamic_shape_lines(ir_text: str, path: str) -> list[int]:
    """Lines of ``path`` whose IR nodes turn static input shapes into dynamic output shapes."""
    lines: set[int] = set()
    for node in re.split(r"\n(?=  %\d+\(|  Return\()", ir_text):
        if "PyExecute" in node.split("\n", 1)[0]:
            continue
        shapes = re.search(r"\n\s+: \((.*)\) -> \((.*)\)\n", node)
        if shapes is None:
            continue
        inputs, outputs = shapes.groups()
        if _has_dynamic_dim(outputs) and not _has_dynamic_dim(inputs):
            own_lines = [
                int(m.group(2))
                for m in _IR_LOCATION.finditer(node)
                if _same_file(m.group(1), path) and m.group(3) is None
            ]
            if own_lines:
                lines.add(own_lines[-1])
    return sorted(lines)


def _has_dynamic_dim(shapes: str) -> bool:
    return any(
        dim.strip() in ("-1", "-2") for match in _TENSOR_SHAPE.finditer(shapes) for dim in match.group(1).split(",")
    )


def _same_file(reported: str, path: str) -> bool:
    with contextlib.suppress(OSError):
        return os.path.samefile(reported, path)
    return False


def _load_module(path: str) -> Any:
    name = "mslint_probe_" + re.sub(r"\W", "_", Path(path).stem)
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    sys.path.insert(0, str(Path(path).parent))
    spec.loader.exec_module(module)
    return module


def _make_inputs(specs: list[TensorSpec], concrete: bool) -> list[Any]:
    import mindspore as ms
    import numpy as np

    tensors = []
    for spec in specs:
        dtype = getattr(ms, spec.dtype)
        if concrete or all(dim is not None for dim in spec.shape):
            shape = tuple(dim if dim is not None else 2 for dim in spec.shape)
            data = np.arange(1, int(np.prod(shape)) + 1).reshape(shape) % 7
            tensors.append(ms.Tensor(data, dtype=dtype))
        else:
            tensors.append(ms.Tensor(shape=list(spec.shape), dtype=dtype))
    return tensors


def untracked_cells(net: Any, path: str) -> list[dict[str, Any]]:
    """Cell attributes that keep Cells or Parameters in a plain container the Cell does not own."""
    import mindspore as ms

    owned = {id(p) for p in net.get_parameters()}
    found = []
    for _, cell in net.cells_and_names():
        for attribute, value in vars(cell).items():
            items = value.values() if isinstance(value, dict) else value
            if not isinstance(value, (list, tuple, dict)):
                continue
            held = [item for item in items if isinstance(item, (ms.nn.Cell, ms.Parameter))]
            params = [p for item in held for p in ([item] if isinstance(item, ms.Parameter) else item.get_parameters())]
            if params and not all(id(p) in owned for p in params):
                found.append(
                    {
                        "class": type(cell).__name__,
                        "attribute": attribute,
                        "lines": _assignment_lines(type(cell), attribute, path),
                    }
                )
    return found


def _assignment_lines(cls: type, attribute: str, path: str) -> list[int]:
    """Lines of ``path`` where a class in ``cls``'s hierarchy assigns ``self.<attribute>``."""
    class_names = {klass.__name__ for klass in cls.__mro__}
    tree = ast.parse(Path(path).read_text())
    return sorted(
        node.lineno
        for class_def in ast.walk(tree)
        if isinstance(class_def, ast.ClassDef) and class_def.name in class_names
        for node in ast.walk(class_def)
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Attribute)
        and target.attr == attribute
        and isinstance(target.value, ast.Name)
        and target.value.id == "self"
    )


def probe(path: str, entry: str, specs: list[TensorSpec], level: str) -> dict[str, Any]:
    """Compile ``entry`` of ``path`` at ``level`` and return the compiler's evidence."""
    import mindspore as ms

    ms.set_context(mode=ms.GRAPH_MODE, jit_syntax_level=ms.STRICT if level == "strict" else ms.LAX)
    module = _load_module(path)
    target = getattr(module, entry)
    evidence: dict[str, Any] = {"entry": entry, "level": level, "error": None, "untracked_cells": []}
    try:
        if isinstance(target, type):
            net = target()
            evidence["untracked_cells"] = untracked_cells(net, path)
            net.compile(*_make_inputs(specs, concrete=False))
        else:
            target(*_make_inputs(specs, concrete=True))
    except Exception as error:  # any compile failure is evidence, not a crash
        message = str(error)
        evidence["error"] = {
            "type": type(error).__name__,
            "message": message.split("\n", 1)[0],
            "lines": lines_named_in(message, path),
        }
    return evidence


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mslint.verify.probe")
    parser.add_argument("file")
    parser.add_argument("entry")
    parser.add_argument("--inputs", default="")
    parser.add_argument("--level", choices=("strict", "lax"), default="strict")
    args = parser.parse_args(argv)
    path = str(Path(args.file).resolve())
    with tempfile.TemporaryDirectory(prefix="mslint-probe-") as work_dir:
        os.environ.update(
            MS_DEV_SAVE_GRAPHS="1",
            MS_DEV_DUMP_IR_PASSES="validate",
            MS_DEV_SAVE_GRAPHS_PATH=work_dir,
            MS_DEV_FALLBACK_DUMP_NODE="1",
        )
        log_path = Path(work_dir, "stderr.log")
        os.chdir(work_dir)  # MindSpore writes rank_0/ dumps of failed compiles into the working folder
        with _stderr_to(log_path):
            evidence = probe(path, args.entry, parse_input_specs(args.inputs), args.level)
        log = log_path.read_text(errors="replace")
        ir_text = "\n".join(p.read_text(errors="replace") for p in Path(work_dir).rglob("*validate*.ir"))
    if evidence["error"] is not None:
        evidence["error"]["lines"] = sorted(set(evidence["error"]["lines"]) | set(lines_named_in(log, path)))
    evidence["fallback_lines"] = optimizer_fallback_lines(log, path)
    evidence["dynamic_shape_lines"] = dynamic_shape_lines(ir_text, path)
    print(json.dumps(evidence))
    return 0


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


if __name__ == "__main__":
    sys.exit(main())
