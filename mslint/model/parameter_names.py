"""The constant names of Parameters: those a call makes, and those a Cell takes from another Cell.

MindSpore keys Parameters by name. A name written as a constant (``Parameter(w, name="w")``, or
given to a helper of the project that makes one) is what graph code meets when it takes the
Parameter in, unless MindSpore renames it: the Parameters of a Cell held as an attribute of
another get that attribute's path in front (``net1.w``). A Cell whose ``__init__`` keeps only the
Parameters of a Cell it is given (``self.params = ParameterTuple(net.get_parameters())``, or
``net.trainable_params()``), not the Cell itself, takes them with the names that Cell gave them:
where every instance of it is given a Cell built at the call (``OutNet(InnerNet(), InnerNet())``),
nothing holds that Cell, and its own Parameters keep their constant names
(:func:`parameters_taken`).
"""

from __future__ import annotations

import ast
from typing import NamedTuple

from mslint.model.binder import all_parameter_names, binding_counts, spreads, written_arguments
from mslint.model.instances import built_instances
from mslint.model.memo import NodeMemo
from mslint.model.module import ModuleInfo, call_argument, is_self_attribute
from mslint.model.project import ClassRef, FunctionRef, Project, is_mindspore_name, qualified_name
from mslint.model.walk import descendants, parent_of, statements

_MAX_HELPER_DEPTH = 3
_COLLECTING = frozenset({"get_parameters", "trainable_params"})
"""The methods of a Cell that give its Parameters (its own, unrenamed where nothing holds it)."""


class TakenParameters(NamedTuple):
    """The Parameters a Cell attribute takes from the Cell its ``__init__`` is given."""

    source: str
    """The parameter of ``__init__`` that is given the Cell."""
    names: tuple[str, ...]
    """The constant names of that Cell's own Parameters, in every instance."""


def parameters_taken(project: Project, owner: ClassRef, attribute: str) -> TakenParameters | None:
    """What ``self.<attribute>`` of ``owner`` holds where its own ``__init__`` sets it, and nothing
    else does, to ``ParameterTuple(<parameter>.get_parameters())`` (or ``trainable_params()``), reads
    that parameter for nothing else, and every instance the project builds gives it a Cell of the
    project built at the call; None otherwise (module doc)."""
    return _TAKEN(owner.node, lambda node: _taken(project, owner)).get(attribute)


_TAKEN: NodeMemo[ast.AST, dict[str, TakenParameters]] = NodeMemo()


def _taken(project: Project, owner: ClassRef) -> dict[str, TakenParameters]:
    init = project.find_method(owner, "__init__")
    if init is None or init.owner is None or init.owner.node is not owner.node or not init.node.args.args:
        return {}
    self_name = init.node.args.args[0].arg
    found: dict[str, TakenParameters] = {}
    for statement in statements(init.node):
        if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1):
            continue
        target = statement.targets[0]
        collected = _collected(statement.value, owner.module)
        if collected is None or not is_self_attribute(target, self_name):
            continue
        assert isinstance(target, ast.Attribute)
        source, method = collected
        if len(project.attribute_values(owner, target.attr)) != 1 or not _only_collected(init, source):
            continue
        names = _names_given(project, owner, init, source, method)
        if names:
            found[target.attr] = TakenParameters(source, names)
    return found


def _collected(value: ast.expr, module: ModuleInfo) -> tuple[str, str] | None:
    """``ParameterTuple(<name>.<method>())`` with a method of :data:`_COLLECTING`: the name and the method."""
    if not (isinstance(value, ast.Call) and len(value.args) == 1 and not value.keywords):
        return None
    if not is_mindspore_name(qualified_name(value.func, module), "ParameterTuple"):
        return None
    inner = value.args[0]
    if not (isinstance(inner, ast.Call) and not inner.args and not inner.keywords):
        return None
    method = inner.func
    if isinstance(method, ast.Attribute) and isinstance(method.value, ast.Name) and method.attr in _COLLECTING:
        return method.value.id, method.attr
    return None


def _only_collected(init: FunctionRef, source: str) -> bool:
    """Whether ``source`` is a parameter of ``__init__`` that it never rebinds and reads only to
    collect Parameters from: a Cell that nothing else holds (an attribute would rename them)."""
    if source not in all_parameter_names(init.node) or source in binding_counts(init.node):
        return False
    for node in descendants(init.node):
        if isinstance(node, ast.Name) and node.id == source and isinstance(node.ctx, ast.Load):
            read = parent_of(init.module.tree, node)
            if not (isinstance(read, ast.Attribute) and read.attr in _COLLECTING):
                return False
    return True


def _names_given(
    project: Project, owner: ClassRef, init: FunctionRef, source: str, method: str
) -> tuple[str, ...] | None:
    """The names of the own Parameters of the Cell every instance of ``owner`` gives ``source``,
    built at the call and the same class in all; None where one gives anything else."""
    found: tuple[str, ...] | None = None
    for call, module, _ in built_instances(project, owner) or ():
        written = None if spreads(call) else written_arguments(call, init.node, True).get(source)
        cls = project.resolve_expr(written.func, module) if isinstance(written, ast.Call) else None
        if not isinstance(cls, ClassRef) or not project.is_cell(cls):
            return None
        names = own_parameter_names(project, cls, trainable_only=method == "trainable_params")
        if found is not None and names != found:
            return None
        found = names
    return found


def own_parameter_names(project: Project, cls: ClassRef, trainable_only: bool = False) -> tuple[str, ...]:
    """The constant names of the Parameters the ``__init__`` methods of ``cls``'s class hierarchy
    set as attributes of ``self`` (``self.w = Parameter(w, name="w")``), in order; with
    ``trainable_only``, those not made with ``requires_grad=False``."""
    names: list[str] = []
    for klass in project.mro(cls):
        init = next((f for f in klass.node.body if isinstance(f, ast.FunctionDef) and f.name == "__init__"), None)
        if init is None or not init.args.args:
            continue
        self_name = init.args.args[0].arg
        for statement in statements(init):
            if not isinstance(statement, ast.Assign) or not any(
                is_self_attribute(t, self_name) for t in statement.targets
            ):
                continue
            frozen = any(
                k.arg == "requires_grad" and isinstance(k.value, ast.Constant) and k.value.value is False
                for k in (statement.value.keywords if isinstance(statement.value, ast.Call) else [])
            )
            name = created_name(statement.value, klass.module, project)
            if name is not None and not (trainable_only and frozen):
                names.append(name)
    return tuple(names)


def created_name(expr: ast.expr, module: ModuleInfo, project: Project, depth: int = 0) -> str | None:
    """The constant name of the Parameter ``expr`` makes: ``Parameter(..., name="w")``, or a call of
    a helper of the project that returns one (its name a literal, or its own parameter given a
    literal or defaulting to one)."""
    if not isinstance(expr, ast.Call):
        return None
    qualname = qualified_name(expr.func, module)
    if is_mindspore_name(qualname, "Parameter"):
        return _literal(call_argument(expr, 1, "name"))
    helper = project.resolve(qualname, module) if qualname is not None and depth < _MAX_HELPER_DEPTH else None
    if not isinstance(helper, FunctionRef) or helper.owner is not None:
        return None
    returned = [r.value for r in statements(helper.node) if isinstance(r, ast.Return) and r.value is not None]
    names = {_returned_name(value, expr, helper, project, depth) for value in returned}
    return names.pop() if len(names) == 1 and returned else None


def _returned_name(value: ast.expr, call: ast.Call, helper: FunctionRef, project: Project, depth: int) -> str | None:
    if not isinstance(value, ast.Call) or not is_mindspore_name(qualified_name(value.func, helper.module), "Parameter"):
        return created_name(value, helper.module, project, depth + 1)
    name = call_argument(value, 1, "name")
    if isinstance(name, ast.Name):
        return _literal(_argument_for(name.id, call, helper.node))
    return _literal(name)


def _argument_for(parameter: str, call: ast.Call, helper: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.expr | None:
    """What ``call`` gives the helper's ``parameter``: its argument, else the parameter's default;
    None where ``*args`` or ``**kwargs`` hide it."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return None
    keyword = next((k.value for k in call.keywords if k.arg == parameter), None)
    if keyword is not None:
        return keyword
    arguments = helper.args
    positional = [a.arg for a in [*arguments.posonlyargs, *arguments.args]]
    if parameter in positional:
        index = positional.index(parameter)
        if index < len(call.args):
            return call.args[index]
        defaults = dict(zip(positional[len(positional) - len(arguments.defaults) :], arguments.defaults))
        return defaults.get(parameter)
    keyword_only = dict(zip((a.arg for a in arguments.kwonlyargs), arguments.kw_defaults))
    return keyword_only.get(parameter)


def _literal(expr: ast.expr | None) -> str | None:
    return expr.value if isinstance(expr, ast.Constant) and isinstance(expr.value, str) else None
