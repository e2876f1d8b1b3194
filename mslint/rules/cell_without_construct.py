from __future__ import annotations

import ast
import difflib
from collections.abc import Iterator

from mslint.diagnostics import Severity
from mslint.model.cell_classes import has_method, is_plain_cell, mindspore_bases
from mslint.model.project import ClassRef, Project
from mslint.model.scope import GraphFunction
from mslint.rules.base import Finding, Rule
from mslint.settings import Settings


class CellWithoutConstruct(Rule):
    """
    ## What it does
    Flags graph code that calls a Cell whose class has no `construct`, itself or in its base
    classes: a misspelt `contruct`, or a Cell written to hold layers that another Cell was
    meant to run. Only Cells that derive from `nn.Cell` alone (through the project's classes)
    are judged: a MindSpore Cell or a third-party base may define `construct`. A Cell that
    defines `forward` instead is left to `forward-instead-of-construct`, which flags the class.

    ## Why it breaks graph mode
    Calling a Cell runs its `construct`; `nn.Cell` defines none. Measured on MindSpore 2.10,
    STRICT and LAX alike (and in PyNative), the compile stops at the call with
    `AttributeError: For 'Cell', the method 'construct' is not defined.`

    ## Example
    ```python
    class Block(nn.Cell):
        def __init__(self):
            super().__init__()
            self.dense = nn.Dense(4, 4)

        def contruct(self, x):
            return self.dense(x)


    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.block = Block()

        def construct(self, x):
            return self.block(x)
    ```

    ## Use instead
    ```python
    class Block(nn.Cell):
        def __init__(self):
            super().__init__()
            self.dense = nn.Dense(4, 4)

        def construct(self, x):
            return self.dense(x)
    ```
    """

    code = "MS118"
    symbol = "cell-without-construct"
    summary = "graph code calls a Cell whose class has no `construct` (a misspelt one)"
    node_types = (ast.Call,)

    def severity(self, settings: Settings) -> Severity:
        return Severity.ERROR

    def check_graph_node(self, node: ast.AST, function: GraphFunction) -> Iterator[Finding]:
        assert isinstance(node, ast.Call)
        classes = function.instance_classes(node.func)
        if not classes or not all(_lacks_construct(cls, function.project) for cls in classes):
            return
        cls = classes[0]
        yield Finding(
            node,
            f"`{cls.node.name}` has no `construct`: calling it fails in graph mode and in PyNative"
            + _misspelt(cls, function.project),
            hint=f"define `construct` in `{cls.node.name}`, or call the method that does its work",
        )


def _lacks_construct(cls: ClassRef, project: Project) -> bool:
    """A Cell deriving from ``nn.Cell`` alone that has no ``construct``, no ``forward`` (its own
    rule's) and no ``__call__`` of its own."""
    if not project.is_cell(cls) or any(has_method(cls, project, m) for m in ("construct", "forward", "__call__")):
        return False
    bases = mindspore_bases(cls, project)
    return bases is not None and all(is_plain_cell(base) for base in bases)


def _misspelt(cls: ClassRef, project: Project) -> str:
    methods = [s.name for klass in project.mro(cls) for s in klass.node.body if isinstance(s, ast.FunctionDef)]
    close = difflib.get_close_matches("construct", methods, n=1, cutoff=0.75)
    return f" (it defines `{close[0]}`)" if close else ""
