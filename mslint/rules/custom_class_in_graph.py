from __future__ import annotations

import ast
from collections.abc import Iterator

from mslint.diagnostics import Severity
from mslint.model.abstract import Kind
from mslint.model.project import ClassRef, is_jit_class
from mslint.model.scope import GraphFunction
from mslint.rules.base import Finding, Rule, fallback_severity
from mslint.settings import Settings

_READ_ONLY_HINT = "keep the state in a Parameter: the attributes of a `@jit_class` object are read-only in graph code"


class CustomClassInGraph(Rule):
    """
    ## What it does
    Flags instances of user-defined classes (not Cells) that graph code creates from
    graph values, and assignments to attributes of their objects (plain or `@jit_class`) in
    graph code.

    ## Why it breaks graph mode
    The graph compiler treats an ordinary Python object as a compile-time constant.
    Reading it is fine - an object built in `__init__` or from constants is folded -
    but building one from tensors, or assigning to its attributes, needs the Python
    interpreter: STRICT rejects it (`ValueError: ... the inputs should be constant`)
    and LAX falls back to the interpreter for those lines. A `@jit_class` is compiled,
    but its constructor must get constants too: built from a tensor it fails at every
    syntax level (`TypeError: When creating an instance of 'Box', all arguments are
    required to be constants`); and its attributes are read-only: assigning one fails in
    STRICT (`RuntimeError: Unknown type: MsClassType`) and falls back in LAX, where the
    change is lost after the call (measured against PyNative).

    ## Example
    ```python
    class Box:
        def __init__(self, value):
            self.value = value


    class Net(nn.Cell):
        def construct(self, x):
            box = Box(x)
            return box.value * 2
    ```

    ## Use instead
    ```python
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.box = Box(2)  # built once, from constants

        def construct(self, x):
            return x * self.box.value
    ```
    """

    code = "MS102"
    symbol = "custom-class-in-graph"
    summary = "a user-defined class built from graph values, or a plain object mutated, in graph code"
    node_types = (ast.Call, ast.Assign, ast.AugAssign)

    def severity(self, settings: Settings) -> Severity:
        return fallback_severity(settings)

    def check_graph_node(self, node: ast.AST, function: GraphFunction) -> Iterator[Finding]:
        if isinstance(node, ast.Call):
            cls = function.resolve_call(node)
            operands = [*node.args, *(k.value for k in node.keywords)]
            if (
                isinstance(cls, ClassRef)
                and not function.project.is_cell(cls)
                and any(function.kind(a) is Kind.GRAPH for a in operands)
            ):
                yield Finding(
                    node,
                    f"instance of user class `{cls.node.name}` is created from graph values",
                    hint=f"build the `{cls.node.name}` in `__init__` from constants and pass tensors to its methods",
                    severity=Severity.ERROR if is_jit_class(cls) else None,
                )
            return
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]  # type: ignore[attr-defined]
        for target in targets:
            if not isinstance(target, ast.Attribute):
                continue
            classes = [c for c in function.instance_classes(target.value) if not function.project.is_cell(c)]
            if classes:
                name = classes[0].node.name
                yield Finding(
                    target,
                    f"attribute `{target.attr}` of a `{name}` object is changed in graph code",
                    hint=_READ_ONLY_HINT
                    if is_jit_class(classes[0])
                    else f"decorate `{name}` with `@mindspore.jit_class`, or keep the state in a Parameter",
                )
