from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import replace
from itertools import chain
from typing import Union

from mslint.diagnostics import Severity
from mslint.model.abstract import (
    AbstractInstance,
    AbstractScalar,
    AbstractSequence,
    AbstractTensor,
    AbstractValue,
    Construction,
)
from mslint.model.host_scope import HostScope, host_scopes
from mslint.model.instances import construction
from mslint.model.module import ModuleInfo, passed_argument
from mslint.model.project import Project
from mslint.model.pynative import graph_mode_modules, pynative_mode_modules
from mslint.model.scope import GraphFunction
from mslint.rules.base import Finding, Rule
from mslint.settings import Settings

# GradOperation(get_all=False, get_by_list=False, sens_param=False): where `sens_param` is given.
_SENS_PARAM = (2, "sens_param")
# A Python number given for a tensor output: the dtype the compiler's message names (measured).
_NUMBER_DTYPES = {"int": "Int64", "float": "Float32", "bool": "Bool"}
# grad(fn, grad_position=0, weights=None, has_aux=False, return_ids=False), value_and_grad alike.
_GRAD_FUNCTIONS = frozenset(
    {"mindspore.grad", "mindspore.value_and_grad", "mindspore.ops.grad", "mindspore.ops.value_and_grad"}
)
_GRAD_POSITION = (1, "grad_position")
_WEIGHTS = (2, "weights")
_HAS_AUX = (3, "has_aux")
Scope = Union[GraphFunction, HostScope]
"""Where the gradient is called: graph code, or a script's Python that hands it its inputs."""


class GradientInputMismatch(Rule):
    """
    ## What it does
    Flags, in graph code, gradients whose inputs cannot match the function they differentiate:
    the `sens` handed to a gradient of `ops.GradOperation(sens_param=True)` (the last argument
    of `self.grad(self.net)(x, sens)`, or of `ops.GradOperation(...)(net)(x, sens)`) that cannot
    stand for the network's output (a Python number or a tensor of another dtype for a tensor
    output, a tuple for a tensor, a tensor for a tuple) or that has a dynamic shape (an input of
    the Cell that `net.set_inputs(...)` gives a `None` dimension); a literal `grad_position` of
    `ms.grad`/`ms.value_and_grad` (`ops.` alike) past the inputs the gradient is called with;
    `grad_position=None` with no `weights`; `has_aux=True` for a network that returns one
    tensor. Only values mslint knows count: the network's output as its `construct` computes it
    from the inputs the program gives (call sites, layers, sub-Cells), and a `sens` that is a
    literal, an attribute set to one, or a tensor of a known dtype (`ops.ones((2, 3),
    ms.float16)`); where either is not known, nothing is flagged. A `sens` of the wrong shape is
    not flagged: whether it fails depends on the network's backward pass (a `Dense` layer's
    fails; that of `x * 2` compiles with a `(2, 3)` sens for a `(2, 4)` output).

    The same calls made from Python (a script's top level or a plain function: `grad(net)(x,
    1.0)` with `net = Net()` and `x = Tensor(...)` of that scope, or in two steps, `grad_fn =
    grad(net)` then `grad_fn(x, 1.0)`) are checked too: there the gradient is compiled, or run
    in PyNative, when it is called. A tuple for a tensor output is
    flagged only in a script that selects `GRAPH_MODE`: PyNative runs it. `grad_position=None`
    without weights is left to graph code: from Python, `ms.grad` raises before anything compiles.

    ## Why it breaks graph mode
    The gradient starts from `sens`: MindSpore joins it with the output's abstract value, and
    the join fails when their types differ. Measured on MindSpore 2.10, STRICT and LAX alike,
    with a `float32` output: a `float16` or `int32` sens fails with `TypeError: Type Join
    Failed: dtype1 = Float16, dtype2 = Float32.` (`Int32`), a Python number (`self.sens = 1.0`)
    with `TypeError: Type Join Failed: dtype1 = Float32, dtype2 = Any.` (`Int64` for an int,
    `Bool` for a bool), a tuple with `Type Join Failed: Abstract type AbstractTuple cannot join
    with AbstractTensor.` (and the reverse for a tensor given for two outputs); a sens of a dynamic
    shape with `ValueError: The shape of sense must not be dynamic shape.`
    `grad_position=(0, 5)` for two inputs fails with `IndexError: Position index 5 is exceed
    input size.`; `grad_position=None` without weights with a `ValueError` that `grad_position`
    and `weight` can not be None at the same time; `has_aux=True` on one output with
    `RuntimeError: When has_aux is True, origin fn requires more than one outputs.` Called from
    Python with the context in `GRAPH_MODE`, they fail the same way: the gradient is compiled as
    a graph. In PyNative all but the tuple fail as well (a Python number with `RuntimeError: For
    grad interface or custom function, grad tensor should be broadcast to expected shape`, a
    float16 sens with `TypeError: The dtype should be Float32, but got Float16`).
    (`TrainOneStepCell(net, opt, sens=1)` compiles: it fills a tensor of the loss's dtype.)

    ## Example
    ```python
    class TrainStep(nn.Cell):
        def __init__(self):
            super().__init__()
            self.net = Net()  # its construct returns a float32 tensor
            self.grad = ops.GradOperation(get_all=True, sens_param=True)

        def construct(self, x):
            return self.grad(self.net)(x, 1.0)
    ```

    ## Use instead
    ```python
    class TrainStep(nn.Cell):
        def __init__(self):
            super().__init__()
            self.net = Net()  # its construct returns a float32 tensor
            self.grad = ops.GradOperation(get_all=True, sens_param=True)

        def construct(self, x):
            out = self.net(x)
            return self.grad(self.net)(x, ops.ones_like(out))
    ```
    """

    code = "MS124"
    symbol = "gradient-input-mismatch"
    summary = "a gradient's sens, grad_position or has_aux that cannot match the network it differentiates"
    node_types = (ast.Call,)

    def severity(self, settings: Settings) -> Severity:
        return Severity.ERROR

    def check_graph_node(self, node: ast.AST, function: GraphFunction) -> Iterator[Finding]:
        assert isinstance(node, ast.Call)
        if isinstance(node.func, ast.Call):
            yield from _gradient_call(node, node.func, function, tuple_joins=True)

    def check_module(self, module: ModuleInfo, project: Project) -> Iterator[Finding]:
        # PyNative runs a tuple sens for a tensor output: only a program in GRAPH_MODE compiles the join
        graph_only = module.path in project.derived(graph_mode_modules) and module.path not in project.derived(
            pynative_mode_modules
        )
        for scope, nodes in host_scopes(module, project):
            for node in nodes:
                if not isinstance(node, ast.Call):
                    continue
                # `grad(net)(x, sens)`, or in two steps: `grad_fn = grad(net)`, then `grad_fn(x, sens)`
                made = node.func if isinstance(node.func, ast.Call) else scope.bound_call(node.func)
                if made is not None:
                    yield from _gradient_call(node, made, scope, tuple_joins=graph_only)


def _gradient_call(node: ast.Call, made: ast.Call, function: Scope, tuple_joins: bool) -> Iterator[Finding]:
    """The findings on ``node`` where it calls a gradient, the function ``made`` returns
    (``grad(net)``, ``ms.grad(net, ...)``); ``tuple_joins``: whether a tuple given for a tensor
    (or the reverse) fails, as it does in graph mode."""
    if node.keywords or any(isinstance(argument, ast.Starred) for argument in node.args):
        return  # the inputs the gradient is given are not known one by one
    # A gradient of nothing raises in `ms.grad` itself, before any compile: only graph code's is checked
    of_nothing = isinstance(function, GraphFunction)
    made_apart = made is not node.func
    for finding in chain(
        _positions_beyond_inputs(node, made, function, of_nothing), _aux_of_one_output(node, made, function)
    ):
        # the compiler stops on the line that calls the gradient, not on the one that made it
        yield replace(finding, node=node) if made_apart else finding
    network = _differentiated_with_sens(made, function)
    if network is None or len(node.args) < 2:
        return
    sens = node.args[-1]
    if _is_dynamic(function.value(sens)):
        yield Finding(
            sens,
            "this sens has a dynamic shape, which a gradient cannot start from "
            "(`ValueError: The shape of sense must not be dynamic shape.`)",
            hint="give sens a static shape: leave its dimensions out of `set_inputs` (or give them sizes)",
        )
        return
    output = function.value_called(network, node.args[:-1])
    mismatch = _mismatch(output, function.value(sens), tuple_joins) if output is not None else None
    if mismatch is not None:
        yield Finding(
            sens,
            f"this sens cannot stand for the output it weighs: {mismatch}",
            hint="give a tensor of the output's dtype and shape: `ops.ones_like(out)` of `out = net(x)`",
        )


def _positions_beyond_inputs(call: ast.Call, wrapped: ast.Call, function: Scope, of_nothing: bool) -> Iterator[Finding]:
    """``grad(fn, grad_position=5)(a, b)``: a literal position past the inputs the call gives;
    ``of_nothing``: ``grad_position=None`` without weights as well."""
    if function.qualname(wrapped.func) not in _GRAD_FUNCTIONS:
        return
    given = passed_argument(wrapped, *_GRAD_POSITION)
    if given is None:
        return
    weights = passed_argument(wrapped, *_WEIGHTS)
    if _is_none(function.value(given)) and (weights is None or _is_none(function.value(weights))):
        if not of_nothing:
            return
        yield Finding(
            given,
            "a gradient with respect to nothing: grad_position None and no weights "
            '(ValueError: "`grad_position` and `weight` can not be None at the same time.")',
            hint="give `grad_position` (0 for the first input) or the weights (`net.trainable_params()`)",
        )
        return
    value = function.value(given)
    items = value.items if isinstance(value, AbstractSequence) and value.items is not None else (value,)
    positions = [item.value for item in items if isinstance(item, AbstractScalar) and item.type == "int"]
    beyond = [p for p in positions if isinstance(p, int) and p >= len(call.args)]
    if beyond:
        inputs = f"{len(call.args)} input{'' if len(call.args) == 1 else 's'}"
        yield Finding(
            given,
            f"grad_position {beyond[0]} is past the {inputs} the gradient is called with "
            f"(`IndexError: Position index {beyond[0]} is exceed input size.`)",
            hint="number the inputs from 0, as the call gives them",
        )


def _aux_of_one_output(call: ast.Call, wrapped: ast.Call, function: Scope) -> Iterator[Finding]:
    """``grad(net, has_aux=True)(x)`` where ``net(x)`` returns one tensor: no output is left as aux."""
    if not wrapped.args or function.qualname(wrapped.func) not in _GRAD_FUNCTIONS:
        return
    has_aux = passed_argument(wrapped, *_HAS_AUX)
    if has_aux is None or not _is_true(function.value(has_aux)):
        return
    if isinstance(function.value_called(wrapped.args[0], call.args), AbstractTensor):
        yield Finding(
            has_aux,
            "has_aux=True for a network of one output: the first output is differentiated, the others are "
            "the aux (`RuntimeError: When has_aux is True, origin fn requires more than one outputs.`)",
            hint="return the aux values beside the loss (`return loss, logits`), or drop has_aux",
        )


def _is_true(value: AbstractValue) -> bool:
    return isinstance(value, AbstractScalar) and value.value is True


def _is_none(value: AbstractValue) -> bool:
    return isinstance(value, AbstractScalar) and value.type == "None"


def _differentiated_with_sens(wrapped: ast.Call, function: Scope) -> ast.expr | None:
    """The network of ``grad(net)`` where ``grad`` is a ``GradOperation`` built with
    ``sens_param=True``; None for any other call."""
    if not wrapped.args:
        return None
    built = _grad_operation(wrapped.func, function)
    if built is None:
        return None
    sens_param = built.get(*_SENS_PARAM)
    if sens_param is None or not _is_true(sens_param):
        return None
    return wrapped.args[0]


def _grad_operation(grad: ast.expr, function: Scope) -> Construction | None:
    """What the ``GradOperation`` ``grad`` holds (``self.grad``) or builds here was built with."""
    if isinstance(grad, ast.Call) and _is_grad_operation(function.qualname(grad.func)):
        return construction(grad, function.qualname)  # `ops.GradOperation(sens_param=True)(net)(x, sens)`
    value = function.value(grad)
    if isinstance(value, AbstractInstance) and _is_grad_operation(value.qualname):
        return value.construction
    return None


def _is_grad_operation(qualname: str | None) -> bool:
    return qualname is not None and qualname.startswith("mindspore.") and qualname.endswith(".GradOperation")


def _mismatch(output: AbstractValue, sens: AbstractValue, tuple_joins: bool) -> str | None:
    """Why ``sens`` cannot seed the gradient of ``output``, in the compiler's words; None where it may."""
    if tuple_joins and _is_tuple(output) and isinstance(sens, AbstractTensor):
        return "a tensor for a tuple output (`Abstract type AbstractTensor cannot join with AbstractTuple`)"
    if tuple_joins and isinstance(output, AbstractTensor) and _is_tuple(sens):
        return "a tuple for a tensor output (`Abstract type AbstractTuple cannot join with AbstractTensor`)"
    if not isinstance(output, AbstractTensor) or output.dtype is None:
        return None
    expected = output.dtype.capitalize()
    if isinstance(sens, AbstractScalar) and sens.type in _NUMBER_DTYPES:
        return (
            f"a Python {sens.type} for {_article(output.dtype)} {output.dtype} output "
            f"(`Type Join Failed: dtype1 = {_NUMBER_DTYPES[sens.type]}, dtype2 = Any`)"
        )
    if isinstance(sens, AbstractTensor) and sens.dtype is not None and sens.dtype != output.dtype:
        given = sens.dtype.capitalize()
        return (
            f"{_article(sens.dtype)} {sens.dtype} tensor for {_article(output.dtype)} {output.dtype} output "
            f"(`Type Join Failed: dtype1 = {given}, dtype2 = {expected}`)"
        )
    return None


def _is_dynamic(value: AbstractValue) -> bool:
    return isinstance(value, AbstractTensor) and value.dynamic


def _is_tuple(value: AbstractValue) -> bool:
    return isinstance(value, AbstractSequence) and value.type == "tuple"


def _article(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"
