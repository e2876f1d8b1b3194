"""Write mslint/data/attributes-<version>.json: the attributes of MindSpore objects graph code reads.

``unsupported-attribute-in-graph`` needs what every ``nn.Cell`` has (``self.training``,
``self.phase``, the methods: ``dir(nn.Cell)`` and what a plain ``nn.Cell()`` holds after its
``__init__``), so that reading one is not taken for a missing attribute; ``unknown-mindspore-api``
needs the attributes of the graph values that are not plain tensors (a ``Parameter``'s ``name``,
a ``COOTensor``'s ``indices``), so that reading one is not taken for a Tensor attribute the release
lacks (the Tensor's own are in the API table).
Run it in an environment with the MindSpore release to describe: ``python scripts/generate_attribute_table.py``;
``--check`` only compares.
"""

from __future__ import annotations

import json
import sys

from mindspore_table import write_or_check

GRAPH_VALUE_CLASSES = ("Parameter", "COOTensor", "CSRTensor", "RowTensor")


def main() -> int:
    import mindspore
    from mindspore import nn

    cell = sorted(set(dir(nn.Cell)) | set(vars(nn.Cell())))
    graph_values = {name: _public(getattr(mindspore, name)) for name in GRAPH_VALUE_CLASSES}
    document = {"mindspore": mindspore.__version__, "Cell": cell, **graph_values}
    text = json.dumps(document, indent=1) + "\n"
    summary = f"{len(cell)} Cell attributes, " + ", ".join(f"{len(v)} of {k}" for k, v in graph_values.items())
    return write_or_check(f"attributes-{mindspore.__version__}.json", text, summary)


def _public(cls: type) -> list[str]:
    return sorted(name for name in dir(cls) if not name.startswith("_"))


if __name__ == "__main__":
    sys.exit(main())
