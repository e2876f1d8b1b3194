from __future__ import annotations

import ast
from collections.abc import Iterator

from mslint.diagnostics import Severity
from mslint.model.abstract import AbstractTensor
from mslint.model.binder import all_parameter_names, bindings
from mslint.model.project import is_mindspore_name
from mslint.model.scope import GraphFunction
from mslint.rules.base import Finding, Rule
from mslint.settings import Settings

_MUTATORS = ("set_data", "init_data")


class ParameterMutationInGraph(Rule):
    """
    ## What it does
    Flags, in graph code, what MindSpore 2.10 refuses to do to Parameters there: calling
    `set_data` or `init_data`, creating a `Parameter`, and assigning `requires_grad`.
    Assigning `requires_grad` of a tensor computed there (`t = ops.ones(...)`, then
    `t.requires_grad = False`; what an operator or a Cell returns, `y = self.block(x)`, an item
    of it) or of an input of `construct` is a warning: it compiles, STRICT
    included, but the statement runs in the Python interpreter (use `ops.stop_gradient(t)`).
    Assigning a new value to a Parameter attribute (`self.w = x`, or `ops.assign`) is
    supported and not flagged.

    ## Why it breaks graph mode
    The compile fails at every syntax level, LAX included: `RuntimeError: Failed to compile
    in GRAPH_MODE because the 'Parameter' object's method 'set_data' is not supported`,
    `ValueError: ... creating class 'mindspore.common.parameter.Parameter' instances is
    not supported`, `ValueError: Do not support to set attribute for a parameter`.
    Parameters belong to the Cell and are created and configured in `__init__` (or in host
    code between steps).

    ## Example
    ```python
    class Net(nn.Cell):
        def construct(self, x):
            self.w.set_data(x)
            return self.w * 2
    ```

    ## Use instead
    ```python
    class Net(nn.Cell):
        def construct(self, x):
            ops.assign(self.w, x)
            return self.w * 2
    ```
    """

    code = "MS108"
    symbol = "parameter-mutation-in-graph"
    summary = (
        "`set_data`, `init_data`, `Parameter(...)`, `requires_grad = ...` in graph code (a warning on plain tensors)"
    )
    warning_findings = "`requires_grad` set on a plain tensor or a `construct` input (a LAX fallback)"
    node_types = (ast.Call, ast.Assign, ast.AugAssign)

    def severity(self, settings: Settings) -> Severity:
        return Severity.ERROR

    def check_graph_node(self, node: ast.AST, function: GraphFunction) -> Iterator[Finding]:
        if isinstance(node, ast.Call):
            yield from _check_call(node, function)
            return
        assert isinstance(node, (ast.Assign, ast.AugAssign))
        for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
            if not (isinstance(target, ast.Attribute) and target.attr == "requires_grad"):
                continue
            if _is_parameter(target.value, function):
                yield Finding(
                    target,
                    "`requires_grad` is set in graph code, which MindSpore rejects",
                    hint="set `requires_grad` in `__init__` or in host code between steps",
                )
            else:
                yield Finding(
                    target,
                    "`requires_grad` of a tensor set in graph code runs in the Python interpreter",
                    hint="use `ops.stop_gradient(t)` to keep gradients from flowing through it",
                    severity=Severity.WARNING,
                )


def _is_parameter(value: ast.expr, function: GraphFunction) -> bool:
    """Whether ``value`` is a Parameter as far as the analysis can tell: inferred to be one, or
    neither inferred to be a tensor nor an operator's or a Cell's output (``y = self.block(x)``,
    ``ops.split(x, 2)[0]``, an item unpacked from a call), which MindSpore compiles setting
    ``requires_grad`` on, STRICT included."""
    inferred = function.value(value)
    if isinstance(inferred, AbstractTensor):
        return inferred.parameter
    return not _output_of_a_call(value, function) and _may_be_parameter(value, function)


def _output_of_a_call(value: ast.expr, function: GraphFunction) -> bool:
    if _is_call_result(value, function):
        return True
    if not isinstance(value, ast.Name) or value.id in all_parameter_names(function.node):
        return False
    bound = [b for b in bindings(function.node) if value.id in b.names]
    return bool(bound) and all(
        b.unpacks and not b.iterates and b.value is not None and _is_call_result(b.value, function) for b in bound
    )


def _is_call_result(value: ast.expr, function: GraphFunction) -> bool:
    """A call other than ``Parameter(...)``, or an item of what one returns."""
    while isinstance(value, ast.Subscript):
        value = value.value
    return isinstance(value, ast.Call) and not is_mindspore_name(function.qualname(value.func), "Parameter")


def _may_be_parameter(value: ast.expr, function: GraphFunction) -> bool:
    """Whether ``value`` may be a Parameter: anything but a local that only plain assignments
    bind, each to a new tensor (``t = ops.ones(...)``, ``y = x * 2``). MindSpore compiles setting
    ``requires_grad`` on those, STRICT included."""
    if not isinstance(value, ast.Name):
        return True
    if value.id in all_parameter_names(function.node):
        # A Cell's inputs are tensors (its Parameters are its attributes); a helper may be
        # handed ``self.w``.
        return function.node.name != "construct" or value.id == function.self_name
    bindings_of = [b for b in bindings(function.node) if value.id in b.names]
    if any(not (b.unpacks and isinstance(b.target, ast.Name)) for b in bindings_of):
        return True  # a loop variable (`for p in self.params`), an unpacked item, `with ... as p`
    return not bindings_of or any(_may_hold_parameter(b.value, function) for b in bindings_of)


def _may_hold_parameter(value: ast.expr | None, function: GraphFunction) -> bool:
    """A value read from somewhere (``self.w``, ``params[0]``, ``p``), or a call that may return a
    Parameter (``Parameter(...)``, a function of the checked code)."""
    if isinstance(value, ast.Call):
        return is_mindspore_name(function.qualname(value.func), "Parameter") or bool(function.callees(value))
    return value is None or isinstance(value, (ast.Attribute, ast.Subscript, ast.Name, ast.Starred))


def _check_call(call: ast.Call, function: GraphFunction) -> Iterator[Finding]:
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr in _MUTATORS and not function.instance_classes(func.value):
        yield Finding(
            call,
            f"`.{func.attr}()` on a Parameter in graph code, which MindSpore rejects",
            hint="use `ops.assign(param, value)` in graph code, or call it in host code between steps",
        )
    elif is_mindspore_name(function.qualname(func), "Parameter"):
        yield Finding(
            call,
            "a `Parameter` is created in graph code, which MindSpore rejects",
            hint="create Parameters in `__init__`",
        )
