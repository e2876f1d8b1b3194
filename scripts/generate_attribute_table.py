"""Write mslint/data/attributes-<version>.json: the attributes of MindSpore objects graph code reads.

``unsupported-attribute-in-graph`` needs what every ``nn.Cell`` has (``self.training``,
``self.phase``, the methods: ``dir(nn.Cell)`` and what a plain ``nn.Cell()`` holds after its
``__init__``), so that reading one is not taken for a missing attribute; ``unknown-mindspore-api``
needs the attributes of the graph values that are not plain tensors (a ``Parameter``'s ``name``,
a ``COOTensor``'s ``indices``), so that reading one is not taken for a Tensor attribute the release
lacks (the Tensor's own are in the API table). ``bases`` holds, for each Cell class of
``mindspore.nn`` and ``mindspore.mint.nn`` that code derives from (``nn.LossBase``,
``nn.TrainOneStepCell``), what it adds to ``nn.Cell``: its own names and every ``self.<name> =``
of its methods and of its MindSpore bases, under each name code imports it by; null where the
class sets attributes by computed names (``setattr``, ``__getattr__``).
Run it in an environment with the MindSpore release to describe: ``python scripts/generate_attribute_table.py``;
``--check`` only compares.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import sys
import textwrap
from typing import Any

from mindspore_table import write_or_check

GRAPH_VALUE_CLASSES = ("Parameter", "COOTensor", "CSRTensor", "RowTensor")


def main() -> int:
    import mindspore
    from mindspore import nn

    cell = sorted(set(dir(nn.Cell)) | set(vars(nn.Cell())))
    graph_values = {name: _public(getattr(mindspore, name)) for name in GRAPH_VALUE_CLASSES}
    bases = cell_bases(nn.Cell, set(cell))
    document = {"mindspore": mindspore.__version__, "Cell": cell, **graph_values, "bases": bases}
    text = json.dumps(document, indent=1) + "\n"
    summary = f"{len(cell)} Cell attributes, " + ", ".join(f"{len(v)} of {k}" for k, v in graph_values.items())
    summary += f", {len(bases)} names of Cell classes"
    return write_or_check(f"attributes-{mindspore.__version__}.json", text, summary)


def cell_bases(cell: type, had: set[str]) -> dict[str, list[str] | None]:
    """Each name of a Cell class of ``mindspore.nn`` and ``mindspore.mint.nn`` -> the attributes it
    adds to ``nn.Cell`` (None where it computes them)."""
    found: dict[str, list[str] | None] = {}
    for namespace in ("mindspore.nn", "mindspore.mint.nn"):
        owner = importlib.import_module(namespace)
        for name in sorted(dir(owner)):
            value = getattr(owner, name)
            if name.startswith("_") or not inspect.isclass(value) or not issubclass(value, cell) or value is cell:
                continue
            added = _added_attributes(value, cell)
            attributes = None if added is None else sorted((set(dir(value)) | added) - had)
            for qualname in _names_of(value, f"{namespace}.{name}"):
                found[qualname] = attributes
    return dict(sorted(found.items()))


def _added_attributes(cls: type, cell: type) -> set[str] | None:
    """The ``self.<name> =`` of the class and its MindSpore bases below ``nn.Cell``."""
    names: set[str] = set()
    for klass in cls.__mro__:
        if not klass.__module__.startswith("mindspore.") or issubclass(cell, klass):
            continue
        for node in ast.walk(ast.parse(textwrap.dedent(inspect.getsource(klass)))):
            computes = isinstance(node, ast.FunctionDef) and node.name in ("__getattr__", "__setattr__")
            computes = computes or (isinstance(node, ast.Name) and node.id == "setattr")
            if computes:
                return None
            if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and _is_self(node.value):
                names.add(node.attr)
    return names


def _is_self(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id == "self"


def _names_of(cls: type, public: str) -> list[str]:
    """The public name, and the module path it is defined in, with each package on the way that
    exports it (``mindspore.nn.loss.LossBase``, ``mindspore.nn.loss.loss.LossBase``)."""
    names = [public]
    parts = cls.__module__.split(".")
    for length in range(2, len(parts) + 1):
        module: Any = importlib.import_module(".".join(parts[:length]))
        if getattr(module, cls.__name__, None) is cls:
            names.append(f"{module.__name__}.{cls.__name__}")
    return sorted(set(names))


def _public(cls: type) -> list[str]:
    return sorted(name for name in dir(cls) if not name.startswith("_"))


if __name__ == "__main__":
    sys.exit(main())
