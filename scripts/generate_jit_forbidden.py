"""Write mslint/data/jit-forbidden-<version>.json: the APIs the installed MindSpore refuses in graph code.

MindSpore registers them itself (``jit_forbidden_register`` and the forbidden modules of
``mindspore.graph._utils.check_jit_forbidden_api``, ``mindspore._check_jit_forbidden_api``
before 2.9); this script reads those registries and maps each forbidden function to the
public names users call it by (``mindspore.get_context`` for ``mindspore.context.get_context``).
It also reads the source of ``nn.Cell`` for the public methods whose body the graph compiler
refuses although they are not registered: those that call a registered method through ``self``
(``parameters_dict`` calls ``get_parameters``: refused at every syntax level), those that are
generators (``parameters_and_names``: ``yield`` is refused at every level) and those that set
an attribute of the Cell (``set_train`` sets ``self._phase``: STRICT refuses changing an attribute
that is not a Parameter; LAX runs it). And it reads the source of the public functions for those
that log a deprecation warning through ``mindspore.log`` (``ops.soft_shrink``,
``mindspore.dtype_to_nptype``): graph code runs their body, and its ``logger.warning`` is refused
at every level as a direct call is. Functions decorated with ``@deprecated`` are not among them:
the compiler compiles the function they wrap (measured on 2.10: ``ops.eps`` compiles).
Run it in an environment with the MindSpore release to describe: ``python scripts/generate_jit_forbidden.py``;
``--check`` only compares (the test suite runs it against the MindSpore it installs).
"""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import sys
import textwrap
from typing import Callable

from mindspore_table import write_or_check

LOGGING_NAMESPACES = (
    "mindspore",
    "mindspore.nn",
    "mindspore.ops",
    "mindspore.ops.functional",
    "mindspore.mint",
    "mindspore.numpy",
    "mindspore.train",
)
"""Where the functions that log a deprecation are looked for: the namespaces graph code calls."""

PUBLIC_NAMESPACES = (
    "mindspore",
    "mindspore.nn",
    "mindspore.ops",
    "mindspore.context",
    "mindspore.log",
    "mindspore.common.initializer",
)


def main() -> int:
    import mindspore

    try:
        from mindspore.graph._utils import check_jit_forbidden_api as registry
    except ModuleNotFoundError:  # before MindSpore 2.9 the registry was a top-level module
        from mindspore import _check_jit_forbidden_api as registry

    modules = sorted(registry.get_jit_forbidden_module())
    methods = sorted(registry.get_jit_forbidden_method())
    functions: dict[str, str] = {}
    for namespace in PUBLIC_NAMESPACES:
        module = importlib.import_module(namespace)
        for name in dir(module):
            if name.startswith("_"):
                continue
            value = getattr(module, name, None)
            if not inspect.isfunction(value):
                continue
            defined = f"{value.__module__}.{value.__qualname__}"
            if defined in methods or any(
                value.__module__ == m or value.__module__.startswith(m + ".") for m in modules
            ):
                functions[f"{namespace}.{name}"] = defined
    cell_methods = sorted(m.rsplit(".", 1)[1] for m in methods if m.startswith("mindspore.nn.cell.Cell."))
    tensor_methods = sorted(m.rsplit(".", 1)[1] for m in methods if m.startswith("mindspore.common.tensor.Tensor."))
    document = {
        "mindspore": mindspore.__version__,
        "modules": modules,
        "functions": dict(sorted(functions.items())),
        "cell_methods": [m for m in cell_methods if not m.startswith("_")],
        "tensor_methods": tensor_methods,
        "cell_methods_by_body": cell_methods_by_body(set(cell_methods)),
        "functions_logging_deprecation": functions_logging_deprecation(),
    }
    text = json.dumps(document, indent=1) + "\n"
    summary = f"{len(functions)} functions, {len(cell_methods)} Cell methods"
    return write_or_check(f"jit-forbidden-{mindspore.__version__}.json", text, summary)


def cell_methods_by_body(registered: set[str]) -> dict[str, dict[str, str]]:
    """Public ``nn.Cell`` methods refused for what their body does, each with the reason and the
    syntax levels that refuse it (``both``, ``strict``), followed through the ``self.<method>(...)``
    calls of the body: a method calling a refused one is refused as it is. Properties are left
    out: they are read, not called."""
    from mindspore import nn

    tree = ast.parse(textwrap.dedent(inspect.getsource(nn.Cell)))
    cell = tree.body[0]
    assert isinstance(cell, ast.ClassDef)
    methods = {f.name: f for f in cell.body if isinstance(f, ast.FunctionDef) and not _is_property(f)}
    registered_cause = ("is registered as refused by MindSpore", "both")
    causes: dict[str, tuple[str, str]] = {name: registered_cause for name in registered}
    for name, function in methods.items():
        assigned = sorted(_self_assignments(function))
        if name in causes:
            continue
        if any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in ast.walk(function)):
            causes[name] = ("is a generator (`yield` is refused in graph code)", "both")
        elif assigned:
            causes[name] = (f"sets `self.{assigned[0]}`, an attribute that is not a Parameter", "strict")
    reasons = {name: (f"it {cause}", levels) for name, (cause, levels) in causes.items()}
    changed = True
    while changed:  # a method calling a refused one, refused at the levels of the strictest it calls
        changed = False
        for name in sorted(methods):
            refused = (c for c in _self_calls(methods[name]) if c in reasons and c != name)
            callees = sorted(refused, key=_both_first(reasons))
            if callees and (name not in reasons or reasons[name][1] == "strict" != reasons[callees[0]][1]):
                reason, levels = reasons[callees[0]]
                reasons[name] = (f"it calls `Cell.{callees[0]}`, which{reason.removeprefix('it')}", levels)
                changed = True
    return {
        name: {"reason": reason, "levels": levels}
        for name, (reason, levels) in sorted(reasons.items())
        if not name.startswith("_") and name not in registered
    }


def functions_logging_deprecation() -> dict[str, dict[str, str]]:
    """Public functions whose body calls ``mindspore.log`` with a message about a deprecation, by
    public name and by the name of their definition, each with the logging call and its message."""
    from mindspore import log

    found: dict[str, dict[str, str]] = {}
    for namespace in LOGGING_NAMESPACES:
        module = importlib.import_module(namespace)
        for name in dir(module):
            value = getattr(module, name, None)
            if name.startswith("_") or not inspect.isfunction(value):
                continue
            try:
                source = textwrap.dedent(inspect.getsource(value))
            except (OSError, TypeError):
                continue
            for call in (n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Call)):
                func = call.func
                receiver = func.value if isinstance(func, ast.Attribute) else None
                if not isinstance(receiver, ast.Name) or value.__globals__.get(receiver.id) is not log:
                    continue
                message = " ".join(_strings(call))
                if "deprecat" in message.lower():
                    assert isinstance(func, ast.Attribute)
                    entry = {"logs": f"mindspore.log.{func.attr}", "message": message}
                    found[f"{namespace}.{name}"] = entry
                    found[f"{value.__module__}.{value.__qualname__}"] = entry
                    break
    return dict(sorted(found.items()))


def _strings(call: ast.Call) -> list[str]:
    """The constant text of a call's arguments (the parts of an f-string or a concatenation)."""
    return [
        n.value.strip()
        for argument in call.args
        for n in ast.walk(argument)
        if isinstance(n, ast.Constant) and isinstance(n.value, str)
    ]


def _both_first(reasons: dict[str, tuple[str, str]]) -> Callable[[str], tuple[bool, str]]:
    return lambda name: (reasons[name][1] != "both", name)


def _is_property(function: ast.FunctionDef) -> bool:
    return any(
        (isinstance(d, ast.Name) and d.id == "property") or (isinstance(d, ast.Attribute) and d.attr == "setter")
        for d in function.decorator_list
    )


def _self_calls(function: ast.FunctionDef) -> set[str]:
    return {
        n.func.attr
        for n in ast.walk(function)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and _is_self(n.func.value)
    }


def _self_assignments(function: ast.FunctionDef) -> set[str]:
    targets = [t for n in ast.walk(function) if isinstance(n, (ast.Assign, ast.AugAssign)) for t in _targets(n)]
    return {t.attr for t in targets if isinstance(t, ast.Attribute) and _is_self(t.value)}


def _is_self(expr: ast.expr) -> bool:
    return isinstance(expr, ast.Name) and expr.id == "self"


def _targets(statement: ast.Assign | ast.AugAssign) -> list[ast.expr]:
    return statement.targets if isinstance(statement, ast.Assign) else [statement.target]


if __name__ == "__main__":
    sys.exit(main())
