"""Write mslint/data/shadowed-<version>.json: what building a Cell does when its ``__init__``
assigns an attribute named as a public method or property of ``nn.Cell`` (``self.cells =
nn.CellList(...)``, ``self.name = "encoder"``).

For every public name of ``nn.Cell`` (``dir(nn.Cell)``) and each kind of value (a Cell, a
Python int), a fresh child process (forked from one MindSpore import) builds

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.<name> = <value>
            self.dense = nn.Dense(2, 2)

        def construct(self, x):
            return self.dense(x)

and, where that builds, calls it once in GRAPH_MODE (STRICT). Each row says ``ok``, or where it
failed (``build`` or ``call``) with the exception's type and first line.
Run it in an environment with the MindSpore release to describe:
``python scripts/generate_shadow_table.py``; ``--check`` only compares.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import tempfile
from pathlib import Path

from mindspore_table import write_or_check

VALUES = {"cell": "nn.CellList([nn.ReLU()])", "int": "1"}
SOURCE = """
from mindspore import nn


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.{name} = {value}
        self.dense = nn.Dense(2, 2)

    def construct(self, x):
        return self.dense(x)
"""


def main() -> int:
    import mindspore
    from mindspore import nn

    names = sorted(name for name in dir(nn.Cell) if not name.startswith("_"))
    rows = {name: {kind: _measure(name, value) for kind, value in VALUES.items()} for name in names}
    document = {"mindspore": mindspore.__version__, "values": VALUES, "rows": rows}
    failing = sorted(name for name, row in rows.items() if any(outcome != "ok" for outcome in row.values()))
    summary = f"{len(names)} names, {len(failing)} fail for some value"
    return write_or_check(f"shadowed-{mindspore.__version__}.json", json.dumps(document, indent=1) + "\n", summary)


def _measure(name: str, value: str) -> str:
    """The outcome in a forked child: one case per process (a failed build or compile leaves
    state behind in MindSpore)."""
    read, write = os.pipe()
    child = os.fork()
    if child == 0:
        os.close(read)
        outcome = _run(name, value)
        os.write(write, outcome.encode("utf-8"))
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as stream:
        outcome = stream.read().decode("utf-8")
    os.waitpid(child, 0)
    return outcome or "crash"


def _run(name: str, value: str) -> str:
    import mindspore as ms
    import numpy as np

    ms.set_context(mode=ms.GRAPH_MODE, jit_syntax_level=ms.STRICT)
    # graph mode compiles construct from its source file: the class is written to one
    path = Path(tempfile.mkdtemp()) / f"shadow_{name}.py"
    path.write_text(SOURCE.format(name=name, value=value))
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # the compiler looks the class's module up by name
    spec.loader.exec_module(module)
    stage = "build"
    try:
        net = module.Net()
        stage = "call"
        net(ms.Tensor(np.ones((1, 2), np.float32)))
    except Exception as error:  # the measurement records any failure as its one line
        first = (str(error).strip().splitlines() or [""])[0][:160]
        return f"{stage}: {type(error).__name__}: {first}"
    return "ok"


if __name__ == "__main__":
    sys.exit(main())
