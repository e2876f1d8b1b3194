from __future__ import annotations

import ast
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from functools import cache
from typing import Any, Union

from mslint.diagnostics import Edit, Fix, Severity
from mslint.mindspore_tables import DATA
from mslint.model.abstract import (
    NOT_KNOWN,
    AbstractAny,
    AbstractDtype,
    AbstractScalar,
    AbstractSequence,
    AbstractTensor,
    AbstractValue,
    Kind,
)
from mslint.model.binder import literal_value
from mslint.model.call_sites import call_site
from mslint.model.instance_reads import Instance, instances_around
from mslint.model.module import ModuleInfo, passed_argument
from mslint.model.patched_api import patched_apis
from mslint.model.project import Project, qualified_name
from mslint.model.scope import GraphFunction, is_tensor_method
from mslint.model.walk import descendants, statements
from mslint.release import Release
from mslint.rules._call_edits import add_keyword, replace_node
from mslint.rules.base import Finding, Rule
from mslint.settings import Settings

TENSOR = "mindspore.Tensor."


@cache
def checks() -> dict[str, str]:
    """MindSpore API -> the check of its measured difference (``mslint/data/pytorch-differences.json``)."""
    table = json.loads((DATA / "pytorch-differences.json").read_text(encoding="utf-8"))
    return {api: entry["check"] for entry in table["flagged"] for api in entry["apis"]}


def measurements() -> str:
    """The data file's entries as a Markdown section: flagged, then measured and not flagged."""
    table = json.loads((DATA / "pytorch-differences.json").read_text(encoding="utf-8"))
    lines = [
        f"### Measured on MindSpore {table['mindspore']}",
        "",
        "The programs are in `mslint/data/pytorch-differences.json` (`ran`); `printed` is their output.",
        "",
        "| entry | APIs | difference (mapping page) | printed on MindSpore | PyTorch |",
        "|---|---|---|---|---|",
    ]
    for entry in table["flagged"]:
        apis = ", ".join(f"`{api.removeprefix('mindspore.')}`" for api in entry["apis"])
        page = f"[{entry['mapping'].rsplit('/', 1)[-1]}]({entry['mapping']})"
        row = [entry["id"], apis, f"{entry['difference']} ({page})", f"`{entry['printed']}`", entry["pytorch"]]
        lines.append(f"| {' | '.join(row)} |")
    lines += ["", "Measured and not flagged:", "", "| entry | PyTorch | printed | why not |", "|---|---|---|---|"]
    for entry in table["not_flagged"]:
        lines.append(f"| {entry['id']} | `{entry['torch']}` | `{entry['printed']}` | {entry['why']} |")
    return "\n".join(lines)


class DiffersFromPytorch(Rule):
    """
    ## What it does
    Flags calls that are valid MindSpore but mean something else than the same call in
    PyTorch, where the way they are written makes a port error likely — anywhere in the code,
    not only in graph code:

    * `nn.Dropout(0.1)`: the first parameter is `keep_prob`, so it keeps 10 % and zeroes 90 %
      of the elements while training (PyTorch's `p` zeroes 10 %), and `nn.Dropout(0.0)` raises
      an error (PyTorch's keeps everything). Flagged when the value, or the default or
      assignment of the name passed, is below 0.5; fixed as `p=0.1`. A value mslint cannot read
      (`nn.Dropout(cfg["dropout"])`, an argument without a default) is flagged too, with an
      unsafe fix: whatever it is, MindSpore keeps that share. Left alone where the code says it
      is a keep probability: `1 - rate`, or a name with `keep` in it (`keep_prob`,
      `cfg["keep_rate"]`).
    * `nn.BatchNorm2d(c, momentum=0.1)` (also `BatchNorm1d/3d`, `SyncBatchNorm`): MindSpore's
      momentum weighs the running statistics, PyTorch's the batch; a momentum below 0.5 is
      PyTorch's, fixed as its complement (`momentum=0.9`). Not where the layer never updates
      its statistics (`use_batch_statistics=False`, a frozen BatchNorm).
    * `x.transpose(1, 2)` on a tensor in graph code: graph mode reads the arguments as the
      whole permutation, so two numbers are a compile error on a tensor that does not have 2
      dimensions, and `(0, 1)` leaves a 2-D tensor unchanged (PyNative and PyTorch swap the
      dimensions); fixed as `x.swapaxes(1, 2)`. Any receiver that is or may be a tensor: a
      helper's result, a layer's output, a Parameter attribute, a subscript, the argument of
      another call. `(1, 0)` and `(-1, -2)` are the 2-D swap in both readings: left alone on a
      tensor known to have 2 dimensions, an error on one known to have more (the 4-D keys of
      attention, `k.transpose(-1, -2)`), a warning where the rank is not known. The keyword
      form, `x.transpose(dim0=1, dim1=2)`, swaps in graph code too (measured), and is left alone.
    * `ops.std`, `ops.var`, `ops.std_mean`, `ops.var_mean`, and `x.std()` / `x.var()` on a
      tensor in graph code, without `ddof`: MindSpore divides by N, PyTorch by N - 1. The
      tensor methods called with `dim=`, `keepdim=` or `correction=` take 2.10's other overload,
      whose default is PyTorch's N - 1, and are left alone.

    * A Tensor method called in graph code in a form that PyNative runs and graph mode refuses:
      graph mode resolves `x.method(...)` through MindSpore's parser tables, whose signatures
      differ from the Tensor methods' for some methods (`x.expand(2, 3, 4)` and
      `x.expand((2, 3, 4))`: PyTorch's `expand(*size)` fails to compile; `x.amax(1,
      keepdims=True)`, `x.equal(other=y)`, `x.multiply(value=y)`, `x.float_power(other=2)`,
      `x.renorm(p=2, axis=0, maxnorm=1.0)`, `x.bitwise_left_shift(other=y)`: keywords graph
      mode names otherwise; `x.diagonal_scatter(y)`: graph mode has no default `offset`).
      `scripts/generate_tensor_signature_table.py` introspects every public Tensor method and
      runs the forms ports write (243 forms of 101 methods) in PyNative and compiled in STRICT
      and LAX, into `mslint/data/tensor-signatures-2.10.0.json`; a call is flagged where its
      arguments have the classes (a number, a tuple of numbers, a tensor, a keyword) of a form
      measured to run in PyNative and to fail in both levels, with the compiler's message and
      the forms measured to give PyNative's result: an error where the receiver is inferred to
      be a tensor, a warning where its type is not inferred. A form that fails only for want of
      a CPU kernel is not flagged.

    An API the project replaces itself (`ops.std = std`, `Tensor.std = _std`) is not flagged.

    Each entry comes from MindSpore's API mapping pages (`pytorch_diff/*.md` in
    mindspore-ai/docs) and was measured on MindSpore 2.10 (CPU) by
    `scripts/measure_pytorch_differences.py`, which runs the programs kept in
    `mslint/data/pytorch-differences.json` and records what they print: the table at the end
    of this section, with the candidates measured and not flagged.

    ## Why it changes the model
    Nothing fails: the port trains a different model. A Dropout that drops 90 %, running
    statistics that follow each batch, a biased variance. Only `transpose` with two axes
    breaks, and only in graph mode, so a port that runs in PyNative fails at its first compile
    (`ValueError: For Tensor.transpose, the number of axes must be equal to the dimension of
    Tensor`); so do the Tensor methods called in a form graph mode's signature refuses
    (`TypeError: The parameters number of the function is 2, but the number of provided
    arguments is 4.` for `x.expand(2, 3, 4)`).

    ## Example
    ```python
    class Block(nn.Cell):
        def __init__(self):
            super().__init__()
            self.drop = nn.Dropout(0.1)
            self.norm = nn.BatchNorm1d(8, momentum=0.1)

        def construct(self, x):
            return self.norm(self.drop(x)).transpose(0, 1).expand(2, 8, 8)
    ```

    ## Use instead
    ```python
    class Block(nn.Cell):
        def __init__(self):
            super().__init__()
            self.drop = nn.Dropout(p=0.1)
            self.norm = nn.BatchNorm1d(8, momentum=0.9)

        def construct(self, x):
            return self.norm(self.drop(x)).swapaxes(0, 1).broadcast_to((2, 8, 8))
    ```
    """

    code = "MS208"
    symbol = "differs-from-pytorch"
    summary = "a valid MindSpore call that means something else than the same PyTorch call (`nn.Dropout(0.1)`)"
    node_types = (ast.Call,)
    warning_findings = (
        "all but `transpose` with two axes and Tensor methods called in a form graph mode refuses, in graph "
        "code, which are errors"
    )

    def severity(self, settings: Settings) -> Severity:
        return Severity.WARNING

    @classmethod
    def documentation(cls) -> str:
        """The docstring, with what each entry of the data file ran and printed at the end of its
        first section."""
        what, why, rest = super().documentation().partition("\n## Why it")
        return f"{what.rstrip()}\n\n{measurements()}\n{why}{rest}"

    def check_module(self, module: ModuleInfo, project: Project) -> Iterator[Finding]:
        if not any(name.split(".", 1)[0] == "mindspore" for name in module.imports.values()):
            return
        table = checks()
        patched = patched_apis(project)
        for call, function in _calls(module, table):
            api = qualified_name(call.func, module) or "" if isinstance(call.func, (ast.Name, ast.Attribute)) else ""
            check = table.get(api)
            if check is None or api in patched or any(isinstance(a, ast.Starred) for a in call.args):
                continue
            found = _per_instance(call, _CHECKS[check], module, function, api, project)
            if found is not None:
                yield _finding(found)

    def check_graph_node(self, node: ast.AST, function: GraphFunction) -> Iterator[Finding]:
        """Tensor methods: the receiver must be a tensor, which the model knows in graph code."""
        assert isinstance(node, ast.Call)
        if not isinstance(node.func, ast.Attribute) or any(isinstance(a, ast.Starred) for a in node.args):
            return
        api = TENSOR + node.func.attr
        check = checks().get(api)
        if api in patched_apis(function.project) or not is_tensor_method(node, function):
            return
        if check is None:
            yield from _refused_in_graph(node, function)
            return
        context = _Context(function.module, _Values(function.module, None), api, _rank(node.func.value, function))
        found = _CHECKS[check](node, context)
        if found is not None:
            yield _finding(found)


def _rank(expr: ast.expr, function: GraphFunction) -> int | None:
    """The rank of the tensor ``expr`` holds, where the model knows it; ``t[i]`` with a number
    ``i`` has one dimension less than ``t``."""
    value = function.value(expr)
    if isinstance(value, AbstractTensor) and value.rank is not None:
        return value.rank
    if isinstance(expr, ast.Subscript) and _number(expr.slice) is not None:
        outer = _rank(expr.value, function)
        return outer - 1 if outer else None
    return None


@dataclass(frozen=True)
class _Context:
    module: ModuleInfo
    values: _Values
    api: str
    """The qualified name of what is called (``mindspore.Tensor.std`` for the method)."""
    rank: int | None = None
    """The rank of a tensor method's receiver, where the model knows it."""


@dataclass(frozen=True)
class _Found:
    node: ast.AST
    message: str
    """What MindSpore does with this call, and what PyTorch would have done."""
    hint: str
    fix: Fix | None = None
    severity: Severity | None = None


def _finding(found: _Found) -> Finding:
    return Finding(found.node, found.message, found.hint, severity=found.severity, fix=found.fix)


Function = Union[ast.FunctionDef, ast.AsyncFunctionDef]


def _calls(module: ModuleInfo, table: dict[str, str]) -> Iterator[tuple[ast.Call, Function | None]]:
    """The calls of a name the table checks (by the name called, or a local alias of one), each
    with the innermost function whose lines hold it (None at module level)."""
    names = _called_names() | {local for local, qualname in module.imports.items() if qualname in table}
    calls = [call for name in names for call in module.calls_by_name.get(name, [])]
    if not calls:
        return
    functions = [n for n in statements(module.tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    for call in calls:
        holding = [f for f in functions if f.lineno <= call.lineno <= (f.end_lineno or f.lineno)]
        yield call, max(holding, key=lambda f: f.lineno) if holding else None


@cache
def _called_names() -> frozenset[str]:
    return frozenset(api.rsplit(".", 1)[-1] for api in checks())


def _per_instance(
    call: ast.Call,
    check: Callable[[ast.Call, _Context], _Found | None],
    module: ModuleInfo,
    function: Function | None,
    api: str,
    project: Project,
) -> _Found | None:
    """``check`` on ``call`` as each instance of the code that makes it builds it, where what the
    check reads is what that code is given (:mod:`mslint.model.instance_reads`): the finding of
    the first instance it holds for, which it names; nothing where it holds for none. Where the
    instances are not all known, or the check reads nothing they give, the code as written."""
    values = _Values(module, function)
    found = check(call, _Context(module, values, api))
    instances = instances_around(project, module, call) if values.read_given else None
    if not instances:
        return found
    for instance in instances:
        given = _Values(module, function, instance)
        found = check(call, _Context(module, given, api))
        if found is not None and not given.gave:
            return found  # what the instance gives is not known: the code as written says it
        if found is not None:
            where = call_site(instance.call, instance.module)
            return replace(found, message=f"{found.message} (in the instance built {where})")
    return None


class _Values:
    """The values a name may hold where a call reads it: what the instance, where one is given,
    gives the code that makes the call (a parameter, ``self.rate`` set from one); else literal
    defaults of the enclosing function's parameters and literal assignments in its body, else the
    module's top-level literal assignments. Anything else is unknown."""

    def __init__(self, module: ModuleInfo, function: Function | None, instance: Instance | None = None) -> None:
        self.module = module
        self.function = function
        self.instance = instance
        self.read_given = False
        """Whether a value asked for may be given by the instance: a name, ``self.<attribute>``."""
        self.gave = False
        """Whether the instance gave a value asked for."""

    def numbers(self, expr: ast.expr) -> list[float] | None:
        """The values ``expr`` may hold, when all of them are known numbers; else None."""
        number = _number(expr)
        if number is not None:
            return [number]
        held = self._given(expr)
        if held is not NOT_KNOWN:
            is_number = isinstance(held, (int, float)) and not isinstance(held, bool)
            return [float(held)] if is_number else None  # type: ignore[arg-type]
        if not isinstance(expr, ast.Name):
            return None
        values = self.bound(expr.id)
        numbers = [_number(v) for v in values]
        if not values or None in numbers:
            return None
        return [n for n in numbers if n is not None]

    def constants(self, expr: ast.expr) -> list[object] | None:
        """The Python constants ``expr`` may hold, when all of them are known; else None."""
        held = self._given(expr)
        if held is not NOT_KNOWN:
            return [held]
        values = [expr] if not isinstance(expr, ast.Name) else self.bound(expr.id)
        constants = [literal_value(value) for value in values]
        return None if not values or NOT_KNOWN in constants else constants

    def _given(self, expr: ast.expr) -> object:
        """The constant the instance gives ``expr``; NOT_KNOWN where it gives none known."""
        self.read_given = self.read_given or isinstance(expr, (ast.Name, ast.Attribute))
        held = self.instance.value(expr) if self.instance is not None else None
        if isinstance(held, AbstractScalar) and held.kind is Kind.CONSTANT and held.value is not NOT_KNOWN:
            self.gave = True
            return held.value
        return NOT_KNOWN

    def bound(self, name: str) -> list[ast.expr]:
        """The values the name may hold where the call reads it; empty where any is unknown."""
        if self.function is None:
            return self.module.top_level_values(name)
        arguments = self.function.args
        positional = [*arguments.posonlyargs, *arguments.args]
        defaults = dict(
            zip([a.arg for a in positional[len(positional) - len(arguments.defaults) :]], arguments.defaults)
        )
        defaults.update((a.arg, d) for a, d in zip(arguments.kwonlyargs, arguments.kw_defaults) if d is not None)
        parameters = {a.arg for a in (*positional, *arguments.kwonlyargs, arguments.vararg, arguments.kwarg) if a}
        assigned = [
            node
            for node in descendants(self.function)
            if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.For, ast.NamedExpr))
            and name in _targets(node)
        ]
        if any(not isinstance(n, ast.Assign) for n in assigned):
            return []
        values = [n.value for n in assigned if isinstance(n, ast.Assign)]
        if name in parameters:
            return [defaults[name], *values] if name in defaults else []
        return values or self.module.top_level_values(name)


def _targets(node: ast.AST) -> set[str]:
    targets = (
        node.targets
        if isinstance(node, ast.Assign)
        else [node.target]
        if isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.For, ast.NamedExpr))
        else []
    )
    return {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}


def _number(expr: ast.expr) -> float | None:
    """The value of a number literal, negated or not (``-0.5``); None for anything else."""
    sign = 1.0
    while isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub):
        sign, expr = -sign, expr.operand
    if isinstance(expr, ast.Constant) and isinstance(expr.value, (int, float)) and not isinstance(expr.value, bool):
        return sign * expr.value
    return None


def _percent(value: float) -> str:
    return f"{value * 100:g} %"


def _shares(numbers: list[float], known: Callable[[str, str], str], several: str) -> str:
    """The message about a share MindSpore reads as the complement of PyTorch's: ``known(share,
    complement)`` as percentages where the value is known, ``several`` where it may be several."""
    return known(_percent(numbers[0]), _percent(1 - numbers[0])) if len(numbers) == 1 else several


def _keep_probability(call: ast.Call, context: _Context) -> _Found | None:
    if not call.args:
        return None
    first = call.args[0]
    numbers = context.values.numbers(first)
    text = context.module.source_segment(first) or ast.unparse(first)
    if numbers is None:
        written = context.module.source_segment(call) or ""
        called = written if written and "\n" not in written else ast.unparse(call)
        return None if _reads_as_keep_probability(first) else _unknown_keep_probability(call, called, text)
    if max(numbers) >= 0.5:
        return None  # a MindSpore keep probability (0.5 means the same in both)
    fix = Fix(f"Pass `p={text}`", (replace_node(first, f"p={text}"),)) if len(call.args) == 1 else None
    if 0 in numbers:  # measured: keep_prob must be a float in (0, 1]; PyTorch's Dropout(0.0) is the identity
        where = (
            ""
            if _number(first) is not None
            else f" where `{text}` is 0, and keeps that share of the elements otherwise"
        )
        message = (
            f"`{ast.unparse(call)}` raises an error{where} (its first parameter is `keep_prob`, a float in (0, 1]); "
            f"PyTorch's Dropout({text}) zeroes the share `{text}`"
        )
    else:
        message = _shares(
            numbers,
            lambda kept, dropped: (
                f"`{ast.unparse(call)}` keeps {kept} of the elements and zeroes {dropped} while training "
                f"(its first parameter is `keep_prob`); PyTorch's Dropout({text}) zeroes {kept}"
            ),
            f"`{ast.unparse(call)}` keeps less than half of the elements while training (its first parameter "
            f"is `keep_prob`); PyTorch's Dropout({text}) zeroes less than half",
        )
    return _Found(first, message, f"pass the probability of zeroing by keyword: `p={text}`", fix)


def _reads_as_keep_probability(value: ast.expr) -> bool:
    """``1 - rate`` (a complement) or a value named for what it keeps (``keep_prob``,
    ``cfg["keep_rate"]``): the code says it passes a keep probability."""
    if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Sub) and _number(value.left) == 1:
        return True
    words = [n.id for n in ast.walk(value) if isinstance(n, ast.Name)]
    words += [n.attr for n in ast.walk(value) if isinstance(n, ast.Attribute)]
    words += [n.value for n in ast.walk(value) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    return any("keep" in word.lower() for word in words)


def _unknown_keep_probability(call: ast.Call, called: str, text: str) -> _Found:
    """A value mslint cannot read (a config lookup, an argument with no default): whatever it is,
    MindSpore keeps that share of the elements, where PyTorch would zero it. ``called`` is the
    call as written, ``text`` its first argument."""
    first = call.args[0]
    fix = Fix(f"Pass `p={text}`", (replace_node(first, f"p={text}"),), "unsafe") if len(call.args) == 1 else None
    return _Found(
        first,
        f"`{called}` keeps the share `{text}` of the elements while training (the first parameter of "
        f"`nn.Dropout` is `keep_prob`, whatever the value); PyTorch's Dropout({text}) zeroes that share",
        f"if `{text}` is a dropout rate, pass it by keyword: `p={text}`; if it is a keep probability, "
        "`keep_prob=` says so",
        fix,
    )


def _complement_momentum(call: ast.Call, context: _Context) -> _Found | None:
    if _uses_moving_statistics_only(call, context):
        return None  # measured: the running statistics never change, whatever the momentum
    momentum = passed_argument(call, 2, "momentum")
    numbers = context.values.numbers(momentum) if momentum is not None else None
    if momentum is None or not numbers or max(numbers) >= 0.5:
        return None
    complement = [round(1 - n, 10) for n in numbers]
    fix = None
    if _number(momentum) is not None:
        fix = Fix(f"Use the complement, {complement[0]:g}", (replace_node(momentum, f"{complement[0]:g}"),))
    message = _shares(
        numbers,
        lambda kept, taken: (
            f"`momentum={numbers[0]:g}` keeps {kept} of the running statistics at each step and takes {taken} from "
            f"the batch; PyTorch's momentum={numbers[0]:g} takes {kept} from the batch"
        ),
        "a momentum below 0.5 keeps less than half of the running statistics at each step; PyTorch's "
        "momentum is the share taken from the batch",
    )
    return _Found(momentum, message, f"MindSpore's momentum is 1 minus PyTorch's: `momentum={complement[0]:g}`", fix)


def _uses_moving_statistics_only(call: ast.Call, context: _Context) -> bool:
    """``use_batch_statistics=False`` (the ninth parameter of every BatchNorm of ``mindspore.nn``):
    the layer normalizes with its moving statistics and never updates them, as a frozen
    BatchNorm does, so the momentum is never used."""
    flag = passed_argument(call, 8, "use_batch_statistics")
    values = None if flag is None else context.values.constants(flag)
    return bool(values) and all(value is False for value in values or ())


_SWAPS_OF_A_MATRIX = frozenset({(1, 0), (-1, -2), (-1, 0), (1, -2)})
"""Axes that are also the whole permutation of a 2-D tensor that swaps its dimensions."""


def _two_axes_transpose(call: ast.Call, context: _Context) -> _Found | None:
    if len(call.args) != 2 or call.keywords or any(isinstance(a, (ast.Tuple, ast.List)) for a in call.args):
        return None  # `transpose(dim0=1, dim1=2)` swaps in graph code too (measured: transpose-keyword-axes)
    numbers = tuple(_number(a) for a in call.args)
    matrix_swap = numbers in _SWAPS_OF_A_MATRIX
    if matrix_swap and context.rank == 2:
        return None
    func = call.func
    assert isinstance(func, ast.Attribute)
    line, end = func.end_lineno or func.lineno, (func.end_col_offset or 0) + 1
    rename = Edit(line, end - len(func.attr), line, end, "swapaxes")
    axes = ", ".join(map(ast.unparse, call.args))
    receiver = ast.unparse(func.value)
    if matrix_swap and context.rank is None:
        # the 2-D swap in both readings: wrong only where the receiver has more dimensions
        message = (
            f"`{ast.unparse(call)}` in graph code is the whole permutation ({axes}): a compile error unless "
            f"`{receiver}` has 2 dimensions; PyTorch (and PyNative) swap dimensions {axes} of any tensor"
        )
        severity = Severity.WARNING
    else:
        message = (
            f"`{ast.unparse(call)}` in graph code is the whole permutation ({axes}): a compile error on a tensor "
            f"that does not have 2 dimensions, and no swap on one that has; PyTorch (and PyNative) swap "
            f"dimensions {axes}"
        )
        severity = Severity.ERROR
    return _Found(call, message, f"`{receiver}.swapaxes({axes})`", Fix("Use `swapaxes`", (rename,)), severity)


_TORCH_OVERLOAD = frozenset({"dim", "keepdim", "correction", None})
"""Keywords that select 2.10's ``Tensor.std/var(dim=None, *, correction=1, keepdim=False)``,
PyTorch's N - 1 (measured: ``std-dim-overload``), or hide what is passed (``**kwargs``)."""


def _population_deviation(call: ast.Call, context: _Context) -> _Found | None:
    position = 1 if context.api.startswith(TENSOR) else 2  # `x.std(axis, ddof)`, `ops.std(x, axis, ddof)`
    if passed_argument(call, position, "ddof") is not None or any(k.arg in _TORCH_OVERLOAD for k in call.keywords):
        return None
    return _Found(
        call,
        f"`{ast.unparse(call.func)}` without `ddof` divides by N; PyTorch's divides by N - 1 (`unbiased=True`)",
        "pass `ddof=1` for PyTorch's unbiased estimate (or `ddof=0` to keep N)",
        Fix("Pass `ddof=1`", (add_keyword(call, context.module, "ddof=1"),), "unsafe"),
    )


_CHECKS: dict[str, Callable[[ast.Call, _Context], _Found | None]] = {
    "keep-probability": _keep_probability,
    "complement-momentum": _complement_momentum,
    "two-axes-transpose": _two_axes_transpose,
    "population-deviation": _population_deviation,
}


FormKey = tuple[str, tuple[str, ...], tuple[tuple[str, str], ...]]
"""A call form: the method, the class of each positional argument (``int``, ``tensor``,
``tuple(int, int)``), and each keyword with the class of its value, sorted."""


@dataclass(frozen=True)
class _Refused:
    """A measured call form that runs in PyNative and that graph mode refuses."""

    call: str
    error: str
    """The first line of what compiling it raised (STRICT; LAX raised too)."""
    instead: tuple[str, ...]
    """Measured forms, on the same inputs, that give PyNative's result (dtype, shape and values)
    in all three modes: the same method's where it has some."""


@cache
def graph_refused(release: Release) -> dict[FormKey, _Refused]:
    """The call forms of Tensor methods that ``mslint/data/tensor-signatures-<release>.json``
    measured to run in PyNative and to fail in graph mode (STRICT and LAX, other than for a
    missing CPU kernel), by form; a form that some other measured call of ran in graph mode is
    left out. Empty where that release was not measured."""
    rows = [row for forms in release.tensor_signatures.values() for row in forms]
    keyed: dict[FormKey, list[dict[str, Any]]] = {}
    for row in rows:
        call = ast.parse(row["call"], mode="eval").body
        assert isinstance(call, ast.Call)
        key = _form(call, _measured_class(frozenset(row["inputs"])))
        if key is not None:
            keyed.setdefault(key, []).append(row)
    refused = {}
    for key, forms in keyed.items():
        if not all(row["fails_in_graph"] and "result" in row["pynative"] for row in forms):
            continue
        row = forms[0]
        result = row["pynative"]["result"]
        instead = tuple(
            other["call"]
            for other in sorted(rows, key=lambda other: not other["call"].startswith(f"x.{key[0]}("))
            if other["inputs"] == row["inputs"]
            and all(other[mode].get("result") == result for mode in ("pynative", "strict", "lax"))
        )
        same = tuple(form for form in instead if form.startswith(f"x.{key[0]}("))
        refused[key] = _Refused(row["call"], row["strict"]["error"], (same or instead)[:2])
    return refused


def _measured_class(inputs: frozenset[str]) -> Callable[[ast.expr], str | None]:
    """The class of a measured form's argument that is no literal: one of its inputs (a
    tensor), or ``ms.<dtype>``."""

    def value_class(expr: ast.expr) -> str | None:
        if isinstance(expr, ast.Name) and expr.id in inputs:
            return "tensor"
        if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and expr.value.id == "ms":
            return "dtype"
        return None

    return value_class


def _form(call: ast.Call, value_class: Callable[[ast.expr], str | None]) -> FormKey | None:
    """The form of ``x.method(...)``; None where an argument's class is not known."""
    assert isinstance(call.func, ast.Attribute)
    positional = tuple(_argument_class(a, value_class) for a in call.args)
    keywords = tuple(sorted((k.arg or "**", _argument_class(k.value, value_class)) for k in call.keywords))
    if None in positional or any(kind is None for _, kind in keywords):
        return None
    return call.func.attr, positional, keywords  # type: ignore[return-value]


def _argument_class(expr: ast.expr, value_class: Callable[[ast.expr], str | None]) -> str | None:
    """A literal's class (a negative number is a number), a dtype named as an attribute
    (``ms.float16``), a tuple or list of classes; else what ``value_class`` says."""
    if isinstance(expr, (ast.Tuple, ast.List)):
        items = [_argument_class(item, value_class) for item in expr.elts]
        if None in items:
            return None
        return f"{'tuple' if isinstance(expr, ast.Tuple) else 'list'}({', '.join(map(str, items))})"
    operand = expr.operand if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub) else expr
    if isinstance(operand, ast.Constant) and not isinstance(operand.value, (bytes, complex)):
        return type(operand.value).__name__ if operand.value is not None else "None"
    return value_class(expr)


def _value_class(value: AbstractValue) -> str | None:
    """The class of an inferred value, as ``_argument_class`` names them."""
    if isinstance(value, AbstractTensor):
        return "tensor"
    if isinstance(value, AbstractDtype):
        return "dtype"
    if isinstance(value, AbstractScalar):
        return value.type
    if isinstance(value, AbstractSequence) and value.items is not None:
        items = [_value_class(item) for item in value.items]
        return None if None in items else f"{value.type}({', '.join(map(str, items))})"
    return None


def _refused_in_graph(call: ast.Call, function: GraphFunction) -> Iterator[Finding]:
    """A Tensor method called in a form that runs in PyNative and that graph mode refuses, as
    measured: an error where the receiver is inferred to be a tensor, a warning where its type
    is not inferred (a graph value that may be a tensor)."""
    refused = graph_refused(function.project.release)
    if not refused or any(isinstance(a, ast.Starred) for a in call.args):
        return
    assert isinstance(call.func, ast.Attribute)
    receiver = function.value(call.func.value)
    if isinstance(receiver, AbstractTensor):
        severity = Severity.ERROR
    elif type(receiver) is AbstractAny:
        severity = Severity.WARNING
    else:
        return  # a tuple, a number, an instance: not a tensor
    key = _form(call, lambda e: _value_class(function.value(e)))
    measured = refused.get(key) if key is not None else None
    if measured is None:
        return
    release = function.project.release.version
    where = "" if severity is Severity.ERROR else f" if `{ast.unparse(call.func.value)}` is a tensor"
    message = (
        f"`{ast.unparse(call)}` runs in PyNative but not in graph mode{where}: MindSpore {release} refuses the "
        f"form `{measured.call}` when compiling it (measured): {measured.error}"
    )
    hint = (
        f"write it as a form measured to compile and to give PyNative's result: "
        f"{' or '.join(f'`{form}`' for form in measured.instead)}"
        if measured.instead
        else "no measured form gives PyNative's result in graph mode"
    )
    yield Finding(call, message, hint, severity=severity)
