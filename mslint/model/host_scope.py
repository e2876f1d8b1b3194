"""Host code as the rules that check graph code read it: a script's top level or a plain function.

A training script calls gradients from Python (``grad(net)(x, sens)``); the gradient is compiled
all the same, from what the script hands it. :class:`HostScope` answers the questions a rule asks
of a :class:`~mslint.model.scope.GraphFunction` (the qualified name of an expression, its value,
what a callee returns called with given arguments, what a MindSpore object was built with), the
values coming from :class:`~mslint.model.host_values.HostValues`: a Cell's output is its
``construct`` evaluated as graph code with the values the script gives it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from mslint.model.abstract import AbstractInstance, AbstractValue, Kind, join_all, literal
from mslint.model.arity import spreads_written_out
from mslint.model.binder import all_parameter_names
from mslint.model.host_values import HostValues
from mslint.model.instances import construction
from mslint.model.module import ModuleInfo
from mslint.model.project import ClassRef, FunctionNode, FunctionRef, Project, qualified_name
from mslint.model.scope import GraphFunction, argument_values, is_jit_decorated
from mslint.model.walk import own_nodes
from mslint.model.wrapped_calls import is_passing_decorator


class HostScope:
    """The values of one host scope, asked as a graph function's are."""

    def __init__(self, scope: ast.Module | FunctionNode, module: ModuleInfo, project: Project) -> None:
        self.scope = scope
        self.module = module
        self.project = project
        self._values = HostValues(scope, module, project)

    def qualname(self, expr: ast.expr) -> str | None:
        return qualified_name(expr, self.module)

    def value(self, expr: ast.expr | None) -> AbstractValue:
        """The value of ``expr``; a name bound once to a MindSpore object's construction
        (``grad = ops.GradOperation(sens_param=True)``) is that object, with what it was built with."""
        built = self._built(expr)
        if built is not None:
            return built
        return self._values.value(expr) if expr is not None else literal(None)

    def bound_call(self, expr: ast.expr | None) -> ast.Call | None:
        """The call a name of this scope is bound to, where it is bound once (``grad_fn =
        grad(net)``); None for anything else."""
        bound = self._values.assigned(expr.id) if isinstance(expr, ast.Name) else []
        return bound[0] if len(bound) == 1 and isinstance(bound[0], ast.Call) else None

    def _built(self, expr: ast.expr | None) -> AbstractInstance | None:
        call = self.bound_call(expr)
        if call is None:
            return None
        qualname = self.qualname(call.func)
        if qualname is None or not qualname.startswith("mindspore.") or not qualname.rsplit(".", 1)[-1][:1].isupper():
            return None
        return AbstractInstance(Kind.CONSTANT, qualname, False, None, construction(call, self.qualname))

    def value_called(self, callee: ast.expr, arguments: list[ast.expr]) -> AbstractValue | None:
        """What the Cell ``callee`` holds returns, called with ``arguments``: its ``construct``
        evaluated with their values; None where ``callee`` is no Cell of the checked code."""
        constructs = self.cell_constructs(callee)
        if constructs is None:
            return None
        outputs = []
        for construct in constructs:
            call = ast.Call(callee, arguments, [])  # lives only here: never memoised by id
            parameters = argument_values(call, construct, self._values.value, widen=True)
            outputs.append(GraphFunction(self.project, construct, construct, parameters).returned_value)
        return join_all(outputs, empty=literal(None))

    def cell_constructs(self, callee: ast.expr) -> list[FunctionRef] | None:
        """The ``construct`` of each Cell of the checked code that ``callee`` may hold (each binding
        of a name, the Cell a call makes), which calling it runs; None where it may hold anything
        else, nothing known, or a class of the checked code that defines ``__call__``."""
        constructs = []
        for made in self._values.objects(callee):
            cls = self.project.resolve(made.qualname, self.module) if isinstance(made, AbstractInstance) else None
            if not isinstance(cls, ClassRef) or not _defined_once(cls):
                return None
            if self.project.find_method(cls, "__call__") is not None:
                return None
            construct = self.project.find_method(cls, "construct")
            if construct is None:
                return None
            constructs.append(construct)
        return constructs or None

    def jit_function(self, callee: ast.expr) -> FunctionRef | None:
        """The function of a module's top level that ``callee`` names where its only decorators are
        ``jit`` (``@jit``, ``@ms.jit(capture_mode="ast")``): calling it from Python binds the
        arguments as the function does (measured on 2.10: ``Function add needs 2 positional
        argument, but got 1``); None for anything else, or a name this scope binds itself."""
        if not isinstance(callee, ast.Name) or self._values.assigned(callee.id) or self._is_parameter(callee.id):
            return None
        function = self.project.resolve_expr(callee, self.module)
        if not isinstance(function, FunctionRef) or function.owner is not None:
            return None
        decorators = function.node.decorator_list
        jitted = bool(decorators) and all(is_passing_decorator(d, function.module) for d in decorators)
        return function if jitted and function.node in function.module.tree.body else None

    def _is_parameter(self, name: str) -> bool:
        return not isinstance(self.scope, ast.Module) and name in all_parameter_names(self.scope)

    def arguments_written_out(self, call: ast.Call) -> ast.Call:
        """``call`` with its spreads of tuples of known length written out (:func:`spreads_written_out`)."""
        return spreads_written_out(call, self.value)


def _defined_once(cls: ClassRef) -> bool:
    """Whether the module of ``cls`` defines a class of its name once: a notebook that defines
    ``Net`` again in a later cell calls, in each cell, the class defined before it, where the
    project's index keeps only the last."""
    return sum(isinstance(s, ast.ClassDef) and s.name == cls.node.name for s in cls.module.tree.body) == 1


def host_scopes(module: ModuleInfo, project: Project) -> Iterator[tuple[HostScope, list[ast.AST]]]:
    """The module's top level and its plain functions (not ``@jit``), each with its own nodes."""
    yield HostScope(module.tree, module, project), own_nodes(module.tree)
    for statement in module.tree.body:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)) and not is_jit_decorated(statement, module):
            yield HostScope(statement, module, project), own_nodes(statement)
