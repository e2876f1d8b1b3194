"""Constructor arguments for a Cell, and its inputs, from the program's own calls.

``net = ResNet(num_classes=10)`` in a training script says how the program builds ``ResNet``:
verify builds it the same way when nothing is configured. Only a call whose arguments are all
Python literals is taken (``ResNet(args.classes)`` says nothing mslint can use), the first one
in the checked files, in the order they were given. When the same block then calls the
instance on tensors it made with literal shapes (``x = ops.randn(2, 3, 224, 224); net(x)``,
the habit of a model file's ``__main__`` block and of tests), those are its inputs, as they are
where the call is what a factory returns and the block calls the factory's result
(``net = deit_small(); net(x)``); where it does not, what the program's calls give the
instance elsewhere (:mod:`mslint.model.call_sites`: through a training wrapper in another
function), where each input is a tensor of known dtype and shape or a Python literal.

Where no such call is, the instances the program builds (:mod:`mslint.model.instances`: the
arguments followed through factories, ``def small(**kw): return Block(dim=64, **kw)``, and the
``__init__`` of the Cells that build it, the registries that look it up by a literal name,
the fields of configurations, :mod:`mslint.model.registries`, :mod:`mslint.model.configs`) give
the arguments, when each parameter without a default is given one known literal value over all
of them, else the first instance does (:func:`mslint.model.instances.first_instance`: the first
iteration of a parent's loop, its own first instance, ``where`` ends with ``(its first
instance)``); a parameter with a default whose value is not known keeps its default. A parameter that
``__init__`` reads only by key (``cfg["dim"]``) is given the dict of literals every instance
passes it (``Net(CONFIG)``); a namespace read by attribute is not rebuilt (the arguments travel
to the compiling process as Python literals, :mod:`mslint.verify.literals_json`).

``where`` names the call as written and, for a call in a factory or an ``__init__`` that passes
on what its caller gives, the calls that lead to it from the program's first such call:
``create_model("tiny", use_np=True) at train.py:9, through MODELS[name](**kwargs) at
models.py:40, Tiny(width=16, **kwargs) at models.py:31``.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from mslint.model.abstract import (
    NOT_KNOWN,
    AbstractBuilt,
    AbstractReference,
    AbstractScalar,
    AbstractSequence,
    AbstractValue,
    Kind,
)
from mslint.model.binder import (
    all_parameter_names,
    binding_counts,
    literal_value,
    parameter_defaults,
    positional_names,
    written_arguments,
)
from mslint.model.call_sites import (
    EntryEvidence,
    block_holding,
    input_spec,
    input_specs,
    made_right_before,
    python_value,
)
from mslint.model.inputs import is_constant
from mslint.model.instances import (
    caller_built_by,
    config_passed,
    constructor_values,
    first_call,
    first_instance,
    no_first_instance,
    reference_to,
)
from mslint.model.module import ModuleInfo
from mslint.model.project import ClassRef, FunctionNode, FunctionRef, Project, qualified_name
from mslint.model.registries import Callee
from mslint.model.scope import entry_evidence, entry_points
from mslint.model.set_inputs import inputs_set
from mslint.model.walk import descendants, parent_of
from mslint.verify.references import Built, Reference


@dataclass(frozen=True)
class Construction:
    kwargs: dict[str, Any]
    where: str
    """``Net(num_classes=10) at train.py:30``: the call the arguments come from (module doc)."""
    inputs: str | None = None
    """The specs of the tensors the block that built the instance calls it on, if it does."""
    kept: tuple[str, ...] = ()
    """``depth=12``: the defaults kept where the program gives the parameter a value mslint does
    not follow; what is compiled is not what the program builds there, and the verdict says so."""


class Constructions:
    """The calls of the project's classes, found once and looked up by class."""

    def __init__(self, project: Project) -> None:
        self._project = project
        self._calls: dict[str, list[tuple[ModuleInfo, ast.Call]]] | None = None

    @cached_property
    def _evidence(self) -> EntryEvidence:
        """The calls of every entry, as the linter reads them: one entry's output handed to
        another (``head(backbone(x))``) is what the first one's graph returns."""
        entries = [ref for module in self._project.modules for ref in entry_points(self._project, module)]
        return entry_evidence(self._project, entries)

    def of(self, cls: ClassRef, init: FunctionNode | None) -> Construction | None:
        """The arguments of the first call of ``cls`` with literal arguments, by the names of
        ``init``'s parameters (None: the class takes none); None when there is no such call."""
        for module, call in self._by_name().get(cls.node.name, []):
            name = qualified_name(call.func, module)
            resolved = self._project.resolve(name, module) if name else None
            if not (isinstance(resolved, ClassRef) and resolved.node is cls.node):
                continue
            kwargs = _bound(init, call)
            if kwargs is not None:
                inputs = self._inputs_through_factories(call, module) or self._inputs_of_calls(cls)
                return Construction(kwargs, _site(call, module), inputs)
        return self._from_instances(cls, init)

    def _from_instances(self, cls: ClassRef, init: FunctionNode | None) -> Construction | None:
        """The arguments the instances the program builds give ``init``, else those of the first
        one (module doc); None where a parameter without a default has no known literal value."""
        if init is None:
            return None
        site = first_call(self._project, cls)
        collects = init.args.vararg or init.args.kwarg  # what they collect is in the first instance only
        values = None if site is None or collects else constructor_values(self._project, cls)
        kwargs = self._kwargs(cls, init, values)
        only_the_first = kwargs is None
        through = None
        if only_the_first:
            instance = first_instance(self._project, cls)
            values = None if instance is None else instance.named
            kwargs = self._kwargs(cls, init, values)
            collected = None if instance is None or instance.positional != () else _literals(instance.keywords)
            kwargs = None if kwargs is None or collected is None else {**kwargs, **collected}
            site = None if instance is None else (instance.call, instance.module)
            through = None if instance is None else instance.through
        if kwargs is None or values is None or site is None:
            return None
        first, *then = self._leading_to(*site, only_the_first, through)
        where = f"{first}, through {', '.join(then)}" if then else first
        where += " (its first instance)" if only_the_first else ""
        inputs = self._inputs_through_factories(*site) or self._inputs_of_calls(cls)
        kept = _kept_defaults(init, cls.module, values, kwargs, site, self._project)
        return Construction(kwargs, where, inputs, kept)

    def not_followed(self, cls: ClassRef, init: FunctionNode) -> str:
        """Why no arguments for ``init``'s parameters without a default come from the program
        (where :meth:`of` gives none): what its first instance gives them that mslint does not
        follow, or that no call of the program that builds it can be followed."""
        instance = first_instance(self._project, cls)
        if instance is None:
            return self._no_call_followed(cls)
        unknown = [
            parameter.arg
            for parameter, default in parameter_defaults(init)[1:]
            if default is None
            and _value(instance.named.get(parameter.arg, AbstractScalar(Kind.UNKNOWN))) is NOT_KNOWN
            and not (
                _read_only_by_key(init, cls.module, parameter.arg)
                and config_passed(self._project, cls, parameter.arg) is not None
            )
        ]
        given = f"gives {', '.join(unknown)} what mslint does not follow" if unknown else "is not built of literals"
        return f"its first instance, {_site(instance.call, instance.module)}, {given}"

    def _no_call_followed(self, cls: ClassRef) -> str:
        """Why no call of the program that builds ``cls`` can be followed: the tests that keep
        each of its calls from running, the values it is handed on as, or that nothing names it."""
        why = no_first_instance(self._project, cls)
        if why.untaken:
            tests = ", ".join(_place(test, module, "if ") for test, module in why.untaken[:_STEPS])
            return (
                f"no call of the program that builds it runs: each is under a test its instances do not take ({tests})"
            )
        if why.handed:
            places = ", ".join(_place(node, module) for node, module in why.handed[:_STEPS])
            return (
                f"no call of the program that builds it can be followed: it is handed on as a value ({places}), "
                "and no instance that mslint builds of what it is handed to calls it"
            )
        return "no call of the program that builds it can be followed: it is never called"

    def _kwargs(
        self, cls: ClassRef, init: FunctionNode, values: dict[str, AbstractValue] | None
    ) -> dict[str, Any] | None:
        """The literal of each parameter of ``init`` in ``values`` (a parameter whose value is not
        known keeps its default); None where one without a default has none."""
        if values is None:
            return None
        kwargs: dict[str, Any] = {}
        for parameter, default in parameter_defaults(init)[1:]:
            value = _value(values.get(parameter.arg, AbstractScalar(Kind.UNKNOWN)))
            if value is NOT_KNOWN and _read_only_by_key(init, cls.module, parameter.arg):
                config = config_passed(self._project, cls, parameter.arg)
                value = NOT_KNOWN if config is None else config
            if (
                isinstance(value, Reference)
                and default is not None
                and _refers(default, cls.module, value, self._project)
            ):
                continue  # its own default: said again, it would only lengthen the verdict
            if value is not NOT_KNOWN:
                kwargs[parameter.arg] = value
            elif default is None:
                return None
        return kwargs

    def _inputs_through_factories(self, call: ast.Call, module: ModuleInfo) -> str | None:
        """The specs of the tensors the block of ``call`` calls what it builds on, or, where
        ``call`` is what a factory of the module's top level returns, the block of the factory's
        first call (``net = deit_small(); net(x)`` in a ``__main__`` block), out to :data:`_STEPS`
        factories."""
        for _ in range(_STEPS):
            inputs = self._inputs_after(module, call)
            factory = caller_built_by(module, call)
            if inputs is not None or not isinstance(factory, FunctionRef) or factory.owner is not None:
                return inputs
            outer = first_call(self._project, factory) if _returns(factory.node, call) else None
            if outer is None:
                return None
            call, module = outer
        return None

    def _leading_to(
        self,
        call: ast.Call,
        module: ModuleInfo,
        first_instances: bool = False,
        through: tuple[ast.Call, ModuleInfo] | None = None,
    ) -> list[str]:
        """``call`` as written with its place, after the first calls that lead to it while it
        passes on a parameter of the factory or ``__init__`` it is in (at most :data:`_STEPS`);
        with ``first_instances``, the calls that build the first instances (:func:`first_instance`),
        ``through`` the one that builds the instance of the code around ``call`` where that is
        not its first (:attr:`FirstInstance.through`)."""
        steps = [_site(call, module)]
        seen = {id(call)}
        while len(steps) < _STEPS:
            caller = caller_built_by(module, call)
            (scope,) = module.scopes_holding([call.lineno])
            if caller is None or isinstance(scope, ast.Module) or not _passes_parameters(call, scope):
                break
            outer = through if through is not None and len(steps) == 1 else self._first_call(caller, first_instances)
            if outer is None or id(outer[0]) in seen:
                break
            call, module = outer
            seen.add(id(call))
            steps.insert(0, _site(call, module))
        return steps

    def _first_call(self, callee: Callee, of_first_instance: bool) -> tuple[ast.Call, ModuleInfo] | None:
        if not of_first_instance:
            return first_call(self._project, callee)
        instance = first_instance(self._project, callee)
        return None if instance is None else (instance.call, instance.module)

    def _inputs_after(self, module: ModuleInfo, construction: ast.Call) -> str | None:
        """The specs of the tensors that ``name = Class(...)`` 's block later calls ``name`` on."""
        held = block_holding(module.tree, construction)
        if held is None or not _assigns(held[1], construction):
            return None
        block, assignment = held
        target = assignment.targets[0] if isinstance(assignment, ast.Assign) else None
        if not isinstance(target, ast.Name):
            return None
        for statement in block[block.index(assignment) + 1 :]:
            for node in ast.walk(statement):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == target.id:
                    (scope,) = module.scopes_holding([node.lineno])
                    declared = inputs_set(node, scope, module)  # what `set_inputs` compiles it for
                    if declared is not None:
                        specs = [input_spec(value) for value in declared]
                    else:
                        specs = [_input_spec(argument, node, module) for argument in node.args]
                    return None if node.keywords or None in specs else ", ".join(s for s in specs if s)
        return None

    def _inputs_of_calls(self, cls: ClassRef) -> str | None:
        """The specs of what the program's calls give the class's own ``construct``, where each
        is a tensor of known dtype and shape or a Python literal (:mod:`mslint.model.call_sites`:
        ``grad_fn(x, 3)`` in another function, through ``value_and_grad(forward_fn)``)."""
        construct = self._project.find_method(cls, "construct")
        if construct is None or construct.owner is None or construct.owner.node is not cls.node:
            return None
        values = self._evidence.parameter_values(construct)
        return input_specs(values, positional_names(construct.node, True), construct.node.args.vararg)

    def _by_name(self) -> dict[str, list[tuple[ModuleInfo, ast.Call]]]:
        if self._calls is None:
            self._calls = defaultdict(list)
            for module in self._project.checked_modules:
                for node in ast.walk(module.tree):
                    if isinstance(node, ast.Call) and (called := _called(node.func)) is not None:
                        self._calls[called].append((module, node))
        return self._calls


_STEPS = 4
"""How many calls ``where`` names at most: the program's own and the innermost matter most."""

_LONGEST_CALL = 80
"""How many characters of a call ``where`` quotes."""


def _place(node: ast.AST, module: ModuleInfo, prefix: str = "") -> str:
    """``if self.re_atten at DViT.py:158``: ``node`` as written, cut short, and its place."""
    written = " ".join((ast.get_source_segment(module.text, node) or ast.unparse(node)).split())
    written = written if len(written) <= _LONGEST_CALL else written[: _LONGEST_CALL - 3] + "..."
    return f"{prefix}{written} at {module.path.name}:{getattr(node, 'lineno', '?')}"


def _site(call: ast.Call, module: ModuleInfo) -> str:
    """``LAYERS["block"](64) at train.py:30``: the call as written (on one line, cut short) and its place."""
    written = " ".join((ast.get_source_segment(module.text, call) or ast.unparse(call)).split())
    if len(written) > _LONGEST_CALL:
        written = written[: _LONGEST_CALL - 3] + "..."
    return f"{written} at {module.path.name}:{call.lineno}"


def _kept_defaults(
    init: FunctionNode,
    module: ModuleInfo,
    values: dict[str, AbstractValue],
    kwargs: dict[str, Any],
    call: tuple[ast.Call, ModuleInfo],
    project: Project,
) -> tuple[str, ...]:
    """``depth=12`` for each parameter of ``init`` not in ``kwargs``, left to its default because
    its value in ``values`` is not known although the program gives it one: the default is a
    literal, so that only a value given in its place is unknown, or ``call`` writes the parameter,
    other than as a name of the class or function the default names (``act=nn.ReLU`` for
    ``act=nn.ReLU``: over several instances such a value is not known, but it is the default)."""
    written = written_arguments(call[0], init, True)
    return tuple(
        f"{parameter.arg}={ast.unparse(default)}"
        for parameter, default in parameter_defaults(init)[1:]
        if default is not None
        and parameter.arg not in kwargs
        and _value(values.get(parameter.arg, AbstractScalar(Kind.UNKNOWN))) is NOT_KNOWN
        and (
            literal_value(default) is not NOT_KNOWN
            or (
                parameter.arg in written
                and not _same_reference(written[parameter.arg], call[1], default, module, project)
            )
        )
    )


def _same_reference(
    given: ast.expr, given_in: ModuleInfo, default: ast.expr, module: ModuleInfo, project: Project
) -> bool:
    """Whether ``given`` (of ``given_in``) names the class or function that ``default`` (of ``module``) names."""
    named, default_names = reference_to(project, given, given_in), reference_to(project, default, module)
    return (
        named is not None
        and default_names is not None
        and named.qualname == default_names.qualname
        and (named.module == default_names.module)
    )


def _literals(values: dict[str, AbstractValue]) -> dict[str, Any] | None:
    """The Python literal of each value; None where one is not known (``**kwargs`` that an
    instance is built with must all be passed, none keeps a default)."""
    known = {name: _value(value) for name, value in values.items()}
    return None if any(value is NOT_KNOWN for value in known.values()) else known


def _value(value: AbstractValue) -> object:
    """The Python literal ``value`` is, the class or function it refers to, or the call that
    builds it, with such values as items or arguments; NOT_KNOWN otherwise."""
    if isinstance(value, AbstractReference):
        return Reference(value.module, value.qualname)
    if isinstance(value, AbstractBuilt):
        callee = _value(value.callee)
        args = tuple(map(_value, value.args))
        kwargs = tuple((name, _value(item)) for name, item in value.keywords)
        known = isinstance(callee, Reference) and NOT_KNOWN not in (*args, *(item for _, item in kwargs))
        return Built(callee, args, kwargs) if isinstance(callee, Reference) and known else NOT_KNOWN
    if isinstance(value, AbstractSequence) and value.items is not None:
        items = [_value(item) for item in value.items]
        if NOT_KNOWN in items:
            return NOT_KNOWN
        return items if value.type == "list" else tuple(items)
    return python_value(value)


def _refers(expr: ast.expr, module: ModuleInfo, reference: Reference, project: Project) -> bool:
    """Whether ``expr`` of ``module`` names the class or function ``reference`` names."""
    named = reference_to(project, expr, module)
    return named is not None and (named.module, named.qualname) == (reference.module, reference.qualname)


def _passes_parameters(call: ast.Call, function: FunctionNode) -> bool:
    """Whether ``call`` reads a parameter of ``function``, which holds it, or calls one (``block_fn(dim)``,
    a class handed on): what it builds then depends on the calls of ``function``."""
    names = set(all_parameter_names(function))
    read = [call.func, *call.args, *(keyword.value for keyword in call.keywords)]
    return any(isinstance(node, ast.Name) and node.id in names for expr in read for node in ast.walk(expr))


def _read_only_by_key(init: FunctionNode, module: ModuleInfo, parameter: str) -> bool:
    """Whether every read of ``parameter`` in ``init`` is a subscript (``cfg["dim"]``): a dict
    serves it as the configuration the program passes does."""
    reads = [node for node in descendants(init) if isinstance(node, ast.Name) and node.id == parameter]
    return bool(reads) and all(isinstance(parent_of(module.tree, read), ast.Subscript) for read in reads)


def _returns(function: FunctionNode, call: ast.Call) -> bool:
    """Whether every ``return`` of ``function`` returns what ``call`` builds: ``return call``, or
    the one name it is bound to, bound nowhere else."""
    returned = [node.value for node in descendants(function) if isinstance(node, ast.Return)]
    bound = next((s for s in descendants(function) if isinstance(s, ast.Assign) and _assigns(s, call)), None)
    name = bound.targets[0].id if isinstance(bound, ast.Assign) and isinstance(bound.targets[0], ast.Name) else None
    once = name is not None and binding_counts(function).get(name) == 1
    return bool(returned) and all(
        value is call or (once and isinstance(value, ast.Name) and value.id == name) for value in returned
    )


def _assigns(statement: ast.stmt, value: ast.expr) -> bool:
    """Whether ``statement`` is ``name = value``, to one name."""
    return isinstance(statement, ast.Assign) and statement.value is value and len(statement.targets) == 1


def _input_spec(argument: ast.expr, call: ast.Call, module: ModuleInfo) -> str | None:
    """The Python literal written (``net(x, "HARD")``: a graph constant), or the spec of the
    tensor the statements right before ``call`` make (:func:`~mslint.model.call_sites.made_right_before`)."""
    written = literal_value(argument)
    if written is not NOT_KNOWN and is_constant(written):
        return repr(written)
    return input_spec(made_right_before(module, call, argument))


def _called(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    return func.attr if isinstance(func, ast.Attribute) else None


def _bound(init: FunctionNode | None, call: ast.Call) -> dict[str, Any] | None:
    """``call``'s arguments by parameter name, when every one is a literal and each names a
    parameter of ``init``."""
    names = [a.arg for a in [*init.args.posonlyargs, *init.args.args][1:]] if init is not None else []
    if len(call.args) > len(names) or any(isinstance(a, ast.Starred) for a in call.args):
        return None
    given: list[tuple[str | None, ast.expr]] = [*zip(names, call.args), *((k.arg, k.value) for k in call.keywords)]
    bound: dict[str, Any] = {}
    for name, value in given:
        if name is None:  # **options
            return None
        try:
            bound[name] = ast.literal_eval(value)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            return None
    return bound
