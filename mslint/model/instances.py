"""The instances the program builds of a class: what its constructor is given.

MindSpore compiles an instance, not a class: what ``__init__`` was given becomes a constant of
the graph (``self.use_bn = use_bn`` decides which branch of ``construct`` exists). The project's
calls of a class (``Block(64, use_bn=False)`` in a script, a factory, another Cell's
``__init__``) are its instances, and each parameter of ``__init__`` holds the join of what they
pass, its default where a call omits it.

Where a call passes on a parameter of the code that makes it (``Block(use_attn=use_attn)`` in
``Net.__init__``, ``return Block(64, **kwargs)`` in a factory function of a module), what it
passes is what the calls of that ``__init__`` or function pass in turn, followed up the callers
until a cycle (then not known); a factory that the project never calls builds nothing, where
other calls build the class. A factory is followed as a class is: called only, never handed on
or decorated (a registry aside), and its ``**kwargs`` only spread or read with ``get`` (``kwargs.pop(...)`` changes it).
A function handed to ``value_and_grad``, ``grad`` or ``jit``, or decorated with ``jit``, is called
at the calls of what they make, with those arguments; one defined in another function's body
(``forward_fn`` in ``train()``) at the calls of its name there (:mod:`mslint.model.wrapped_calls`).
A classmethod of the class's own body that reads ``cls`` only to call it (``return cls(dim)``
in ``from_config``) builds an instance at each of those calls, followed as a factory is; an
argument that reads a field of a parameter (``cfg["dim"]``, ``opts.attention``) is that field of
the configuration of literals each caller passes (:mod:`mslint.model.configs`); a module constant
(``MODE = "fast"``) passed, or written as a field, is its literal (``Sub(MODE)``). In the first
instance, an argument or a default that names a class or function of a module's top level (the
project's or MindSpore's: ``block=BottleNeck``, ``act_layer=nn.GELU``) is a reference to it
(:func:`reference_to`), a call of one that spreads nothing is what it builds (``fn=Attention(dim)``,
:class:`~mslint.model.abstract.AbstractBuilt`), and a class handed on as a value is built by the
calls of the parameter it is handed to (``block_fn(dim)`` where ``block_fn=Block``), also in a
method the constructor calls to build parts (``self._make_layer(block, 64, 3)``,
:mod:`mslint.model.constructor_helpers`), so that the instance can be built as the program builds
it; a parent no call of which can be followed holds what its defaults give it (verify builds it
so). The values the rules read, joined over every instance, are left as they were.

The instances are all known only where the class is used by calling it (or by naming it without
building it: a type test, an annotation, a read of a value or a static method of its class body,
``Net.SIZES[0]``), by looking it up by
a name the code gives (a literal, a constant, a configuration's field: :func:`_name_given`) in a
registry of the project or on its module (``getattr(models, "Block")``,
:mod:`mslint.model.registries`), or by calling a ``functools.partial`` of it that only its name
is called by (``make = partial(Block, attention=False)``, a parameter's default;
:mod:`mslint.model.partials`): a class handed on as a value otherwise (to a library's registry,
a partial handed on, a base list, a lookup by a name mslint cannot read, ``globals()``) may be
built anywhere, with anything; so may one that a call builds with ``*args`` or ``**kwargs``
other than its caller's own or a constant tuple (``Block(*sizes)``). Then nothing is said
(None), as where the project never builds the class. Only the files checked together are read: checking one file of a
project, its instances are those that file builds.
"""

from __future__ import annotations

import ast
import math
import operator
from collections.abc import Callable, Iterator, Mapping
from functools import cached_property, partial
from typing import NamedTuple

from mslint.model.abstract import (
    NOT_KNOWN,
    AbstractAny,
    AbstractBuilt,
    AbstractDtype,
    AbstractInstance,
    AbstractReference,
    AbstractScalar,
    AbstractSequence,
    AbstractValue,
    Construction,
    Kind,
    join,
    join_all,
    literal,
    sequence,
)
from mslint.model.assigned_before import NOTHING, assigned_before, attribute_binding, binding_of
from mslint.model.binder import (
    all_parameter_names,
    binding_counts,
    bound_once,
    literal_value,
    parameter_defaults,
    passed_arguments,
    positional_names,
    spreads,
    written_arguments,
)
from mslint.model.configs import config_fields, field_read, read_only_for_fields
from mslint.model.constructor_helpers import (
    attribute_at_first_call,
    constructor_helper,
    handed_to_helpers,
    helper_calls,
)
from mslint.model.dtypes import dtype_named
from mslint.model.host_tests import truth
from mslint.model.host_values import HostValues
from mslint.model.memo import NodeMemo
from mslint.model.module import ModuleInfo, none_test
from mslint.model.module_tables import module_tables
from mslint.model.ntuple import ntuple_helper
from mslint.model.partials import PartialCalls, partial_calls
from mslint.model.project import ClassRef, FunctionNode, FunctionRef, Project, is_mindspore_name, qualified_name
from mslint.model.registries import Callee, Creator, modules_naming, named_lookups, registered
from mslint.model.values import UNKNOWN
from mslint.model.visible_constants import module_attribute_constant, visible_constants
from mslint.model.walk import descendants, parent_of, statements
from mslint.model.wrapped_calls import CallsOf, calls_of_local_function, calls_through_wrappers, is_passing_decorator

_TYPE_TESTS = ("isinstance", "issubclass", "super")
"""Builtins whose arguments name a class without building or handing it on."""


def constructor_values(project: Project, cls: ClassRef) -> dict[str, AbstractValue] | None:
    """The value of each named parameter of ``cls``'s own ``__init__`` over the instances the
    project builds; None where they are not all known (module doc) or it builds none."""
    passed = _passed(project, cls)
    return None if passed is None else passed.named


def built_instances(
    project: Project, callee: Callee
) -> list[tuple[ast.Call, ModuleInfo, dict[str, AbstractValue]]] | None:
    """Each call that builds ``callee`` (a class, or a factory of a module's top level), with what
    it gives each named parameter of the class's own ``__init__`` or of the factory
    (:func:`constructor_values` joins them); None where they are not all known (module doc) or it
    builds none."""
    code = _code_of(project, callee)
    calls = _calls_of(project, callee)  # asked in any case, as before: it records the partials it finds
    if code is None or not calls:
        return None
    found = []
    for call, module in calls:
        given = _given(project, call, module, code.node, _is_method(callee), False)
        if given is None:
            return None
        found.append((call, module, given.named))
    return found


def classes_passed(project: Project, cls: ClassRef, parameter: str) -> list[ClassRef]:
    """The classes of the project whose instances the calls that build ``cls`` pass the parameter
    of its own ``__init__`` (``MyTrainStep(Net(), opt)`` for ``network``), each once; none where a
    call passes anything else (a library's Cell, a value not known) or nothing builds ``cls``."""
    built = built_instances(project, cls)
    found: dict[int, ClassRef] = {}
    for _, module, given in built or ():
        value = given.get(parameter)
        resolved = project.resolve(value.qualname, module) if isinstance(value, AbstractInstance) else None
        if not isinstance(resolved, ClassRef):
            return []
        found.setdefault(id(resolved.node), resolved)
    return list(found.values())


def passes_parameters(project: Project, cls: ClassRef, parameter: str) -> bool:
    """Whether every call that builds ``cls`` passes the parameter of its own ``__init__`` a
    ``Parameter``: one made there (``Parameter(...)``) or an attribute of the caller's own object
    that its class sets only to ones (``norm_bound=self._norm_bound`` where the caller's
    ``__init__`` did ``self._norm_bound = Parameter(...)``); False where a call passes anything
    else or omits it, or nothing is shown to build ``cls``."""
    init = project.find_method(cls, "__init__")
    own = init is not None and init.owner is not None and init.owner.node is cls.node
    calls = _calls_of(project, cls) if own else None
    if init is None or not calls:
        return False
    for call, module in calls:
        argument = (passed_arguments(call, init.node, is_method=True) or {}).get(parameter)
        if argument is None or not _makes_parameters(project, module, call, argument):
            return False
    return True


def _makes_parameters(project: Project, module: ModuleInfo, call: ast.Call, argument: ast.expr) -> bool:
    """Whether ``argument`` of ``call`` is a ``Parameter`` made there, or an attribute of the
    calling method's own object that its class sets only to ``Parameter``s."""
    if isinstance(argument, ast.Call):
        return is_mindspore_name(qualified_name(argument.func, module), "Parameter")
    if not (isinstance(argument, ast.Attribute) and isinstance(argument.value, ast.Name)):
        return False
    (scope,) = module.scopes_holding([call.lineno])
    owner = next((ClassRef(module, c) for c in module.nodes_of(ast.ClassDef) if scope in c.body), None)
    if owner is None or not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)) or not scope.args.args:
        return False
    if argument.value.id != scope.args.args[0].arg:
        return False
    values = project.attribute_values(owner, argument.attr)
    return bool(values) and all(
        isinstance(value, ast.Call) and is_mindspore_name(qualified_name(value.func, klass.module), "Parameter")
        for klass, value in values
    )


class FirstInstance(NamedTuple):
    """The first instance of a class the project builds that can be followed to the program's
    own call, as the compiler sees it (:func:`first_instance`)."""

    named: dict[str, AbstractValue]
    """Each named parameter of ``__init__`` (``self`` aside): its default where the call omits it."""
    keywords: dict[str, AbstractValue]
    """What its ``**kwargs`` collects, by keyword."""
    positional: tuple[AbstractValue, ...] | None
    """What its ``*args`` collects; None where that is not known."""
    call: ast.Call
    module: ModuleInfo
    through: tuple[ast.Call, ModuleInfo] | None = None
    """The call that builds the instance of the code around ``call`` that builds this one, where
    that is not the first instance of that code (:func:`_instances_around`)."""


def first_instance(project: Project, callee: Callee) -> FirstInstance | None:
    """What the first instance of ``callee`` (a class, its ``__init__``, or a factory) the project
    builds is given: built by the first of its calls (those of its name where it is also handed
    on, say to a registry's decorator) whose callers can be followed up to a call of the program,
    each through its own first instance; the variables of the loops around a call bound to their
    first element (``Block(dim=dims[i])`` under ``for i in range(len(dims))``, ``for dim, depth in
    zip(dims, depths)``, ``enumerate``, a comprehension); an item read at a known position of a
    known sequence (``embed_dims[0]``); a parameter given None replaced where the caller's first
    statements do (``if dims is None: dims = [64, 128]``, ``dims = dims or [64, 128]``); a
    conditional expression, and the tests around a call, decided as the host decides them
    (:mod:`mslint.model.host_tests`): a call in a branch that the instance of its code does not
    take builds nothing there, and the first of that code's other instances that takes it is
    tried (:func:`_instances_around`). None where there is no such call."""
    passed = _passed(project, callee, first=True)
    if passed is None or passed.built_by is None:
        return None
    keywords = {name: value for name, (value, _) in passed.keywords.items()}
    return FirstInstance(passed.named, keywords, passed.positional, *passed.built_by, passed.through)


def first_call(project: Project, callee: Callee) -> tuple[ast.Call, ModuleInfo] | None:
    """The first call that builds ``callee``, a class or a factory, in the project (``Block(dim=64,
    **kw)`` in a factory, ``LAYERS["block"](64)``), where it is only called; None where it is
    handed on or never called."""
    calls = _calls_of(project, callee)
    return calls[0] if calls else None


def never_built(project: Project, cls: ClassRef) -> bool:
    """Whether nothing in the project builds ``cls`` itself: undecorated (no registry holds it), no
    call of it, no lookup of it by name, and named otherwise only as a base class (``class
    Sub(cls)``)."""
    lookups = named_lookups(project, cls)
    if cls.node.decorator_list or lookups is None or lookups.calls or lookups.keyed:
        return False
    name = cls.node.name
    for module in modules_naming(project, name):
        if any(_refers_to(project, call.func, module, cls) for call in module.calls_by_name.get(name, ())):
            return False
        bases = {id(base) for definition in module.nodes_of(ast.ClassDef) for base in definition.bases}
        handed_on = (node for node in _handed_on(module).get(name, ()) if id(node) not in bases)
        if any(_refers_to(project, node, module, cls) for node in handed_on):
            return False
    return True


def config_passed(project: Project, cls: ClassRef, parameter: str) -> dict[str, object] | None:
    """The fields of the configuration every call of ``cls`` passes ``parameter`` of its own
    ``__init__`` (``Net(CONFIG)``, ``CONFIG = {"dim": 8}``), when each passes one of literal fields,
    the same in all, and ``__init__`` reads it only for fields (:mod:`mslint.model.configs`);
    None otherwise."""
    init = project.find_method(cls, "__init__")
    if init is None or init.owner is None or init.owner.node is not cls.node:
        return None
    if not read_only_for_fields(init.node, init.module, parameter):
        return None
    found: dict[str, object] | None = None
    for call, module in _calls_of(project, cls) or ():
        written = None if spreads(call) else written_arguments(call, init.node, True).get(parameter)
        config = None if written is None else config_fields(project, written, module)
        values = None if config is None else {f: _field_value(project, value, module) for f, value in config.items()}
        if values is None or any(value is NOT_KNOWN for value in values.values()):
            return None
        if found is not None and values != found:
            return None
        found = values
    return found


class HeldCallable(NamedTuple):
    """A MindSpore class or function that a parameter holds in every instance the program builds
    (:func:`mindspore_callable_called`)."""

    qualname: str
    """Its name in MindSpore (``mindspore.nn.LayerNorm``)."""
    partial: ast.Call | None
    """The ``functools.partial(nn.LayerNorm, epsilon=1e-6)`` it is held through, whose keywords
    (literals) each call gets under its own; None where the parameter holds it itself."""


def mindspore_callable_called(project: Project, module: ModuleInfo, call: ast.Call) -> HeldCallable | None:
    """What ``call`` calls where it calls a parameter of its code (an ``__init__``, a factory)
    that the code never rebinds and every instance the program builds gives one MindSpore class
    or function: written at the call that builds it (``norm_layer=nn.LayerNorm``), as its default,
    or as the same ``functools.partial`` of one with literal keywords (``partial(nn.LayerNorm,
    epsilon=1e-6)``), also through a parameter of the code that builds it, followed up its callers
    (``Block(dim, norm_layer=norm_layer)`` in a parent's ``__init__``). None where any instance gives
    anything else or is not known (a call through a partial, one that spreads arguments, nothing
    builds it), and where a test around it reads the parameter (``if isinstance(norm_layer,
    nn.BatchNorm2d):``, false of a class: what the code tests it for is not followed). Whether the
    first instance runs the call at all is :func:`skipped_by_first_instance`, asked apart: it costs
    more than this, and only a call the rule finds wrong needs it."""
    if not isinstance(call.func, ast.Name):
        return None
    (scope,) = module.scopes_holding([call.lineno])
    if isinstance(scope, ast.Module) or call.func.id not in all_parameter_names(scope):
        return None  # most calls: of a name that no parameter binds
    if _under_test_of(call.func.id, call, scope, module):
        return None
    return _callable_held(project, module, scope, call.func.id, _DEEPEST)


def skipped_by_first_instance(project: Project, module: ModuleInfo, call: ast.Call) -> bool:
    """Whether a test around ``call`` in its code takes the other branch in that code's first
    instance (``norm_layer(dim) if qk_norm else nn.Identity()`` with ``qk_norm=False``): the host
    never runs it there (:func:`_not_taken`)."""
    return _not_taken(project, call, module)


def _under_test_of(name: str, call: ast.Call, scope: FunctionNode, module: ModuleInfo) -> bool:
    """Whether ``call`` is in a branch of an ``if`` or a conditional expression of ``scope`` whose
    test reads ``name``."""
    child: ast.AST = call
    parent = parent_of(module.tree, child)
    while parent is not None and parent is not scope:
        test = parent.test if isinstance(parent, (ast.If, ast.IfExp)) else None
        if (
            test is not None
            and child is not test
            and any(isinstance(n, ast.Name) and n.id == name for n in descendants(test))
        ):
            return True
        child, parent = parent, parent_of(module.tree, parent)
    return False


def _callable_held(
    project: Project, module: ModuleInfo, scope: FunctionNode, name: str, depth: int
) -> HeldCallable | None:
    """What the parameter ``name`` of ``scope`` holds in every instance (:func:`mindspore_callable_called`)."""
    callee = _callees_by_node(module).get(id(scope))
    if depth == 0 or callee is None or binding_counts(scope).get(name):
        return None
    defaults = dict((p.arg, d) for p, d in parameter_defaults(scope)[1 if _is_method(callee) else 0 :])
    if name not in defaults:
        return None
    calls = _live(project, _calls_of(project, callee))
    found: HeldCallable | None = None
    for call, home in calls or ():
        if (id(call), id(scope)) in _partial_prefixes(project):
            return None  # `make(dim)` of `make = partial(Block, ...)`: the partial may give it
        written = written_arguments(call, scope, _is_method(callee)).get(name)
        if written is None and spreads(call) and not _spreads_without(project, home, call, name):
            return None
        default = defaults[name]
        if written is not None:
            held = _held_at(project, home, call, written, depth)
        else:
            held = None if default is None else _mindspore_callable(default, module)
        if held is None or (found is not None and not _same_callable(held, found)):
            return None
        found = held
    return found


def _spreads_without(project: Project, module: ModuleInfo, call: ast.Call, name: str) -> bool:
    """Whether the arguments ``call`` spreads, its caller's own ``**kwargs`` (``ViT(192, **kwargs)`` in
    a factory), never hold ``name``: no call of the caller passes that keyword, or anything by
    position that its ``*args`` would hand on."""
    (scope,) = module.scopes_holding([call.lineno])
    forwarded = None if isinstance(scope, ast.Module) else _Arguments(project, module, scope).forwarded(call)
    return forwarded is not None and name not in forwarded.keywords and not forwarded.positional


def _held_at(
    project: Project, module: ModuleInfo, call: ast.Call, written: ast.expr, depth: int
) -> HeldCallable | None:
    """What ``written``, an argument of ``call``, holds: a MindSpore callable, or a parameter of the
    code that makes the call, followed to what its instances give it."""
    (scope,) = module.scopes_holding([call.lineno])
    if isinstance(scope, ast.Module):
        return _mindspore_callable(written, module)
    root = _root_name(written)
    if not isinstance(written, ast.Name) or root not in all_parameter_names(scope):
        bound_here = root is not None and (root in binding_counts(scope) or root in all_parameter_names(scope))
        return None if bound_here else _mindspore_callable(written, module)
    return _callable_held(project, module, scope, written.id, depth - 1)


def _mindspore_callable(expr: ast.expr, module: ModuleInfo) -> HeldCallable | None:
    """``nn.LayerNorm`` (a MindSpore name of a module's), or ``partial(nn.LayerNorm, epsilon=1e-6)``
    with literal keywords only, as a :class:`HeldCallable`; None for anything else."""
    if isinstance(expr, ast.Call):
        literal_keywords = all(k.arg is not None and literal_value(k.value) is not NOT_KNOWN for k in expr.keywords)
        if len(expr.args) != 1 or not literal_keywords or qualified_name(expr.func, module) != "functools.partial":
            return None
        wrapped = _mindspore_callable(expr.args[0], module)
        return None if wrapped is None or wrapped.partial is not None else HeldCallable(wrapped.qualname, expr)
    name = qualified_name(expr, module) if isinstance(expr, (ast.Name, ast.Attribute)) else None
    return HeldCallable(name, None) if name is not None and is_mindspore_name(name) and "." in name else None


def _same_callable(first: HeldCallable, second: HeldCallable) -> bool:
    """Whether two holdings call the same callable with the same partial keywords (written alike)."""
    if first.qualname != second.qualname:
        return False
    if first.partial is None or second.partial is None:
        return first.partial is second.partial
    return ast.dump(first.partial) == ast.dump(second.partial)


def caller_built_by(module: ModuleInfo, call: ast.Call) -> Callee | None:
    """The factory (a function of the module's top level, a classmethod that builds its class) or
    the class (its ``__init__``) whose own code makes ``call``; None for a module's top level or
    any other function."""
    (scope,) = module.scopes_holding([call.lineno])
    return None if isinstance(scope, ast.Module) else _callees_by_node(module).get(id(scope))


def passed_to_parameter(
    project: Project, module: ModuleInfo, scope: ast.Module | FunctionNode, argument: ast.expr
) -> AbstractValue | None:
    """What ``argument`` of a call in ``scope`` holds where it is a parameter of ``scope`` (a
    function of a module's top level, an ``__init__``) that ``scope`` never rebinds: what the calls
    of ``scope`` pass it, joined (those through a wrapper, ``grad_fn(x, 3)`` for ``forward_fn``,
    included); UNKNOWN where they are not all known. None where ``argument`` is no such parameter."""
    if not isinstance(argument, ast.Name):
        return None
    arguments = _Arguments(project, module, scope)
    return arguments.value(argument) if arguments.is_own_parameter(argument.id) else None


def arguments_given(
    project: Project, module: ModuleInfo, scope: FunctionNode, name: str
) -> list[tuple[ast.expr, ast.Module | FunctionNode, ModuleInfo]] | None:
    """Where ``name`` is a parameter of ``scope``, a function (not a method) that never rebinds it:
    the argument each call of the function passes it (those through a wrapper, ``grad_fn(x)`` for
    ``forward_fn``, included), with the call's scope and module. None where the function has no
    call, or a call is not known or does not write the argument out."""
    callee = _callees_by_node(module).get(id(scope))
    if not isinstance(callee, FunctionRef) or callee.owner is not None or name in binding_counts(scope):
        return None
    calls = _calls_of(project, callee)
    if not calls:
        return None
    given = []
    for call, calling in calls:
        argument = (passed_arguments(call, scope, is_method=False) or {}).get(name)
        if argument is None:
            return None
        (calling_scope,) = calling.scopes_holding([call.lineno])
        given.append((argument, calling_scope, calling))
    return given


def building_calls(project: Project, callee: Callee) -> list[tuple[ast.Call, ModuleInfo]] | None:
    """Every call that builds ``callee`` in the project (or runs it, for a function), where it is
    only called (module doc); None where it is handed on."""
    return _calls_of(project, callee)


def only_call(project: Project, cls: ClassRef) -> tuple[ast.Call, ModuleInfo] | None:
    """The one call that builds ``cls`` in the project, where the class is only called; None where
    it is built by several calls, handed on or never called."""
    calls = _calls_of(project, cls)
    return calls[0] if calls and len(calls) == 1 else None


class Passed(NamedTuple):
    """What the calls of a class (its ``__init__``) or of a module's function pass it, joined
    over the calls."""

    named: dict[str, AbstractValue]
    """Each named parameter (``self`` aside): its default where a call omits it."""
    keywords: dict[str, tuple[AbstractValue, bool]]
    """What ``**kwargs`` collects, by keyword: the value, and whether every call passes it."""
    positional: tuple[AbstractValue, ...] | None
    """What ``*args`` collects; None where the calls pass different numbers of them."""
    built_by: tuple[ast.Call, ModuleInfo] | None = None
    """For the first instance (:func:`first_instance`), the call that builds it."""
    through: tuple[ast.Call, ModuleInfo] | None = None
    """For the first instance, :attr:`FirstInstance.through`."""


_DEEPEST = 32
"""How many callers deep arguments are followed: a chain of classes thousands long would pass
Python's recursion limit."""


def _passed(project: Project, callee: Callee, first: bool = False) -> Passed | None:
    """What the calls of ``callee`` pass it, joined; with ``first``, what its first instance is
    given (:func:`first_instance_values`)."""
    memo = project.derived(_nothing_asked)
    key = (id(callee.node), first)
    if key in memo:
        return memo[key]  # None while it is being found: a cycle of calls is not followed
    asking = project.derived(_nothing_being_asked)
    if len(asking) >= _DEEPEST:
        return None  # not kept: asked nearer the top, it may be known
    memo[key] = None
    asking.append(key)
    try:
        memo[key] = _passed_by_calls(project, callee, first)
    finally:
        asking.pop()
    return memo[key]


def _nothing_asked(project: Project) -> dict[tuple[int, bool], Passed | None]:
    return {}


def _nothing_being_asked(project: Project) -> list[tuple[int, bool]]:
    return []


def _passed_by_calls(project: Project, callee: Callee, first: bool) -> Passed | None:
    if isinstance(callee, ClassRef):
        init = project.find_method(callee, "__init__")
        if init is None or init.owner is None or init.owner.node is not callee.node:
            return None  # an inherited constructor: the base's own instances say what it is given
        function = init.node
    else:
        function = callee.node
    helper = constructor_helper(callee.module, callee.node) if first and isinstance(callee, FunctionRef) else None
    calls = _calls_of(project, callee) if helper is None else [(call, callee.module) for call in helper_calls(helper)]
    if first:
        handed_on = [*_named_calls(project, callee), *_called_as_parameter(project, callee)]
        for call, module in handed_on if calls is None else calls:
            for through, around in _instances_around(project, call, module):
                if _not_taken(project, call, module, around):
                    continue
                given = _given(project, call, module, function, _is_method(callee), first, callee.module, around)
                if given is None:
                    break
                return given._replace(built_by=(call, module), through=through)
        return None
    calls = _live(project, calls)
    if not calls:
        return None
    per_call = [_given(project, call, module, function, _is_method(callee), first) for call, module in calls]
    if any(given is None for given in per_call):
        return None
    return _joined([given for given in per_call if given is not None])


def _live(
    project: Project, calls: list[tuple[ast.Call, ModuleInfo]] | None
) -> list[tuple[ast.Call, ModuleInfo]] | None:
    """The calls that build an instance: none in a factory of a module's top level that the
    project never calls and never hands on (``resnet50(**kwargs)`` beside the ``resnet101`` a
    script calls, both through ``_resnet``), where other calls do."""
    if not calls:
        return calls
    live = [(call, module) for call, module in calls if not _never_called(project, caller_built_by(module, call))]
    return live or calls


def _never_called(project: Project, caller: Callee | None) -> bool:
    return isinstance(caller, FunctionRef) and caller.owner is None and _calls_of(project, caller) == []


_OTHER_INSTANCES = 8
"""How many calls of the code around a call are tried for an instance that takes its branch."""

_ITERATIONS = 8
"""How many iterations of the loop around each of those calls are tried (EfficientFormer's fourth
stage, ``index == 3``, builds what the first three do not)."""


def _instances_around(
    project: Project, call: ast.Call, module: ModuleInfo
) -> Iterator[tuple[tuple[ast.Call, ModuleInfo] | None, Passed | None]]:
    """The instances of the code around ``call`` (a class's ``__init__``, a function) that may
    build with it, in order, each as the call that builds it and what it is given: its first
    instance (None, None), then those of its first other calls whose own branch is taken
    (``self.lca = Block(dim, feedforward_type="lca")``, where the first ``Block`` is given
    ``"leff"`` and never builds the ``AttentionLCA`` of its ``else:``), each in the iterations of
    the loop around it in turn (``meta_blocks(dims[i], i)`` under ``for i in range(4)``, whose
    ``if index == 3:`` only the fourth takes)."""
    yield None, None
    (scope,) = module.scopes_holding([call.lineno])
    caller = None if isinstance(scope, ast.Module) else _callees_by_node(module).get(id(scope))
    code = None if caller is None else _code_of(project, caller)
    if caller is None or code is None:
        return
    for outer, home in (_calls_of(project, caller) or [])[:_OTHER_INSTANCES]:
        if _not_taken(project, outer, home):
            continue
        for iteration in range(_ITERATIONS):
            given = _given(project, outer, home, code.node, _is_method(caller), True, caller.module, None, iteration)
            if given is None:
                break
            yield (outer, home), given


def _not_taken(project: Project, call: ast.Call, module: ModuleInfo, around: Passed | None = None) -> bool:
    """Whether a test around ``call`` in its code, decided with what that code's first instance
    (or ``around``, another of its instances) is given, takes the other branch
    (``GroupAttention(dim, ws)`` under ``else:`` of ``if ws == 1:`` where ``ws=1``): the host never
    runs it there. A test that reads a loop's variable is not decided: a later iteration may take
    the branch."""
    return _untaken_test(project, call, module, around) is not None


def _untaken_test(
    project: Project, call: ast.Call, module: ModuleInfo, around: Passed | None = None
) -> ast.expr | None:
    """The test of :func:`_not_taken` that takes the other branch; None where none does."""
    (scope,) = module.scopes_holding([call.lineno])
    arguments: _Arguments | None = None
    child: ast.AST = call
    parent = parent_of(module.tree, child)
    while parent is not None and parent is not scope:
        if isinstance(parent, (ast.If, ast.IfExp)) and child is not parent.test:
            body = [parent.body] if isinstance(parent, ast.IfExp) else parent.body
            in_body = any(child is part for part in body)
            arguments = arguments or _Arguments(project, module, scope, True, around)
            if truth(parent.test, arguments.value) is (not in_body):
                return parent.test
        child, parent = parent, parent_of(module.tree, parent)
    return None


class NoFirstInstance(NamedTuple):
    """Why no first instance of a class is found (:func:`no_first_instance`)."""

    untaken: list[tuple[ast.expr, ModuleInfo]]
    """The tests that keep each call of its name from running, where every call has one
    (``if self.re_atten:``, whose ``else:`` builds it, where each instance is given True)."""
    handed: list[tuple[ast.AST, ModuleInfo]]
    """Where it is handed on as a value (``downsample=PatchMerging``), where it is never called."""


def no_first_instance(project: Project, callee: Callee) -> NoFirstInstance:
    """What the program does with ``callee`` where :func:`first_instance` finds none: the tests
    that keep all its calls from running, or the places it is handed on from (else neither)."""
    calls = _named_calls(project, callee)
    tests = [_untaken_test(project, call, module) for call, module in calls]
    untaken = {id(test): (test, module) for test, (_, module) in zip(tests, calls) if test is not None}
    handed = [
        (_as_passed(node, module), module)
        for module in modules_naming(project, callee.node.name)
        for node in _handed_on(module).get(callee.node.name, ())
        if _refers_to(project, node, module, callee)
    ]
    every_call_untaken = calls and None not in tests
    return NoFirstInstance(list(untaken.values()) if every_call_untaken else [], [] if calls else handed)


def _as_passed(node: ast.expr, module: ModuleInfo) -> ast.AST:
    """The keyword argument or parameter default that hands ``node`` on (``downsample=PatchMerging
    if ... else None``), where there is one; ``node`` otherwise."""
    child: ast.AST = node
    parent = parent_of(module.tree, child)
    while isinstance(parent, (ast.IfExp, ast.BoolOp)):
        child, parent = parent, parent_of(module.tree, parent)
    return parent if isinstance(parent, ast.keyword) else node


def _joined(per_call: list[Passed]) -> Passed:
    named = {name: join_all([given.named[name] for given in per_call], UNKNOWN) for name in per_call[0].named}
    keywords: dict[str, tuple[AbstractValue, bool]] = {}
    for name in {name for given in per_call for name in given.keywords}:
        passing = [given.keywords[name] for given in per_call if name in given.keywords]
        always = len(passing) == len(per_call) and all(each for _, each in passing)
        keywords[name] = (join_all([value for value, _ in passing], UNKNOWN), always)
    positionals = [given.positional for given in per_call if given.positional is not None]
    same_count = len(positionals) == len(per_call) and len({len(each) for each in positionals}) == 1
    positional = tuple(join_all(column, UNKNOWN) for column in zip(*positionals)) if same_count else None
    return Passed(named, keywords, positional)


def _calls_of(project: Project, callee: Callee) -> list[tuple[ast.Call, ModuleInfo]] | None:
    """Every call that builds ``callee`` in the project: of its name, and through the registries
    it is put in (:mod:`mslint.model.registries`); None where it is named other than by a call of
    it, a type test or a registration under a literal name (handed on as a value), or decorated
    other than by a registration."""
    name = callee.node.name
    if isinstance(callee, FunctionRef) and _is_local(callee):
        return calls_of_local_function(callee.node, callee.module, _calls_of_function(project))
    calls: list[tuple[ast.Call, ModuleInfo]] = []
    handed_on: list[tuple[ast.expr, ModuleInfo]] = []
    for module in modules_naming(project, name):
        handed_on += [
            (node, module) for node in _handed_on(module).get(name, ()) if _refers_to(project, node, module, callee)
        ]
        calls += [
            (call, module)
            for call in module.calls_by_name.get(name, ())
            if _refers_to(project, call.func, module, callee)
        ]
    if isinstance(callee, FunctionRef) and callee.owner is not None:  # a classmethod that builds its class
        unresolved = any(
            project.resolve_expr(call.func, module) is None for call, module in _calls_named(project, name)
        )
        return None if handed_on or unresolved else calls
    if isinstance(callee, ClassRef):
        handed_on = [
            (node, module)
            for node, module in handed_on
            if not _calls_a_builder(node, module, callee) and not _uses_without_building(node, module, callee)
        ]
        for builder in _builders(callee):
            built_by = _calls_of(project, builder)
            if built_by is None:
                return None
            calls += [(call, callee.module) for call in _calls_of_cls(builder.node)] if built_by else []
    by_name = named_lookups(project, callee)
    if by_name is None:
        return None
    calls += by_name.calls
    for keyed in by_name.keyed:
        given = _name_given(project, keyed.key, keyed.module)
        if given is None:
            return None
        if given == callee.node.name:
            calls.append((keyed.call, keyed.module))
    through_partials, handed_on = _calls_through_partials(project, callee, handed_on)
    calls += through_partials
    decorators = callee.node.decorator_list
    if isinstance(callee, FunctionRef):  # value_and_grad(forward_fn), @jit: called with their callers' arguments
        wrapped = calls_through_wrappers(handed_on, _calls_of_function(project))
        if wrapped is None:
            return None
        calls += wrapped.calls
        handed_on = wrapped.others
        decorators = [d for d in decorators if not is_passing_decorator(d, callee.module)]
    if not handed_on and not decorators:
        return calls
    through = registered(project, callee, handed_on)
    if through is None:
        return None
    calls += through.calls
    for creator, names in through.creators:
        asked = _names_asked(project, creator)
        if asked is None:
            return None
        if asked & names:
            calls.append((creator.call, creator.module))
    for keyed, names in through.keyed:
        given = _name_given(project, keyed.key, keyed.module)
        if given is None:
            return None
        if given in names:
            calls.append((keyed.call, keyed.module))
    return calls


def _calls_through_partials(
    project: Project, callee: Callee, handed_on: list[tuple[ast.expr, ModuleInfo]]
) -> tuple[list[tuple[ast.Call, ModuleInfo]], list[tuple[ast.expr, ModuleInfo]]]:
    """The calls of the partial objects that wrap ``callee`` where those are all known
    (:mod:`mslint.model.partials`): each builds an instance, given the partial's arguments first
    (:func:`_given` reads them from :func:`_partial_prefixes`); and the references handed on
    otherwise."""
    code = _code_of(project, callee)
    if code is None:
        return [], handed_on
    found, others = [], []
    prefixes = _partial_prefixes(project)
    for node, module in handed_on:
        wrapped = partial_calls(project, node, module)
        if wrapped is None:
            others.append((node, module))
            continue
        for call in wrapped.calls:
            prefixes[(id(call), id(code.node))] = wrapped
            found.append((call, module))
    return found, others


def _partial_prefixes(project: Project) -> dict[tuple[int, int], PartialCalls]:
    """By a call's node and the node of the code it runs (a class's ``__init__``, a function) as a
    call of a partial object: that partial (memoized per project)."""
    return project.derived(_no_partials)


def _no_partials(project: Project) -> dict[tuple[int, int], PartialCalls]:
    return {}


def _named_calls(project: Project, callee: Callee) -> list[tuple[ast.Call, ModuleInfo]]:
    """The calls of ``callee``'s name that call it: some of the instances the project builds."""
    return [
        (call, module)
        for call, module in _calls_named(project, callee.node.name)
        if _refers_to(project, call.func, module, callee)
    ]


def _called_as_parameter(project: Project, callee: Callee) -> list[tuple[ast.Call, ModuleInfo]]:
    """The calls of a parameter that ``callee`` is handed to (``block_fn(dim, heads)`` in an
    ``__init__`` where ``block_fn=Block`` is its default, or where the caller passes ``Block``),
    in the code of a class or function whose first instance gives that parameter ``callee``: they
    build its first instance."""
    found = []
    for module in modules_naming(project, callee.node.name):
        for node in _handed_on(module).get(callee.node.name, ()):
            if not _refers_to(project, node, module, callee):
                continue
            for holder, parameter in _parameters_handed(project, node, module):
                first = _passed(project, holder, first=True) or _built_with_defaults(project, holder)
                given = None if first is None else first.named.get(parameter)
                if not (
                    isinstance(given, AbstractReference)
                    and given.qualname == callee.node.name
                    and given.module == str(callee.module.path.resolve())
                ):
                    continue
                code = _code_of(project, holder)
                if code is None or parameter in binding_counts(code.node):
                    continue
                found += _calls_of_name(code, parameter)
                if isinstance(holder, ClassRef):  # `self._make_layer(block, 64, 3)`: the helper calls it
                    for helper, name in handed_to_helpers(holder, code.node, parameter):
                        found += [] if name in binding_counts(helper.node) else _calls_of_name(helper, name)
    return found


def _calls_of_name(function: FunctionRef, name: str) -> list[tuple[ast.Call, ModuleInfo]]:
    """The calls of ``name`` in ``function``'s code (``block_fn(dim)``), in order."""
    return [
        (call, function.module)
        for call in descendants(function.node)
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == name
    ]


def _parameters_handed(project: Project, node: ast.expr, module: ModuleInfo) -> list[tuple[Callee, str]]:
    """The class or function and its parameter that ``node`` is handed to: as the parameter's
    default (``block_fn=Block``), or as the argument of a call of it (``ResNet(BottleNeck, ...)``)."""
    parent = parent_of(module.tree, node)
    if isinstance(parent, ast.arguments):
        function = parent_of(module.tree, parent)
        holder = _callees_by_node(module).get(id(function))
        if holder is None or not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return []
        named = [parameter.arg for parameter, default in parameter_defaults(function) if default is node]
        return [(holder, name) for name in named]
    call = parent_of(module.tree, parent) if isinstance(parent, ast.keyword) else parent
    if not isinstance(call, ast.Call) or node is call.func:
        return []
    holder = project.resolve_expr(call.func, module)
    code = None if holder is None else _code_of(project, holder)
    if holder is None or code is None:
        return []
    written = written_arguments(call, code.node, _is_method(holder))
    return [(holder, name) for name, value in written.items() if value is node]


def _code_of(project: Project, callee: Callee) -> FunctionRef | None:
    """The code that runs when ``callee`` is called: a class's own ``__init__``, a function of a
    module's top level."""
    if isinstance(callee, ClassRef):
        init = project.find_method(callee, "__init__")
        return init if init is not None and init.owner is not None and init.owner.node is callee.node else None
    return callee if callee.owner is None else None


def _calls_of_function(project: Project) -> CallsOf:
    """The calls of a function of the project, as :func:`_calls_of` finds them."""
    return lambda function, module: _calls_of(project, FunctionRef(module, function))


def _is_local(function: FunctionRef) -> bool:
    """Whether a function is defined in another function's body (``forward_fn`` in ``train()``)."""
    return function.owner is None and function.module.functions.get(function.node.name) is not function.node


def _calls_named(project: Project, name: str) -> list[tuple[ast.Call, ModuleInfo]]:
    return [(call, module) for module in modules_naming(project, name) for call in module.calls_by_name.get(name, ())]


def _is_method(callee: Callee | None) -> bool:
    """Whether ``callee`` takes its class or instance first: a class (its ``__init__``), a classmethod."""
    return isinstance(callee, ClassRef) or (isinstance(callee, FunctionRef) and callee.owner is not None)


def _builders(cls: ClassRef) -> list[FunctionRef]:
    """The classmethods of ``cls``'s own body that build it (``return cls(dim=cfg.dim)``): they
    read their first parameter only to call it."""
    return [
        FunctionRef(cls.module, statement, cls)
        for statement in cls.node.body
        if isinstance(statement, ast.FunctionDef) and _is_builder(statement)
    ]


def _is_builder(method: ast.FunctionDef) -> bool:
    decorators = method.decorator_list
    if not (len(decorators) == 1 and isinstance(decorators[0], ast.Name) and decorators[0].id == "classmethod"):
        return False
    names = positional_names(method, False)
    if not names or names[0] in binding_counts(method):
        return False
    calls = _calls_of_cls(method)
    return bool(calls) and len(calls) == len(_reads(method, names[0]))


def _calls_of_cls(method: FunctionNode) -> list[ast.Call]:
    """The calls of a classmethod's first parameter (``cls(...)``)."""
    names = positional_names(method, False)
    return [
        node
        for node in descendants(method)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and names and node.func.id == names[0]
    ]


def _reads(function: FunctionNode, name: str) -> list[ast.Name]:
    return [node for node in descendants(function) if isinstance(node, ast.Name) and node.id == name]


def _calls_a_builder(reference: ast.expr, module: ModuleInfo, cls: ClassRef) -> bool:
    """Whether ``reference`` to ``cls`` is the receiver of a call of one of its builders
    (``Net.from_config(cfg)``), which :func:`_calls_of` follows."""
    return any(
        isinstance(call.func, ast.Attribute) and call.func.value is reference
        for builder in _builders(cls)
        for call in module.calls_by_name.get(builder.node.name, ())
    )


def _uses_without_building(reference: ast.expr, module: ModuleInfo, cls: ClassRef) -> bool:
    """Whether ``reference`` to ``cls`` only reads what its class body binds: a value it assigns
    (``InceptionV3.BLOCK_INDEX_BY_DIM[dims]``) or a static method (``MoCo._shuffle(x)``). That
    builds nothing and hands nothing on."""
    read = parent_of(module.tree, reference)
    return (
        isinstance(read, ast.Attribute)
        and read.value is reference
        and isinstance(read.ctx, ast.Load)
        and read.attr in _class_body_values(cls.node)
    )


def _class_body_values(cls: ast.ClassDef) -> set[str]:
    """The names a class body binds by assignment, and its static methods."""
    found: set[str] = set()
    for statement in cls.body:
        targets = statement.targets if isinstance(statement, ast.Assign) else []
        if isinstance(statement, ast.AnnAssign) and statement.value is not None:
            targets = [statement.target]
        found.update(t.id for t in targets if isinstance(t, ast.Name))
        if isinstance(statement, ast.FunctionDef) and any(
            isinstance(d, ast.Name) and d.id == "staticmethod" for d in statement.decorator_list
        ):
            found.add(statement.name)
    return found


def _names_asked(project: Project, creator: Creator) -> set[str] | None:
    """The names the calls of a creator give its parameter (:func:`_name_given`); None where one
    gives a name that is not known."""
    calls = _calls_of(project, creator.function)
    if calls is None:
        return None
    asked = set()
    for call, module in calls:
        written = written_arguments(call, creator.function.node, False).get(creator.parameter)
        name = None if written is None else _name_given(project, written, module)
        if name is None:
            return None
        asked.add(name)
    return asked


def _name_given(project: Project, expr: ast.expr, module: ModuleInfo) -> str | None:
    """The name ``expr`` gives a registry lookup or a creator, where it is a string constant of the
    host code as a constructor's argument is (:class:`_Arguments`): a literal, a module constant
    (``ARCH``), a configuration's field (``args.arch``, ``cfg["model"]["name"]``), a local bound
    once to one of those; None otherwise."""
    (scope,) = module.scopes_holding([expr.lineno])
    if isinstance(expr, ast.Name) and not isinstance(scope, ast.Module):
        expr = bound_once(scope, expr.id) or expr
    value = _Arguments(project, module, scope).value(expr)
    return value.value if isinstance(value, AbstractScalar) and isinstance(value.value, str) else None


_HANDED_ON: NodeMemo[ast.Module, dict[str, list[ast.expr]]] = NodeMemo()


def _handed_on(module: ModuleInfo) -> dict[str, list[ast.expr]]:
    """By the name they end with: the names and attributes the module reads other than to call
    them, in a type test or in an annotation (``net: Net``, ``-> Net``: it names a class, as a
    type test does, and builds nothing) (memoized by tree)."""
    return _HANDED_ON(module.tree, lambda _: _references_handed_on(module))


def _references_handed_on(module: ModuleInfo) -> dict[str, list[ast.expr]]:
    called = {id(call.func) for call in module.nodes_of(ast.Call)}
    only_named = {
        id(argument)
        for call in module.nodes_of(ast.Call)
        if isinstance(call.func, ast.Name) and call.func.id in _TYPE_TESTS
        for argument in descendants(call)
    }
    annotations = [n.annotation for n in module.nodes_of(ast.arg)]
    annotations += [n.annotation for n in module.nodes_of(ast.AnnAssign)]
    annotations += [n.returns for n in module.nodes_of(ast.FunctionDef)]
    annotations += [n.returns for n in module.nodes_of(ast.AsyncFunctionDef)]
    only_named.update(id(n) for annotation in annotations if annotation is not None for n in descendants(annotation))
    found: dict[str, list[ast.expr]] = {}
    named: list[tuple[str, ast.expr]] = [(n.id, n) for n in module.nodes_of(ast.Name)]
    named += [(n.attr, n) for n in module.nodes_of(ast.Attribute)]
    for name, node in named:
        if id(node) not in called and id(node) not in only_named:
            found.setdefault(name, []).append(node)
    return found


def _refers_to(project: Project, expr: ast.expr, module: ModuleInfo, callee: Callee) -> bool:
    resolved = project.resolve_expr(expr, module)
    return resolved is not None and resolved.node is callee.node


def reference_to(project: Project, expr: ast.expr, module: ModuleInfo) -> AbstractReference | None:
    """``expr`` (``BottleNeck``, ``nn.GELU``) as a reference to a class or function of a module's
    top level: one of the project's, or MindSpore's; None for anything else."""
    if not isinstance(expr, (ast.Name, ast.Attribute)):
        return None
    name = qualified_name(expr, module)
    if name is None:
        return None
    if is_mindspore_name(name) and "." in name:
        home, _, qualname = name.rpartition(".")
        return AbstractReference(Kind.CONSTANT, home, qualname)
    resolved = project.resolve(name, module)
    if isinstance(resolved, FunctionRef) and resolved.owner is not None:
        return None
    if resolved is None or resolved.node not in resolved.module.tree.body:
        return None
    return AbstractReference(Kind.CONSTANT, str(resolved.module.path.resolve()), resolved.node.name)


def _starred(items: list[ast.expr]) -> bool:
    return any(isinstance(item, ast.Starred) for item in items)


def _root_name(expr: ast.expr) -> str | None:
    """``nn`` of ``nn.GELU``, ``block`` of ``block``."""
    while isinstance(expr, ast.Attribute):
        expr = expr.value
    return expr.id if isinstance(expr, ast.Name) else None


def _given(
    project: Project,
    call: ast.Call,
    module: ModuleInfo,
    function: FunctionNode,
    is_method: bool,
    first: bool,
    home: ModuleInfo | None = None,
    around: Passed | None = None,
    iteration: int = 0,
) -> Passed | None:
    """What one call passes each parameter of ``function`` (a named one its default where the call
    omits it); None where it spreads arguments other than its caller's own ``*args`` and
    ``**kwargs``, which may pass any of them, or where the ``iteration``-th run of the innermost
    loop around it (with ``first``; :meth:`_Arguments.iteration`) is not known. With ``first``,
    what its first instance is given,
    a default that names a class or function (``act=nn.GELU``, in ``home``, the module of
    ``function``) as a reference to it; ``around``: what the code that makes ``call`` is given,
    where that is not its first instance (:func:`_instances_around`)."""
    (scope,) = module.scopes_holding([call.lineno])
    arguments = _Arguments(project, module, scope, first, around)
    loop = arguments.iteration(call, iteration) if first else {}
    if loop is None:
        return None
    positional = [arguments.value(a, loop) for a in call.args if not isinstance(a, ast.Starred)]
    keywords = {k.arg: (arguments.value(k.value, loop), True) for k in call.keywords if k.arg is not None}
    unpacked = arguments.unpacked(call.args, loop)
    if unpacked is not None and all(k.arg is not None for k in call.keywords):  # `Block(*sizes)`
        positional = unpacked
    elif spreads(call):
        forwarded = arguments.forwarded(call)
        if forwarded is None:
            return None
        positional += forwarded.positional or ()
        keywords = {**forwarded.keywords, **keywords}
    wrapped = _partial_prefixes(project).get((id(call), id(function)))
    if wrapped is not None:  # `make(4)` of `make = partial(Block, attention=False)`
        made = arguments if wrapped.scope is scope else _Arguments(project, module, wrapped.scope, first)
        positional = [made.value(a) for a in wrapped.partial.args[1:]] + positional
        keywords = {**{k.arg: (made.value(k.value), True) for k in wrapped.partial.keywords if k.arg}, **keywords}
    names = positional_names(function, is_method)
    by_position = dict(zip(names, positional))
    named: dict[str, AbstractValue] = {}
    for parameter, default in parameter_defaults(function)[1 if is_method else 0 :]:
        given = NOT_KNOWN if default is None else literal_value(default)
        omitted = UNKNOWN if given is NOT_KNOWN else literal(given)
        if first and home is not None and default is not None and given is NOT_KNOWN:
            omitted = reference_to(project, default, home) or omitted
        value, always = keywords.pop(parameter.arg, (omitted, True))
        named[parameter.arg] = by_position.get(parameter.arg, value if always else join(value, omitted))
    return Passed(named, keywords, tuple(positional[len(names) :]))


_NO_LOOP: Mapping[str, AbstractValue] = {}
"""No loop around the call: no variable bound by one."""


class _Arguments:
    """The values of the arguments a call in ``scope`` passes: where one is a parameter of its
    caller (a class's ``__init__``, a module's function) that the caller never rebinds, what the
    caller's own calls pass it (with ``first``, what the caller's first instance is given)."""

    def __init__(
        self,
        project: Project,
        module: ModuleInfo,
        scope: ast.Module | FunctionNode,
        first: bool = False,
        around: Passed | None = None,
    ) -> None:
        self._project = project
        self._around = around
        """What the caller is given, where it is not its first instance (:func:`_instances_around`)."""
        self._first = first
        self._scope = scope
        self._caller = None if isinstance(scope, ast.Module) else _callees_by_node(module).get(id(scope))
        self._helper = None if self._caller is not None or not first else constructor_helper(module, scope)
        """A method the constructor calls to build parts (:mod:`mslint.model.constructor_helpers`)."""
        self._caller = self._caller or self._helper
        self._host = HostValues(scope, module, project)
        self._module = module

    def value(self, argument: ast.expr, loop: Mapping[str, AbstractValue] = _NO_LOOP) -> AbstractValue:
        """``loop``: the values of the loop variables around the call (:meth:`iteration`)."""
        if isinstance(argument, ast.Name) and argument.id in loop:
            return loop[argument.id]
        if self._first and isinstance(argument, ast.Subscript):
            table = self._table_item(argument)
            if table is not None:
                return table
            item = _item_at(self.value(argument.value, loop), self.value(argument.slice, loop))
            if item is not None:
                return item
        if self._first and isinstance(argument, ast.BinOp):
            number = _arithmetic(argument.op, self.value(argument.left, loop), self.value(argument.right, loop))
            if number is not None:
                return literal(number)
        if self._first and isinstance(argument, ast.Call) and _is_int_call(argument, self._module):
            number = _number(self.value(argument.args[0], loop))
            if number is not None and math.isfinite(number) and not self._is_local("int"):
                return literal(int(number))
        if self._first and isinstance(argument, ast.Name) and self._defaulted_here(argument.id) is not None:
            return self._given_or_default(argument.id, loop)
        held = self._held_at_read(argument, loop) if self._first else None
        if held is not None:
            return held
        if isinstance(argument, ast.Name) and self.is_own_parameter(argument.id):
            passed = self._passed_to_caller()
            return UNKNOWN if passed is None else passed.named.get(argument.id, UNKNOWN)
        if self._helper is not None and self._helper.owner is not None:
            kept = attribute_at_first_call(self._helper, argument, lambda test: truth(test, self.value))
            init = self._project.find_method(self._helper.owner, "__init__")
            if kept is not None and kept.in_helper:  # `self.downsample`, as the helper set it before the read
                return self.value(kept.value)
            if kept is not None and init is not None:  # `self.in_channels`, as the constructor set it before its call
                return _Arguments(self._project, self._module, init.node, True).value(kept.value)
        if self._first and isinstance(argument, ast.IfExp):
            holds = truth(argument.test, lambda part: self.value(part, loop))
            if holds is not None:  # `1 if i % 2 == 1 else wss[k]`: the host takes one side
                return self.value(argument.body if holds else argument.orelse, loop)
        if self._first and isinstance(argument, ast.Attribute):
            held = self._class_attribute(argument, loop)
            if held is not None:
                return held
        read = field_read(argument)
        if read is not None and self.is_own_parameter(read[0]):
            return self._field_passed(*read)
        if self._first and isinstance(argument, (ast.List, ast.Tuple)) and not _starred(argument.elts):
            kind = "list" if isinstance(argument, ast.List) else "tuple"
            return sequence(kind, tuple(self.value(item, loop) for item in argument.elts))
        made = self._made_by_helper(argument, loop) if self._first and isinstance(argument, ast.Call) else None
        if made is not None:
            return made
        child = self._child_attribute(argument, loop) if self._first and isinstance(argument, ast.Attribute) else None
        if child is not None:
            return child
        built = self._built(argument, loop) if self._first and isinstance(argument, ast.Call) else None
        if built is not None:
            return built
        constant = _module_constant(self._project, argument, self._module)
        if constant is not NOT_KNOWN:
            return literal(constant)
        reference = None if not self._first or self._is_local_root(argument) else self._reference(argument)
        return reference or self._host.value(argument)

    def _held_at_read(self, argument: ast.expr, loop: Mapping[str, AbstractValue]) -> AbstractValue | None:
        """What a local name, a parameter bound again, or ``self.attr`` in an ``__init__`` holds
        where the caller's code reads it (``patch_size = merge_size[i]`` earlier in the loop's
        body; ``self.dim // 4`` after ``self.dim = dim``; :mod:`mslint.model.assigned_before`);
        None where no such binding is known."""
        if isinstance(self._scope, ast.Module) or self._caller is None:
            return None
        names = positional_names(self._scope, False)
        self_name = names[0] if names and _is_method(self._caller) else None
        if isinstance(argument, ast.Name) and argument.id in self._comprehension_variables:
            return None
        binds = binding_of(argument, self_name if isinstance(self._caller, ClassRef) else None)
        if binds is None:
            return None
        decided = partial(truth, value=partial(self.value, loop=loop))
        found = assigned_before(self._scope.body, argument, binds, decided)
        if found is None:
            return None
        if found is not NOTHING:
            return self.value(found, loop)
        if isinstance(argument, ast.Name) and argument.id in self._rebound and self.is_parameter(argument.id):
            passed = self._passed_to_caller()  # `img_size = to_2tuple(img_size)` reads the parameter
            return None if passed is None else passed.named.get(argument.id)
        return None

    def _made_by_helper(self, call: ast.Call, loop: Mapping[str, AbstractValue]) -> AbstractValue | None:
        """What ``to_2tuple(x)`` (:mod:`mslint.model.ntuple`), or ``min``, ``max``, ``sum`` or ``len``
        of a sequence of known numbers (``min(self.input_resolution)``), returns; None otherwise."""
        if len(call.args) != 1 or call.keywords or isinstance(call.args[0], ast.Starred):
            return None
        helper = ntuple_helper(self._project, call.func, self._module)
        if helper is not None:
            return helper.of(self.value(call.args[0], loop))
        builtin = qualified_name(call.func, self._module)
        reduce = _REDUCTIONS.get(builtin or "")
        if reduce is None or self._is_local(builtin.rpartition(".")[2] if builtin else ""):
            return None
        given = self.value(call.args[0], loop)
        items = given.items if isinstance(given, AbstractSequence) else None
        numbers = [number for number in map(_number, items or ()) if number is not None]
        if items is None or len(numbers) != len(items) or (not numbers and reduce is not len):
            return None
        return literal(reduce(numbers))

    def _child_attribute(self, argument: ast.Attribute, loop: Mapping[str, AbstractValue]) -> AbstractValue | None:
        """What the ``__init__`` of a Cell the caller's code built before the read leaves in an
        attribute of it (``self.patch_embed.patches_resolution`` after ``self.patch_embed =
        PatchEmbed(img_size=img_size)``, ``PatchEmbed`` setting ``self.patches_resolution`` from
        its arguments); None otherwise."""
        if isinstance(self._scope, ast.Module) or self._caller is None:
            return None
        names = positional_names(self._scope, False)
        binds = binding_of(argument.value, names[0] if names and isinstance(self._caller, ClassRef) else None)
        decided = partial(truth, value=partial(self.value, loop=loop))
        built = None if binds is None else assigned_before(self._scope.body, argument.value, binds, decided)
        if not isinstance(built, ast.Call) or spreads(built):
            return None
        cls = self._project.resolve_expr(built.func, self._module)
        init = _code_of(self._project, cls) if isinstance(cls, ClassRef) else None
        if cls is None or init is None:
            return None
        given = _given(self._project, built, self._module, init.node, True, True, cls.module, self._around)
        child_self = positional_names(init.node, False)[:1]
        if given is None or not child_self:
            return None
        inside = _Arguments(self._project, cls.module, init.node, True, given)
        decided_inside = partial(truth, value=inside.value)
        held = assigned_before(init.node.body, None, attribute_binding(argument.attr, child_self[0]), decided_inside)
        return None if held is None or held is NOTHING else inside.value(held)

    @cached_property
    def _comprehension_variables(self) -> frozenset[str]:
        """The names the comprehensions of the caller's code bind: a read of one may be its own."""
        return frozenset(
            node.id
            for comprehension in descendants(self._scope)
            if isinstance(comprehension, ast.comprehension)
            for node in ast.walk(comprehension.target)
            if isinstance(node, ast.Name)
        )

    def _class_attribute(self, argument: ast.Attribute, loop: Mapping[str, AbstractValue]) -> AbstractValue | None:
        """A literal that the body of a project's class handed on as a value binds once
        (``block.expansion`` where ``block`` holds ``BottleNeck``, whose body says ``expansion = 4``);
        None otherwise (one of a base class included)."""
        owner = self.value(argument.value, loop)
        if not isinstance(owner, AbstractReference):
            return None
        module = next((m for m in self._project.modules if str(m.path.resolve()) == owner.module), None)
        cls = None if module is None else module.classes.get(owner.qualname)
        if module is None or cls is None or cls not in module.tree.body:
            return None
        bound = [s for s in cls.body if isinstance(s, (ast.Assign, ast.AnnAssign)) and _binds(s, argument.attr)]
        if len(bound) != 1 or bound[0].value is None:
            return None
        known = literal_value(bound[0].value)
        return None if known is NOT_KNOWN else literal(known)

    def _reference(self, argument: ast.expr) -> AbstractReference | None:
        return reference_to(self._project, argument, self._module)

    def _is_local_root(self, argument: ast.expr) -> bool:
        return not isinstance(self._scope, ast.Module) and _root_name(argument) in self._rebound

    def _built(self, call: ast.Call, loop: Mapping[str, AbstractValue]) -> AbstractBuilt | None:
        """What ``call`` builds, for a first instance: a call of a class or function of a module's
        top level (``Attention(dim, heads)``, ``nn.SequentialCell(nn.Dense(8, 8), nn.GELU())``,
        ``resnet50()``) that spreads nothing, with the values of its arguments; None otherwise."""
        callee = None if self._is_local_root(call.func) or spreads(call) else self._reference(call.func)
        if callee is None:
            return None
        args = tuple(self.value(argument, loop) for argument in call.args)
        keywords = tuple((k.arg, self.value(k.value, loop)) for k in call.keywords if k.arg is not None)
        return AbstractBuilt(Kind.CONSTANT, callee, args, keywords)

    def _table_item(self, argument: ast.Subscript) -> AbstractValue | None:
        """The item of a table of the module's top level read by a literal key
        (``EfficientFormer_depth["l1"]``, :mod:`mslint.model.module_tables`); None otherwise."""
        table = argument.value
        if not isinstance(table, ast.Name) or (
            not isinstance(self._scope, ast.Module)
            and (table.id in self._rebound or table.id in all_parameter_names(self._scope))
        ):
            return None  # a local name or a parameter hides the module's
        key = literal_value(argument.slice)
        items = module_tables(self._module.tree).get(table.id, {})
        return literal(items[key]) if isinstance(key, (str, int, float)) and key in items else None

    def _field_passed(self, parameter: str, field: str) -> AbstractValue:
        """A field of the configuration the caller's calls pass ``parameter``
        (:mod:`mslint.model.configs`), where each passes one whose field is a literal."""
        assert not isinstance(self._scope, ast.Module) and self._caller is not None
        if not read_only_for_fields(self._scope, self._module, parameter):
            return UNKNOWN
        calls = _calls_of(self._project, self._caller)
        if not calls:
            return UNKNOWN
        values = []
        for call, module in calls:
            written = None if spreads(call) else written_arguments(call, self._scope, _is_method(self._caller))
            config = (
                None
                if written is None or parameter not in written
                else config_fields(self._project, written[parameter], module)
            )
            known = (
                NOT_KNOWN
                if config is None or field not in config
                else _field_value(self._project, config[field], module)
            )
            if known is NOT_KNOWN:
                return UNKNOWN
            values.append(literal(known))
        return join_all(values, UNKNOWN)

    def unpacked(self, items: list[ast.expr], loop: Mapping[str, AbstractValue]) -> list[AbstractValue] | None:
        """The values of positional arguments that spread constant tuples (``*sizes``, where
        ``sizes = (64, 10)`` is bound once in the scope or is a module constant; ``*(64, 10)``),
        each spread item in its place; None where one spreads anything else, or none spreads."""
        values: list[AbstractValue] = []
        for item in items:
            if not isinstance(item, ast.Starred):
                values.append(self.value(item, loop))
                continue
            spread = item.value
            if isinstance(spread, ast.Name) and not isinstance(self._scope, ast.Module):
                spread = bound_once(self._scope, spread.id) or self._module_tuple(spread) or spread
            value = self.value(spread, loop)
            if not isinstance(value, AbstractSequence) or value.items is None:
                return None
            if value.type != "tuple" and not isinstance(spread, (ast.Tuple, ast.List)):
                return None  # a list held by a name may have changed
            values.extend(value.items)
        return values if _starred(items) else None

    def _module_tuple(self, read: ast.Name) -> ast.Tuple | None:
        """The tuple of literals the module's name ``read`` reads is bound to once at its top level,
        where no function around the read binds the name and none declares it ``global``."""
        tree = self._module.tree
        if _bound_in_functions(self._module, read, read.id) or any(
            isinstance(node, ast.Global) and read.id in node.names for node in statements(tree)
        ):
            return None
        value = bound_once(tree, read.id)
        return value if isinstance(value, ast.Tuple) and literal_value(value) is not NOT_KNOWN else None

    def forwarded(self, call: ast.Call) -> Passed | None:
        """What ``call`` passes by spreading its caller's own ``*args`` (the last positional
        argument) and ``**kwargs``: their share of what the caller's calls pass (``named`` aside);
        None where it spreads anything else."""
        starred = [a for a in call.args if isinstance(a, ast.Starred)]
        spread = [k.value for k in call.keywords if k.arg is None]
        if isinstance(self._scope, ast.Module) or len(starred) > 1 or len(spread) > 1:
            return None
        if starred and (call.args[-1] is not starred[0] or not self._is_own(starred[0].value, self._scope.args.vararg)):
            return None
        if spread and not (self._is_own(spread[0], self._scope.args.kwarg) and _only_spread_or_got(self._scope)):
            return None
        passed = self._passed_to_caller()
        if passed is None or (starred and passed.positional is None):
            return None
        return Passed({}, passed.keywords if spread else {}, passed.positional if starred else ())

    def _is_own(self, expr: ast.expr, parameter: ast.arg | None) -> bool:
        """Whether ``expr`` reads ``parameter`` of the caller, never rebound there."""
        return (
            parameter is not None
            and isinstance(expr, ast.Name)
            and expr.id == parameter.arg
            and expr.id not in self._rebound
        )

    def _is_local(self, name: str) -> bool:
        """Whether the caller's code binds ``name`` itself (a parameter or a local)."""
        if isinstance(self._scope, ast.Module):
            return False
        return name in self._rebound or name in all_parameter_names(self._scope)

    def is_own_parameter(self, name: str) -> bool:
        return name not in self._rebound and self.is_parameter(name) if self._caller is not None else False

    def is_parameter(self, name: str) -> bool:
        """Whether ``name`` is a parameter of the caller's code (``self`` aside), bound again or not."""
        if isinstance(self._scope, ast.Module) or self._caller is None:
            return False
        parameters = parameter_defaults(self._scope)[1 if _is_method(self._caller) else 0 :]
        return any(parameter.arg == name for parameter, _ in parameters)

    @cached_property
    def _rebound(self) -> dict[str, int]:
        assert not isinstance(self._scope, ast.Module)
        return binding_counts(self._scope)

    def _passed_to_caller(self) -> Passed | None:
        """What the caller's calls pass it; for a first instance, where no call of the caller can
        be followed, what it holds built with its defaults, as verify builds it then."""
        if self._caller is None:
            return None
        if self._around is not None:
            return self._around
        passed = _passed(self._project, self._caller, self._first)
        if passed is None and self._first:
            return _built_with_defaults(self._project, self._caller)
        return passed

    def _defaulted_here(self, name: str) -> ast.expr | None:
        """The ``X`` of ``if name is None: name = X`` or ``name = name or X``, where that statement
        of the body of the caller's code is the one that binds its parameter ``name`` again."""
        if isinstance(self._scope, ast.Module) or self._caller is None or self._rebound.get(name) != 1:
            return None
        parameters = parameter_defaults(self._scope)[1 if _is_method(self._caller) else 0 :]
        if not any(parameter.arg == name for parameter, _ in parameters):
            return None
        return next((x for x in map(lambda s: _default_given(s, name), self._scope.body) if x is not None), None)

    def _given_or_default(self, name: str, loop: Mapping[str, AbstractValue]) -> AbstractValue:
        """What the caller's first instance is given as ``name``, or, where that is None, the
        value ``name`` gets in its place (:meth:`_defaulted_here`)."""
        passed = self._passed_to_caller()
        given = UNKNOWN if passed is None else passed.named.get(name, UNKNOWN)
        default = self._defaulted_here(name)
        if default is not None and isinstance(given, AbstractScalar) and given.type == "None":
            return self.value(default, loop)
        truthy = (isinstance(given, AbstractSequence) and given.items) or (
            isinstance(given, AbstractScalar) and given.value
        )
        return given if truthy else UNKNOWN  # a value that is falsy is not known to be kept

    def iteration(self, call: ast.Call, index: int = 0) -> dict[str, AbstractValue] | None:
        """The values of the variables of the loops and comprehensions of the scope around
        ``call``, the outermost first: each in its first iteration (a loop that runs the call runs
        at least once), the innermost in its ``index``-th; a variable the scope binds again is left
        out. None where that iteration is not known to run (past a known end, or of a loop whose
        items are not known)."""
        loop: dict[str, AbstractValue] = {}
        loops = _loops_around(self._module.tree, call, self._scope)
        for position, (target, iterable) in enumerate(loops):
            names = [node.id for node in ast.walk(target) if isinstance(node, ast.Name)]
            if any(self._binds_again(name, target) for name in names):
                if index and position == len(loops) - 1:
                    return None
                continue
            item = self._item(iterable, loop, index if position == len(loops) - 1 else 0)
            if item is None:
                return None
            _bind(target, item, loop)
        return loop if loops or not index else None

    def _binds_again(self, name: str, target: ast.expr) -> bool:
        """Whether the body of the ``for`` loop whose variable ``target`` is binds ``name`` again
        before a call may read it (a comprehension's variables have a scope of their own)."""
        loop = parent_of(self._module.tree, target)
        if not isinstance(loop, ast.For):
            return False
        body = [node for statement in loop.body for node in ast.walk(statement)]
        own = {id(n) for c in body if isinstance(c, ast.comprehension) for n in ast.walk(c.target)}
        return any(
            isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Store) and id(node) not in own
            for node in body
        )

    def _item(self, iterable: ast.expr, loop: Mapping[str, AbstractValue], index: int) -> AbstractValue | None:
        """The ``index``-th value ``for ... in iterable`` binds: of a ``range`` of known bounds (its
        start, for the first), an index and the item for ``enumerate``, the items for ``zip``, the
        item of a known sequence; the first is UNKNOWN where it is not known, another None."""
        if isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name) and not iterable.keywords:
            called, arguments = iterable.func.id, iterable.args
            if called == "range" and 1 <= len(arguments) <= 3:
                return self._range_item(arguments, loop, index)
            if called == "enumerate" and 1 <= len(arguments) <= 2:
                start = literal(0) if len(arguments) == 1 else self.value(arguments[1], loop)
                first = _number(start)
                counted = start if not index else None if first is None else literal(first + index)
                item = self._item(arguments[0], loop, index)
                return None if counted is None or item is None else sequence("tuple", (counted, item))
            if called == "zip" and arguments:
                items = [self._item(argument, loop, index) for argument in arguments]
                return None if None in items else sequence("tuple", tuple(i for i in items if i is not None))
        item = _item_at(self.value(iterable, loop), literal(index))
        return (UNKNOWN if not index else None) if item is None else item

    def _range_item(
        self, arguments: list[ast.expr], loop: Mapping[str, AbstractValue], index: int
    ) -> AbstractValue | None:
        """The ``index``-th number of ``range(*arguments)``; for the first, its start even where its
        end is not known (UNKNOWN where the start is not); None past a known end or where not known."""
        bounds = (
            [literal(0), *(self.value(a, loop) for a in arguments)]
            if len(arguments) == 1
            else [self.value(a, loop) for a in arguments]
        )
        if not index:
            return bounds[0]
        numbers = [_number(bound) for bound in bounds]
        start, stop, step = (*numbers, 1)[:3] if len(numbers) == 2 else numbers
        if not all(isinstance(n, int) for n in (start, stop, step)) or not step:
            return None
        assert isinstance(start, int) and isinstance(stop, int) and isinstance(step, int)
        value = start + index * step
        return literal(value) if (value < stop if step > 0 else value > stop) else None


def _field_value(project: Project, expr: ast.expr, module: ModuleInfo) -> object:
    """The literal a field of a configuration is written as (``{"mode": "fast"}``), or the module
    constant it names (``{"mode": MODE}``); NOT_KNOWN otherwise."""
    value = literal_value(expr)
    return _module_constant(project, expr, module) if value is NOT_KNOWN else value


def _module_constant(project: Project, expr: ast.expr, module: ModuleInfo) -> object:
    """The literal that ``expr``, a name of ``module``'s top level bound once (``MODE = "fast"``, or
    ``from settings import MODE``: :mod:`~mslint.model.visible_constants`) or a constant of a module
    it imports (``args.rgbd``), holds where it is read (``Sub(MODE)`` in
    ``Net.__init__``): NOT_KNOWN where it is no such name, or the function that reads it, or one
    around it, binds the name itself."""
    constants = visible_constants(project, module)
    if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name):
        value, name = module_attribute_constant(project, module, expr), expr.value.id
    elif isinstance(expr, ast.Name) and expr.id in constants:
        value, name = constants[expr.id], expr.id
    else:
        return NOT_KNOWN
    return NOT_KNOWN if _bound_in_functions(module, expr, name) else value


def _bound_in_functions(module: ModuleInfo, read: ast.expr, name: str) -> bool:
    """Whether the function holding ``read``, or one around it, binds ``name`` itself: the read is
    not of the module's name."""
    (innermost,) = module.scopes_holding([read.lineno])
    scope: ast.AST | None = innermost
    while scope is not None and not isinstance(scope, ast.Module):
        if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)) and (
            name in binding_counts(scope) or name in all_parameter_names(scope)
        ):
            return True
        scope = parent_of(module.tree, scope)
    return False


def _built_with_defaults(project: Project, callee: Callee) -> Passed | None:
    """What ``callee``'s parameters hold where it is called with none (each has a default, a
    class or function named as a reference to it); None where one has no default or collects."""
    code = _code_of(project, callee)
    if code is None or code.node.args.vararg or code.node.args.kwarg:
        return None
    named: dict[str, AbstractValue] = {}
    for parameter, default in parameter_defaults(code.node)[1 if _is_method(callee) else 0 :]:
        if default is None:
            return None
        given = literal_value(default)
        named[parameter.arg] = (
            literal(given) if given is not NOT_KNOWN else reference_to(project, default, code.module) or UNKNOWN
        )
    return Passed(named, {}, ())


def _binds(statement: ast.Assign | ast.AnnAssign, name: str) -> bool:
    """Whether a statement of a class's body binds ``name`` (``expansion = 4``)."""
    targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
    return any(isinstance(node, ast.Name) and node.id == name for target in targets for node in ast.walk(target))


def _default_given(statement: ast.stmt, name: str) -> ast.expr | None:
    """The ``X`` of ``statement`` where it is ``if name is None: name = X`` or ``name = name or X``."""
    if isinstance(statement, ast.If) and not statement.orelse and len(statement.body) == 1:
        (assignment,) = statement.body
        return _assigned(assignment, name) if none_test(statement.test) == (name, True) else None
    value = _assigned(statement, name)
    if isinstance(value, ast.BoolOp) and isinstance(value.op, ast.Or) and len(value.values) == 2:
        first, default = value.values
        return default if isinstance(first, ast.Name) and first.id == name else None
    return None


def _assigned(statement: ast.stmt, name: str) -> ast.expr | None:
    """The value ``statement`` assigns where it is ``name = ...``, to that one name."""
    if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1):
        return None
    target = statement.targets[0]
    return statement.value if isinstance(target, ast.Name) and target.id == name else None


_ARITHMETIC: dict[type[ast.operator], Callable[[float, float], float]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
}
"""The operators of the sizes a parent computes for its children (``dim * 4``, ``embed_dims[i + 1]``)."""


_REDUCTIONS: dict[str, Callable[[list[float]], float]] = {
    "builtins.min": min,
    "builtins.max": max,
    "builtins.sum": sum,
    "builtins.len": len,
}
"""The builtins a constructor reads sizes with (``min(self.input_resolution)``)."""


_LARGEST_EXPONENT = 64
"""The largest exponent of a power computed: sizes are small powers (``embed_dim * 2 ** i``)."""


def _arithmetic(op: ast.operator, left: AbstractValue, right: AbstractValue) -> int | float | None:
    """``left op right`` where both are known numbers (not bools) and the operation is
    arithmetic that cannot fail or grow large; None otherwise."""
    numbers: list[float] = [
        v.value
        for v in (left, right)
        if isinstance(v, AbstractScalar) and isinstance(v.value, (int, float)) and not isinstance(v.value, bool)
    ]
    compute = _ARITHMETIC.get(type(op))
    if compute is None or len(numbers) != 2:
        return None
    first, second = numbers
    if isinstance(op, (ast.Div, ast.FloorDiv, ast.Mod)) and second == 0:
        return None
    if isinstance(op, ast.Pow) and (abs(second) > _LARGEST_EXPONENT or (first == 0 and second < 0)):
        return None  # `2 ** i_layer`: a size; a larger power, or zero's inverse, is none
    try:
        result = compute(first, second)
    except OverflowError:  # `1e300 ** 2`: no size
        return None
    return result if isinstance(result, (int, float)) else None


def _is_int_call(argument: ast.Call, module: ModuleInfo) -> bool:
    """Whether ``argument`` is ``int(x)`` of Python's builtin (``dim=int(2 * dims[0])``)."""
    return (
        isinstance(argument.func, ast.Name)
        and argument.func.id == "int"
        and len(argument.args) == 1
        and not argument.keywords
        and not isinstance(argument.args[0], ast.Starred)
        and qualified_name(argument.func, module) == "builtins.int"
    )


def _number(value: AbstractValue) -> int | float | None:
    """The number ``value`` is known to be (not a bool); None otherwise."""
    if (
        isinstance(value, AbstractScalar)
        and isinstance(value.value, (int, float))
        and not isinstance(value.value, bool)
    ):
        return value.value
    return None


def _item_at(container: AbstractValue, index: AbstractValue) -> AbstractValue | None:
    """The item of a sequence of known items at a known position; None otherwise."""
    if not (isinstance(container, AbstractSequence) and container.items is not None):
        return None
    position = index.value if isinstance(index, AbstractScalar) and index.type == "int" else None
    if not isinstance(position, int) or not -len(container.items) <= position < len(container.items):
        return None
    return container.items[position]


def _loops_around(tree: ast.Module, call: ast.Call, scope: ast.AST) -> list[tuple[ast.expr, ast.expr]]:
    """The ``(target, iterable)`` of each ``for`` loop whose body holds ``call`` and of each
    comprehension whose element holds it, within ``scope``, the outermost first."""
    found: list[tuple[ast.expr, ast.expr]] = []
    child: ast.AST = call
    parent = parent_of(tree, child)
    while parent is not None and parent is not scope:
        if isinstance(parent, ast.For) and any(child is statement for statement in parent.body):
            found.append((parent.target, parent.iter))
        elif isinstance(parent, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)) and not isinstance(
            child, ast.comprehension
        ):
            found += [(generator.target, generator.iter) for generator in reversed(parent.generators)]
        child, parent = parent, parent_of(tree, parent)
    return found[::-1]


def _bind(target: ast.expr, value: AbstractValue, loop: dict[str, AbstractValue]) -> None:
    """Bind the names of a loop's ``target`` to the parts of ``value`` (UNKNOWN where it has none)."""
    if isinstance(target, ast.Name):
        loop[target.id] = value
    elif isinstance(target, (ast.Tuple, ast.List)):
        parts = value.items if isinstance(value, AbstractSequence) else None
        if parts is None or len(parts) != len(target.elts) or any(isinstance(e, ast.Starred) for e in target.elts):
            parts = (UNKNOWN,) * len(target.elts)
        for element, part in zip(target.elts, parts):
            _bind(element, part, loop)


_ONLY_SPREAD_OR_GOT: NodeMemo[FunctionNode, bool] = NodeMemo()


def _only_spread_or_got(function: FunctionNode) -> bool:
    """Whether ``function`` reads its ``**kwargs`` only to spread it or ``get`` an item: any other
    read may change what it holds (``kwargs.pop("attention")``, ``kwargs["attention"] = True``)."""
    return _ONLY_SPREAD_OR_GOT(function, _reads_kwargs_only_to_spread_or_get)


def _reads_kwargs_only_to_spread_or_get(function: FunctionNode) -> bool:
    assert function.args.kwarg is not None
    name = function.args.kwarg.arg
    calls = [node for node in descendants(function) if isinstance(node, ast.Call)]
    harmless = {id(k.value) for call in calls for k in call.keywords if k.arg is None}
    harmless |= {id(c.func.value) for c in calls if isinstance(c.func, ast.Attribute) and c.func.attr == "get"}
    reads = (node for node in descendants(function) if isinstance(node, ast.Name) and node.id == name)
    return all(id(read) in harmless for read in reads)


_CALLEES: NodeMemo[ast.Module, dict[int, Callee]] = NodeMemo()


def _callees_by_node(module: ModuleInfo) -> dict[int, Callee]:
    """By the node of its code: each function of the module's top level or of a function's body,
    the class of each top-level class's ``__init__``, and each classmethod that builds its class
    (memoized by tree)."""
    return _CALLEES(module.tree, lambda _: _callees(module))


def _callees(module: ModuleInfo) -> dict[int, Callee]:
    found: dict[int, Callee] = {id(node): FunctionRef(module, node) for node in module.functions.values()}
    every = statements(module.tree)
    methods = {id(s) for c in every if isinstance(c, ast.ClassDef) for s in c.body}
    for function in every:  # those a function's body defines
        if isinstance(function, ast.FunctionDef) and id(function) not in found and id(function) not in methods:
            found[id(function)] = FunctionRef(module, function)
    for cls in module.classes.values():
        for statement in cls.body:
            if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)) and statement.name == "__init__":
                found[id(statement)] = ClassRef(module, cls)
            elif isinstance(statement, ast.FunctionDef) and _is_builder(statement):
                found[id(statement)] = FunctionRef(module, statement, ClassRef(module, cls))
    return found


def construction(
    call: ast.Call, qualname: Callable[[ast.expr], str | None], named: Mapping[str, AbstractValue] | None = None
) -> Construction:
    """What a MindSpore Cell or Primitive is built with, as values (``nn.Dense(64, 10)``,
    ``ops.ReduceSum(keep_dims=True)``): literals, dtypes and the names ``named`` gives a value
    (``nn.Dense(dim, 10)`` in an ``__init__`` every instance of which is given ``dim=8``); anything
    else is a constant whose value is not known (a computed size)."""

    def value(expr: ast.expr) -> AbstractValue:
        dtype = dtype_named(expr, qualname) if isinstance(expr, (ast.Name, ast.Attribute)) else None
        if dtype is not None:
            return AbstractDtype(Kind.CONSTANT, dtype)
        if named is not None and isinstance(expr, ast.Name) and expr.id in named:
            return named[expr.id]
        known = literal_value(expr)
        return AbstractAny(Kind.CONSTANT) if known is NOT_KNOWN else literal(known)

    if spreads(call):
        return Construction(tuple(AbstractAny(Kind.CONSTANT) for _ in call.args))
    return Construction(tuple(map(value, call.args)), tuple((k.arg, value(k.value)) for k in call.keywords if k.arg))
