from __future__ import annotations

import ast
from collections.abc import Iterator

from mslint.diagnostics import Severity
from mslint.model.abstract import AbstractTensor
from mslint.model.scope import GraphFunction
from mslint.rules.base import Finding, Rule
from mslint.settings import Settings

# The shapes of the tensors every conversion takes (measured on 2.10: `(1, 1)` fails all but `while`).
_CONVERTIBLE_SHAPES = ((), (1,))
# Builtins that convert their argument to one Python value.
_CONVERSIONS = {"builtins.bool": "bool", "builtins.int": "int", "builtins.float": "float"}


class AmbiguousTensorConversion(Rule):
    """
    ## What it does
    Flags graph code that converts a tensor of more than one element to one Python value: a
    condition (`if t:`, `while t:`, `t if ... else ...` with `t` as the test, `assert t`),
    `not t`, `t and u` / `t or u` (every operand but the last is tested), `bool(t)`,
    `int(t)` and `float(t)`. Only tensors whose shape mslint knows count: the tensors the program
    makes and calls the Cell on (`net(Tensor(np.ones([2, 2], np.int32)))`), the entry's
    `# mslint: inputs=` shapes, creations with a literal shape (`ops.zeros((2, 3))`), and what
    operations, layers (`nn.Dense(10, 2)`) and sub-Cells make of them.
    A tensor of shape `()` or `(1,)` converts fine, and so does one whose shape is not known;
    `while t:` takes any tensor of one element (`(1, 1)` too), the other forms only those two
    shapes.

    ## Why it breaks graph mode
    A tensor is true or false, or a number, only when it holds one element. Measured on
    MindSpore 2.10 with a `float32[2, 3]` input, STRICT and LAX alike: `if x:`, `not x` and
    `x and x` fail with `ValueError: Only tensor which shape is () or (1,) can be converted to
    bool, but got tensor shape is (2, 3)`; `bool(x)` and `while x:` with `The truth value of an
    array with more than one element is ambiguous.`; `int(x)` and `float(x)` with `Can not
    convert Tensor with more than one element to Scalar`. A `float32[1, 1]` input, of one
    element, fails all of them but `while x:` with the same messages. PyNative fails as well: the code is
    wrong in every mode, most often a reduction forgotten in a port (`if mask:` for
    `if mask.any():`).

    ## Example
    ```python
    class Net(nn.Cell):  # mslint: inputs=float32[2,3]
        def construct(self, x):
            if x > 0:
                return x
            return -x
    ```

    ## Use instead
    ```python
    class Net(nn.Cell):  # mslint: inputs=float32[2,3]
        def construct(self, x):
            if (x > 0).all():
                return x
            return -x
    ```
    """

    code = "MS116"
    symbol = "ambiguous-tensor-conversion"
    summary = "a tensor of a shape other than () or (1,) converted to a Python bool, int or float"
    node_types = (ast.If, ast.While, ast.IfExp, ast.Assert, ast.UnaryOp, ast.BoolOp, ast.Call)

    def severity(self, settings: Settings) -> Severity:
        return Severity.ERROR

    def check_graph_node(self, node: ast.AST, function: GraphFunction) -> Iterator[Finding]:
        for converted, into in _conversions(node, function):
            value = function.value(converted)
            if not isinstance(value, AbstractTensor) or value.shape is None or value.elements is None:
                continue
            loop = isinstance(node, ast.While)
            if value.elements > 1 or (not loop and value.shape not in _CONVERTIBLE_SHAPES):
                converts = "a tensor of one element" if loop else "a tensor of shape () or (1,)"
                yield Finding(
                    converted,
                    f"a tensor of shape {tuple(value.shape)} converted to a Python {into}: only {converts} "
                    "converts, in every mode",
                    hint="reduce it first (`.any()`, `.all()`, `.sum()`), or choose element by element with "
                    "`ops.select`",
                )


def _conversions(node: ast.AST, function: GraphFunction) -> list[tuple[ast.expr, str]]:
    """The expressions ``node`` converts to one Python value, with the type it converts them to."""
    if isinstance(node, (ast.If, ast.While, ast.IfExp, ast.Assert)):
        return [(node.test, "bool")]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return [(node.operand, "bool")]
    if isinstance(node, ast.BoolOp):
        return [(operand, "bool") for operand in node.values[:-1]]
    if isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords:
        into = _CONVERSIONS.get(function.qualname(node.func) or "")
        return [(node.args[0], into)] if into else []
    return []
