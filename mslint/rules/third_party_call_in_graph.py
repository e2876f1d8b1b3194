from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache

from mslint.diagnostics import Severity
from mslint.model.abstract import Kind
from mslint.model.python_libraries import CONCURRENCY_MODULES
from mslint.model.scope import GraphFunction, module_object_origin
from mslint.release import Release
from mslint.rules.base import Finding, Rule, fallback_severity
from mslint.settings import Settings
from mslint.syntax_table import ERROR, FALLBACK

# Modules whose calls are not third-party code in graph mode.
_GRAPH_NATIVE_ROOTS = frozenset({"mindspore", "builtins", "__future__"})
# Standard-library functions the compiler turns into graph operations, tensors and all, that the
# syntax table has no `/tensor` row for (measured in STRICT on 2.10; `operator.neg` and `operator.pow`
# of a tensor are not: they fall back). The table's rows decide the others (`graph_native_functions`).
_UNTABLED_GRAPH_NATIVE_FUNCTIONS = frozenset(f"operator.{name}" for name in ("sub", "mul", "truediv", "lt"))


@cache
def graph_native_functions(release: Release) -> frozenset[str]:
    """Standard-library functions that the compiler of ``release`` runs on tensors: the syntax
    table's ``stdlib.<function>/tensor`` rows that STRICT compiles in ``construct``, and the few it
    does not measure (a row that STRICT rejects or LAX interprets overrules those)."""
    table = release.syntax
    native, foreign = set(_UNTABLED_GRAPH_NATIVE_FUNCTIONS), set[str]()
    for row in table.ids("stdlib."):
        function, _, operands = row.removeprefix("stdlib.").partition("/")
        if operands not in ("tensor", "tensors"):
            continue
        kind = table.outcome(row, "construct", "strict").kind
        (foreign if kind in (ERROR, FALLBACK) else native).add(function)
    return frozenset(native - foreign)


class ThirdPartyCallInGraph(Rule):
    """
    ## What it does
    Flags calls into numpy, scipy, `math` or any other non-MindSpore library whose
    arguments are graph values (tensors, inputs, results of operators) in graph code:
    `construct`, `@jit` functions and everything they call.

    ## Why it breaks graph mode
    The graph compiler cannot run a foreign library on a tensor. In STRICT it fails
    with `ValueError: ... the inputs should be constant`; in LAX (the default) it
    silently falls back to the Python interpreter for that line: the graph is cut,
    the step is slower, and on Ascend the graph cannot be sunk. Calls whose arguments
    are all compile-time constants (literals, attributes set in `__init__`, shapes)
    are folded by the compiler and are not flagged; so are numpy calls on numpy arrays the
    program built (in `__init__`, at module level, in a project function, given to the
    constructor or to a sub-Cell): host constants, which numpy computes while compiling
    (`np.triu(np.ones((4, 4)))`, `np.sqrt(self.dim)`, `np.sum(self.mask)`; measured on 2.10,
    STRICT and LAX).

    The standard library counts as a library: `logger.info(f"{x}")` or
    `logger.warning("%s", x)` through a module-level `logger = logging.getLogger(...)`,
    `warnings.warn(f"{x}")`, a `collections.namedtuple` class built from tensors and
    `typing.cast(Tensor, x)` all fail in STRICT and fall back in LAX (an f-string is a graph
    value when it formats one; `f"{x.shape}"` is a constant). So does an object a library
    function made, called on graph values: `operator.itemgetter(0)((x, y))`,
    `operator.attrgetter("shape")(x)`, or `get(pair)` after `get = operator.itemgetter(0)`.
    The functions that the [graph-syntax table](../graph-syntax.md) of the release measured
    compiling on tensors in STRICT (rows `stdlib.<function>/tensor`: `operator.add`,
    `operator.getitem`, `functools.partial`), and the other functions of `operator` that stand
    for Python operators (`operator.mul(x, 2)`), compile, tensors and all, and are not flagged.

    ## Example
    ```python
    class Net(nn.Cell):
        def construct(self, x):
            return np.maximum(x, 0)
    ```

    ## Use instead
    ```python
    class Net(nn.Cell):
        def construct(self, x):
            return ops.maximum(x, 0)
    ```
    """

    code = "MS101"
    symbol = "third-party-call-in-graph"
    summary = "numpy, scipy, math or another library applied to graph values"
    node_types = (ast.Call,)

    def severity(self, settings: Settings) -> Severity:
        return fallback_severity(settings)

    def check_graph_node(self, node: ast.AST, function: GraphFunction) -> Iterator[Finding]:
        assert isinstance(node, ast.Call)
        qualname = function.qualname(node.func)
        origin = (
            module_object_origin(qualname, function) if qualname is not None else _made_by_call(node.func, function)
        )
        if origin is not None:
            what, qualname = f"`{ast.unparse(node.func)}` (made by `{origin}`)", origin
        elif qualname is not None:
            what = f"`{qualname}`"
        else:
            return
        native = graph_native_functions(function.project.release)
        if qualname.split(".", 1)[0] in _GRAPH_NATIVE_ROOTS or qualname in native:
            return
        if any(qualname.startswith(f"{m}.") for m in CONCURRENCY_MODULES):
            return  # concurrency-in-graph's
        if origin is None and function.project.resolve(qualname, function.module) is not None:
            return
        if origin is None and function.project.is_checked_code(qualname, function.module):
            return
        operands = [*node.args, *(k.value for k in node.keywords)]
        if any(function.kind(operand) is Kind.GRAPH for operand in operands):
            yield Finding(
                node,
                f"{what} is called on a graph value; the graph compiler cannot run it on tensors",
                hint=_hint(qualname),
            )
            return
        rejection = rejected_on_constants(function.project.release, qualname)
        if rejection:
            yield Finding(
                node,
                f"{what} in graph code: MindSpore rejects what it makes at every syntax level ({rejection})",
                hint=_hint(qualname),
                severity=Severity.ERROR,
            )


@cache
def rejected_on_constants(release: Release, qualname: str) -> str:
    """The error of the syntax table's row for ``qualname`` called on constants, where LAX fails
    on it in ``construct`` (``collections.defaultdict(int)``: graph mode makes a plain dict, and
    the first missing key fails); "" where it compiles."""
    table = release.syntax
    for row in (f"stdlib.{qualname}", f"stdlib.{qualname}/constant"):
        outcome = table.outcome(row, "construct", "lax") if table.has(row) else None
        if outcome is not None and outcome.kind == ERROR:
            return outcome.message
    return ""


def _made_by_call(func: ast.expr, function: GraphFunction) -> str | None:
    """The library function whose result is called: ``operator.itemgetter`` for
    ``operator.itemgetter(0)(pair)``, and for ``get(pair)`` after ``get = operator.itemgetter(0)``
    (a local bound only to that); None where it is not a library's (a function of the checked code)."""
    if isinstance(func, ast.Name):
        values = function.local_values.get(func.id, [])
        origins = {_made_by_call(v, function) if isinstance(v, ast.Call) else None for v in values}
        return origins.pop() if len(origins) == 1 else None
    if not isinstance(func, ast.Call) or isinstance(func.func, ast.Call):
        return None
    qualname = function.qualname(func.func)
    project = function.project
    if qualname is None or project.resolve(qualname, function.module) is not None:
        return None
    return None if project.is_checked_code(qualname, function.module) else qualname


NUMPY_REPLACEMENTS = {
    "numpy.abs": "ops.abs(x)",
    "numpy.argmax": "ops.argmax(x, 1)",
    "numpy.bincount": "ops.bincount(i, minlength=4)",
    "numpy.clip": "ops.clamp(x, 0.0, 1.0)",
    "numpy.concatenate": "ops.concat((x, y), 1)",
    "numpy.exp": "ops.exp(x)",
    "numpy.expand_dims": "ops.expand_dims(x, 0)",
    "numpy.floor": "ops.floor(x)",
    "numpy.log": "ops.log(y)",
    "numpy.matmul": "ops.matmul(x, y.T)",
    "numpy.max": "ops.amax(x, 1)",
    "numpy.maximum": "ops.maximum(x, y)",
    "numpy.mean": "ops.mean(x, 1)",
    "numpy.min": "ops.amin(x, 1)",
    "numpy.minimum": "ops.minimum(x, y)",
    "numpy.ones_like": "ops.ones_like(x)",
    "numpy.reshape": "ops.reshape(x, (3, 2))",
    "numpy.sqrt": "ops.sqrt(y)",
    "numpy.squeeze": "ops.squeeze(ops.expand_dims(x, 0), 0)",
    "numpy.stack": "ops.stack((x, y), 0)",
    "numpy.sum": "ops.sum(x, 1)",
    "numpy.tanh": "ops.tanh(x)",
    "numpy.transpose": "ops.transpose(x, (1, 0))",
    "numpy.where": "ops.where(x > 0, x, y)",
    "numpy.zeros_like": "ops.zeros_like(x)",
}
"""numpy functions and the `mindspore.ops` call a hint proposes for them, with example arguments
(``x``, ``y``: float32 tensors of shape [2, 3]; ``i``: an int32 tensor of shape [4]): every one is
compiled in STRICT graph mode by ``tests/test_port_hints.py``. Nothing else is claimed to
compile (``mindspore.numpy.bincount`` does not: its ``length`` is required in graph mode)."""


def _hint(qualname: str) -> str:
    root = qualname.partition(".")[0]
    if root in ("logging", "warnings"):
        return "log in the host code around the Cell, or print the tensor with `print(x)`, which graph mode supports"
    replacement = NUMPY_REPLACEMENTS.get(qualname)
    if replacement is not None:
        function = replacement.partition("(")[0]
        return f"use `{function}` (as in `{replacement}`), which compiles in graph mode"
    return "use a `mindspore.ops` equivalent, or compute it outside graph code (in `__init__` or the data pipeline)"
