"""Write mslint/data/api-<version>.json: the public names of the installed MindSpore and their parameters.

For ``mindspore.ops``, ``mindspore.nn``, ``mindspore.mint`` and the class ``mindspore.Tensor``:
every public name, and for each function, method or class the names of its parameters (a class:
its ``__init__``; a method: without ``self``), or null where any keyword is accepted (``**kwargs``)
or the signature cannot be read. Tensor methods implemented in C++ have no Python signature: their
parameters are those of the overloads MindSpore's dispatcher accepts, ``Tensor.prod(dim=<int,None>,
keepdim=<bool>, ...)``, read from the shared libraries of the installed MindSpore (the text its
"Failed calling prod" errors list). ``unknown-mindspore-api`` checks code against it. Run in an
environment with the release to describe; ``--check`` only compares (the test suite runs it
against the MindSpore it installs).
"""

from __future__ import annotations

import inspect
import json
import pkgutil
import re
import sys
from pathlib import Path
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


_OVERLOAD = re.compile(rb"Tensor\.(\w+)\(([^()\x00\n]*)\)")
_OVERLOAD_PARAMETER = re.compile(r"(\w+)=<")


def tensor_overloads(package: Path) -> dict[str, list[str]]:
    """Method name -> the parameter names of all its overloads, in order of first appearance, from
    every ``Tensor.name(p=<types>, *, q=<types>)`` signature compiled into the package's libraries."""
    found: dict[str, dict[str, None]] = {}
    for library in sorted(package.rglob("*.so")):
        for match in _OVERLOAD.finditer(library.read_bytes()):
            names = found.setdefault(match.group(1).decode(), {})
            names.update(dict.fromkeys(_OVERLOAD_PARAMETER.findall(match.group(2).decode())))
    return {name: list(parameters) for name, parameters in found.items()}


def main() -> int:
    import mindspore

    overloads = tensor_overloads(Path(mindspore.__file__).parent)
    table: dict[str, dict[str, list[str] | None]] = {}
    for namespace in NAMESPACES:
        owner = pkgutil.resolve_name(namespace)
        names = {}
        for name in sorted(dir(owner)):
            if name.startswith("_"):
                continue
            value = getattr(owner, name)
            names[name] = parameters(value) if inspect.isfunction(value) or inspect.isclass(value) else None
            if names[name] is None and owner is mindspore.Tensor and callable(value):
                names[name] = overloads.get(name)
        table[namespace] = names
    text = json.dumps({"mindspore": mindspore.__version__, "namespaces": table}, separators=(",", ":")) + "\n"
    summary = ", ".join(f"{len(v)} names in {k}" for k, v in table.items())
    return write_or_check(f"api-{mindspore.__version__}.json", text, summary)


if __name__ == "__main__":
    sys.exit(main())
