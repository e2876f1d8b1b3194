"""``mslint verify --show-examples FILE``: what verify compiled, as example factories to keep.

Each entry compiled from input specs (configured, commented or synthesised) becomes a factory
``FUNCTION()`` that builds it as verify did, with the constructor arguments and the inputs it was
judged on, and returns ``(cell_or_function, inputs)``: the file passes to ``--example
FILE:FUNCTION`` as it is, and can be edited (real constructor arguments, other shapes).
"""

from __future__ import annotations

import ast
import keyword
import re
from pathlib import Path

from mslint.model.inputs import ConstantSpec, TensorSpec, parse_input_specs
from mslint.model.module import module_name_for
from mslint.source import source_text
from mslint.verify.runner import Outcome
from mslint.verify.statuses import RAN

_HEADER = '''"""Example factories for `mslint verify --example FILE:FUNCTION`, written by `mslint verify
--show-examples`: each builds an entry as verify built it and returns (cell_or_function, inputs)."""

import sys

import mindspore as ms
import numpy as np

'''


def examples_file(outcomes: list[Outcome]) -> tuple[str, int]:
    """The text of the file, one factory per entry compiled from specs, in the order compiled,
    and how many factories it has."""
    built: dict[tuple[str, str], Outcome] = {}
    for outcome in outcomes:
        if not outcome.job.factory and outcome.status in RAN and outcome.inputs is not None:
            built.setdefault((str(outcome.job.path.resolve()), outcome.job.name), outcome)
    roots = sorted({str(module_name_for(Path(path))[0]) for path, _ in built})
    paths = "".join(f"sys.path.insert(0, {root!r})\n" for root in roots)
    names: set[str] = set()
    factories = [_factory(outcome, _function_name(outcome.job.name, names)) for outcome in built.values()]
    return _HEADER + paths + "".join(f"\n\n{factory}" for factory in factories), len(factories)


def _factory(outcome: Outcome, function: str) -> str:
    job = outcome.job
    module = module_name_for(job.path)[1]
    arguments = ", ".join(f"{name}={value!r}" for name, value in job.kwargs.items())
    inputs = [_input(spec) for spec in parse_input_specs(outcome.inputs or "")]
    returned = f"({', '.join(inputs)},)" if inputs else "()"
    built = f"{job.name}({arguments})" if _is_class(job.path, job.name) else job.name
    return (
        f"def {function}():\n"
        f'    """{job.name} of {module}, on the inputs verify judged it with."""\n'
        f"    from {module} import {job.name}\n\n"
        f"    return {built}, {returned}\n"
    )


def _is_class(path: Path, name: str) -> bool:
    """Whether the entry is a Cell class of ``path`` (built by the factory), not a ``@jit`` function."""
    try:
        tree = ast.parse(source_text(path))
    except (OSError, UnicodeDecodeError, SyntaxError, ValueError):
        return False
    return any(isinstance(node, ast.ClassDef) and node.name == name for node in tree.body)


def _input(spec: TensorSpec | ConstantSpec) -> str:
    if isinstance(spec, ConstantSpec):
        return repr(spec.value)
    if all(dim is not None for dim in spec.shape):
        shape = tuple(dim for dim in spec.shape if dim is not None)
        count = 1
        for dim in shape:
            count *= dim
        return f"ms.Tensor(np.arange(1, {count + 1}).reshape({shape!r}) % 7, dtype=ms.{spec.dtype})"
    return f"ms.Tensor(shape={list(spec.shape)!r}, dtype=ms.{spec.dtype})"


def _function_name(name: str, taken: set[str]) -> str:
    """``resnet`` for ``ResNet``: a lower-case name, made unique among the file's factories."""
    base = re.sub(r"\W", "_", name).lower() or "entry"
    base = f"{base}_" if keyword.iskeyword(base) else base
    found, number = base, 2
    while found in taken:
        found, number = f"{base}_{number}", number + 1
    taken.add(found)
    return found
