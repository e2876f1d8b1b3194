from __future__ import annotations

import ast
from collections.abc import Iterator

from mslint.diagnostics import Severity
from mslint.model.cell_classes import has_method, is_plain_cell, mindspore_bases
from mslint.model.project import ClassRef
from mslint.model.scope import GraphFunction
from mslint.rules.base import Finding, Rule
from mslint.settings import Settings

_HINT = "write `super()`, or `super(ThisClass, self)` naming the class this method is defined in"


class UnsupportedSuperCall(Rule):
    """
    ## What it does
    Flags a `super(...)` call in a method of graph code whose arguments the graph compiler
    refuses: one argument, a second argument that is not the method's `self` (another object,
    `self.other`), a first argument computed from the object (`self.__class__`, `type(self)`),
    or a class that is not this class or one of its bases. Also flags `super(...).construct(...)`
    where no class after the one named defines `construct` (naming the base instead of this
    class skips the base's `construct` and reaches `nn.Cell`'s, which does not exist).

    ## Why it breaks graph mode
    MindSpore resolves `super()` itself while parsing and accepts only `super()` and
    `super(Class, self)`. Measured on MindSpore 2.10, STRICT and LAX alike:
    `super(Net)` fails with `Arguments number of 'super()' should be 0 or 2, but got 1.`;
    `super(Net, x)` with `Argument 2 of 'super()' must be 'self', but got 'x'.`;
    `super(Net, self.other)` with `Unable to cast Python instance of type <class 'NoneType'>
    to C++ type 'std::string'` (naming no line); `super(self.__class__, self)` and
    `super(Other, self)` with `The second argument of 'super()' must be 'self', but got Net().`;
    `super(type(self), self)` with `The first argument of 'super()' must be a class type, but got
    Call.` Python accepts `self.__class__` and `type(self)`, so the code runs in PyNative.
    `super(Base, self).construct(x)` in `class Net(Base)` runs the `construct` of the class
    after `Base`: where that is `nn.Cell`, the compile fails with `For 'Cell', the method
    'construct' is not defined.`

    ## Example
    ```python
    class Net(Base):
        def construct(self, x):
            return super(type(self), self).construct(x) + 1
    ```

    ## Use instead
    ```python
    class Net(Base):
        def construct(self, x):
            return super().construct(x) + 1
    ```
    """

    code = "MS119"
    symbol = "unsupported-super-call"
    summary = "`super(...)` with arguments graph mode refuses (not this class and `self`)"
    node_types = (ast.Call,)

    def severity(self, settings: Settings) -> Severity:
        return Severity.ERROR

    def check_graph_node(self, node: ast.AST, function: GraphFunction) -> Iterator[Finding]:
        assert isinstance(node, ast.Call)
        receiver = node.func.value if isinstance(node.func, ast.Attribute) else None
        if isinstance(node.func, ast.Attribute) and isinstance(receiver, ast.Call) and _is_super(receiver, function):
            yield from _method_after(node, receiver, node.func.attr, function)
        if not _is_super(node, function) or not node.args or function.owner is None:
            return
        if len(node.args) != 2 or node.keywords:
            yield Finding(node, "graph mode takes `super()` with no argument or with two", hint=_HINT)
            return
        named, instance = node.args
        if not (isinstance(instance, ast.Name) and instance.id == function.self_name):
            yield Finding(
                instance,
                f"the second argument of `super()` must be the method's `{function.self_name}` in graph mode",
                hint=_HINT,
            )
        elif not isinstance(named, (ast.Name, ast.Attribute)) or _reads(named, function.self_name):
            yield Finding(
                named,
                "graph mode takes a class named in the code as the first argument of `super()`, "
                "not one computed from the object",
                hint=_HINT,
            )
        else:
            resolved = function.project.resolve_expr(named, function.module)
            if isinstance(resolved, ClassRef) and all(
                klass.node is not resolved.node for klass in function.project.mro(function.owner)
            ):
                yield Finding(
                    named,
                    f"`{resolved.node.name}` is not `{function.owner.node.name}` or one of its bases: "
                    f"`super()` refuses `{function.self_name}`",
                    hint=_HINT,
                )


def _is_super(expr: ast.expr, function: GraphFunction) -> bool:
    return isinstance(expr, ast.Call) and function.qualname(expr.func) == "builtins.super"


def _reads(expr: ast.expr, name: str | None) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(expr))


def _method_after(call: ast.Call, sup: ast.Call, method: str, function: GraphFunction) -> Iterator[Finding]:
    """``super(...).construct(...)`` where the classes after the one ``super`` names have none."""
    if method != "construct" or function.owner is None or len(sup.args) not in (0, 2):
        return
    named = function.owner if not sup.args else function.project.resolve_expr(sup.args[0], function.module)
    if not isinstance(named, ClassRef) or all(k.node is not named.node for k in function.project.mro(function.owner)):
        return
    project = function.project
    bases = mindspore_bases(named, project)
    if bases is None or not all(is_plain_cell(base) for base in bases):
        return  # a MindSpore Cell other than nn.Cell, or a third-party base, may define construct
    if not any(has_method(base, project, method) for base in project.bases(named)):
        yield Finding(
            call,
            f"no class after `{named.node.name}` defines `construct`: this calls `nn.Cell`'s, which does not exist",
            hint="name this method's own class in `super()` (or write `super()`), so that the base's `construct` runs",
        )
