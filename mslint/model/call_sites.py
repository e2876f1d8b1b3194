"""What an entry's parameters hold, from how the code is called.

An entry (the ``construct`` of a Cell that no graph code calls, a ``@jit`` function) gets its
arguments from Python: a training script, a data loop, a test. MindSpore compiles a Python
number, string or tuple of them given there as a graph constant, and a tensor (or a numpy
array, which it converts) as a graph input. So ``range(n)`` compiles when ``net(x, 3)`` passes
a number and fails when it passes a tensor: the parameter's kind is what the evidence shows,
joined over all of it:

* a literal default (``n=3``): a Python number;
* ``# mslint: inputs=float32[N,4]`` on the entry: tensors, one per spec;
* the calls of the Cell's instances (``net = Net(); net(x, 3)``; an instance made by a factory
  function of the project counts) and of the ``@jit`` function, in the project's code: an
  instance bound in a module or a function is called in the functions nested there too
  (``forward_fn`` calling the script's ``net``), and an argument that is a parameter of the
  calling function is what that function's callers pass it, followed through the wrappers that
  call a function with their own arguments (``grad_fn = value_and_grad(forward_fn, ...)``,
  ``@jit def train_step``: :mod:`mslint.model.wrapped_calls`);
* ``value_and_grad(net, ...)``, ``grad(net)``, ``GradOperation(...)(net)`` (one that takes no
  ``sens``) or ``jit(net)`` bound to a name, or called where it is made: calls of the name call the
  instance with the same arguments; ``TrainOneStepCell(network, opt)`` and ``WithLossCell(net,
  loss)`` bound to a name that is only called: its calls call the instance with all their arguments,
  or (``WithLossCell``) the first alone; a name a function of the module binds under a
  ``global`` statement (``global grad_fn`` in a setup function) is read in the module's other
  functions;
* the calls of such a name, or of an instance's, in a ``@jit`` function (``@jit def
  train_step(x): return grad_fn(x)``): the compiler follows them into that function's graph, and
  a parameter of the function passed on as it is given holds what the function's own callers
  pass it (anything else the graph works out is not known here);
* the instance handed to MindSpore's other training wrappers (``Model``, ``WithLossCell``,
  ``TrainOneStepCell``, ...): they call it with dataset columns, tensors
  (``WithLossCell`` and ``WithEvalCell`` with the first alone: an optional parameter after it
  keeps its default), the instance a name holds where the wrapper is called (``net =
  TrainOneStepCell(WithLossCell(net, loss), opt)`` rebinds ``net`` before ``Model(net)``);
* the instance passed as an argument (by position or keyword) to a function of the project
  (``evaluate(net, 4)``, ``def evaluate(model, n): model(x, n)``): the function's calls of that
  parameter, never rebound there, call the instance, and so do those of the functions it passes
  the parameter on to, one level deeper at most (a helper's helper); a parameter given instances
  of several Cells calls each. A parameter of the function that such a call passes on is what the
  call that passed the instance gives it (``evaluate(net, 4)``: ``n`` is 4 for that instance),
  not the join over every caller. A function defined in that function's body that reads the
  parameter (``forward_fn`` in ``train(net, ...)``) calls it too, with what that function's own
  calls give it;
* the instance passed to a method of a class of the project that is not a Cell
  (``evaluator.run(net, 4)``, ``Evaluator().run(net)``, ``self.run(net)``), followed as a
  function's parameter is; or to its ``__init__``, which keeps it in an attribute that the class
  and its bases assign nowhere else (``Trainer(net)``, ``self.model = model``): the calls of
  ``self.model`` in the class's own methods call the instance, with what the calls of the method on
  that object give its parameters (``Trainer(net).evaluate(3)``, or ``trainer.evaluate(3)`` after
  ``trainer = Trainer(net)`` in the same scope), and where the building code calls no method on it,
  with what the method's own code shows;
* the entry's own body reading a tensor's attribute or method on the parameter (``x.shape``,
  ``x.astype(...)``): no Python number has them; but not where every call fills the parameter
  with an object of another library (``net(pl.read_csv(path))``, :mod:`mslint.model.foreign_objects`),
  whose own attributes the graph compiles.

Where nothing shows what a parameter holds (no call site, ``net(*data)``, ``args.steps``), it is
:attr:`Kind.UNKNOWN`: rules still see a graph value there, but a finding that rests on it is a
warning at most, and says so.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from collections.abc import Callable, Collection
from functools import cached_property
from typing import NamedTuple

from mslint.model.abstract import (
    NOT_KNOWN,
    AbstractScalar,
    AbstractSequence,
    AbstractTensor,
    AbstractValue,
    Kind,
    join_all,
    literal,
    sequence,
)
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
from mslint.model.created_tensors import AbstractArray, created_by
from mslint.model.dtypes import dtype_named
from mslint.model.foreign_objects import made_by_another_library
from mslint.model.host_values import TENSOR, HostValues
from mslint.model.inputs import ConstantSpec, inputs_comment, is_constant, parse_input_specs
from mslint.model.instances import only_call, passed_to_parameter
from mslint.model.memo import NodeMemo
from mslint.model.module import ModuleInfo, is_self_attribute
from mslint.model.project import ClassRef, FunctionNode, FunctionRef, Project, is_mindspore_name, qualified_name
from mslint.model.registries import modules_naming
from mslint.model.set_inputs import inputs_set
from mslint.model.values import UNKNOWN, parameter_values
from mslint.model.walk import descendants, own_nodes, parent_of, returned_calls, statements
from mslint.model.wrapped_calls import PASSING_WRAPPERS, passes_its_calls_on

# MindSpore wrappers that call the Cell they are given with the columns of a dataset.
_TRAINING_WRAPPERS = (
    "Model",
    "WithLossCell",
    "WithEvalCell",
    "WithGradCell",
    "TrainOneStepCell",
    "TrainOneStepWithLossScaleCell",
    "value_and_grad",
    "grad",
    "GradOperation",
    "build_train_network",
    "PipelineCell",
    "MicroBatchInterleaved",
)
# MindSpore's Cells that call the network they wrap with the inputs they are called with
# (`TrainOneStepCell.construct(*inputs)`: `self.network(*inputs)`), or with the first alone
# (`WithLossCell.construct(data, label)`: `self._backbone(data)`), read from MindSpore 2.10.
_CALLING_CELLS = {"TrainOneStepCell": None, "TrainOneStepWithLossScaleCell": None, "WithLossCell": 1}
# `to_float` casts of an instance that differ, or whose dtype is not written: a float, not known which.
_SOME_FLOAT = "float"
# Wrappers that call the Cell with the first column alone (`self._backbone(data)`, read from
# MindSpore 2.10): an optional parameter after it keeps its default.
_ONE_COLUMN_WRAPPERS = {"WithLossCell": 1, "WithEvalCell": 1}
# How many functions deep an instance passed as an argument is followed: into the function it is
# passed to, and into one helper that function passes it on to.
_PASSED_DEPTH = 2
# Methods of Python numbers, strings and tuples: reading one says nothing of a tensor.
_PYTHON_METHODS = frozenset(
    {"real", "imag", "conjugate", "bit_length", "to_bytes", "is_integer", "hex", "as_integer_ratio", "count", "index"}
    | {name for name in dir(str) if not name.startswith("_")}
)


Returned = Callable[[FunctionRef, dict[str, AbstractValue]], AbstractValue]
"""What an entry's ``construct`` returns given the values of some of its parameters (the rest keep
their defaults): the graph's own evaluation, which :mod:`mslint.model.scope` supplies."""


class EntryEvidence:
    """The kinds of each entry's parameters, from the evidence the project holds (module doc)."""

    def __init__(self, project: Project, entries: list[FunctionRef], returned: Returned | None = None) -> None:
        self._project = project
        self._returned = returned
        """Where given: what a call of an instance returns to Python is evaluated, so that a Cell
        called with it (``head(backbone(x))``) gets it (:meth:`_output_read`)."""
        self._entries = {id(ref.node): ref for ref in entries}
        self._returning: set[int] = set()
        """The entries whose output is being evaluated: a cycle of calls says nothing."""
        self._sites: dict[int, list[_Site]] = defaultdict(list)
        """By entry node: the calls that run it, with their module and scope."""
        self._wrapped: dict[int, int | None] = {}
        """Entry nodes whose Cell is handed to a training wrapper, with how many columns the
        wrappers pass at most (None: all the dataset has)."""
        self._graph_entries = {id(ref.node) for ref in entries}
        """Calls in these are graph code's: what they pass follows the values of graph code."""
        self._jit_functions = {id(ref.node): ref for ref in entries if ref.owner is None}
        """The ``@jit`` functions among the entries: graph code that may call an instance a name
        of the module holds (``@jit def train_step(x): return grad_fn(x)``)."""
        self._graph_sites: dict[int, list[tuple[ast.Call, FunctionRef]]] = defaultdict(list)
        """By entry node: the calls of it in ``@jit`` functions, with the function, which run it in
        their graph (its outputs go there, not back to Python)."""
        self._asked: set[int] = set()
        """The entries whose parameters' values are being worked out: a cycle of calls says nothing."""
        self._specs: dict[int, list[AbstractValue]] = {}
        """By entry node: its input specs, read once (each entry is asked about twice)."""
        self._values: dict[int, dict[str, AbstractValue]] = {}
        """By entry node: its parameters' values, worked out once."""
        self._calls: dict[int, list[tuple[ast.Call, ModuleInfo, dict[str, AbstractValue]]] | None] = {}
        """By entry node: its calls with their values, worked out once (a Cell's construct is started
        twice, and its evaluations per call ask again)."""
        self._passed: list[_PassedInstance] = []
        """The instances passed as arguments to the project's functions, still to follow."""
        self._foreign: dict[int, dict[str, str]] = {}
        """By entry node: :meth:`another_librarys`, worked out once."""
        self._collect(entries)
        self._follow_passed_instances()

    def called_from_python(self, ref: FunctionRef) -> bool:
        """Whether ordinary Python code is shown to call the entry (a call site, a training wrapper,
        input specs): it is then a top graph, whose outputs go back to Python."""
        return bool(self._sites.get(id(ref.node))) or id(ref.node) in self._wrapped or bool(self._spec_values(ref))

    def called_from_jit(self, ref: FunctionRef) -> bool:
        """Whether a ``@jit`` function is shown to call the entry (``grad_fn(x)`` in a training step,
        ``grad_fn`` wrapping an instance of its Cell): its graph is compiled into that function's."""
        return bool(self._graph_sites.get(id(ref.node)))

    def calls(self, ref: FunctionRef) -> list[tuple[ast.Call, ModuleInfo, dict[str, AbstractValue]]] | None:
        """Each call of the entry in Python code, with what it gives the entry's positional
        parameters, where those calls are all that runs it; None where a training wrapper, input
        specs or a ``@jit`` function run it too, with values no call shows."""
        key = id(ref.node)
        if key not in self._calls:
            by_calls = not (key in self._wrapped or self._spec_values(ref) or self._graph_sites.get(key))
            self._calls[key] = (
                [(s.call, s.module, self._argument_values(s, ref)) for s in self._sites.get(key, [])]
                if by_calls
                else None
            )
        return self._calls[key]

    def _spec_values(self, ref: FunctionRef) -> list[AbstractValue]:
        specs = self._specs.get(id(ref.node))
        if specs is None:
            specs = self._specs[id(ref.node)] = _spec_values(ref)
        return specs

    def parameter_values(self, ref: FunctionRef) -> dict[str, AbstractValue]:
        found = self._values.get(id(ref.node))
        if found is None:  # a Cell's construct is started twice (first among the Cells, then with every entry)
            found = self._values[id(ref.node)] = self._parameter_values(ref)
        return dict(found)

    def _parameter_values(self, ref: FunctionRef) -> dict[str, AbstractValue]:
        values = parameter_values(ref.node, is_method=ref.owner is not None)
        given = _positional(ref)
        specified = dict(zip(given, self._spec_values(ref)))  # what the user states is passed stands
        values.update(specified)
        if id(ref.node) in self._wrapped:
            passed = _passed_columns(ref, given, self._wrapped[id(ref.node)])
            values.update({n: TENSOR for n in passed if values[n].kind is not Kind.CONSTANT and n not in specified})
        by_site = [self._argument_values(site, ref) for site in self._sites.get(id(ref.node), [])]
        by_site += [self._graph_argument_values(c, jit, ref) for c, jit in self._graph_sites.get(id(ref.node), [])]
        # what the signature leaves UNKNOWN, and `*args`' tuple of unknowns, say nothing until a
        # site gives a value; from then on every site's value joins, in whatever order the sites come
        unset = {name for name, value in values.items() if value == UNKNOWN}
        unset |= {ref.node.args.vararg.arg} if ref.node.args.vararg is not None else set()
        for arguments in by_site:
            for name, value in arguments.items():
                if name not in specified:
                    values[name] = value if name in unset else join_all([values[name], value], empty=UNKNOWN)
                    unset.discard(name)
        if not self.called_from_python(ref):
            values = {name: _any_value_of_its_type(value) for name, value in values.items()}
        # a parameter every call fills with another library's object (a DataFrame) is that object,
        # whose own attributes the graph compiles, whatever of the Tensor API it reads
        used_as_tensors = _used_as_tensors(ref.node, self._project.release.tensor_attributes)
        used_as_tensors -= set(self.another_librarys(ref))
        return {
            name: TENSOR if value.kind is Kind.UNKNOWN and name in used_as_tensors else value
            for name, value in values.items()
        }

    def another_librarys(self, ref: FunctionRef) -> dict[str, str]:
        """The entry's parameters that every call, where calls are all that runs it, fills with an
        object of another library (:mod:`mslint.model.foreign_objects`): a type mslint does not
        know, which the graph gets as it is; with the calls that make it (``polars.read_csv``, or
        several joined by "or")."""
        found = self._foreign.get(id(ref.node))
        if found is None:
            found = self._foreign[id(ref.node)] = self._another_librarys(ref)
        return found

    def _another_librarys(self, ref: FunctionRef) -> dict[str, str]:
        sites = self._sites.get(id(ref.node), [])
        if not sites or self.calls(ref) is None or any(s.through or s.columns is not None for s in sites):
            return {}
        passed = [passed_arguments(site.call, ref.node, is_method=ref.owner is not None) or {} for site in sites]
        found = {}
        for name in _positional(ref):
            makers = [
                made_by_another_library(arguments[name], site.scope, site.module, self._project)
                if name in arguments
                else None
                for site, arguments in zip(sites, passed)
            ]
            if all(makers):
                found[name] = " or ".join(dict.fromkeys(str(maker) for maker in makers))
        return found

    def _argument_values(self, site: _Site, ref: FunctionRef) -> dict[str, AbstractValue]:
        return _argument_values(self._project, site, ref, self._output_read)

    @cached_property
    def _producers(self) -> dict[int, tuple[FunctionRef, _Site]]:
        """By call node: the entry each Python call of an instance runs, and the call's site."""
        return {
            id(site.call): (self._entries[key], site)
            for key, sites in self._sites.items()
            if key in self._entries
            for site in sites
            if site.through is None and site.columns is None
        }

    def _output_read(self, site: _Site, argument: ast.expr) -> AbstractValue | None:
        """The tensor (or tuple of tensors) ``argument`` of a call in Python holds where it reads
        what a call of an entry's instance returned: that call (``head(backbone(x))``), an item of
        it (``backbone(x)[0]``), or a name that the statement right before binds to one of these
        (``feats = backbone(x)``, ``feats, _ = backbone(x)``); the entry's ``construct`` evaluated
        with that call's arguments. A graph hands a tensor back to Python as it is; what else it
        returns (a Python number, a list) is not measured, so not taken. None where it is nothing
        such, or where the instance is called through a wrapper, whose result is its own."""
        read: ast.expr | None = argument
        if isinstance(argument, ast.Name):
            read = _assigned_before(site.module.tree, site.call, argument.id, unpacked=True)
        index = None
        if isinstance(read, ast.Subscript) and isinstance(read.slice, ast.Constant):
            index = read.slice.value
            read = read.value
        producing = self._producers.get(id(read)) if self._returned is not None else None
        if producing is None or not _calls_the_instance(producing[1]):
            return None
        ref, producing_site = producing
        if id(ref.node) in self._returning:
            return None
        self._returning.add(id(ref.node))
        try:
            assert self._returned is not None
            value = self._returned(ref, self._argument_values(producing_site, ref))
        finally:
            self._returning.discard(id(ref.node))
        if index is not None:
            value = _tuple_item(value, index)
        return value if _tensors(value) else None

    def _graph_argument_values(self, call: ast.Call, jit: FunctionRef, ref: FunctionRef) -> dict[str, AbstractValue]:
        """The values a call in a ``@jit`` function gives the entry's positional parameters: a
        parameter of the function that it never rebinds holds what the function is given (its own
        call sites); anything else is a graph value worked out in the graph, not known here."""
        passed = passed_arguments(call, ref.node, is_method=ref.owner is not None)
        if passed is None or id(jit.node) in self._asked:
            return {}
        self._asked.add(id(jit.node))
        try:
            given = self.parameter_values(jit)
        finally:
            self._asked.discard(id(jit.node))
        return {
            name: given.get(argument.id, UNKNOWN)
            if isinstance(argument, ast.Name) and _is_own_parameter(jit.node, argument.id)
            else UNKNOWN
            for name, argument in passed.items()
            if name in _positional(ref)
        }

    def instance(self, ref: FunctionRef) -> str | None:
        """How the program builds and calls the Cell whose ``construct`` is ``ref``, where its
        calls show it: ``as built by make_layers() at model.py:88, called with float32[2,197,192]``
        (the building call where there is one only; the inputs where every one is a tensor of
        known dtype and shape or a Python literal, the same at every call). None where neither is
        shown."""
        if ref.owner is None or ref.node.name != "construct":
            return None
        built = only_call(self._project, ref.owner)
        where = None if built is None else call_site(*built)
        called = self._sites.get(id(ref.node)) or self._graph_sites.get(id(ref.node))
        inputs = input_specs(self.parameter_values(ref), _positional(ref), ref.node.args.vararg) if called else None
        parts = ([f"as built {where}"] if where else []) + ([f"called with {inputs}"] if inputs else [])
        return ", ".join(parts) or None

    def _collect(self, entries: list[FunctionRef]) -> None:
        constructs = {
            id(ref.owner.node): ref for ref in entries if ref.owner is not None and ref.node.name == "construct"
        }
        functions = {id(ref.node): ref for ref in entries if ref.owner is None}
        names = {ref.owner.node.name for ref in constructs.values() if ref.owner} | {
            ref.node.name for ref in functions.values()
        }
        modules = list(self._project.modules)
        names |= {
            f.name
            for module in modules
            for f in module.tree.body
            if isinstance(f, ast.FunctionDef) and _returns_a_call_of(f, names)
        }
        wanted = names.union(_TRAINING_WRAPPERS)
        for module in modules:
            by_name = module.calls_by_name
            bound = _names_bound_to_calls_of(module, names)  # `net = Net()`, called in another function
            lines = [call.lineno for name in (wanted | bound).intersection(by_name) for call in by_name[name]]
            if bound:  # a call passing a name bound in another scope (`evaluate(net, data)` in `main()`)
                lines += [call.lineno for call in module.nodes_of(ast.Call) if _passes_any_of(call, bound)]
            if lines:
                self._collect_in(module, module.scopes_holding(lines), constructs, functions, names, bound)

    def _collect_in(
        self,
        module: ModuleInfo,
        scopes: list[FunctionNode | ast.Module],
        constructs: dict[int, FunctionRef],
        functions: dict[int, FunctionRef],
        names: set[str],
        bound: set[str],
    ) -> None:
        visible: dict[int, dict[str, FunctionRef]] = {}
        for scope in scopes:
            jit = self._jit_functions.get(id(scope))
            if jit is not None:
                # the compiler follows a call of the instance a name holds into the `@jit` function's
                # graph, with what the function is given; graph code does not resolve such names
                instances = self._visible_instances(scope, module, constructs, names, bound, visible)
                for node in own_nodes(scope):
                    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in instances:
                        self._graph_sites[id(instances[node.func.id].node)].append((node, jit))
            if id(scope) in self._graph_entries or self._called_by_entries_only(scope, module):
                continue
            nodes = own_nodes(scope)
            local = {} if isinstance(scope, ast.Module) else _defined_in(scope, module)
            instances = self._visible_instances(scope, module, constructs, names, bound, visible)
            rebound = self._rebound_to_instances(nodes, module, constructs, names, local)
            calling = self._calling_cells(scope, module, constructs, names, instances)
            for node in nodes:
                if not isinstance(node, ast.Call):
                    continue
                if isinstance(node.func, ast.Name) and node.func.id in instances:
                    cast = _cast_by_to_float(node.func.id, scope, module)
                    # where no entry's instance is bound above, what the visible instances say the name calls
                    called = _held_at(node.func.id, node.lineno, rebound, instances) or instances[node.func.id]
                    self._sites[id(called.node)].append(_Site(node, module, scope, cast=cast))
                elif isinstance(node.func, ast.Name) and node.func.id in calling:
                    network, columns = calling[node.func.id]
                    self._sites[id(network.node)].append(_Site(node, module, scope, columns=columns))
                elif isinstance(node.func, ast.Call):
                    construct = self._construct_made_by(node.func, module, constructs, names, local)
                    columns = None
                    if construct is None and passes_its_calls_on(node.func, module):  # `value_and_grad(net)(x)`
                        wrapped = node.func.args[0]
                        construct = self._held(wrapped, node, rebound, instances, module, constructs, names, local)
                    if construct is None:  # `GradOperation()(WithLossCell(net, loss))(x, y)`
                        made = self._called_instance(node.func, module, constructs, names, local, instances, calling)
                        construct, columns = made if made is not None else (None, None)
                    if construct is not None:
                        self._sites[id(construct.node)].append(_Site(node, module, scope, columns=columns))
                elif _called_name(node.func) in names:
                    resolved = self._callee(node, module, local)
                    if isinstance(resolved, FunctionRef) and id(resolved.node) in functions:
                        self._sites[id(resolved.node)].append(_Site(node, module, scope))
                if _is_wrapper(node, module) and not passes_its_calls_on(node, module):
                    if _only_called(node, module, scope):
                        continue  # its calls are the instance's sites (`calling`)
                    for argument in node.args[:1]:
                        construct = self._held(argument, node, rebound, instances, module, constructs, names, local)
                        if construct is not None:
                            self._wrap(construct, node)
                    continue
                held = {
                    id(a): self._held(a, node, rebound, instances, module, constructs, names, local)
                    for a in _arguments(node)
                }
                function = self._function_called(node, module, scope, local) if any(held.values()) else None
                for parameter, argument in _arguments_by_parameter(node, function):
                    construct = held.get(id(argument))
                    if construct is not None and function is not None:
                        passing = _Site(node, module, scope)
                        self._passed.append(_PassedInstance(function, parameter, construct, passing, 1))

    def _called_by_entries_only(self, scope: FunctionNode | ast.Module, module: ModuleInfo) -> bool:
        """Whether ``scope`` is a function of a module's top level that only the entries' own code
        reads, each time to call it (a helper that a ``@jit`` entry calls): graph code, whose calls
        of other entries run in the entry's graph, not from Python."""
        if isinstance(scope, ast.Module) or scope not in module.tree.body or id(scope) in self._graph_entries:
            return False
        reads: list[tuple[ast.expr, ModuleInfo]] = []
        for other in modules_naming(self._project, scope.name):
            reads += [(node, other) for node in other.nodes_of(ast.Name) if node.id == scope.name]
            reads += [(node, other) for node in other.nodes_of(ast.Attribute) if node.attr == scope.name]
        for node, other in reads:
            call = parent_of(other.tree, node)
            if not (isinstance(call, ast.Call) and call.func is node):
                return False
            (caller,) = other.scopes_holding([call.lineno])
            if id(caller) not in self._graph_entries:
                return False
        return bool(reads)

    def _wrap(self, construct: FunctionRef, wrapper: ast.Call) -> None:
        """Record that a training wrapper calls the instance, with how many columns at most."""
        columns = _ONE_COLUMN_WRAPPERS.get(_called_name(wrapper.func) or "")
        known = self._wrapped.get(id(construct.node), columns)
        self._wrapped[id(construct.node)] = None if known is None or columns is None else max(known, columns)

    def _held(
        self,
        argument: ast.expr,
        call: ast.Call,
        rebound: dict[str, list[tuple[int, FunctionRef | None]]],
        instances: dict[str, FunctionRef],
        module: ModuleInfo,
        constructs: dict[int, FunctionRef],
        names: set[str],
        local: dict[str, ClassRef | FunctionRef],
    ) -> FunctionRef | None:
        """The entry ``construct`` of the instance an argument of ``call`` holds: a name bound to
        one where the call is, or a call that makes one."""
        if isinstance(argument, ast.Name):
            return _held_at(argument.id, call.lineno, rebound, instances)
        if isinstance(argument, ast.Call):
            return self._construct_made_by(argument, module, constructs, names, local)
        return None

    def _function_called(
        self,
        call: ast.Call,
        module: ModuleInfo,
        scope: FunctionNode | ast.Module,
        local: dict[str, ClassRef | FunctionRef],
    ) -> FunctionRef | None:
        """The function of the project (not graph code) that ``call`` calls: a function of a module
        or of a function's body, the ``__init__`` a call of a class runs, or a method called on an
        instance (``trainer.evaluate(net)``, ``Trainer(net).fit()``, ``self.evaluate(net)``), of a
        class of the project that is not a Cell (a Cell's methods are graph code or its own)."""
        callee = self._callee(call, module, local)
        function: FunctionRef | None = None
        if isinstance(callee, ClassRef):
            function = self._method_of(callee, "__init__")
        elif isinstance(callee, FunctionRef):
            function = callee if callee.owner is None else None
        elif isinstance(call.func, ast.Attribute):
            receiver = self._instance_class(call.func.value, module, scope, local)
            function = None if receiver is None else self._method_of(receiver, call.func.attr)
        return None if function is None or id(function.node) in self._graph_entries else function

    def _method_of(self, cls: ClassRef, name: str) -> FunctionRef | None:
        """The method ``name`` of a class of the project that is not a Cell, where a call on an
        instance binds the instance to its first parameter (no ``staticmethod``, no decorator)."""
        method = None if self._project.is_cell(cls) else self._project.find_method(cls, name)
        if method is None or not isinstance(method.node, ast.FunctionDef) or method.node.decorator_list:
            return None
        return method if positional_names(method.node, False) else None

    def _instance_class(
        self,
        receiver: ast.expr,
        module: ModuleInfo,
        scope: FunctionNode | ast.Module,
        local: dict[str, ClassRef | FunctionRef],
    ) -> ClassRef | None:
        """The class of the project whose instance ``receiver`` is: a call of the class
        (``Trainer(net)``), a name ``scope`` binds once, to such a call (``trainer =
        Trainer(net)``), or the first parameter of a method (``self``)."""
        if isinstance(receiver, ast.Name) and not isinstance(scope, ast.Module):
            names = positional_names(scope, False)
            holder = _class_of(scope, module) if names and names[0] == receiver.id else None
            if holder is not None:
                return None if receiver.id in binding_counts(scope) else ClassRef(module, holder)
        if isinstance(receiver, ast.Name):
            receiver = bound_once(scope, receiver.id) or receiver
        if not isinstance(receiver, ast.Call):
            return None
        made = self._callee(receiver, module, local)
        return made if isinstance(made, ClassRef) else None

    def _callee(
        self, call: ast.Call, module: ModuleInfo, local: dict[str, ClassRef | FunctionRef]
    ) -> ClassRef | FunctionRef | None:
        """What ``call`` calls: a class or function defined in the calling scope, else what the
        project resolves the called expression to."""
        defined = local.get(call.func.id) if isinstance(call.func, ast.Name) else None
        return defined if defined is not None else self._project.resolve_expr(call.func, module)

    def _follow_passed_instances(self) -> None:
        """Record the calls of a parameter that an instance is passed to as calls of the instance,
        and follow the parameter into the functions it is passed on to, and an ``__init__``'s
        parameter into the methods that call the attribute it is kept in (module doc)."""
        followed: set[tuple[int, str, int, int]] = set()
        in_closures: set[tuple[int, str, int]] = set()
        uses: dict[tuple[int, str], _ParameterUses] = {}
        while self._passed:
            function, parameter, construct, passing, depth, kept = self._passed.pop()
            key = (id(function.node), parameter, id(construct.node), id(passing.call))
            if key in followed or (not kept and parameter in binding_counts(function.node)):
                continue  # followed already, or the parameter may hold something else there
            followed.add(key)
            found = uses.get((id(function.node), parameter))
            if found is None:
                found = uses[(id(function.node), parameter)] = self._uses_of(function, parameter, kept)
            module, scope = function.module, function.node
            # a method's parameters are what its call on the object gives them, where it is known
            through = passing if not kept or _calls_method(passing.call, scope) else None
            self._sites[id(construct.node)] += [_Site(call, module, scope, through) for call in found.calls]
            for wrapper in found.wrappers:
                self._wrap(construct, wrapper)
            if depth < _PASSED_DEPTH:
                for call, called, passed_to in found.passed_on:
                    deeper = _Site(call, module, scope, through)
                    self._passed.append(_PassedInstance(called, passed_to, construct, deeper, depth + 1))
            if not kept and function.owner is not None and function.node.name == "__init__":
                for method, attribute in self._methods_calling_kept(function, parameter):
                    for site in _calls_on_built(passing, method.node) or [passing]:
                        self._passed.append(_PassedInstance(method, attribute, construct, site, depth, True))
            if key[:3] not in in_closures:  # once per instance: a closure's inputs come from its own calls
                in_closures.add(key[:3])
                self._sites[id(construct.node)] += [_Site(call, module, closure) for call, closure in found.in_closures]

    def _methods_calling_kept(self, init: FunctionRef, parameter: str) -> list[tuple[FunctionRef, str]]:
        """The methods of ``init``'s class that may call the instance ``init`` keeps from
        ``parameter`` (``self.model = model``), with the attribute: one the class and its bases
        assign nowhere else."""
        owner = init.owner
        names = positional_names(init.node, False)
        if owner is None or not names:
            return []
        kept = {
            target.attr
            for node in own_nodes(init.node)
            if isinstance(node, ast.Assign) and _is_name(node.value, parameter)
            for target in node.targets
            if isinstance(target, ast.Attribute) and is_self_attribute(target, names[0])
        }
        attributes = [a for a in sorted(kept) if len(self._project.attribute_values(owner, a)) == 1]
        methods = [FunctionRef(owner.module, s, owner) for s in owner.node.body if isinstance(s, ast.FunctionDef)]
        return [
            (method, attribute)
            for attribute in attributes
            for method in methods
            if _same_node(self._method_of(owner, method.node.name), method)
            and id(method.node) not in self._graph_entries
        ]

    def _uses_of(self, function: FunctionRef, parameter: str, kept: bool) -> _ParameterUses:
        """How ``function`` uses ``parameter`` (or, ``kept``, the attribute ``self.<parameter>``),
        which holds an instance: its calls, the training wrappers it is handed to, the functions of
        the project it is passed on to, and the calls of the functions defined in its body that
        see it."""
        module, scope = function.module, function.node
        local = _defined_in(scope, module)
        reader = positional_names(scope, False)[0] if kept else parameter
        holds = _attribute_of(reader, parameter) if kept else _named(parameter)
        uses = _ParameterUses([], [], [], [])
        for node in own_nodes(scope):
            if not isinstance(node, ast.Call):
                continue
            if holds(node.func):
                uses.calls.append(node)
            elif _is_wrapper(node, module) and not passes_its_calls_on(node, module):
                if node.args and holds(node.args[0]):
                    uses.wrappers.append(node)
            elif any(holds(a) for a in _arguments(node)):
                called = self._function_called(node, module, scope, local)
                uses.passed_on.extend(
                    (node, called, passed_to)
                    for passed_to, argument in _arguments_by_parameter(node, called)
                    if called is not None and holds(argument)
                )
        uses.in_closures.extend(
            (node, closure)
            for closure in _closures_reading(scope, reader, module)
            for node in own_nodes(closure)
            if isinstance(node, ast.Call) and holds(node.func)
        )
        return uses

    def _rebound_to_instances(
        self,
        nodes: list[ast.AST],
        module: ModuleInfo,
        constructs: dict[int, FunctionRef],
        names: set[str],
        local: dict[str, ClassRef | FunctionRef],
    ) -> dict[str, list[tuple[int, FunctionRef | None]]]:
        """Each name a scope's own assignments bind, with the line and the entry whose instance each
        binding makes (None for any other value), in order: what the name holds at a line
        (:func:`_held_at`)."""
        rebound: dict[str, list[tuple[int, FunctionRef | None]]] = defaultdict(list)
        for node in nodes:
            if isinstance(node, ast.Assign):
                construct = (
                    self._construct_made_by(node.value, module, constructs, names, local)
                    if isinstance(node.value, ast.Call)
                    else None
                )
                for target in (t for t in node.targets if isinstance(t, ast.Name)):
                    rebound[target.id].append((node.lineno, construct))
        return rebound

    def _calling_cells(
        self,
        scope: FunctionNode | ast.Module,
        module: ModuleInfo,
        constructs: dict[int, FunctionRef],
        names: set[str],
        instances: dict[str, FunctionRef],
    ) -> dict[str, tuple[FunctionRef, int | None]]:
        """The names bound, in ``scope`` or at the module's top level where ``scope`` does not bind
        them, to MindSpore's Cells that call an instance with their own inputs
        (``train_net = TrainOneStepCell(WithLossCell(net, loss), opt)``, called ``train_net(data,
        label)``): the instance's entry, with how many of the inputs it gets (None: all)."""
        scopes = [scope] if isinstance(scope, ast.Module) else [module.tree, scope]
        found: dict[str, tuple[FunctionRef, int | None]] = {}
        # the module's names are the function's where it binds no name of its own by them
        own_names = (
            set() if isinstance(scope, ast.Module) else set(binding_counts(scope)) | set(all_parameter_names(scope))
        )
        for where in scopes:
            hidden = set() if where is scope else own_names
            local = {} if isinstance(where, ast.Module) else _defined_in(where, module)
            for node in own_nodes(where):
                if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)):
                    continue
                called = self._called_instance(node.value, module, constructs, names, local, instances, found)
                for target in node.targets:
                    if isinstance(target, ast.Name) and target.id not in hidden:
                        if called is None:
                            found.pop(target.id, None)
                        else:
                            found[target.id] = called
        return found

    def _called_instance(
        self,
        value: ast.expr,
        module: ModuleInfo,
        constructs: dict[int, FunctionRef],
        names: set[str],
        local: dict[str, ClassRef | FunctionRef],
        instances: dict[str, FunctionRef],
        calling: dict[str, tuple[FunctionRef, int | None]],
    ) -> tuple[FunctionRef, int | None] | None:
        """The instance whose entry a Cell of :data:`_CALLING_CELLS` that ``value`` makes calls,
        through any nesting of them and of the wrappers that pass their calls on
        (``GradOperation(get_by_list=True)(WithLossCell(net, loss), params)``, ``value_and_grad(loss_net)``),
        with how many of its inputs it passes on (the fewest)."""
        if not isinstance(value, ast.Call) or not value.args:
            return None
        wrapper = _called_name(value.func)
        columns: int | None
        if passes_its_calls_on(value, module):
            columns = None
        elif wrapper in _CALLING_CELLS and is_mindspore_name(qualified_name(value.func, module), wrapper):
            columns = _CALLING_CELLS[wrapper]
        else:
            return None
        network = value.args[0]
        inner: tuple[FunctionRef, int | None] | None = None
        if isinstance(network, ast.Name):
            held = instances.get(network.id)
            inner = (held, None) if held is not None else calling.get(network.id)
        elif isinstance(network, ast.Call):
            made = self._construct_made_by(network, module, constructs, names, local)
            inner = (made, None) if made is not None else None
            if inner is None:
                inner = self._called_instance(network, module, constructs, names, local, instances, calling)
        if inner is None:
            return None
        construct, passed = inner
        return construct, columns if passed is None else passed if columns is None else min(passed, columns)

    def _visible_instances(
        self,
        scope: FunctionNode | ast.Module,
        module: ModuleInfo,
        constructs: dict[int, FunctionRef],
        names: set[str],
        bound: set[str],
        visible: dict[int, dict[str, FunctionRef]],
    ) -> dict[str, FunctionRef]:
        """The names that hold an instance of an entry Cell where ``scope`` reads them, by the
        entry: bound in ``scope`` (``net = Net()``, ``grad_fn = value_and_grad(net, ...)``), or
        in the module or function around it where ``scope`` does not bind the name itself
        (``forward_fn`` calling the script's module-level ``net``); ``bound``: the names the module
        binds to calls that may make one (the others need no look around ``scope``)."""
        if id(scope) in visible:
            return visible[id(scope)]
        inherited: dict[str, FunctionRef] = {}
        if not isinstance(scope, ast.Module) and _reads_any(scope, bound):
            outer = _enclosing_scope(scope, module)
            around = self._visible_instances(outer, module, constructs, names, bound, visible)
            own_names = set(binding_counts(scope)) | set(all_parameter_names(scope))
            inherited = {name: ref for name, ref in around.items() if name not in own_names}
        local = {} if isinstance(scope, ast.Module) else _defined_in(scope, module)
        own = self._bound_instances(own_nodes(scope), module, constructs, names, local, inherited)
        if isinstance(scope, ast.Module):
            own.update(self._global_instances(module, constructs, names, own))
        visible[id(scope)] = found = {**inherited, **own}
        return found

    def _bound_instances(
        self,
        nodes: list[ast.AST],
        module: ModuleInfo,
        constructs: dict[int, FunctionRef],
        names: set[str],
        local: dict[str, ClassRef | FunctionRef],
        around: dict[str, FunctionRef],
    ) -> dict[str, FunctionRef]:
        """The names that ``nodes``' assignments bind to an instance of an entry Cell, in order: a
        call that makes one, or a passing wrapper of one (``grad_fn = value_and_grad(net)``, with
        ``net`` bound before or in ``around``)."""
        own: dict[str, FunctionRef] = {}
        for node in nodes:
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
                made = _cast_instance(node.value) or node.value  # `Net().to_float(ms.float16)` is the instance
                construct = self._construct_made_by(made, module, constructs, names, local)
                if construct is None and passes_its_calls_on(node.value, module):
                    argument = node.value.args[0]
                    construct = (
                        {**around, **own}.get(argument.id)
                        if isinstance(argument, ast.Name)
                        else self._construct_made_by(argument, module, constructs, names, local)
                        if isinstance(argument, ast.Call)
                        else None
                    )
                if construct is not None:
                    own.update((t.id, construct) for t in node.targets if isinstance(t, ast.Name))
        return own

    def _global_instances(
        self,
        module: ModuleInfo,
        constructs: dict[int, FunctionRef],
        names: set[str],
        around: dict[str, FunctionRef],
    ) -> dict[str, FunctionRef]:
        """The module's names that a function of its top level binds to an instance under a
        ``global`` statement (``global _grad; _grad = value_and_grad(Net())`` in a setup function,
        read by the step function): the other functions of the module read that instance."""
        found: dict[str, FunctionRef] = {}
        for function in module.tree.body:
            if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            nodes = own_nodes(function)
            declared = {name for node in nodes if isinstance(node, ast.Global) for name in node.names}
            if declared:
                local = _defined_in(function, module)
                bound = self._bound_instances(nodes, module, constructs, names, local, around)
                found.update((name, construct) for name, construct in bound.items() if name in declared)
        return found

    def _construct_made_by(
        self,
        call: ast.Call,
        module: ModuleInfo,
        constructs: dict[int, FunctionRef],
        names: set[str],
        local: dict[str, ClassRef | FunctionRef],
    ) -> FunctionRef | None:
        """The entry ``construct`` of the Cell a call makes: the class itself (one the module
        defines, or the calling function: a test's own ``Net``), or a factory function of the
        project that returns one (``resnet50()`` returning ``ResNet(...)``)."""
        if _called_name(call.func) not in names:
            return None
        defined = local.get(call.func.id) if isinstance(call.func, ast.Name) else None
        made = defined if defined is not None else self._project.resolve_expr(call.func, module)
        if isinstance(made, FunctionRef):
            made = next((c for c in _returned_classes(self._project, made) if id(c.node) in constructs), None)
        if isinstance(made, ClassRef):
            return constructs.get(id(made.node))
        return None


class _Site(NamedTuple):
    """A call of an entry (or of a function an instance is passed to), in its module and scope."""

    call: ast.Call
    module: ModuleInfo
    scope: FunctionNode | ast.Module
    through: _Site | None = None
    """Where ``scope`` is a function an instance was passed to: the call that passed it, whose
    arguments are what ``scope``'s parameters hold at this call (module doc)."""
    columns: int | None = None
    """Where the call is of a Cell that calls the instance (``WithLossCell``): how many of the
    call's positional arguments it passes on, the first ones (None: all)."""
    cast: str | None = None
    """The dtype the instance called was cast to by ``to_float`` (:func:`_cast_by_to_float`)."""


class _ParameterUses(NamedTuple):
    """How a function uses a parameter that holds an instance (``EntryEvidence._uses_of``)."""

    calls: list[ast.Call]
    wrappers: list[ast.Call]
    passed_on: list[tuple[ast.Call, FunctionRef, str]]
    """The calls passing it on, with the function called and the parameter it binds there."""
    in_closures: list[tuple[ast.Call, FunctionNode]]
    """Its calls in the functions defined in the function's body, with the function making each."""


class _PassedInstance(NamedTuple):
    """An instance passed as an argument to a function of the project."""

    function: FunctionRef
    parameter: str
    """The parameter of ``function`` the argument binds."""
    construct: FunctionRef
    """The entry ``construct`` of the instance's Cell."""
    passing: _Site
    """The call that passes it."""
    depth: int
    """How many functions deep it is followed: 1 where the code that builds it passes it."""
    kept: bool = False
    """Whether ``function`` is a method whose object keeps the instance in ``self.<parameter>``
    (``self.model = model`` in its ``__init__``)."""


def _arguments_by_parameter(call: ast.Call, function: FunctionRef | None) -> list[tuple[str, ast.expr]]:
    """The argument ``call`` passes each parameter of ``function`` it names, by position or keyword
    (none where no function of the project is called); a method's first parameter is the instance
    the call is made on (:meth:`EntryEvidence._function_called` follows no other calls of one)."""
    if function is None:
        return []
    return list(written_arguments(call, function.node, function.owner is not None).items())


def _calls_on_built(built: _Site, method: FunctionNode) -> list[_Site]:
    """The calls of ``method`` that the code building an object makes on it: ``Trainer(net).fit(3)``,
    or ``trainer.fit(3)`` where its scope binds ``trainer = Trainer(net)`` once."""
    holder = parent_of(built.module.tree, built.call)
    calls: list[ast.Call] = []
    if isinstance(holder, ast.Attribute) and holder.attr == method.name:
        called = parent_of(built.module.tree, holder)
        calls = [called] if isinstance(called, ast.Call) and called.func is holder else []
    elif isinstance(holder, ast.Assign) and len(holder.targets) == 1 and isinstance(holder.targets[0], ast.Name):
        name = holder.targets[0].id
        if bound_once(built.scope, name) is built.call:
            calls = [
                node
                for node in own_nodes(built.scope)
                if isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == method.name
                and _is_name(node.func.value, name)
            ]
    return [_Site(call, built.module, built.scope, built.through) for call in calls]


def _calls_method(call: ast.Call, method: FunctionNode) -> bool:
    """Whether ``call`` is a call of ``method`` on an object (not the call that built it)."""
    return isinstance(call.func, ast.Attribute) and call.func.attr == method.name


def _class_of(function: FunctionNode, module: ModuleInfo) -> ast.ClassDef | None:
    """The class of the module's top level whose method ``function`` is, if any (a class nested in
    a function or a class is not looked at)."""
    return next((cls for cls in module.classes.values() if function in cls.body), None)


def _same_node(found: FunctionRef | None, method: FunctionRef) -> bool:
    """Whether ``found`` is ``method``: the class's own, not overridden nor excluded."""
    return found is not None and found.node is method.node


def _named(name: str) -> Callable[[ast.expr], bool]:
    return lambda expr: _is_name(expr, name)


def _attribute_of(self_name: str, attribute: str) -> Callable[[ast.expr], bool]:
    return lambda e: isinstance(e, ast.Attribute) and is_self_attribute(e, self_name) and e.attr == attribute


def _closures_reading(scope: FunctionNode, name: str, module: ModuleInfo) -> list[FunctionNode]:
    """The functions defined in ``scope``'s own body that see its ``name`` (``forward_fn`` in
    ``train(net, ...)`` calling ``net``): those that do not take a parameter of that name."""
    return [
        node
        for node in statements(scope)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and node is not scope
        and name not in all_parameter_names(node)
        and _enclosing_scope(node, module) is scope
    ]


def _only_called(wrapper: ast.Call, module: ModuleInfo, scope: FunctionNode | ast.Module) -> bool:
    """Whether the Cell a wrapper of :data:`_CALLING_CELLS` makes is only called, in ``scope``:
    bound to a name whose every read there is a call of it or the network of another such
    wrapper that is only called (``loss_net = WithLossCell(net, loss)``, ``train_net =
    TrainOneStepCell(loss_net, opt)``, ``train_net(data, label)``). Its calls then show what the
    instance gets; a Cell handed on (``Model(train_net)``) gets the dataset's columns. A wrapper
    that passes its calls on (``value_and_grad(loss_net)``, ``GradOperation()(loss_net, params)``)
    is followed as such a Cell is, and so is one called where it is made."""
    if _called_name(wrapper.func) not in _CALLING_CELLS and not passes_its_calls_on(wrapper, module):
        return False
    holder = parent_of(module.tree, wrapper)
    if isinstance(holder, ast.Call) and holder.func is wrapper:
        return True
    if isinstance(holder, ast.Call) and holder.args and holder.args[0] is wrapper:
        return _only_called(holder, module, scope)
    if not (isinstance(holder, ast.Assign) and len(holder.targets) == 1 and isinstance(holder.targets[0], ast.Name)):
        return False
    name = holder.targets[0].id
    uses = [n for n in own_nodes(scope) if isinstance(n, ast.Name) and n.id == name]
    if sum(isinstance(n.ctx, ast.Store) for n in uses) != 1:
        return False  # bound again: a read may be of another value
    reads = [n for n in uses if isinstance(n.ctx, ast.Load)]
    for read in reads:
        user = parent_of(module.tree, read)
        if isinstance(user, ast.Call) and user.func is read:
            continue
        wraps = isinstance(user, ast.Call) and bool(user.args) and user.args[0] is read
        if not (wraps and isinstance(user, ast.Call) and _only_called(user, module, scope)):
            return False
    return bool(reads)


def _is_name(expr: ast.expr, name: str) -> bool:
    return isinstance(expr, ast.Name) and expr.id == name


def _arguments(call: ast.Call) -> list[ast.expr]:
    """What ``call`` passes, by position and by keyword (a spread's value included)."""
    return [*call.args, *(k.value for k in call.keywords)]


def _passes_any_of(call: ast.Call, names: set[str]) -> bool:
    """Whether ``call`` passes one of ``names`` as an argument (``evaluate(net, data)``)."""
    return any(isinstance(a, ast.Name) and a.id in names for a in _arguments(call))


def _names_bound_to_calls_of(module: ModuleInfo, names: set[str]) -> set[str]:
    """The names the module binds to a call of one of ``names`` (``net = Net()``) or of a training
    wrapper (``grad_fn = value_and_grad(net, ...)``, ``GradOperation()(net)``), anywhere: calls of
    these may be an instance's."""
    wanted = names.union(_TRAINING_WRAPPERS, PASSING_WRAPPERS)
    return {
        target.id
        for node in statements(module.tree)
        if isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Call)
        and (_called_name(node.value.func) in wanted or passes_its_calls_on(node.value, module))
        for target in node.targets
        if isinstance(target, ast.Name)
    }


def _reads_any(scope: FunctionNode, names: set[str]) -> bool:
    """Whether the function's own code reads one of ``names``."""
    return bool(names) and any(isinstance(n, ast.Name) and n.id in names for n in own_nodes(scope))


def _enclosing_scope(function: FunctionNode, module: ModuleInfo) -> FunctionNode | ast.Module:
    """The function or module whose names ``function`` sees: the innermost function holding it, by
    lines (a class body between them hides its own names from it, so it is skipped)."""
    last = function.end_lineno or function.lineno
    holding = [
        f
        for f in statements(module.tree)
        if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
        and f is not function
        and f.lineno <= function.lineno
        and last <= (f.end_lineno or f.lineno)
    ]
    return max(holding, key=lambda f: f.lineno) if holding else module.tree


def call_site(call: ast.Call, module: ModuleInfo) -> str:
    """``by make_layers() at model.py:88``, ``by Block.__init__() at model.py:31`` in a method, or
    ``at train.py:12`` for a call outside a function."""
    (scope,) = module.scopes_holding([call.lineno])
    if isinstance(scope, ast.Module):
        return f"at {module.path.name}:{call.lineno}"
    holder = _class_of(scope, module)
    name = f"{holder.name}.{scope.name}" if holder is not None else scope.name
    return f"by {name}() at {module.path.name}:{call.lineno}"


def input_specs(values: dict[str, AbstractValue], names: list[str], vararg: ast.arg | None = None) -> str | None:
    """The input specs (``float32[2,4], 3``) of the values of ``names``, then of the items of the
    tuple ``vararg`` (``*args``) collects where its length is known, where each is a tensor of
    known dtype and shape or a Python literal; None otherwise."""
    specs = [input_spec(values.get(name)) for name in names]
    extra = None if vararg is None else values.get(vararg.arg)
    if isinstance(extra, AbstractSequence) and extra.items is not None:
        specs += [input_spec(item) for item in extra.items]
    return ", ".join(s for s in specs if s is not None) if specs and None not in specs else None


def input_spec(value: AbstractValue | None) -> str | None:
    """``float32[2,4]`` for a tensor of known dtype and shape (``float32[2,N]`` where a dimension
    is dynamic), ``3`` for a Python literal (not a list: a list spec is refused); None for anything else."""
    if isinstance(value, AbstractTensor):
        shape = value.shape
        known = value.dtype is not None and shape is not None and (value.dynamic or None not in shape)
        return f"{value.dtype}[{','.join('N' if d is None else str(d) for d in shape or ())}]" if known else None
    known_value = NOT_KNOWN if value is None or value.kind is not Kind.CONSTANT else python_value(value)
    return repr(known_value) if known_value is not NOT_KNOWN and is_constant(known_value) else None


def python_value(value: AbstractValue) -> object:
    """The Python literal an abstract value is known to be (a scalar, None, a tuple or list of
    them); NOT_KNOWN otherwise."""
    if isinstance(value, AbstractScalar):
        return value.value
    if isinstance(value, AbstractSequence) and value.items is not None:
        items = [python_value(item) for item in value.items]
        if any(item is NOT_KNOWN for item in items):
            return NOT_KNOWN
        return items if value.type == "list" else tuple(items)
    return NOT_KNOWN


_DEFINED_IN: NodeMemo[FunctionNode, dict[str, ClassRef | FunctionRef]] = NodeMemo()


def _defined_in(scope: FunctionNode, module: ModuleInfo) -> dict[str, ClassRef | FunctionRef]:
    """The classes and functions a function defines in its own body (a test's own ``Net``), by name;
    the first definition of a name where it has several (memoized by function)."""
    return _DEFINED_IN(scope, lambda _: _definitions_in(scope, module))


def _definitions_in(scope: FunctionNode, module: ModuleInfo) -> dict[str, ClassRef | FunctionRef]:
    defined: dict[str, ClassRef | FunctionRef] = {}
    pending: list[ast.AST] = list(reversed(scope.body))
    while pending:
        node = pending.pop()
        if isinstance(node, ast.ClassDef):
            defined.setdefault(node.name, ClassRef(module, node))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            defined.setdefault(node.name, FunctionRef(module, node))
        else:
            for field in ("body", "orelse", "finalbody", "handlers"):
                pending.extend(reversed(getattr(node, field, None) or []))
    return defined


def _called_name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _is_wrapper(call: ast.Call, module: ModuleInfo) -> bool:
    return _called_name(call.func) in _TRAINING_WRAPPERS and is_mindspore_name(
        qualified_name(call.func, module), *_TRAINING_WRAPPERS
    )


def _returns_a_call_of(function: ast.FunctionDef, names: set[str]) -> bool:
    """A function that returns a call of one of ``names`` (a factory of a Cell)."""
    return any(
        isinstance(node, ast.Return) and isinstance(node.value, ast.Call) and _called_name(node.value.func) in names
        for node in statements(function)
    )


def _returned_classes(project: Project, function: FunctionRef) -> list[ClassRef]:
    """The project classes a factory function returns an instance of, directly or through a local."""
    classes = (project.resolve_expr(c.func, function.module) for c in returned_calls(function.node))
    return [c for c in classes if isinstance(c, ClassRef)]


def _held_at(
    name: str, line: int, rebound: dict[str, list[tuple[int, FunctionRef | None]]], instances: dict[str, FunctionRef]
) -> FunctionRef | None:
    """The entry whose instance ``name`` holds at ``line``: the one its last assignment above
    makes, None where that makes something else (``net = TrainOneStepCell(WithLossCell(net,
    loss), opt)`` rebinds ``net`` to a wrapper before ``Model(net)``); where no assignment of the
    scope is above (a loop, a nested scope), its first one's; the name's instance where the scope
    assigns it nowhere."""
    bindings = rebound.get(name)
    if not bindings:
        return instances.get(name)
    above = [construct for number, construct in bindings if number < line]
    return above[-1] if above else bindings[0][1]


def _passed_columns(ref: FunctionRef, given: list[str], columns: int | None) -> list[str]:
    """The parameters a training wrapper passes dataset columns to: all, or the first ``columns``
    and the parameters without a default (``WithLossCell`` gives its network ``data`` alone, so
    ``construct(self, images, targets=None)`` keeps ``targets`` None: not a tensor)."""
    if columns is None:
        return given
    defaults = {arg.arg: default for arg, default in parameter_defaults(ref.node)}
    return [name for index, name in enumerate(given) if index < columns or defaults.get(name) is None]


def _any_value_of_its_type(value: AbstractValue) -> AbstractValue:
    """A literal default of an entry no call is shown to call: a Python scalar of its type, whose
    value the callers choose (``modal=0`` does not say that ``if modal == 1`` is never compiled)."""
    if isinstance(value, AbstractScalar) and value.kind is Kind.CONSTANT and value.type != "None":
        return AbstractScalar(Kind.CONSTANT, value.type)
    return value


def _positional(ref: FunctionRef) -> list[str]:
    arguments = ref.node.args
    names = [a.arg for a in [*arguments.posonlyargs, *arguments.args]]
    return names[1:] if ref.owner is not None and names else names


def _spec_values(ref: FunctionRef) -> list[AbstractValue]:
    """The values the entry's ``# mslint: inputs=...`` comment gives its inputs, in order: a tensor
    of that dtype and shape or a Python constant each (none without a comment, or with one that
    does not parse)."""
    definition = ref.owner.node if ref.owner is not None and ref.node.name == "construct" else ref.node
    comment = inputs_comment(ref.module.line, definition)
    try:
        specs = parse_input_specs(comment) if comment else []
    except ValueError:
        return []
    return [
        literal(spec.value) if isinstance(spec, ConstantSpec) else AbstractTensor(Kind.GRAPH, spec.dtype, spec.shape)
        for spec in specs
    ]


_OutputRead = Callable[["_Site", ast.expr], "AbstractValue | None"]
"""What an argument holds where it reads an instance's output (:meth:`EntryEvidence._output_read`)."""


def _argument_values(
    project: Project, site: _Site, ref: FunctionRef, outputs: _OutputRead | None = None
) -> dict[str, AbstractValue]:
    """The values a call site gives the entry's positional parameters: a spread (``net(*data)``)
    says nothing."""
    passed = passed_arguments(site.call, ref.node, is_method=ref.owner is not None)
    if passed is None:
        return {}
    values = HostValues(site.scope, site.module)
    positional = _positional(ref)[: site.columns]
    declared = inputs_set(site.call, site.scope, site.module) if site.through is None else None
    if declared is not None and len(declared) == len(passed):  # compiled for those, whatever it is called with
        return dict(zip(positional, declared))

    def given(argument: ast.expr) -> AbstractValue:
        return _cast(_handed_to_graph(_argument_value(project, site, argument, values, outputs)), site.cast)

    found = {name: given(argument) for name, argument in passed.items() if name in positional}
    vararg = ref.node.args.vararg
    if vararg is not None and site.columns is None:  # `net(x, 2)` of `construct(self, x, *args)`: args is (2,)
        found[vararg.arg] = sequence("tuple", tuple(given(extra) for extra in site.call.args[len(positional) :]))
    return found


def _cast(value: AbstractValue, dtype: str | None) -> AbstractValue:
    """What a Cell cast by ``to_float(dtype)`` gets of a tensor it is called on: a float32 tensor
    becomes one of ``dtype``, an integer tensor stays as it is (measured on 2.10: a Cell cast to
    float16 and called on float32 and int32 tensors sees float16 and int32); the other floats are
    not measured, so not known."""
    if dtype is None or not isinstance(value, AbstractTensor) or value.dtype is None:
        return value
    if value.dtype == "float32":
        return AbstractTensor(value.kind, None if dtype == _SOME_FLOAT else dtype, value.shape, value.parameter)
    if value.dtype.startswith(("float", "bfloat")):
        return AbstractTensor(value.kind, None, value.shape, value.parameter)
    return value


def _cast_instance(call: ast.Call) -> ast.Call | None:
    """The call making the instance that ``call`` casts (``Net()`` of ``Net().to_float(ms.float16)``;
    ``to_float`` returns the Cell)."""
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr == "to_float" and isinstance(func.value, ast.Call):
        return func.value
    return None


def _cast_by_to_float(name: str, scope: FunctionNode | ast.Module, module: ModuleInfo) -> str | None:
    """The dtype ``to_float`` casts the instance ``name`` holds in ``scope`` to: ``name.to_float(ms.float16)``
    there or, where ``scope`` does not bind ``name``, at the module's top level, or ``name =
    Net().to_float(ms.float16)``; the one dtype of all such calls (None where there is none,
    :data:`_SOME_FLOAT` where they differ or do not name a dtype)."""
    scopes: list[FunctionNode | ast.Module] = [scope]
    if not isinstance(scope, ast.Module) and name not in binding_counts(scope):
        scopes.append(module.tree)
    casts = [
        node
        for where in scopes
        for node in own_nodes(where)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "to_float"
        and (_is_name(node.func.value, name) or _bound_to(node, name, module))
    ]
    dtypes = {
        _float_dtype_named(cast.args[0], module) if len(cast.args) == 1 and not cast.keywords else None
        for cast in casts
    }
    if not casts:
        return None
    known = dtypes.pop() if len(dtypes) == 1 else None
    return known if known is not None else _SOME_FLOAT


def _bound_to(call: ast.Call, name: str, module: ModuleInfo) -> bool:
    """Whether ``call`` is the value an assignment binds to ``name`` alone."""
    holder = parent_of(module.tree, call)
    return isinstance(holder, ast.Assign) and [_is_name(t, name) for t in holder.targets] == [True]


def _float_dtype_named(expr: ast.expr, module: ModuleInfo) -> str | None:
    """The float dtype ``expr`` names (``float16`` for ``ms.float16`` or ``mstype.float16``): what
    ``to_float`` takes."""
    dtype = dtype_named(expr, lambda named: qualified_name(named, module))
    return dtype if dtype in ("float16", "bfloat16", "float32") else None


def _argument_value(
    project: Project, site: _Site, argument: ast.expr, values: HostValues, outputs: _OutputRead | None = None
) -> AbstractValue:
    """A parameter of the calling function is what the call that passed it the instance gives it
    (``evaluate(net, 4)`` for ``model(x, steps)`` in ``evaluate``), or else what all its callers
    pass it (``net(data)`` in ``forward_fn``, whose ``grad_fn(x)`` calls pass a tensor:
    :mod:`mslint.model.instances`); what another instance returned is its output (``outputs``)."""
    scope = site.scope
    if site.through is not None and isinstance(argument, ast.Name) and _is_own_parameter(scope, argument.id):
        assert not isinstance(scope, ast.Module)
        is_method = _class_of(scope, site.module) is not None
        return _passed_by(project, site.through, scope, argument.id, is_method, outputs)
    passed = passed_to_parameter(project, site.module, scope, argument)
    if passed is not None:
        return passed
    made = made_right_before(site.module, site.call, argument)
    output = outputs(site, argument) if made is None and outputs is not None else None
    return made if made is not None else output if output is not None else values.value(argument)


def made_right_before(module: ModuleInfo, call: ast.Call, argument: ast.expr) -> AbstractValue | None:
    """The tensor that ``argument`` of ``call`` hands the graph, where it is made with a known
    dtype and shape: in place (``net(ops.randn(2, 3))``), or by the statement that last binds the
    name before the call in the call's block or the blocks around it, in its scope (``x =
    Tensor(np.ones([2, 2], np.int32)); net(x)``), whatever the name holds elsewhere in the scope
    (``x`` rebound before another instance's call); the names a creation reads are followed the
    same way (``a = np.ones((2, 3)); net(Tensor(a))``). None where it is nothing such, or a name
    may have been rebound since."""
    made = created_by(
        argument, lambda e: qualified_name(e, module), lambda name: _assigned_before(module.tree, call, name)
    )
    known = isinstance(made, (AbstractTensor, AbstractArray)) and made.dtype is not None and made.shape
    return _handed_to_graph(made) if known and made is not None else None


def _assigned_before(tree: ast.Module, node: ast.AST, name: str, unpacked: bool = False) -> ast.expr | None:
    """The value that the statement last binding ``name`` before ``node`` assigns it, where that
    statement is ``name = value`` (``unpacked``: or ``a, name = value``, whose item it reads, as
    a subscript made here): in ``node``'s block, else in the blocks around it (an ``if``, a
    ``with``), up to its function's body."""
    held = block_holding(tree, node)
    while held is not None:
        block, statement = held
        for earlier in reversed(block[: next(i for i, s in enumerate(block) if s is statement)]):
            if isinstance(earlier, ast.Assign) and [ast.unparse(t) for t in earlier.targets] == [name]:
                return earlier.value
            position = _unpacked_at(earlier, name) if unpacked else None
            if position is not None:
                assert isinstance(earlier, ast.Assign)
                return ast.Subscript(earlier.value, ast.Constant(position), ast.Load())
            if _binds(earlier, name):
                return None
        around = parent_of(tree, statement)
        if not isinstance(around, ast.stmt) or isinstance(around, _SCOPES):
            return None
        header = [node for field, value in ast.iter_fields(around) if field not in _BLOCKS for node in _walked(value)]
        if any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store) for n in header):
            return None  # `for x in ...`, `with ... as x`
        held = block_holding(tree, around)
    return None


def _unpacked_at(statement: ast.stmt, name: str) -> int | None:
    """The position of ``name`` in the names ``a, name = value`` unpacks (no starred one)."""
    if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1):
        return None
    target = statement.targets[0]
    if not isinstance(target, (ast.Tuple, ast.List)) or not all(isinstance(t, ast.Name) for t in target.elts):
        return None
    names = [t.id for t in target.elts if isinstance(t, ast.Name)]
    return names.index(name) if names.count(name) == 1 else None


def _calls_the_instance(site: _Site) -> bool:
    """Whether the call of ``site`` returns what the instance's ``construct`` does: a call of
    the instance itself (``backbone(x)``, ``Backbone()(x)``), not of a wrapper made of it
    (``grad_fn = value_and_grad(net)``, ``TrainOneStepCell(net, opt)``), whose result is its own."""
    made: ast.expr | None = site.call.func
    if isinstance(made, ast.Name):
        name = made.id
        made = _assigned_before(site.module.tree, site.call, name) or bound_once(site.scope, name)
        if made is None and not isinstance(site.scope, ast.Module) and name not in binding_counts(site.scope):
            made = bound_once(site.module.tree, name)
        if isinstance(made, ast.Call):
            made = _cast_instance(made) or made  # `Net().to_float(ms.float16)` is the instance
    if not isinstance(made, ast.Call):
        return False
    return not _is_wrapper(made, site.module) and not passes_its_calls_on(made, site.module)


def _tuple_item(value: AbstractValue, index: object) -> AbstractValue:
    """The item at the literal ``index`` of a tuple ``value`` (``backbone(x)[0]``); not known otherwise."""
    items = value.items if isinstance(value, AbstractSequence) and value.type == "tuple" else None
    if items is None or not isinstance(index, int) or not -len(items) <= index < len(items):
        return UNKNOWN
    return items[index]


def _tensors(value: AbstractValue) -> bool:
    """Whether ``value`` is a tensor, or a tuple of tensors, as a graph hands them back to Python."""
    if isinstance(value, AbstractSequence):
        return value.type == "tuple" and value.items is not None and all(map(_tensors, value.items))
    return isinstance(value, AbstractTensor)


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
"""Where the statements of a scope end: names bound above are another scope's."""
_BLOCKS = ("body", "orelse", "finalbody", "handlers")
"""The fields of a compound statement that hold statements: the rest is its header."""


def _walked(value: object) -> list[ast.AST]:
    """The nodes under a field of a node: one node, or a list of them."""
    items = value if isinstance(value, list) else [value]
    return [node for item in items if isinstance(item, ast.AST) for node in ast.walk(item)]


def block_holding(tree: ast.Module, node: ast.AST) -> tuple[list[ast.stmt], ast.stmt] | None:
    """The list of statements (a body, an ``else``) whose statement holds ``node``, and that statement."""
    statement, parent = node, parent_of(tree, node)
    while parent is not None:
        for field in ("body", "orelse", "finalbody"):
            block = getattr(parent, field, None)
            if isinstance(block, list) and isinstance(statement, ast.stmt) and any(s is statement for s in block):
                return block, statement
        statement, parent = parent, parent_of(tree, parent)
    return None


def _binds(statement: ast.stmt, name: str) -> bool:
    """Whether ``statement`` (or what it holds) binds ``name``."""
    return any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store) for n in ast.walk(statement))


def _is_own_parameter(scope: FunctionNode | ast.Module, name: str) -> bool:
    """Whether ``name`` is a named parameter of ``scope`` that ``scope`` never rebinds."""
    if isinstance(scope, ast.Module) or name in binding_counts(scope):
        return False
    return any(parameter.arg == name for parameter, _ in parameter_defaults(scope))


def _passed_by(
    project: Project,
    through: _Site,
    function: FunctionNode,
    parameter: str,
    is_method: bool,
    outputs: _OutputRead | None = None,
) -> AbstractValue:
    """What ``through``, a call of ``function`` (a method's on an instance), passes ``parameter``:
    its literal default where the call leaves it out; not known where the call spreads arguments."""
    if spreads(through.call):
        return UNKNOWN
    written = written_arguments(through.call, function, is_method).get(parameter)
    if written is not None:
        return _argument_value(project, through, written, HostValues(through.scope, through.module), outputs)
    default = {arg.arg: value for arg, value in parameter_defaults(function)}.get(parameter)
    known = NOT_KNOWN if default is None else literal_value(default)
    return UNKNOWN if known is NOT_KNOWN else literal(known)


def _handed_to_graph(value: AbstractValue) -> AbstractValue:
    """What a graph sees of a value a Python call hands it: a numpy array becomes a tensor."""
    if isinstance(value, AbstractArray):
        return AbstractTensor(Kind.GRAPH, value.dtype, value.shape)
    if isinstance(value, AbstractSequence) and value.items is not None:
        return sequence(value.type, tuple(_handed_to_graph(item) for item in value.items))
    return value


def _used_as_tensors(function: FunctionNode, tensor_attributes: Collection[str]) -> frozenset[str]:
    """Parameters whose attributes the function reads as only a tensor has them: an attribute of
    the release's Tensor that no Python number, string or tuple has (``x.shape``, ``x.astype``)."""
    parameters = {a.arg for a in [*function.args.posonlyargs, *function.args.args, *function.args.kwonlyargs]}
    return frozenset(
        node.value.id
        for node in descendants(function)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id in parameters
        and node.attr in tensor_attributes
        and node.attr not in _PYTHON_METHODS
    )
