from __future__ import annotations

import ast
from collections.abc import Iterator

from mslint.diagnostics import Severity
from mslint.model.abstract import Kind
from mslint.model.python_libraries import CONCURRENCY_MODULES
from mslint.model.scope import GraphFunction
from mslint.model.walk import statements
from mslint.rules.base import Finding, Rule, fallback_severity
from mslint.settings import Settings


class ConcurrencyInGraph(Rule):
    """
    ## What it does
    Flags calls into `threading`, `multiprocessing`, `concurrent.futures` and `asyncio` in
    graph code: starting threads or processes, creating pools, executors and locks, running
    coroutines: warnings, and errors where MindSpore rejects the call (an executor or pool
    used as a context manager, `asyncio.run`). A call given a tensor
    (`Thread(target=f, args=(x,))`) is rejected in STRICT (`ValueError: ... the inputs should
    be constant, but found variable`): an error at that level, a warning in LAX. The same
    calls in host code (`__init__`, the training loop, the data pipeline) are fine.

    ## Why it breaks graph mode
    A graph has no threads. MindSpore 2.10 runs such a call once, while compiling, at every
    syntax level, and keeps at most its result: `threading.Thread(target=log_step).start()`
    runs `log_step` once during the compile and never again, `multiprocessing.Pool(2)` starts
    its worker processes during the compile. The compiler's fallback dump lists the line
    after its parser phase and not after its optimizer phase (run while compiling, not at
    run time), which is how `mslint verify` confirms it. Using an executor or a pool as a
    context manager is rejected at every level (`TypeError: Only support jit_class
    instance, but got PythonObject(type: <class
    'concurrent.futures.thread.ThreadPoolExecutor'>, ...)`), and so is running a coroutine
    (`asyncio.run(fetch())`: `TypeError: Parse Lambda Function Fail`).

    ## Example
    ```python
    class Net(nn.Cell):
        def construct(self, x):
            threading.Thread(target=log_step).start()
            return x * 2
    ```

    ## Use instead
    ```python
    class Net(nn.Cell):
        def construct(self, x):
            return x * 2


    def train_step(net, x):
        threading.Thread(target=log_step).start()
        return net(x)
    ```
    """

    code = "MS112"
    symbol = "concurrency-in-graph"
    summary = "threads, processes, executors or `asyncio` in graph code"
    node_types = (ast.Call,)
    compile_time_evidence = True

    def severity(self, settings: Settings) -> Severity:
        return fallback_severity(settings)

    def check_graph_node(self, node: ast.AST, function: GraphFunction) -> Iterator[Finding]:
        assert isinstance(node, ast.Call)
        qualname = function.qualname(node.func)
        if qualname is None or not any(qualname.startswith(f"{m}.") for m in CONCURRENCY_MODULES):
            return
        hint = "start threads, processes and executors in host code (the training loop, the data pipeline)"
        if any(function.kind(a) is Kind.GRAPH for a in [*node.args, *(k.value for k in node.keywords)]):
            message = f"`{qualname}` is given a graph value, which only the Python interpreter can pass to it"
            yield Finding(node, message, hint=hint)
        elif qualname == "asyncio.run" or _is_context_manager(node, function):
            message = f"`{qualname}` here is rejected by MindSpore in graph code"
            yield Finding(node, message, hint=hint, severity=Severity.ERROR)
        else:
            message = f"`{qualname}` is called once, while compiling, and never when the graph runs"
            yield Finding(node, message, hint=hint, severity=Severity.WARNING)


def _is_context_manager(call: ast.Call, function: GraphFunction) -> bool:
    return any(
        item.context_expr is call
        for node in statements(function.node)
        if isinstance(node, (ast.With, ast.AsyncWith))
        for item in node.items
    )
