"""Write mslint/data/api-<version>.json: the public names of the installed MindSpore and their parameters.

For ``mindspore.ops``, ``mindspore.nn`` and ``mindspore.mint``: every public name, and for each
function or class the names of its parameters (a class: its ``__init__``), or null where any
keyword is accepted (``**kwargs``) or the signature cannot be read. ``unknown-mindspore-api``
checks code against it. Run in an environment with the release to describe; ``--check``
only compares (the test suite runs it against the MindSpore it installs).
"""

from __future__ import annotations

import importlib
import inspect
import json
import sys
from typing import Any

from mindspore_table import write_or_check

NAMESPACES = ("mindspore.ops", "mindspore.nn", "mindspore.mint")


def parameters(value: Any) -> list[str] | None:
    target = value.__init__ if inspect.isclass(value) else value
    try:
        signature = inspect.signature(target)
    except (TypeError, ValueError):
        return None
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in signature.parameters.values()):
        return None
    return [name for name in signature.parameters if name != "self"]


def main() -> int:
    import mindspore

    table: dict[str, dict[str, list[str] | None]] = {}
    for namespace in NAMESPACES:
        module = importlib.import_module(namespace)
        names = {}
        for name in sorted(dir(module)):
            if name.startswith("_"):
                continue
            value = getattr(module, name)
            names[name] = parameters(value) if inspect.isfunction(value) or inspect.isclass(value) else None
        table[namespace] = names
    text = json.dumps({"mindspore": mindspore.__version__, "namespaces": table}, separators=(",", ":")) + "\n"
    summary = ", ".join(f"{len(v)} names in {k}" for k, v in table.items())
    return write_or_check(f"api-{mindspore.__version__}.json", text, summary)


if __name__ == "__main__":
    sys.exit(main())
