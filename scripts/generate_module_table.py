"""Write mslint/data/modules-<version>.json: the modules of an installed MindSpore release.

``unknown-mindspore-api`` flags an import of a MindSpore module the release no longer has
(``import mindspore.dataset.vision.c_transforms``, removed in 2.0: code written for 1.x fails on
its first line). The modules are read off the installed package's files (a package, a ``.py``
file, a compiled extension) and off ``sys.modules`` once MindSpore's main packages are imported
(modules that MindSpore registers under a name of its own). Run it in an environment with the
release to describe: ``python scripts/generate_module_table.py``; ``--check`` only compares.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import json
import sys
from pathlib import Path

from mindspore_table import write_or_check

IMPORTED = (
    "mindspore.nn",
    "mindspore.ops",
    "mindspore.mint",
    "mindspore.numpy",
    "mindspore.dataset",
    "mindspore.train",
)
"""Packages imported before ``sys.modules`` is read."""


def main() -> int:
    import mindspore

    root = Path(mindspore.__file__).parent
    suffixes = tuple(importlib.machinery.all_suffixes())
    found = {"mindspore"}
    for path in root.rglob("*"):
        relative = path.relative_to(root.parent)
        if "__pycache__" in relative.parts:  # bytecode of the modules beside it, wherever Python keeps it
            continue
        if path.is_dir() and (path / "__init__.py").is_file():
            found.add(".".join(relative.parts))
        elif path.is_file() and path.name != "__init__.py" and path.name.endswith(suffixes):
            stem = path.name.split(".", 1)[0]
            if stem.isidentifier() and all(part.isidentifier() for part in relative.parts[:-1]):
                found.add(".".join((*relative.parts[:-1], stem)))
    for name in IMPORTED:
        importlib.import_module(name)
    found.update(name for name in sys.modules if name.split(".", 1)[0] == "mindspore")
    modules = sorted(found)
    document = {"mindspore": mindspore.__version__, "modules": modules}
    return write_or_check(
        f"modules-{mindspore.__version__}.json", json.dumps(document, indent=1) + "\n", f"{len(modules)} modules"
    )


if __name__ == "__main__":
    sys.exit(main())
