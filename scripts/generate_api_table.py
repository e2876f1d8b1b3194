"""Write mslint/data/api-<version>.json: the public names of the installed MindSpore and their parameters.

For ``mindspore.ops``, ``mindspore.nn``, ``mindspore.mint`` and the class ``mindspore.Tensor``:
every public name, and for each function, method or class the names of its parameters (a class:
its ``__init__``; a method: without ``self``), or null where any keyword is accepted (``**kwargs``)
or the signature cannot be read (the methods MindSpore implements in C++). ``unknown-mindspore-api``
checks code against it. Run in an environment with the release to describe; ``--check``
only compares (the test suite runs it against the MindSpore it installs).
"""

from __future__ import annotations

import inspect
import json
import pkgutil
import sys
from typing import Any

from mindspore_table import write_or_check

# ``mindspore.Tensor`` is a class, not a module: code names its attributes through it too
# (``mindspore.Tensor.from_numpy``).
NAMESPACES = ("mindspore.ops", "mindspore.nn", "mindspore.mint", "mindspore.Tensor")


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
        owner = pkgutil.resolve_name(namespace)
        names = {}
        for name in sorted(dir(owner)):
            if name.startswith("_"):
                continue
            value = getattr(owner, name)
            names[name] = parameters(value) if inspect.isfunction(value) or inspect.isclass(value) else None
        table[namespace] = names
    text = json.dumps({"mindspore": mindspore.__version__, "namespaces": table}, separators=(",", ":")) + "\n"
    summary = ", ".join(f"{len(v)} names in {k}" for k, v in table.items())
    return write_or_check(f"api-{mindspore.__version__}.json", text, summary)


if __name__ == "__main__":
    sys.exit(main())
