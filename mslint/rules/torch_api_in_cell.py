from __future__ import annotations

import ast
from collections.abc import Iterator

from mslint.diagnostics import Severity
from mslint.model.abstract import Kind
from mslint.model.host_values import host_tensor_method_calls
from mslint.model.module import ModuleInfo, is_self_attribute
from mslint.model.project import Project, is_mindspore_name
from mslint.model.python_libraries import TORCH_ONLY_METHODS
from mslint.model.scope import GraphFunction
from mslint.model.walk import raised
from mslint.rules.base import Finding, Rule
from mslint.settings import Settings

# The device names MindSpore 2.10's `Tensor.to(device)` converts; any other string fails to compile
# ("Failed to convert the value "cuda" of input 'device' of 'ToDevice' to enum").
_MINDSPORE_DEVICES = frozenset({"CPU", "cpu", "Ascend", "npu"})


class TorchApiInCell(Rule):
    """
    ## What it does
    Flags PyTorch habits on tensors in graph code (inputs, computed tensors, and tensors set
    as attributes in `__init__`, `self.t = Tensor(...)`) that MindSpore 2.10 rejects:
    `.cuda()`, `.cpu()`, `.detach()`, calling `.size(...)` (a property in MindSpore:
    `x.shape[0]`, `x.size` for the element count), and `.to("cuda")` / `.to(device="cuda:0")`
    with a device MindSpore does not name (its `Tensor.to` takes `"CPU"`, `"cpu"`, `"Ascend"`
    or `"npu"`, or a dtype). Outside graph code (scripts, `__init__`, PyNative Cells) the same
    calls are flagged on tensors that MindSpore made there (`Tensor(...)`, `ops.ones(...)`,
    `mnp.arange(...)`, a tensor method's result, a name bound only to those): they fail when
    the line runs, in every mode. Methods the two frameworks
    share (`view`, `permute`, `contiguous`, ...) are not flagged, nor are calls inside a
    `raise` statement (an error message's `x.size()`), which the compiler only reaches
    when it raises, nor methods of tensors that PyTorch made (`torch.Tensor(a).cpu()`):
    `third-party-call-in-graph` reports the torch call.

    ## Why it breaks graph mode
    The compile fails at every syntax level: `AttributeError: 'Tensor' object has no
    attribute 'cuda'` (`'cpu'`, `'detach'`), `ValueError: The object is not callable` for
    `x.size(0)`, and `ValueError: Failed to convert the value "cuda" of input 'device' of
    'ToDevice' to enum` for `.to("cuda")` (also `"GPU"`, `"cuda:0"`). Models ported from
    PyTorch carry these by the dozen. PyNative mode raises the same errors when the line runs
    (measured on 2.10: `AttributeError` for `detach`, `cuda` and `cpu`, `TypeError: 'int' object
    is not callable` for `size(0)`). `.to("CPU")` is MindSpore's own device move and is not
    flagged; measured on the CPU backend, graph mode rejects it as it rejects `ops.move_to`
    (`Unsupported op [CopyToHost] on CPU`), while PyNative runs it.

    ## Example
    ```python
    class Net(nn.Cell):
        def construct(self, x):
            x = x.cuda().detach()
            return x.view(x.size(0), -1)
    ```

    ## Use instead
    ```python
    class Net(nn.Cell):
        def construct(self, x):
            x = ops.stop_gradient(x)
            return x.view(x.shape[0], -1)
    ```
    """

    code = "MS201"
    symbol = "torch-api-in-cell"
    summary = "PyTorch-only tensor methods (`.cuda()`, `.detach()`, `.size(0)`, `.to('cuda')`) on MindSpore tensors"
    node_types = (ast.Call,)

    def severity(self, settings: Settings) -> Severity:
        return Severity.ERROR

    def check_graph_node(self, node: ast.AST, function: GraphFunction) -> Iterator[Finding]:
        assert isinstance(node, ast.Call)
        method = node.func
        if not _is_habit_call(node) or function.qualname(method) is not None:
            return  # or a module function such as `torch.cuda`, not a method
        assert isinstance(method, ast.Attribute)
        runtime = function.kind(method.value) is Kind.GRAPH or _is_tensor_attribute(method.value, function)
        if not runtime or _is_torch_tensor(method.value, function, set()):
            return
        if id(node) in raised(function.node):  # an error message's `x.size()` is built only when raising
            return
        yield from _habit(node)

    def check_module(self, module: ModuleInfo, project: Project) -> Iterator[Finding]:
        """The same calls outside graph code (scripts, ``__init__``, PyNative Cells), on tensors that
        MindSpore made there: they fail at run time in every mode."""
        for call in host_tensor_method_calls(module, project, _HABITS):
            yield from _habit(call)


_HABITS = (*TORCH_ONLY_METHODS, "size", "to")


def _is_habit_call(node: ast.Call) -> bool:
    return isinstance(node.func, ast.Attribute) and node.func.attr in _HABITS


def _habit(node: ast.Call) -> Iterator[Finding]:
    """The finding of a PyTorch habit called on a MindSpore tensor."""
    assert isinstance(node.func, ast.Attribute)
    name = node.func.attr
    if name in TORCH_ONLY_METHODS:
        chain = _missing_chain(node)
        if len(chain) == 1:
            yield Finding(node, f"MindSpore tensors have no `.{name}()` method", hint=TORCH_ONLY_METHODS[name])
        else:  # `x.detach().cpu()`: one finding (one place) for every PyTorch method of the chain
            listed = " nor ".join(f"`.{n}()`" for n in chain)
            hints = "; ".join(f"`.{n}()`: {TORCH_ONLY_METHODS[n]}" for n in dict.fromkeys(chain))
            yield Finding(node, f"MindSpore tensors have no {listed} method", hint=hints)
    elif name == "size":
        yield Finding(
            node,
            "`Tensor.size` is a property in MindSpore (the element count), not a method",
            hint="use `x.shape[i]` for a dimension, `x.size` for the element count",
        )
    elif name == "to":
        device = _unknown_device(node)
        if device is not None:
            yield Finding(
                node,
                f"MindSpore's `Tensor.to` knows no device {device!r}: only 'CPU' and 'Ascend' ('cpu', 'npu')",
                hint="drop the device move: the device is chosen with `mindspore.set_device`",
            )


def _missing_chain(node: ast.Call) -> list[str]:
    """The PyTorch-only methods a call chains, innermost first (``x.detach().cpu()``: detach, cpu)."""
    chain: list[str] = []
    current: ast.expr = node
    while (
        isinstance(current, ast.Call)
        and isinstance(current.func, ast.Attribute)
        and current.func.attr in TORCH_ONLY_METHODS
    ):
        chain.insert(0, current.func.attr)
        current = current.func.value
    return chain


def _is_tensor_attribute(expr: ast.expr, function: GraphFunction) -> bool:
    """``self.t`` set to a ``Tensor(...)`` in ``__init__``: a constant, but a tensor all the same."""
    if not is_self_attribute(expr, function.self_name):
        return False
    assert isinstance(expr, ast.Attribute)
    return any(is_mindspore_name(c, "Tensor") for c in function.self_attribute_constructors(expr.attr))


def _is_torch_tensor(expr: ast.expr, function: GraphFunction, seen: set[str]) -> bool:
    """Whether ``expr`` is made by PyTorch (``torch.Tensor(...)``, ``F.grid_sample(...)[..., 0]``, a
    local bound to one): its ``.cpu()`` is PyTorch's own, and third-party-call-in-graph reports
    the torch call itself."""
    while True:
        if isinstance(expr, (ast.Subscript, ast.Attribute)):
            expr = expr.value
        elif (
            isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and function.qualname(expr.func) is None
        ):
            expr = expr.func.value  # a method of the value: `t.unsqueeze(2)`
        else:
            break
    if isinstance(expr, ast.Call):
        return (function.qualname(expr.func) or "").split(".", 1)[0] == "torch"
    if isinstance(expr, ast.Name) and expr.id not in seen:
        seen.add(expr.id)
        # Any: ported code rebinds the name to its MindSpore copy (`f = Tensor(f.cpu().numpy())`).
        return any(_is_torch_tensor(v, function, seen) for v in function.local_values.get(expr.id, []))
    return False


def _unknown_device(call: ast.Call) -> str | None:
    """The device a ``.to(...)`` call names as a string that MindSpore does not convert (``"cuda"``)."""
    given = [*call.args[:1], *(k.value for k in call.keywords if k.arg == "device")]
    for device in given:
        if (
            isinstance(device, ast.Constant)
            and isinstance(device.value, str)
            and device.value not in _MINDSPORE_DEVICES
        ):
            return device.value
    return None
