from __future__ import annotations

import ast
from collections.abc import Iterator

from mslint.diagnostics import Severity
from mslint.model.abstract import AbstractDict, AbstractInstance, AbstractValue, Kind
from mslint.model.binder import binding_counts
from mslint.model.created_tensors import AbstractArray
from mslint.model.module import is_self_attribute
from mslint.model.project import ClassRef, FunctionRef, is_jit_class
from mslint.model.scope import GraphFunction
from mslint.model.walk import own_nodes, statements
from mslint.rules.base import Finding, Rule
from mslint.settings import Settings

_PROPERTIES = frozenset({"property", "cached_property"})
_NOT_SHOWN_TOP = (
    "; no call from Python code shows that it is the top graph (another Cell may call it, and take the function)"
)


class UnsupportedGraphOutput(Rule):
    """
    ## What it does
    Flags what the top graph (a Cell's `construct` that no other graph code calls, a `@jit`
    function) returns to Python that MindSpore cannot hand back: a function, a method or a
    lambda, a function of MindSpore (`ops.relu`) (an error), a dict, a numpy array and an
    instance of a plain class of the checked code (warnings). A numpy array is flagged where it is
    made (`np.zeros(3)` in the `return`, or the one binding of the name returned), which is where
    the compiler locates it.
    Only the top graph's own `return` statements count: a sub-Cell or a helper may return a
    function or a dict to the graph code that calls it (`self.sub(x)["a"]` compiles). A Cell is
    known to be the top graph where Python code calls it (`net(x)`, a training wrapper) or its
    `# mslint: inputs=` comment says so; a function returned by a Cell that nothing shows to be
    the top graph is a warning, a dict or an object returned by it is not flagged.

    ## Why it breaks graph mode
    Measured on MindSpore 2.10, STRICT and LAX alike: returning a function, a bound method or
    a lambda fails to compile with `RuntimeError: Function in output is not supported. Please
    check your code.` A dict compiles in STRICT but comes back as a tuple of its values: the
    keys are lost and `out["loss"]` raises in the caller. LAX returns the dict by running the
    `return` in the Python interpreter (its fallback dump lists the line). An instance of a
    plain class (`self.box = Box(2)`, then `return x, self.box`) fails in STRICT with
    `RuntimeError: Illegal type in the graph: AbstractScalar(Type: External, ...)` and comes
    back through the interpreter in LAX; so does a numpy array (`Illegal type in the graph:
    AbstractScalar(Type: External, Value: PythonObject(type: <class 'numpy.ndarray'>, ...)`,
    located on the line that makes it, in STRICT and in LAX's fallback dump).

    ## Example
    ```python
    class Net(nn.Cell):
        def head(self, x):
            return x * 2

        def construct(self, x):
            return {"features": x, "head": self.head}
    ```

    ## Use instead
    ```python
    class Net(nn.Cell):
        def head(self, x):
            return x * 2

        def construct(self, x):
            return x, self.head(x)
    ```
    """

    code = "MS115"
    symbol = "unsupported-graph-output"
    summary = "a function, method, lambda (or, a warning, a dict, numpy array or object) returned by the top graph"
    warning_findings = (
        "a dict, a numpy array or a plain object returned by the top graph "
        "(STRICT returns a tuple or rejects it, LAX falls back)"
    )
    node_types = (ast.Return,)

    def severity(self, settings: Settings) -> Severity:
        return Severity.ERROR

    def check_graph_node(self, node: ast.AST, function: GraphFunction) -> Iterator[Finding]:
        assert isinstance(node, ast.Return)
        if node.value is None or function.entry.node is not function.node:
            return  # graph code another graph calls returns to it, not to Python
        if not any(n is node for n in own_nodes(function.node)):
            return  # the return of a function nested in the entry
        top = function.is_top_graph
        for value in _items(node.value):
            if _is_function(value, function):
                yield Finding(
                    value,
                    "the top graph returns a function: MindSpore cannot hand one back to Python"
                    + ("" if top else _NOT_SHOWN_TOP),
                    hint="call it in the graph and return its result, or return what it needs and call it outside",
                    severity=None if top else Severity.WARNING,
                )
            elif top and isinstance(function.value(value), AbstractDict):
                yield Finding(
                    value,
                    "the top graph returns a dict: STRICT returns its values as a tuple (the keys are lost), "
                    "LAX runs the return in the Python interpreter",
                    hint="return a tuple and name its items in the caller",
                    severity=Severity.WARNING,
                )
            elif top and isinstance(function.value(value), AbstractArray) and _made_of_constants(value, function):
                yield Finding(
                    _made_at(value, function),
                    'the top graph returns a numpy array: STRICT rejects it ("Illegal type in the graph"), '
                    "LAX makes it in the Python interpreter",
                    hint="return a tensor (`Tensor(array)`, or the `ops` function that makes it)",
                    severity=Severity.WARNING,
                )
            elif top and _is_python_object(function.value(value), function):
                yield Finding(
                    value,
                    f'the top graph returns {function.value(value).describe()}: STRICT rejects it ("Illegal type '
                    'in the graph"), LAX runs the return in the Python interpreter',
                    hint="return tensors and Python numbers, and build the object from them in the caller",
                    severity=Severity.WARNING,
                )


def _items(value: ast.expr) -> list[ast.expr]:
    """The values a ``return`` hands back: the items of a tuple or list display, at any depth."""
    if isinstance(value, (ast.Tuple, ast.List)):
        return [item for element in value.elts for item in _items(element)]
    return [value]


def _made_at(value: ast.expr, function: GraphFunction) -> ast.expr:
    """Where a returned numpy array is made: the one expression a returned name is bound to in the
    function (``z = np.zeros(3)``), else the returned expression itself. The compiler locates the
    array there (the line of ``np.zeros``, measured on 2.10), not on the ``return``."""
    if not isinstance(value, ast.Name):
        return value
    bound = function.local_values.get(value.id, [])
    return bound[0] if len(bound) == 1 and binding_counts(function.node).get(value.id) == 1 else value


def _made_of_constants(value: ast.expr, function: GraphFunction) -> bool:
    """Whether a returned numpy array is made from constants of the graph (``np.zeros(x.shape)``,
    a helper given a number): numpy applied to a tensor (``np.abs(x)``) is third-party-call-in-graph's
    finding, and what LAX hands back from it is not measured."""
    made = _made_at(value, function)
    if not isinstance(made, ast.Call):
        return True
    arguments = [*made.args, *(k.value for k in made.keywords)]
    given = [a.value if isinstance(a, ast.Starred) else a for a in arguments]
    return all(function.kind(a) is Kind.CONSTANT for a in given)


def _is_function(value: ast.expr, function: GraphFunction) -> bool:
    if isinstance(value, ast.Lambda):
        return True
    if isinstance(value, ast.Name):
        nested = [n for n in statements(function.node) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
        if any(n.name == value.id for n in nested if n is not function.node):
            return not function.local_values.get(value.id)
        qualname = function.qualname(value)
        resolved = function.project.resolve(qualname, function.module) if qualname is not None else None
        return isinstance(resolved, FunctionRef) or _is_mindspore_function(qualname, function)
    if isinstance(value, ast.Attribute) and is_self_attribute(value, function.self_name) and function.owner:
        method = function.project.find_method(function.owner, value.attr)
        return method is not None and not any(_decorator_name(d) in _PROPERTIES for d in method.node.decorator_list)
    return isinstance(value, ast.Attribute) and _is_mindspore_function(function.qualname(value), function)


def _is_mindspore_function(qualname: str | None, function: GraphFunction) -> bool:
    """A function of MindSpore's namespaces, as the release's API table lists it (``ops.relu``)."""
    namespace, _, name = (qualname or "").rpartition(".")
    namespaces = function.project.release.api_namespaces
    return name[:1].islower() and isinstance(namespaces.get(namespace, {}).get(name), list)


def _decorator_name(decorator: ast.expr) -> str | None:
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    if isinstance(target, ast.Name):
        return target.id
    return target.attr if isinstance(target, ast.Attribute) else None


def _is_python_object(value: AbstractValue, function: GraphFunction) -> bool:
    """An instance of a plain class of the checked code (not a Cell, not a ``@jit_class``): graph
    code may read it but not hand it back."""
    if not isinstance(value, AbstractInstance) or value.cell:
        return False
    cls = function.project.resolve(value.qualname, function.module)
    return isinstance(cls, ClassRef) and not is_jit_class(cls) and not function.project.is_cell(cls)
