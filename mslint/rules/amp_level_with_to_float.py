from __future__ import annotations

import ast
from collections.abc import Iterator

from mslint.diagnostics import Severity
from mslint.model.module import ModuleInfo, bound_names, call_argument
from mslint.model.project import ClassRef, Project, is_mindspore_name, qualified_name
from mslint.model.walk import descendants, own_nodes, statements
from mslint.rules.base import Finding, Rule
from mslint.settings import Settings

_OVERRIDING_LEVELS = ("O2", "O3")
"""The levels at which MindSpore 2.10 calls ``to_float(float16)`` on the whole network."""
_DTYPES = ("float16", "float32", "bfloat16")
# The API, the position and keyword of its network, and of its level.
_API_NAMES = ("amp_level", "build_train_network", "auto_mixed_precision")
"""Text one of the APIs needs in the file: `Model` takes its level only by keyword."""
_AMP_APIS = {
    "Model": (0, "network", None, "amp_level"),
    "build_train_network": (0, "network", 3, "level"),
    "auto_mixed_precision": (0, "network", 1, "amp_level"),
}


class AmpLevelWithToFloat(Rule):
    """
    ## What it does
    Flags `Model(..., amp_level="O2"|"O3")`, `amp.build_train_network(..., level="O2"|"O3")`
    and `amp.auto_mixed_precision(net, "O2"|"O3")` when the network passed had `to_float(...)`
    called on it or its sub-Cells with another type than the level's (`to_float(ms.float32)`
    to keep a sensitive layer at full precision): in the network's classes, or on the object
    before the call.

    ## Why it is bad
    At O2 and O3, MindSpore 2.10 calls `network.to_float(mindspore.float16)` on the whole
    network, which sets every sub-Cell to float16 and silently replaces the precision the
    user gave: a head kept in float32 computes in float16. O2 then puts only BatchNorm and
    LayerNorm back in float32. There is no error and no warning. Measured: a Cell computing
    `ops.sqrt(ops.sum(x * x, dim=-1))` on values of 300, kept with `to_float(ms.float32)`,
    returns `[519.61523]` with no amp level, O1 or `auto`, and `[inf]` at O2 and O3 (the
    squares overflow float16). O1 and `auto` keep the `to_float` precision.

    ## Example
    ```python
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.body = nn.Dense(3, 3)
            self.energy = Energy()
            self.energy.to_float(ms.float32)  # overflows in float16


    net = Net()
    model = Model(net, loss_fn, optimizer, amp_level="O3")  # energy now runs in float16
    ```

    ## Use instead
    ```python
    model = Model(net, loss_fn, optimizer, amp_level="O1")  # or "auto": to_float is kept
    ```
    Or keep the Cell's class at full precision through MindSpore's own list, and leave the
    level at O0:
    ```python
    net = amp.custom_mixed_precision(Net(), black_list=amp.get_black_list() + [Energy])
    model = Model(net, loss_fn, optimizer)
    ```
    """

    code = "MS203"
    symbol = "amp-level-with-to-float"
    summary = '`to_float(...)` on a network given to `Model(..., amp_level="O2"|"O3")` or `auto_mixed_precision`'

    def severity(self, settings: Settings) -> Severity:
        return Severity.WARNING

    def check_module(self, module: ModuleInfo, project: Project) -> Iterator[Finding]:
        if not any(name in module.text for name in _API_NAMES):
            return  # the cheap test: most files never name these APIs
        if not any(name.startswith("mindspore") for name in module.imports.values()):
            return
        # a call of an API is named by it or by a name that imports it (`from mindspore import Model as M`)
        names = {*_AMP_APIS, *(local for local, name in module.imports.items() if name.rsplit(".", 1)[-1] in _AMP_APIS)}
        if not any(_amp_api(call, module) for name in names for call in module.calls_by_name.get(name, [])):
            return
        functions = (n for n in statements(module.tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))
        for scope in [module.tree, *functions]:
            nodes = own_nodes(scope)
            for call in nodes:
                if isinstance(call, ast.Call):
                    yield from _check_call(call, nodes, module, project)


def _check_call(call: ast.Call, nodes: list[ast.AST], module: ModuleInfo, project: Project) -> Iterator[Finding]:
    api = _amp_api(call, module)
    if api is None:
        return
    network_at, network_keyword, level_at, level_keyword = _AMP_APIS[api]
    network = call_argument(call, network_at, network_keyword)
    level = call_argument(call, level_at, level_keyword)
    if network is None or not (isinstance(level, ast.Constant) and level.value in _OVERRIDING_LEVELS):
        return
    if api == "Model" and call_argument(call, 2, "optimizer") is None:
        return  # Model refuses an amp level without an optimizer, before any cast
    dtype = _amp_dtype(call, module) if api == "auto_mixed_precision" else "float16"
    kept = _to_float_call(network, call, nodes, module, project, dtype)
    if kept is None:
        return
    to_float, where = kept
    low = dtype or "its low precision"
    yield Finding(
        call,
        f'amp level "{level.value}" casts the whole network to {low}, replacing '
        f"`{ast.unparse(to_float)}` ({where}): that Cell silently runs in {low}",
        hint='use amp level "O1" or "auto", which keep `to_float`; or list the Cell\'s class in '
        "`amp.custom_mixed_precision(net, black_list=...)` and leave the level at O0",
    )


def _amp_api(call: ast.Call, module: ModuleInfo) -> str | None:
    name = qualified_name(call.func, module)
    return next((api for api in _AMP_APIS if is_mindspore_name(name, api)), None)


def _amp_dtype(call: ast.Call, module: ModuleInfo) -> str | None:
    """The low precision ``auto_mixed_precision`` casts to (None when not known)."""
    dtype = call_argument(call, 2, "dtype")
    return "float16" if dtype is None else _dtype(dtype, module)


def _dtype(expr: ast.expr, module: ModuleInfo) -> str | None:
    name = qualified_name(expr, module)
    return name.rsplit(".", 1)[-1] if is_mindspore_name(name, *_DTYPES) and name else None


def _to_float_call(
    network: ast.expr, call: ast.Call, nodes: list[ast.AST], module: ModuleInfo, project: Project, dtype: str | None
) -> tuple[ast.Call, str] | None:
    """A ``to_float`` with another type than ``dtype`` applied to ``network``, and where it is."""
    root = _root(network)
    # the object itself: `net.head.to_float(ms.float32)` before the call, or a `Net()` it was built from
    built: list[ast.expr] = [network] if isinstance(network, ast.Call) else []
    for node in nodes:
        if getattr(node, "lineno", call.lineno) > call.lineno:
            continue
        if isinstance(node, ast.Call) and _overridden(node, module, dtype) and isinstance(root, ast.Name):
            receiver = _root(node.func)
            if isinstance(receiver, ast.Name) and receiver.id == root.id:
                return node, f"line {node.lineno}"
        if (
            isinstance(node, ast.Assign)
            and isinstance(root, ast.Name)
            and any(root.id in bound_names(t) for t in node.targets)
        ):
            built.append(node.value)
    seen: set[int] = set()
    for value in built:
        while isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute):
            if _overridden(value, module, dtype):  # `Net().to_float(ms.float32)`
                return value, f"line {value.lineno}"
            value = value.func.value
        cls = project.resolve_expr(value.func, module) if isinstance(value, ast.Call) else None
        if isinstance(cls, ClassRef):
            found = _in_class(cls, project, dtype, seen)
            if found is not None:
                return found
    return None


def _root(expr: ast.expr) -> ast.expr:
    """The name an attribute chain starts from: ``net`` in ``net.head.to_float``."""
    while isinstance(expr, (ast.Attribute, ast.Call)):
        expr = expr.func if isinstance(expr, ast.Call) else expr.value
    return expr


def _in_class(cls: ClassRef, project: Project, dtype: str | None, seen: set[int]) -> tuple[ast.Call, str] | None:
    """A ``to_float`` in the methods of a Cell class, its bases, or the Cells it builds."""
    for klass in project.mro(cls):
        if id(klass.node) in seen:
            continue
        seen.add(id(klass.node))
        for node in descendants(klass.node):
            if isinstance(node, ast.Call) and _overridden(node, klass.module, dtype):
                return node, f"line {node.lineno} of {klass.node.name}"
        for values in project.attribute_assignments(klass).values():
            for value in values:
                built = project.resolve_expr(value.func, klass.module) if isinstance(value, ast.Call) else None
                if isinstance(built, ClassRef) and project.is_cell(built):
                    found = _in_class(built, project, dtype, seen)
                    if found is not None:
                        return found
    return None


def _overridden(call: ast.Call, module: ModuleInfo, dtype: str | None) -> bool:
    """``x.to_float(T)`` with a type the level replaces: any but ``dtype`` (float32 when the
    level's type is not known)."""
    if not (isinstance(call.func, ast.Attribute) and call.func.attr == "to_float"):
        return False
    argument = call_argument(call, 0, "dst_type")
    kept = _dtype(argument, module) if argument is not None else None
    return kept is not None and kept != dtype and (dtype is not None or kept == "float32")
