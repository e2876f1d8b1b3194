from __future__ import annotations

import ast
from collections.abc import Iterator

from mslint.diagnostics import Severity
from mslint.model.arity import mismatch, spreads_written_out
from mslint.model.host_scope import host_scopes
from mslint.model.module import ModuleInfo
from mslint.model.project import FunctionRef, Project
from mslint.model.scope import GraphFunction
from mslint.model.sure_callees import Callee, binding_decorators, sure_callees
from mslint.rules.base import Finding, Rule
from mslint.settings import Settings


class CallArgumentMismatch(Rule):
    """
    ## What it does
    Flags a call whose written arguments cannot bind the parameters of what it calls: an instance of a
    Cell of the checked code called from Python (`net(x, y)` where `construct(self, x)`), a `@jit`
    function of the checked code called from Python (`add(x)` where `add(x, y)`), and a function, method
    or sub-Cell of the checked code called from graph code, with too many or too few positional
    arguments, a keyword it has no parameter for, or a keyword-only parameter left out. A spread of a
    tuple whose length is known (`net(*inputs)` after `inputs = (x, x)`) counts as its items. A
    `classmethod` called from graph code, through `self` or through its class, counts its `cls` among
    the arguments left out: the graph compiler passes it nothing (a `staticmethod` binds as in Python).
    Not checked: calls that spread other arguments (`f(*args)` of a list or of what mslint cannot
    count), callees taking `*args` (or `**kwargs`, for keywords) or with another decorator, Cells that
    define `__call__`, `nn.SequentialCell` items, MindSpore's own wrappers (`TrainOneStepCell`,
    `WithLossCell`), and in graph code, calls on `self` or its attributes in a class that another class
    of the project derives from (a subclass may override the method or set the attribute to another
    Cell) or on an attribute that may hold something else than a Cell of the project (`None` aside: an
    attribute built only where a flag says so, `Attention() if gated else None`, runs the Cell or
    fails). A name that may hold several Cells is flagged only where the call binds none of them.

    ## Why it breaks graph mode
    Measured on MindSpore 2.10, at both syntax levels: a Cell called from Python in GRAPH_MODE counts
    its arguments before compiling (`TypeError: For 'Cell', the function construct requires 1 positional
    argument and 0 default argument, total 1, but got 2.`; with keywords, `TypeError: got an unexpected
    keyword argument 'k'`), and so does a `@jit` function (`TypeError: Function add needs 2 positional
    argument, but got 1.`); PyNative fails in Python's own binding. In graph code the compiler refuses
    the call when it reaches it: `TypeError: The parameters number of the function is 3, but the number
    of provided arguments is 2.`, `RuntimeError: Got an unexpected keyword argument 'k'`, `RuntimeError:
    Miss argument input for parameter:k`. A call on a branch the compiler folds away is never checked,
    and not flagged.

    ## Example
    ```python
    class Net(nn.Cell):
        def construct(self, x):
            return x * 2


    net = Net()
    net(x, y)
    ```

    ## Use instead
    ```python
    class Net(nn.Cell):
        def construct(self, x, y):
            return x * y


    net = Net()
    net(x, y)
    ```
    """

    code = "MS125"
    symbol = "call-argument-mismatch"
    summary = "a call of a Cell or function of the checked code with arguments its signature cannot bind"
    node_types = (ast.Call,)

    def severity(self, settings: Settings) -> Severity:
        return Severity.ERROR

    def check_graph_node(self, node: ast.AST, function: GraphFunction) -> Iterator[Finding]:
        assert isinstance(node, ast.Call)
        callees = sure_callees(node, function) or []
        written_out = spreads_written_out(node, function.value) if callees else node
        reasons = [_graph_call_mismatch(written_out, callee) for callee in callees]
        if reasons and all(reasons):
            yield Finding(
                node,
                f"the call of `{_name(callees[0].function)}` {reasons[0]}: the graph compiler refuses it",
                hint="pass the arguments its signature takes",
            )

    def check_module(self, module: ModuleInfo, project: Project) -> Iterator[Finding]:
        for scope, nodes in host_scopes(module, project):
            for node in nodes:
                if not isinstance(node, ast.Call):
                    continue
                call = scope.arguments_written_out(node)
                constructs = scope.cell_constructs(node.func)
                reasons = [_python_call_mismatch(call, construct) for construct in constructs or []]
                if constructs and all(reasons):
                    yield Finding(
                        node,
                        f"the call of `{_name(constructs[0])}` {reasons[0]}: MindSpore refuses the call",
                        hint="pass the arguments `construct` takes",
                    )
                    continue
                jitted = None if constructs else scope.jit_function(node.func)
                reason = mismatch(call, jitted.node, bound=False) if jitted is not None else None
                if jitted is not None and reason is not None:
                    yield Finding(
                        node,
                        f"the call of the `@jit` function `{_name(jitted)}` {reason}: MindSpore refuses the call",
                        hint="pass the arguments the function takes",
                    )


def _graph_call_mismatch(call: ast.Call, callee: Callee) -> str | None:
    """Why graph code's ``call`` cannot bind ``callee``'s parameters; None where it can."""
    reason = mismatch(call, callee.function.node, callee.bound)
    classmethod = reason is not None and "classmethod" in (binding_decorators(callee.function) or ())
    return f"{reason} (graph code passes a class method no `cls`)" if classmethod else reason


def _python_call_mismatch(call: ast.Call, construct: FunctionRef) -> str | None:
    """Why Python's ``call`` of an instance cannot bind its ``construct``; None where it can, or
    where a decorator may take other arguments (``@jit`` on ``construct`` checks them otherwise)."""
    return mismatch(call, construct.node, bound=True) if binding_decorators(construct) == frozenset() else None


def _name(function: FunctionRef) -> str:
    return f"{function.owner.node.name}.{function.node.name}" if function.owner else function.node.name
