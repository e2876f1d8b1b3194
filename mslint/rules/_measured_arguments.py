"""Calls whose literal arguments a MindSpore release refuses, as measured.

``scripts/generate_argument_table.py`` runs calls of the ops and layers ports use most over each
parameter's value classes (an int or a float, a tuple or a list, negative, None, each mode
string) and their combinations, in PyNative and compiled in a graph, and writes what each raised
to ``mslint/data/arguments-<release>.json``. A call in the code whose measured parameters are all
literals has the value classes of one measured combination, or of none; where every measured
call of that combination (on each input rank it was run on) raised in both modes, the call fails
wherever it runs, with the release's own message; where it raised on some ranks only, the call
is reported as a warning (the rank of its input is not known here).

Tensor methods (``x.sum(dim=1.0)``, ``x.topk(2.0)``) are checked in graph code only, on a
receiver that is a tensor there, so a combination counts as refused where the graph refused it.
A table parameter named ``*name`` is the method's positional arguments (its overloads share no
keyword); several of them have the class ``args(int, ...)``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Union

from mslint.diagnostics import Fix, Severity
from mslint.model.module import ModuleInfo
from mslint.release import Release
from mslint.rules._call_edits import add_keyword, replace_node
from mslint.rules._call_signatures import Signature
from mslint.rules.base import Finding

Key = tuple[tuple[str, str], ...]
"""The value class of each measured parameter a call passes, by parameter name (sorted)."""

Argument = Union[ast.expr, list[ast.expr]]
"""An argument's expression, or the expressions passed by position to a ``*name`` parameter."""

TENSOR_METHOD = "mindspore.Tensor."


def value_class(expr: ast.expr) -> str | None:
    """The class of a literal argument as the measurements tell them apart; None for anything
    else. Strings, bools and None are their own class; numbers are ``int``/``float`` by sign
    (``negative int``, ``0``); a tuple or list has the class of each item (``tuple(int, int)``),
    where an item that is no literal (a tensor) is ``value``."""
    if isinstance(expr, (ast.Tuple, ast.List)):
        items = [value_class(item) or "value" for item in expr.elts]
        return f"{'tuple' if isinstance(expr, ast.Tuple) else 'list'}({', '.join(items)})"
    negative = isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub)
    operand = expr.operand if isinstance(expr, ast.UnaryOp) and negative else expr
    if not isinstance(operand, ast.Constant):
        return None
    value = operand.value
    if isinstance(value, (bool, str)) or value is None:
        return None if negative else repr(value)
    if isinstance(value, (int, float)):
        kind = type(value).__name__
        return f"negative {kind}" if negative and value else kind if value else repr(value)
    return None


@dataclass(frozen=True)
class Measured:
    """The measured calls of one combination of value classes, on each input they were run on."""

    refused_on: tuple[tuple[str, str], ...]
    """The inputs (``float32[1,2,4,4]``) on which the call raised in PyNative and in a graph, each
    with the graph's message."""
    inputs: int
    """How many inputs it was run on."""
    accepted: bool
    """Whether it ran in both modes on every input."""

    @property
    def refused_everywhere(self) -> bool:
        return len(self.refused_on) == self.inputs


@dataclass(frozen=True)
class MeasuredApi:
    parameters: tuple[str, ...]
    combinations: dict[Key, Measured]


@cache
def measured_apis(release: Release) -> dict[str, MeasuredApi]:
    """The measured APIs of ``release``; none where the release itself was not measured."""
    apis: dict[str, MeasuredApi] = {}
    for api, entry in release.arguments.items():
        rows: dict[Key, list[dict[str, str | None]]] = {}
        for call in entry["calls"]:
            key = _key({name: _parsed(name, text) for name, text in call["arguments"].items()})
            if key is not None:
                rows.setdefault(key, []).append(call)
        in_graph = api.startswith(TENSOR_METHOD)
        combinations = {key: _measured(calls, in_graph) for key, calls in rows.items()}
        apis[api] = MeasuredApi(tuple(entry["parameters"]), combinations)
    return apis


def _parsed(name: str, text: str) -> Argument:
    if name.startswith("*"):
        call = ast.parse(f"f({text})", mode="eval").body
        assert isinstance(call, ast.Call)
        return call.args
    return ast.parse(text, mode="eval").body


def _measured(calls: list[dict[str, str | None]], in_graph: bool) -> Measured:
    """Refused where a call raised in both modes, or in the graph for what is checked in graph
    code only (``in_graph``)."""
    refused = tuple(
        (str(c["input"]), str(c["graph"]))
        for c in calls
        if c["graph"] is not None and (in_graph or c["pynative"] is not None)
    )
    accepted = all(c["pynative"] is None and c["graph"] is None for c in calls)
    return Measured(refused, len(calls), accepted)


def _key(arguments: dict[str, Argument]) -> Key | None:
    classes = {name: _argument_class(value) for name, value in arguments.items()}
    if None in classes.values():
        return None
    return tuple(sorted((name, kind) for name, kind in classes.items() if kind is not None))


def _argument_class(argument: Argument) -> str | None:
    if not isinstance(argument, list):
        return value_class(argument)
    if len(argument) == 1:
        return value_class(argument[0])
    items = [value_class(item) for item in argument]
    return None if None in items else f"args({', '.join(str(item) for item in items)})"


def refused_call(
    call: ast.Call, api: str, signature: Signature, release: Release, module: ModuleInfo
) -> Iterator[Finding]:
    """A finding where ``call`` has the value classes of a combination that a measured call of
    raised for in both modes (an error where every one did, a warning where on some input ranks
    only); with a fix where one argument written as a float (``2`` -> ``2.0``), an int or a tuple
    (a list's items), or a scale factor recomputed, makes a combination measured to run in both
    modes on every input."""
    measured = measured_apis(release).get(api)
    if measured is None or any(isinstance(a, ast.Starred) for a in call.args):
        return
    if any(k.arg is None for k in call.keywords):
        return  # `**kwargs` may pass any of them
    bound = {p.name: value for p, value in zip(signature.positional, call.args)}
    bound.update((k.arg, k.value) for k in call.keywords if k.arg is not None)
    arguments: dict[str, Argument] = {name: value for name, value in bound.items() if name in measured.parameters}
    yield from _reported(call, api, arguments, measured, release, module)


def is_measured_method(name: str, release: Release) -> bool:
    """Whether the table measured the Tensor method ``name`` (asked before the receiver's type)."""
    return f"{TENSOR_METHOD}{name}" in measured_apis(release)


def refused_method_call(call: ast.Call, release: Release, module: ModuleInfo) -> Iterator[Finding]:
    """:func:`refused_call` for a Tensor method called in graph code on a tensor: keywords by
    name, and the positional arguments where the table measured them (a ``*name`` parameter)."""
    assert isinstance(call.func, ast.Attribute)
    yield from refused_method_arguments(call, call.func.attr, call.args, call.keywords, release, module)


def refused_method_arguments(
    call: ast.Call,
    method: str,
    args: list[ast.expr],
    keywords: list[ast.keyword],
    release: Release,
    module: ModuleInfo,
) -> Iterator[Finding]:
    """:func:`refused_method_call` for the arguments a call passes to a Tensor method: its own, or
    those of a builtin the graph compiles to the method's operator (``round(x, 2)``)."""
    api = f"{TENSOR_METHOD}{method}"
    measured = measured_apis(release).get(api)
    if measured is None or any(isinstance(a, ast.Starred) for a in args):
        return
    if any(k.arg is None for k in keywords):
        return
    by_position = [name for name in measured.parameters if name.startswith("*")]
    if args and len(by_position) != 1:
        return  # positional arguments the table did not measure
    arguments: dict[str, Argument] = {k.arg: k.value for k in keywords if k.arg in measured.parameters}
    if args:
        arguments[by_position[0]] = list(args)
    yield from _reported(call, api, arguments, measured, release, module)


def _reported(
    call: ast.Call,
    api: str,
    arguments: dict[str, Argument],
    measured: MeasuredApi,
    release: Release,
    module: ModuleInfo,
) -> Iterator[Finding]:
    key = _key(arguments)
    found = measured.combinations.get(key) if key is not None else None
    if found is None or not found.refused_on:
        return
    written = ", ".join(_written(name, value) for name, value in arguments.items()) or "its defaults"
    if found.refused_everywhere:
        message = f"`{api}` with {written} raises in MindSpore {release.version} (measured): {found.refused_on[0][1]}"
        severity = None
    else:  # the input's rank decides, and mslint does not know it here
        inputs = ", ".join(spec for spec, _ in found.refused_on)
        message = (
            f"`{api}` with {written} raises in MindSpore {release.version} on inputs like {inputs} (measured; it "
            f"runs on the other ranks measured): {found.refused_on[0][1]}"
        )
        severity = Severity.WARNING
    fix = _fix(arguments, measured) or _recomputed_scale(call, arguments, measured, module)
    hint = f"measured to run with {fix.message.removeprefix('Write ').removeprefix('Pass ')}" if fix else _HINT
    yield Finding(call, message, hint, severity=severity, fix=fix)


def _written(name: str, argument: Argument) -> str:
    if isinstance(argument, list):
        return ", ".join(ast.unparse(item) for item in argument)
    return f"{name}={ast.unparse(argument)}"


_HINT = "the calls measured to run are in mslint/data/arguments-<release>.json"


def _fix(arguments: dict[str, Argument], measured: MeasuredApi) -> Fix | None:
    """One argument written as another type (:func:`_safe_rewrite`), where that is measured to
    run on every input."""
    for name, argument in arguments.items():
        value = _single(argument)
        replacement = _safe_rewrite(value) if value is not None else None
        if value is None or replacement is None:
            continue
        rewritten = _key({**arguments, name: ast.parse(replacement, mode="eval").body})
        other = measured.combinations.get(rewritten) if rewritten is not None else None
        if other is not None and other.accepted:
            written = replacement if name.startswith("*") else f"{name}={replacement}"
            return Fix(f"Write `{written}`", (replace_node(value, replacement),))
    return None


def _single(argument: Argument) -> ast.expr | None:
    """The one expression of an argument; None for several passed by position."""
    if isinstance(argument, list):
        return argument[0] if len(argument) == 1 else None
    return argument


def _recomputed_scale(
    call: ast.Call, arguments: dict[str, Argument], measured: MeasuredApi, module: ModuleInfo
) -> Fix | None:
    """``recompute_scale_factor=True``, which 2.10's interpolation needs for a scale factor on 3-D
    and 4-D inputs, where the factor is a whole number (``2.0``, or ``2`` written as one): the
    output size is the input's times the factor either way, and so is the scale the interpolation
    then computes from it."""
    scale = arguments.get("scale_factor")
    if not isinstance(scale, ast.expr) or "recompute_scale_factor" in arguments:
        return None
    rewrite = _safe_rewrite(scale) if _whole(scale, int) else None
    floats = ast.parse(rewrite, mode="eval").body if rewrite else scale
    if not _whole(floats, float):
        return None
    true = ast.parse("True", mode="eval").body
    recomputed = _key({**arguments, "scale_factor": floats, "recompute_scale_factor": true})
    other = measured.combinations.get(recomputed) if recomputed is not None else None
    if other is None or not other.accepted:
        return None
    keyword = "recompute_scale_factor=True"
    edits = (replace_node(scale, rewrite),) if rewrite else ()
    written = f" and `scale_factor={rewrite}`" if rewrite else ""
    return Fix(f"Pass `{keyword}`{written}", (*edits, add_keyword(call, module, keyword)))


def _whole(value: ast.expr, kind: type) -> bool:
    """Whether ``value`` is a whole number of ``kind`` (``2.0`` for float), or a tuple of them."""
    items = value.elts if isinstance(value, (ast.Tuple, ast.List)) else [value]
    numbers = [float(i.value) for i in items if isinstance(i, ast.Constant) and isinstance(i.value, (int, float))]
    numbers = numbers if all(isinstance(i, ast.Constant) and type(i.value) is kind for i in items) else []
    return bool(items) and len(numbers) == len(items) and all(n.is_integer() and n > 0 for n in numbers)


def _safe_rewrite(value: ast.expr) -> str | None:
    """The same value written as the type a parameter may take instead: an int as a float, a
    whole float as an int, the ints of a tuple as floats, a list as a tuple. None where there is
    none."""
    if isinstance(value, ast.Constant) and type(value.value) is int:
        return repr(float(value.value))
    if isinstance(value, ast.Constant) and type(value.value) is float and value.value.is_integer():
        return str(int(value.value))
    if isinstance(value, ast.UnaryOp) and isinstance(value.op, ast.USub):
        inner = _safe_rewrite(value.operand)
        return f"-{inner}" if inner is not None else None
    if isinstance(value, ast.Tuple) and value.elts and all(_is_int(item) for item in value.elts):
        floats = [_safe_rewrite(item) or "" for item in value.elts]
        return f"({', '.join(floats)}{',' if len(floats) == 1 else ''})"
    if isinstance(value, ast.List) and value.elts:
        items = [ast.unparse(item) for item in value.elts]
        return f"({', '.join(items)}{',' if len(items) == 1 else ''})"
    return None


def _is_int(expr: ast.expr) -> bool:
    operand = expr.operand if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub) else expr
    return isinstance(operand, ast.Constant) and type(operand.value) is int
