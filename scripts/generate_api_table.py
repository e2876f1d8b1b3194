"""Write mslint/data/api-<version>.json: the public names of the installed MindSpore, their parameters and signatures.

For ``mindspore.ops``, ``mindspore.nn``, ``mindspore.mint``, ``mindspore.numpy`` and the class ``mindspore.Tensor``:
every public name, and for each function, method or class the names of its parameters (a class:
its ``__init__``; a method: without ``self``), or null where any keyword is accepted (``**kwargs``)
or the signature cannot be read. Tensor methods implemented in C++ have no Python signature: their
parameters are those of the overloads MindSpore's dispatcher accepts, ``Tensor.prod(dim=<int,None>,
keepdim=<bool>, ...)``, read from the shared libraries of the installed MindSpore (the text its
"Failed calling prod" errors list). ``unknown-mindspore-api`` checks code against it. Run in an
environment with the release to describe; ``--check`` only compares (the test suite runs it
against the MindSpore it installs).

``signatures`` holds the full signature of every function and class (its ``__init__``) that
Python can describe in ``SIGNED_NAMESPACES``, as the text of a Python signature: parameters in
order, ``/`` and ``*`` where MindSpore puts them, ``=...`` for a default, and as annotation the
types the callable itself checks first thing, where it checks them unconditionally
(``if not isinstance(size, (list, tuple)): raise TypeError``, ``validator.check_value_type(
"shape", shape, [tuple, list])``, ``validator.check_positive_int(channels)``): ``(size: list |
tuple, fill_value, *, dtype=...)``. A parameter without annotation may be anything as far as
the table knows. ``missing`` says in the file what has no signature there.
"""

from __future__ import annotations

import ast
import inspect
import json
import pkgutil
import re
import sys
import textwrap
from pathlib import Path
from typing import Any

from mindspore_table import write_or_check

# ``mindspore.Tensor`` is a class, not a module: code names its attributes through it too
# (``mindspore.Tensor.from_numpy``). The package itself and the modules of ``mindspore.ops`` that
# code imports under aliases of its own (``from mindspore.ops import operations as P``) are read
# as they are: their names differ from those ``mindspore.ops`` re-exports.
NAMESPACES = (
    "mindspore",
    "mindspore.ops",
    "mindspore.ops.operations",
    "mindspore.ops.functional",
    "mindspore.ops.composite",
    "mindspore.nn",
    "mindspore.mint",
    "mindspore.numpy",
    "mindspore.Tensor",
    # private, but code written for 1.x imports `Validator` and `Rel` from it (model-zoo copies of
    # optimizers and wrappers), names 2.x removed: listing its public names judges those imports
    "mindspore._checkparam",
)
SIGNED_NAMESPACES = (
    "mindspore.ops",
    "mindspore.nn",
    "mindspore.mint",
    "mindspore.mint.nn",
    "mindspore.mint.nn.functional",
    "mindspore.numpy",
)
SIGNED_CLASSES = ("mindspore.Parameter",)
"""Classes of the ``mindspore`` package itself whose constructors get a signature (``mindspore``
is not a namespace whose names are all listed: its submodules load on demand)."""
MISSING = (
    "no signature for Tensor methods written in C++ (their parameter names are in namespaces, from "
    "the overloads, which do not say which parameters are required), for callables taking **kwargs, "
    "for objects that are not functions or classes; no annotation for a type the callable does not "
    "check unconditionally first thing"
)


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


def signature_text(value: Any) -> str | None:
    """The signature of a function or of a class's constructor, as Python text with ``=...`` for
    defaults and the checked types as annotations; None where it takes ``**kwargs`` or has none."""
    if not (inspect.isfunction(value) or inspect.isclass(value)):
        return None
    function = value.__init__ if inspect.isclass(value) else value
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return None
    listed = list(signature.parameters.values())
    if inspect.isclass(value) and listed:
        listed = listed[1:]  # self
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in listed):
        return None
    types = checked_types(function)
    parts: list[str] = []
    for index, parameter in enumerate(listed):
        starts_keywords = parameter.kind is inspect.Parameter.KEYWORD_ONLY and not any(
            p.kind in (inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.VAR_POSITIONAL) for p in listed[:index]
        )
        if starts_keywords:
            parts.append("*")
        text = ("*" if parameter.kind is inspect.Parameter.VAR_POSITIONAL else "") + parameter.name
        if parameter.name in types:
            text += f": {types[parameter.name]}"
        if parameter.default is not inspect.Parameter.empty:
            text += " = ..." if parameter.name in types else "=..."
        parts.append(text)
        ends_positional_only = parameter.kind is inspect.Parameter.POSITIONAL_ONLY and (
            index + 1 == len(listed) or listed[index + 1].kind is not inspect.Parameter.POSITIONAL_ONLY
        )
        if ends_positional_only:
            parts.append("/")
    return f"({', '.join(parts)})"


_TYPE_NAMES = frozenset({"int", "float", "bool", "str", "tuple", "list", "dict"})
_SINGLE_TYPE_CHECKS = {
    "check_positive_int": "int",
    "check_non_negative_int": "int",
    "check_int": "int",
    "check_is_int": "int",
    "check_bool": "bool",
}
"""MindSpore's validators (``mindspore._checkparam``) that raise TypeError for any other type."""


def checked_types(function: Any) -> dict[str, str]:
    """Parameter -> the types the function accepts, from the checks its body makes first thing:
    before any statement that may return, and before the parameter is rebound."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(inspect.unwrap(function))))
    except (OSError, TypeError, SyntaxError):
        return {}
    definition = tree.body[0] if tree.body else None
    if not isinstance(definition, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return {}
    found: dict[str, str] = {}
    rebound: set[str] = set()
    for statement in definition.body:
        if any(isinstance(n, (ast.Return, ast.Yield)) for n in ast.walk(statement)):
            break
        checked = _checked_type(statement)
        if checked is not None and checked[0] not in rebound:
            found.setdefault(*checked)
        rebound.update(n.id for n in ast.walk(statement) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store))
    return found


def _checked_type(statement: ast.stmt) -> tuple[str, str] | None:
    """``(parameter, "list | tuple")`` for a statement that raises TypeError unless the parameter
    has one of the types, else None."""
    if isinstance(statement, ast.If):
        test = statement.test
        negated = isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)
        call = test.operand if isinstance(test, ast.UnaryOp) else None
        if not (negated and _raises_type_error(statement.body) and not statement.orelse and isinstance(call, ast.Call)):
            return None
        if isinstance(call.func, ast.Name) and call.func.id == "isinstance" and len(call.args) == 2:
            return _typed(call.args[0], call.args[1])
        return None
    call = statement.value if isinstance(statement, (ast.Expr, ast.Assign)) else None
    if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Attribute) or not call.args:
        return None
    if call.func.attr == "check_value_type" and len(call.args) >= 3:
        return _typed(call.args[1], call.args[2])
    single = _SINGLE_TYPE_CHECKS.get(call.func.attr)
    if single is not None and isinstance(call.args[0], ast.Name):
        return call.args[0].id, single
    return None


def _raises_type_error(body: list[ast.stmt]) -> bool:
    raised = body[0].exc if len(body) == 1 and isinstance(body[0], ast.Raise) else None
    called = raised.func if isinstance(raised, ast.Call) else raised
    return isinstance(called, ast.Name) and called.id == "TypeError"


def _typed(value: ast.expr, types: ast.expr) -> tuple[str, str] | None:
    """A check of ``value`` against builtin types only; a MindSpore class among them (``Tensor``)
    accepts values the table cannot describe, so the check says nothing."""
    listed = types.elts if isinstance(types, (ast.Tuple, ast.List)) else [types]
    names = [t.id for t in listed if isinstance(t, ast.Name) and t.id in _TYPE_NAMES]
    if not isinstance(value, ast.Name) or not names or len(names) != len(listed):
        return None
    return value.id, " | ".join(names)


def signatures() -> dict[str, dict[str, str]]:
    """Namespace -> public callable -> its signature text."""
    found: dict[str, dict[str, str]] = {}
    for namespace in SIGNED_NAMESPACES:
        owner = pkgutil.resolve_name(namespace)
        texts = {name: signature_text(getattr(owner, name)) for name in sorted(dir(owner)) if not name.startswith("_")}
        found[namespace] = {name: text for name, text in texts.items() if text is not None}
    for qualname in SIGNED_CLASSES:
        namespace, _, name = qualname.rpartition(".")
        text = signature_text(pkgutil.resolve_name(qualname))
        if text is not None:
            found.setdefault(namespace, {})[name] = text
    return found


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
        # a submodule not imported yet is an attribute once imported (``mindspore.scipy``)
        submodules = pkgutil.iter_modules(getattr(owner, "__path__", []))
        names.update({m.name: None for m in submodules if not m.name.startswith("_") and m.name not in names})
        table[namespace] = dict(sorted(names.items()))
    signed = signatures()
    document = {"mindspore": mindspore.__version__, "namespaces": table, "signatures": signed, "missing": MISSING}
    text = json.dumps(document, separators=(",", ":")) + "\n"
    summary = ", ".join(f"{len(v)} names in {k}" for k, v in table.items())
    summary += f"; {sum(len(v) for v in signed.values())} signatures"
    return write_or_check(f"api-{mindspore.__version__}.json", text, summary)


if __name__ == "__main__":
    sys.exit(main())
