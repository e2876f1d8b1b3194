"""Graph scope: which functions MindSpore compiles, and from which entry point each is reached.

Entries are ``construct`` of every Cell class and every function or method decorated
with ``mindspore.jit`` (or the old ``ms_function``), or wrapped by ``jit(f)`` at module
level. Every function or method of the checked code that graph code calls is graph code
too; its parameters take the kinds of the arguments at its graph call sites. A ``constexpr``
function is not: the compiler runs it in Python on constants.
"""

from __future__ import annotations

import ast
import weakref
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property, partial
from typing import TypeVar

from mslint.fold_table import INFERENCE, PARSE
from mslint.model.abstract import (
    NOT_KNOWN,
    AbstractAny,
    AbstractDict,
    AbstractInstance,
    AbstractScalar,
    AbstractSequence,
    AbstractTensor,
    AbstractValue,
    Kind,
    join,
    join_all,
    latest,
    literal,
    sequence_of,
    widened,
)
from mslint.model.binder import (
    all_arguments,
    all_parameter_names,
    binding_counts,
    bindings,
    loop_items,
    parameter_defaults,
    passed_arguments,
    target_names,
)
from mslint.model.call_inputs import MOST_CALLS, CallInput, call_input
from mslint.model.call_sites import EntryEvidence, call_site
from mslint.model.capture import AST, AST_CAPTURE, Capture, decorator_capture, wrapping_calls
from mslint.model.created_tensors import created_by
from mslint.model.folds import NOT_FOLDED, POSITION_OF, CellItems, FoldedTest
from mslint.model.held_constants import changed, held_constant, held_source
from mslint.model.instances import built_instances, classes_passed, construction, constructor_values
from mslint.model.layer_transfer import layer_result
from mslint.model.memo import NodeMemo
from mslint.model.module import ModuleInfo, imports_in, is_self_attribute
from mslint.model.module_objects import module_object
from mslint.model.project import (
    ClassRef,
    FunctionNode,
    FunctionRef,
    Project,
    from_a_mindspore_suite,
    is_jit_class,
    is_mindspore_cell_name,
    is_mindspore_name,
    qualified_name,
    qualified_name_in,
)
from mslint.model.sequential import repeated_item, sequential_items
from mslint.model.shape_constants import ShapeConstants
from mslint.model.symbolic import Origin, ProgramPoint, row_reads
from mslint.model.training_mode import never_trained
from mslint.model.values import ReturnedValue, ValueEvaluator, is_static_primitive, name_values, parameter_values
from mslint.model.visible_constants import visible_constants
from mslint.model.walk import descendants, returned_calls, returned_values, statements

_Key = tuple[int, tuple[tuple[str, AbstractValue], ...]]
"""A function node and the values of its parameters."""
_Attribute = tuple[int, str]
"""A class node and an attribute of its instances."""
_T = TypeVar("_T")
_ROUNDS = 3
"""How many times an item repeated an unknown number of times is given what it returns before
its input is taken for any value of its kind (:meth:`GraphFunction.sequential_stages`)."""
COMPILE_TIME_NAMES = ("constexpr", "_primexpr")
"""Decorators whose function the compiler calls in Python, on constant arguments, while compiling."""
_Stage = tuple["FunctionRef | None", dict[str, AbstractValue], AbstractValue]
"""An item of an ``nn.SequentialCell`` called: the ``construct`` it runs where it is a Cell of the
checked code, the values its parameters get, and what it returns."""


def _given(value: AbstractValue) -> Callable[[ast.expr], AbstractValue]:
    """The value of the argument of a call that the program never writes (an item of an
    ``nn.SequentialCell`` called on what the item before it returned): ``value``."""
    return lambda expr: value


@dataclass
class CallMemo:
    """What the graph functions of one project share: a function's values are evaluated again
    for what it returns to each call, and each call again for each evaluation of its kind."""

    callees: dict[int, list[FunctionRef]] = field(default_factory=dict)
    """By call node: the project functions it runs (a call belongs to one method, of one owner)."""
    name_values: dict[_Key, dict[str, AbstractValue]] = field(default_factory=dict)
    values: dict[_Key, dict[int, AbstractValue]] = field(default_factory=dict)
    """By function and expression node: its value, once evaluated."""
    returned: dict[_Key, AbstractValue] = field(default_factory=dict)
    returning: set[int] = field(default_factory=set)
    """The function nodes whose returns are being evaluated: a recursive call is not followed."""
    calls: dict[int, dict[int, int]] = field(default_factory=dict)
    """By function node: the functions graph code reached from it, each with the line of the
    first call (:func:`graph_functions` records them as it follows the calls)."""
    called_from_python: set[int] = field(default_factory=set)
    """The entry nodes that ordinary Python code is shown to call: top graphs."""
    instances: dict[int, str] = field(default_factory=dict)
    """By entry node: how the program builds and calls it, where it shows it (``as built at
    train.py:17, called with float32[2,4], 3``: :meth:`EntryEvidence.instance`)."""
    passed_objects: dict[int, dict[str, str]] = field(default_factory=dict)
    """By entry node: its parameters that every call fills with an object of another library, with
    the calls that make it (:meth:`EntryEvidence.another_librarys`)."""
    call_inputs: dict[int, dict[int, CallInput]] = field(default_factory=dict)
    """By function node and call node: what each call that reaches the function gives it
    (:mod:`mslint.model.call_inputs`), recorded as :func:`graph_functions` follows the calls."""
    qualnames: dict[tuple[int, int], str | None] = field(default_factory=dict)
    """By function node and expression: what the expression names there (rules ask for the same calls)."""
    constructors: dict[_Attribute, list[str]] = field(default_factory=dict)
    attribute_classes: dict[_Attribute, list[ClassRef]] = field(default_factory=dict)
    element_classes: dict[_Attribute, list[ClassRef]] = field(default_factory=dict)
    sequential_items: dict[_Attribute, list[tuple[ast.Call, ModuleInfo]]] = field(default_factory=dict)
    repeated_items: dict[_Attribute, list[tuple[ast.Call, ModuleInfo]]] = field(default_factory=dict)
    at_start: dict[_Key, tuple[dict[int, AbstractValue], dict[int, Origin | None]]] = field(default_factory=dict)
    """By function: the values and origins of :meth:`GraphFunction.value_and_origin`."""
    attribute_values: dict[_Attribute, AbstractValue] = field(default_factory=dict)
    """By class node and attribute: what ``self.<attribute>`` holds, the same in every method of
    the class and every evaluation of one (see :meth:`GraphFunction.self_attribute_constructors`)."""
    captures: dict[int, Capture] = field(default_factory=dict)
    """By function node: how it is captured where that is not ast (see :mod:`mslint.model.capture`)."""
    functions: list[weakref.ref[GraphFunction]] = field(default_factory=list)
    """Every graph function of the project (:func:`graph_functions` sets them), held weakly: each
    holds this memo, and the cycle would keep the trees alive until the collector runs."""
    always_parsed: frozenset[int] | None = None
    """The function nodes the compiler parses whenever their entry compiles (see
    :meth:`GraphFunction.always_parsed`), worked out when first asked."""


class GraphFunction:
    """A function compiled as graph code, with what is known of its values."""

    def __init__(
        self,
        project: Project,
        ref: FunctionRef,
        entry: FunctionRef,
        parameters: dict[str, AbstractValue],
        memo: CallMemo | None = None,
        unknown_as: Kind = Kind.GRAPH,
        called: str | None = None,
    ) -> None:
        self.project = project
        self.ref = ref
        # Read at every node the rules and the evaluator look at: plain attributes, not properties.
        self.module: ModuleInfo = ref.module
        self.node: FunctionNode = ref.node
        self.owner: ClassRef | None = ref.owner
        self.entry = entry
        """The entry point (Cell ``construct``, ``@jit`` function) that first reaches this function."""
        self.parameter_values = parameters
        self.memo = memo or CallMemo()
        self.unknown_as = unknown_as
        """What :meth:`kind` answers for an unknown value: rules see graph values or constants."""
        self.called = called
        """Where this is an entry evaluated for one of the calls from Python that give it different
        values (:func:`graph_functions`): that call, ``called at net.py:20 with int32[1]``."""

    @property
    def capture(self) -> Capture:
        """How ``jit`` captures this function: its entry's mode, or ast where an ast graph calls it."""
        return self.memo.captures.get(id(self.node), AST_CAPTURE)

    @property
    def is_top_graph(self) -> bool:
        """An entry that ordinary Python code is shown to call (not only reached from graph code)."""
        return self.entry.node is self.node and id(self.node) in self.memo.called_from_python

    @property
    def always_parsed(self) -> bool:
        """Whether the compiler reads this function whenever its entry compiles: it is the entry,
        or a chain of calls reaches it from there that no test on Python values may leave out."""
        if self.memo.always_parsed is None:
            alive = (function() for function in self.memo.functions)
            self.memo.always_parsed = _always_parsed([function for function in alive if function is not None])
        return id(self.node) in self.memo.always_parsed

    def assuming_constants(self) -> GraphFunction:
        """This function with every unknown value taken for a Python constant: a finding it still
        gives holds whatever the unknowns turn out to be."""
        values = self.parameter_values
        return GraphFunction(self.project, self.ref, self.entry, values, self.memo, Kind.CONSTANT, self.called)

    @cached_property
    def unknown_names(self) -> frozenset[str]:
        """The local names whose values are not inferred (see :attr:`Kind.UNKNOWN`)."""
        return frozenset(name for name, value in self.name_values.items() if value.kind is Kind.UNKNOWN)

    @cached_property
    def self_name(self) -> str | None:
        if self.owner is None or not self.node.args.args:
            return None
        decorators = {qualified_name(d, self.module) for d in self.node.decorator_list}
        return None if "builtins.staticmethod" in decorators else self.node.args.args[0].arg

    @cached_property
    def local_imports(self) -> dict[str, str]:
        return imports_in(self.node, self.module.package)

    @cached_property
    def local_names(self) -> frozenset[str]:
        names = {*all_parameter_names(self.node), *(n for b in bindings(self.node) for n in b.names)}
        return frozenset(names - set(self.local_imports))

    def qualname(self, expr: ast.expr) -> str | None:
        """The qualified name ``expr`` refers to here; None for local values."""
        key = (id(self.node), id(expr))
        qualnames = self.memo.qualnames
        if key not in qualnames:
            qualnames[key] = qualified_name_in(expr, self.module, self.local_imports, self.local_names)
        return qualnames[key]

    @cached_property
    def _key(self) -> _Key:
        return id(self.node), tuple(sorted(self.parameter_values.items(), key=lambda item: item[0]))

    @cached_property
    def pruned_nodes(self) -> frozenset[int]:
        """Ids of the nodes the compiler never evaluates: the branch that an ``if``, a conditional
        expression or a ``while`` does not take, and the operands of an ``and``/``or`` (in a test
        or not) after one that decides it, where the test is folded (:mod:`mslint.model.folds`, as
        measured on the release: ``if self.use_past:`` where the class sets ``use_past`` to
        ``False`` only, ``if gate is not None:`` where every call gives ``gate=None``)."""
        by_call = self._pruned_by_call
        # A node that no call evaluates is compiled for none of them.
        by_calls = frozenset.intersection(*(pruned for _, pruned in by_call)) if by_call else frozenset()
        if self.self_name is None and not self._constant_parameters and not self._module_constants:
            return by_calls  # nothing a test could fold on the values joined over the calls
        return self._pruned(self._fold_constant) | by_calls

    def calls_reaching(self, node: ast.AST) -> list[str] | None:
        """Where the calls that reach this function differ on a constant that a test here folds,
        so that some never evaluate ``node``: those that do (``called at net.py:20 with 'HARD'``);
        None where every call may evaluate it, or the calls are not all known."""
        by_call = self._pruned_by_call
        reaching = [where for where, pruned in by_call if id(node) not in pruned]
        return None if len(reaching) == len(by_call) else reaching

    @property
    def _pruned_by_call(self) -> list[tuple[str, frozenset[int]]]:
        """For each call that reaches this function, where they differ on the constants they give
        (at most :data:`MOST_CALLS` of them): where it is and the nodes the compiler never
        evaluates for it. Read when asked: a call recorded later with constants seen already
        names itself without changing what is pruned."""
        recorded = self.memo.call_inputs.get(id(self.node)) if self.called is None else None  # one call's own
        calls = list(recorded.values()) if recorded else []
        if len({call.constants for call in calls}) < 2 or len(calls) > MOST_CALLS:
            return []
        pruned = self._pruned_by_constants
        for call in calls:
            if call.constants not in pruned:
                pruned[call.constants] = self._pruned(self._call_constant(call), self._call_source(call))
        return [(call.where, pruned[call.constants]) for call in calls]

    @cached_property
    def _pruned_by_constants(self) -> dict[tuple[tuple[str, object], ...], frozenset[int]]:
        """By the constants a call gives: the nodes pruned for it, worked out once."""
        return {}

    def _call_source(self, call: CallInput) -> Callable[[ast.expr], str | None]:
        """:meth:`_fold_source` for one call: the parameters it gives constants are its inputs."""
        given = {name for name, _ in call.constants}

        def source(expr: ast.expr) -> str | None:
            return call.source if isinstance(expr, ast.Name) and expr.id in given else self._fold_source(expr)

        return source

    def _call_constant(self, call: CallInput) -> Callable[[ast.expr], object]:
        """:meth:`_fold_constant` for one call: the constants it gives its parameters."""
        given = dict(call.constants)

        def constant(expr: ast.expr) -> object:
            if isinstance(expr, ast.Name) and expr.id in given:
                return given[expr.id]
            return self._fold_constant(expr)

        return constant

    def instances_reaching(self, node: ast.AST) -> list[str] | None:
        """Where the instances the program builds of this method's class differ on a constant that
        a test here folds, so that some never evaluate ``node``: the calls that build the others
        (``at net.py:20``), none where no instance evaluates it; None where every instance may, or
        the instances are not all known."""
        by_instance = self._pruned_by_instance
        reaching = [where for where, pruned in by_instance if id(node) not in pruned]
        return None if len(reaching) == len(by_instance) else reaching

    def evaluated_by_an_instance(self, node: ast.AST) -> bool:
        """Whether some instance the program builds of this method's class (where it builds
        several) evaluates ``node`` whatever else holds: each ``if`` or conditional expression
        around it folds, in that instance, to the branch that holds it."""
        if not self._instance_constants:
            return False
        key = id(node)
        around = [(b.branch, key in b.body) for b in _branches_holding(self.node) if key in b.body or key in b.orelse]
        return any(
            all(self._folding(POSITION_OF[type(b)], INFERENCE, constant).truth(b.test) is taken for b, taken in around)
            for _, constant in self._instance_constants
        )

    def unknown_constant_test(self, node: ast.AST) -> ast.expr | None:
        """The test of an ``if`` or conditional expression on a compile-time constant
        (``if self.flag:``) whose value is not known here, where ``node`` is in one of its branches
        or after it, its branch always returning: the compiler drops what the value makes dead,
        unread, so whether it compiles ``node`` rests on that value. None where no such test
        decides it. (Where the value is known, the rules are never shown a node not compiled;
        where the instances differ, one that takes every branch around ``node`` reaches it.)"""
        if self.evaluated_by_an_instance(node):
            return None
        key = id(node)
        for held in _branches_holding(self.node):
            test = held.branch.test
            if not held.holds(key) or self.kind(test) is not Kind.CONSTANT:
                continue
            truth = self.folded_truth(test)
            if truth is None:
                return test
            # what a folded test skips and nothing prunes (`self.training`: :meth:`_pruned`)
            if self._reads_training_test(test) and held.skipped_by(truth, key):
                return test
        return None

    @cached_property
    def _pruned_by_instance(self) -> list[tuple[str, frozenset[int]]]:
        """For each instance of the class the program builds, where several are: the call that
        builds it and the nodes the compiler never evaluates in it."""
        return [(where, self._pruned(constant)) for where, constant in self._instance_constants]

    @cached_property
    def _instance_constants(self) -> list[tuple[str, Callable[[ast.expr], object]]]:
        """For each instance of the class the program builds, where several are: the call that
        builds it and :meth:`_fold_constant` in it, with the values its constructor gives the
        attributes that :meth:`_attributes_given` names."""
        given = self._attributes_given
        built = built_instances(self.project, self.owner) if given and self.owner is not None else None
        if built is None or len(built) < 2:
            return []
        found = []
        for call, module, passed in built:
            values = {attribute: _scalar(passed.get(parameter)) for attribute, parameter in given.items()}
            known = {attribute: value for attribute, value in values.items() if value is not NOT_KNOWN}
            found.append((call_site(call, module), self._constant_in(known)))
        return found

    @cached_property
    def _attributes_given(self) -> dict[str, str]:
        """The attributes a test of the class reads that its own ``__init__`` sets once, to a
        parameter it never rebinds (``self.use_attn = use_attn``), each with the parameter."""
        owner = self.owner
        init = None if owner is None or self.self_name is None else self.project.find_method(owner, "__init__")
        if owner is None or init is None or init.owner is None or init.owner.node is not owner.node:
            return {}
        first, last = init.node.lineno, init.node.end_lineno or init.node.lineno
        parameters = _kept_parameters(init.node)
        found = {}
        for attribute in _tested_attributes(owner.node):
            assigned = self.project.attribute_values(owner, attribute)
            value = assigned[0][1] if len(assigned) == 1 and assigned[0][0].node is owner.node else None
            if isinstance(value, ast.Name) and value.id in parameters and first <= value.lineno <= last:
                found[attribute] = value.id
        return found

    def _constant_in(self, values: dict[str, object]) -> Callable[[ast.expr], object]:
        """:meth:`_fold_constant` in an instance whose attributes hold ``values``."""

        def constant(expr: ast.expr) -> object:
            if isinstance(expr, ast.Attribute) and is_self_attribute(expr, self.self_name) and expr.attr in values:
                return values[expr.attr]
            return self._fold_constant(expr)

        return constant

    def _pruned(
        self, constant: Callable[[ast.expr], object], source: Callable[[ast.expr], str | None] | None = None
    ) -> frozenset[int]:
        """The nodes :attr:`pruned_nodes` names, the constants of tests being ``constant``'s, of
        the sources ``source`` names (:meth:`_fold_source` where not given). ``self.training``
        prunes nothing: a Cell is meant to be trained, by a program that may lie outside the
        checked code, so what its ``False`` skips is capped (:meth:`unknown_constant_test`)."""
        known_source = source or self._fold_source

        def untrained(expr: ast.expr) -> object:
            return NOT_FOLDED if known_source(expr) == "training" else constant(expr)

        pruned: set[int] = set()
        tested: set[int] = set()  # the `and`/`or` in tests; the others are values
        skipped: list[ast.AST] = []
        following = _following_statements(self.node)
        for node in descendants(self.node):
            if not isinstance(node, (ast.If, ast.IfExp, ast.While)):
                continue
            folding = self._folding(POSITION_OF[type(node)], INFERENCE, untrained, source)
            truth = folding.truth(node.test)
            if truth is not None and not (isinstance(node, ast.While) and truth):  # a true `while` runs
                branch = node.orelse if truth else node.body
                skipped += list(branch) if isinstance(branch, list) else [branch]
                if isinstance(node, ast.If) and _leaves(node.body if truth else node.orelse):
                    skipped += following.get(id(node), [])  # `if self.flag: return a` then `return b`
            for boolean in (n for n in descendants(node.test) if isinstance(n, ast.BoolOp)):
                tested.add(id(boolean))
                skipped += _undecided_operands(boolean, folding)  # `not self.use_past or self.cache`
        value = self._folding("value", INFERENCE, untrained, source)
        for boolean in (n for n in descendants(self.node) if isinstance(n, ast.BoolOp) and id(n) not in tested):
            skipped += _undecided_operands(boolean, value)  # `z = self.flag and self.attn(x)`
        for part in skipped:
            pruned.update(id(n) for n in descendants(part))
        return frozenset(pruned)

    def parser_may_skip(self, statement: ast.If) -> list[ast.AST]:
        """What the compiler's parser may leave unread of an ``if`` statement, whatever the values
        of the constants it tests: both branches where it folds the test (an ``if`` on attributes
        of ``self``: an undefined name there compiles); where it folds the first operand of an
        ``and`` (``or``), the operands after it and the branch a false (true) one skips."""
        folding = self._folding("if", PARSE)
        test = statement.test
        skipped: list[ast.AST] = [*statement.body, *statement.orelse] if folding.folds(test) else []
        if not skipped and isinstance(test, ast.BoolOp) and folding.may_decide(test):  # `self.debug and ...`
            skipped = list(statement.orelse if isinstance(test.op, ast.Or) else statement.body)
        for boolean in (n for n in descendants(statement.test) if isinstance(n, ast.BoolOp)):
            skipped += boolean.values[1:] if folding.may_decide(boolean) else []
        return skipped

    @cached_property
    def _constant_parameters(self) -> frozenset[str]:
        """Parameters that every call gives a Python scalar (``self.block(x, None)``) or a tuple or
        list of known scalars (``self.block(x, (1, 2))``), never rebound here: the compiler
        specialises the graph on them, and knows whether each is None."""
        rebound = binding_counts(self.node)
        return frozenset(
            name
            for name, value in self.parameter_values.items()
            if name not in rebound
            and (
                (isinstance(value, AbstractScalar) and value.kind is Kind.CONSTANT)
                or _python_value(value) is not NOT_FOLDED
            )
        )

    @property
    def _module_constants(self) -> dict[str, object]:
        """The module's names bound once, at its top level, to a literal scalar, and never declared
        ``global``: module constants (``USE_BN = False``), its own or imported by name."""
        return visible_constants(self.project, self.module)

    def folded_truth(self, test: ast.expr, position: str = "if", stage: str = INFERENCE) -> bool | None:
        """The truth the compiler folds ``test`` to at ``position`` (``if``, ``ifexp``, ``while``)
        and ``stage``, where the measured table says it folds such a test and its constants are
        known here; None otherwise (:mod:`mslint.model.folds`)."""
        return self._folding(position, stage).truth(test)

    def _folding(
        self,
        position: str,
        stage: str,
        constant: Callable[[ast.expr], object] | None = None,
        source: Callable[[ast.expr], str | None] | None = None,
    ) -> FoldedTest:
        folded = self.project.release.folds
        constant = constant or self._fold_constant
        fold_source = source or self._fold_source
        return FoldedTest(folded, position, stage, fold_source, constant, self.qualname, self._tensor_source)

    def _tensor_source(self, expr: ast.expr) -> str | None:
        """The fold table's source of ``expr`` where it holds a tensor in every instance and call:
        ``self`` for an attribute that every assignment sets to a ``Tensor`` or a ``Parameter``
        (``self.w = Parameter(...)``, or a helper of the checked code that returns one; never
        ``None``), ``input`` for a parameter of an entry, never rebound, that every call gives a
        tensor; None otherwise."""
        if isinstance(expr, ast.Attribute) and is_self_attribute(expr, self.self_name) and self.owner is not None:
            assigned = self.project.attribute_values(self.owner, expr.attr)
            return "self" if assigned and all(self._makes_tensor(k, v) for k, v in assigned) else None
        if not isinstance(expr, ast.Name) or self.entry.node is not self.node or expr.id in binding_counts(self.node):
            return None
        return "input" if isinstance(self.parameter_values.get(expr.id), AbstractTensor) else None

    def _makes_tensor(self, klass: ClassRef, value: ast.expr) -> bool:
        """Whether ``value``, assigned in ``klass``, is a call of ``Tensor`` or ``Parameter``, or of
        a function of the checked code that returns only such calls."""
        created = qualified_name(value.func, klass.module) if isinstance(value, ast.Call) else None
        if created is None or is_mindspore_name(created, "Tensor", "Parameter"):
            return created is not None
        helper = self.project.resolve(created, klass.module)
        returned = returned_constructors(helper)
        every = isinstance(helper, FunctionRef) and len(returned) == len(returned_values(helper.node))
        return every and bool(returned) and all(is_mindspore_name(c, "Tensor", "Parameter") for c in returned)

    def _fold_source(self, expr: ast.expr) -> str | None:
        """The table's source of a constant ``expr`` is, None where it is none."""
        if is_self_attribute(expr, self.self_name):
            return "training" if self._reads_training(expr) else "self"
        held = held_source(expr, self.self_name)
        if held is not None:
            return held
        if isinstance(expr, ast.Name):
            if expr.id in self._constant_parameters:
                return "input" if self.entry.node is self.node else "subcell"
            if expr.id not in self.local_names and expr.id in self._module_constants:
                return "module"
        if self._shape_constants.reads_shape(expr):
            return "shape"
        return None

    def _reads_training_test(self, test: ast.expr) -> bool:
        """Whether ``test`` reads ``self.training`` (:meth:`_reads_training`)."""
        return any(isinstance(n, ast.Attribute) and self._fold_source(n) == "training" for n in ast.walk(test))

    def _reads_training(self, expr: ast.expr) -> bool:
        """Whether ``expr`` reads the ``training`` that ``nn.Cell`` keeps: ``self.training`` in a
        Cell of the project whose code never assigns it."""
        owner = self.owner
        return (
            isinstance(expr, ast.Attribute)
            and expr.attr == "training"
            and owner is not None
            and self.project.is_cell(owner)
            and not self.project.attribute_values(owner, "training")
        )

    @cached_property
    def _never_trained(self) -> bool:
        """Whether every instance of this method's Cell holds ``training`` False: the program
        builds only instances mslint knows (:func:`constructor_values`) and never switches a Cell
        to training (:func:`never_trained`)."""
        owner = self.owner
        return (
            owner is not None
            and constructor_values(self.project, owner) is not None
            and never_trained(self.project, owner.module)
        )

    @cached_property
    def _shape_constants(self) -> ShapeConstants:
        """The Python numbers this function computes from its tensors' static shapes."""
        return ShapeConstants(self.node, self.parameter_values, self.self_name, self._value_among, self.folded_truth)

    def _value_among(self, values: Mapping[str, AbstractValue], expr: ast.expr) -> AbstractValue:
        """The value of ``expr`` here, its local names holding ``values``."""
        return self._evaluator(values, {}).value(expr)

    def passed_value(self, expr: ast.expr) -> AbstractValue:
        """What ``expr``, an argument of a call here, gives the callee: its value, a module constant's
        literal included (``self.sub(x, MODE)``), on which the callee's graph is specialised."""
        if isinstance(expr, ast.Name) and self._fold_source(expr) == "module":
            return literal(self._module_constants[expr.id])
        return self.value(expr)

    def _fold_constant(self, expr: ast.expr) -> object:
        """The Python value of a constant of a source (:meth:`_fold_source`); NOT_FOLDED where unknown."""
        source = self._fold_source(expr)
        if isinstance(expr, ast.Name) and source == "module":
            return self._module_constants[expr.id]
        if source in ("attribute", "item"):
            return NOT_FOLDED if self.owner is None else held_constant(self.project, self.owner, expr, self.self_name)
        if source == "shape":
            return self._shape_constants.value(expr)
        if source == "training":
            return False if self._never_trained else NOT_FOLDED
        if source == "self" and isinstance(expr, ast.Attribute):
            counted = self._cell_items(expr.attr)
            if counted is not None:
                return counted
        return _python_value(self.value(expr))

    def _cell_items(self, attribute: str) -> CellItems | None:
        """What ``self.<attribute>`` holds where ``__init__`` sets it once to an ``nn.CellList`` or
        an ``nn.SequentialCell`` of items it writes out (:func:`sequential_items`) and nothing
        changes it in place (``append``); None otherwise."""
        owner = self.owner
        assigned = [] if owner is None else self.project.attribute_values(owner, attribute)
        if (
            owner is None
            or len(assigned) != 1
            or assigned[0][0].node is not owner.node
            or changed(owner.node, attribute)
        ):
            return None
        items = self._sequential_items(owner, attribute)
        value = assigned[0][1]
        made = qualified_name(value.func, owner.module) if isinstance(value, ast.Call) else None
        if not items or not is_mindspore_name(made, "SequentialCell", "CellList"):
            return None
        return CellItems(is_mindspore_name(made, "SequentialCell"), len(items))

    @cached_property
    def name_values(self) -> dict[str, AbstractValue]:
        """The value of each local name, the join of its bindings'."""
        if self._key not in self.memo.name_values:
            self.memo.name_values[self._key] = name_values(self.node, self.parameter_values, self._evaluator)
        return self.memo.name_values[self._key]

    def kind(self, expr: ast.expr | None) -> Kind:
        """CONSTANT or GRAPH, as rules ask: an unknown value is taken as :attr:`unknown_as` says."""
        kind = self.value(expr).kind
        return self.unknown_as if kind is Kind.UNKNOWN else kind

    def inferred_kind(self, expr: ast.expr | None) -> Kind:
        """CONSTANT, UNKNOWN or GRAPH: what is known, as the arguments of calls pass it on."""
        return self.value(expr).kind

    def value(self, expr: ast.expr | None) -> AbstractValue:
        """The abstract value of ``expr`` here, inferred once for each function and its parameters."""
        # A new evaluator each time: one kept on self would hold self's bound methods, a
        # reference cycle that leaves every analysed tree to the host's garbage collector.
        cache = self.memo.values.setdefault(self._key, {})
        return self._evaluator(self.name_values, cache).value(expr)

    def _evaluator(
        self, values: Mapping[str, AbstractValue], cache: dict[int, AbstractValue] | None = None
    ) -> ValueEvaluator:
        return self._evaluator_of(values, self._returned_value, loop_items(self.node), cache)

    def evaluator_at(
        self,
        values: Mapping[str, AbstractValue],
        origins: Mapping[str, Origin | None],
        is_source: Callable[[ast.expr], bool],
    ) -> ValueEvaluator:
        """An evaluator at one program point (:class:`~mslint.model.symbolic.ProgramPoint`): the
        names bound before it have ``values`` and ``origins``, others their values here; origins
        are followed beside values. Calls into the checked code are not followed: no origin comes
        from them."""
        point = ProgramPoint(values, origins, self.value, is_source)
        return self._evaluator_of(values, lambda call, value: None, row_reads(self.node), point=point)

    def value_and_origin(self, expr: ast.expr) -> tuple[AbstractValue, Origin | None]:
        """``expr`` evaluated with no local followed flow-sensitively, every graph name a source
        (:meth:`evaluator_at` with nothing known): memoized per function, as values are, so that
        nested expressions (a chain of conditional expressions) are evaluated once."""
        values, origins = self.memo.at_start.setdefault(self._key, ({}, {}))
        point = ProgramPoint({}, {}, self.value, lambda e: self.kind(e) is Kind.GRAPH)
        evaluator = self._evaluator_of({}, lambda call, value: None, row_reads(self.node), values, point, origins)
        return evaluator.value(expr), evaluator.origin(expr)

    def _evaluator_of(
        self,
        values: Mapping[str, AbstractValue],
        returned_value: ReturnedValue,
        loop_reads: dict[int, ast.expr],
        cache: dict[int, AbstractValue] | None = None,
        point: ProgramPoint | None = None,
        origin_cache: dict[int, Origin | None] | None = None,
    ) -> ValueEvaluator:
        return ValueEvaluator(
            values,
            self.qualname,
            self._self_attribute_value,
            self.self_name,
            self._self_attribute_is_static_primitive,
            returned_value,
            loop_reads,
            cache,
            point,
            origin_cache,
            self._module_object,
        )

    def _module_object(self, name: ast.Name) -> AbstractValue | None:
        """What ``name`` holds where it reads an object the module builds at its top level."""
        if self.qualname(name) != f"{self.module.name}.{name.id}":
            return None
        return module_object(self.module, name.id)

    @property
    def returned_value(self) -> AbstractValue:
        """The value of what this function returns: the join of its ``return`` statements'."""
        if self._key not in self.memo.returned:
            self.memo.returning.add(id(self.node))
            returned = [self.value(r) for r in returned_values(self.node)]
            self.memo.returned[self._key] = join_all(returned, empty=literal(None))
            self.memo.returning.remove(id(self.node))
        return self.memo.returned[self._key]

    def _returned_value(self, call: ast.Call, value: Callable[[ast.expr], AbstractValue]) -> AbstractValue | None:
        """The value of what the project functions ``call`` runs return, given the ``value`` of its
        arguments; None where it runs none, or a function whose returns are being evaluated. A call
        of an ``nn.SequentialCell`` returns what its last item returns."""
        stages = self.sequential_stages(call, value)
        if stages:
            return stages[-1][2]
        return self._returned_by(call, self.callees(call), value)

    def sequential_items(self, func: ast.expr) -> list[tuple[ast.Call, ModuleInfo]]:
        """The calls that build the items a call of ``func`` runs one after the other, each with
        the module it is written in, where ``func`` is ``self.<attribute>`` holding an
        ``nn.SequentialCell`` whose items are known in order (:mod:`mslint.model.sequential`);
        empty otherwise."""
        if not is_self_attribute(func, self.self_name):
            return []
        assert isinstance(func, ast.Attribute)
        return self._of_own_class(self.memo.sequential_items, func.attr, self._sequential_items, [])

    def _chained_items(self, call: ast.Call) -> list[tuple[ast.Call, ModuleInfo]]:
        """The items ``call`` runs one after the other: those of an ``nn.SequentialCell`` it calls,
        or those of the ``nn.CellList`` a loop of :attr:`_chained_loops` walks."""
        chained = self._chained_loops.get(id(call))
        if chained is not None:
            return self._of_own_class(self.memo.sequential_items, chained[0], self._sequential_items, [])
        return self.sequential_items(call.func)

    @cached_property
    def _chained_loops(self) -> dict[int, tuple[str, str]]:
        """By call node: the attribute and the parameter of ``for cell in self.<attribute>: x = cell(x)``,
        the loop's one statement, ``x`` a parameter that nothing else binds: each item is then called
        on what the one before returned, the first on the parameter."""
        found: dict[int, tuple[str, str]] = {}
        counts = binding_counts(self.node)
        for loop in (n for n in statements(self.node) if isinstance(n, ast.For)):
            attribute = loop_attribute(loop, self.self_name)
            statement = loop.body[0] if len(loop.body) == 1 and not loop.orelse else None
            if attribute is None or not isinstance(loop.target, ast.Name) or not isinstance(statement, ast.Assign):
                continue
            target, value = statement.targets[0], statement.value
            if not (len(statement.targets) == 1 and isinstance(target, ast.Name) and isinstance(value, ast.Call)):
                continue
            passes_on = (
                isinstance(value.func, ast.Name)
                and value.func.id == loop.target.id
                and len(value.args) == 1
                and not value.keywords
                and isinstance(value.args[0], ast.Name)
                and value.args[0].id == target.id
            )
            if passes_on and target.id in self.parameter_values and counts.get(target.id) == 1:
                found[id(value)] = (attribute, target.id)
        return found

    def _sequential_items(self, owner: ClassRef, attribute: str) -> list[tuple[ast.Call, ModuleInfo]]:
        assigned = self.project.attribute_values(owner, attribute)
        if len(assigned) != 1:
            return []
        klass, value = assigned[0]
        scope = next((f for f in klass.node.body if any(n is value for n in descendants(f))), None)
        if scope is None:
            return []
        items = sequential_items(value, scope, lambda e: qualified_name(e, klass.module))
        return [(item, klass.module) for item in items or []]

    def _item_construct(self, item: ast.Call, module: ModuleInfo) -> FunctionRef | None:
        """What calling the item ``item`` builds runs, where it is an instance of the checked code."""
        resolved = self.project.resolve_expr(item.func, module)
        return self._call_method(resolved) if isinstance(resolved, ClassRef) else None

    def sequential_stages(self, call: ast.Call, value: Callable[[ast.expr], AbstractValue]) -> list[_Stage]:
        """For a call of an ``nn.SequentialCell`` (:meth:`sequential_items`), each item in order:
        the ``construct`` it runs where it is a Cell of the checked code, the values its
        parameters get, and what it returns. The first item is given the call's arguments (by
        ``value``), each next one what the item before it returned. Empty for any other call."""
        items = self._chained_items(call)
        if not items:
            return self._repeated_stages(call, value)
        chained = self._chained_loops.get(id(call))
        if chained is not None:  # the loop's first call is given the parameter, not its value joined with the loop's
            given = self.parameter_values[chained[1]]
            value = _given(given)
        stages = [self._stage(call, *items[0], value)]
        for item, module in items[1:]:
            stages.append(self._stage(ast.Call(call.func, [item], []), item, module, _given(stages[-1][2])))
        return stages

    def repeated_items(self, func: ast.expr) -> list[tuple[ast.Call, ModuleInfo]]:
        """The call that builds every item of the ``nn.SequentialCell`` ``self.<attribute>`` that
        ``func`` is, where it holds one Cell built an unknown number of times
        (:func:`~mslint.model.sequential.repeated_item`), with its module; empty otherwise."""
        if not is_self_attribute(func, self.self_name):
            return []
        assert isinstance(func, ast.Attribute)
        return self._of_own_class(self.memo.repeated_items, func.attr, self._repeated_items, [])

    def _repeated_items(self, owner: ClassRef, attribute: str) -> list[tuple[ast.Call, ModuleInfo]]:
        assigned = self.project.attribute_values(owner, attribute)
        if len(assigned) != 1:
            return []
        klass, value = assigned[0]
        scope = next((f for f in klass.node.body if any(n is value for n in descendants(f))), None)
        item = None if scope is None else repeated_item(value, scope, lambda e: qualified_name(e, klass.module))
        return [] if item is None else [(item, klass.module)]

    def _repeated_stages(self, call: ast.Call, value: Callable[[ast.expr], AbstractValue]) -> list[_Stage]:
        """For a call of an ``nn.SequentialCell`` of one Cell built an unknown number of times
        (:meth:`repeated_items`), that item as one stage: given what the items before it may
        return, the call's input joined with what the item returns of it, again until the join
        stays (at most :data:`_ROUNDS` times, then a value of its kind), and returning that join
        (with no item, the call returns its input). Empty for any other call."""
        repeated = self.repeated_items(call.func)
        if not repeated or len(call.args) != 1 or call.keywords:
            return []
        (item, module), given = repeated[0], value(call.args[0])
        for _ in range(_ROUNDS):
            construct, arguments, returned = self._stage(call, item, module, _given(given))
            joined = join(given, returned)
            if joined == given:
                return [(construct, arguments, joined)]
            given = joined
        given = AbstractAny(given.kind)
        construct, arguments, _ = self._stage(call, item, module, _given(given))
        return [(construct, arguments, given)]

    def _stage(
        self, call: ast.Call, item: ast.Call, module: ModuleInfo, value: Callable[[ast.expr], AbstractValue]
    ) -> _Stage:
        """The item ``item`` builds called as ``call`` is, its arguments having ``value``."""
        construct = self._item_construct(item, module)
        if construct is not None:
            arguments = argument_values(call, construct, value)
            if id(construct.node) in self.memo.returning:
                return construct, arguments, AbstractAny(latest(arguments.values()))
            widened_arguments = {n: widened(v) for n, v in arguments.items()}
            callee = GraphFunction(self.project, construct, self.entry, widened_arguments, self.memo)
            return construct, arguments, callee.returned_value
        operand = value(call.args[0]) if len(call.args) == 1 else AbstractAny(Kind.GRAPH)
        made = qualified_name(item.func, module)
        computed = None
        if made is not None and is_mindspore_name(made):  # `nn.Dense(4, 10)`: its transfer function
            built = construction(item, lambda e: qualified_name(e, module))
            computed = layer_result(made.rsplit(".", 1)[-1], built, operand, operand.kind)
        return None, {}, computed if computed is not None else AbstractAny(operand.kind)

    def value_called(self, callee: ast.expr, arguments: list[ast.expr]) -> AbstractValue | None:
        """What ``callee`` returns called here with ``arguments``, where it runs functions of the
        checked code; None where it runs none. For calls the source never writes: the forward
        that ``GradOperation(sens_param=True)(net)(x, sens)`` differentiates is ``net(x)``."""
        call = ast.Call(callee, arguments, [])  # lives only here: its callees are not memoised by id
        return self._returned_by(call, self._find_callees(call), self.value)

    def _returned_by(
        self, call: ast.Call, callees: list[FunctionRef], value: Callable[[ast.expr], AbstractValue]
    ) -> AbstractValue | None:
        if not callees or any(id(ref.node) in self.memo.returning for ref in callees):
            return None
        functions = [
            GraphFunction(self.project, r, self.entry, argument_values(call, r, value, widen=True), self.memo)
            for r in callees
        ]
        return join_all([function.returned_value for function in functions], empty=literal(None))

    def self_attribute_constructors(self, attribute: str) -> list[str]:
        """Qualified names of the calls ``self.<attribute>`` is assigned from (``mindspore.Parameter``,
        ``mindspore.ops.Shape``), each resolved in the module of the class that assigns it; for a call
        of a helper function of the checked code, or of a method of a module-level object
        (``registry.register(...)``), also the calls it returns (``make_param()`` returning
        ``Parameter(...)``)."""
        return self._of_own_class(self.memo.constructors, attribute, self._constructors, [])

    def _of_own_class(
        self, memo: dict[_Attribute, _T], attribute: str, compute: Callable[[ClassRef, str], _T], default: _T
    ) -> _T:
        """``compute(owner, attribute)``, once per class and attribute for every method and evaluation."""
        if self.owner is None:
            return default
        key = (id(self.owner.node), attribute)
        found = memo.get(key)
        if found is None:
            found = memo[key] = compute(self.owner, attribute)
        return found

    def _constructors(self, owner: ClassRef, attribute: str) -> list[str]:
        found = []
        for klass, value in self.project.attribute_values(owner, attribute):
            created = qualified_name(value.func, klass.module) if isinstance(value, ast.Call) else None
            if created is not None:
                found.append(created)
                helper = self.project.resolve(created, klass.module) or self.project.method_of_module_object(
                    created, klass.module
                )
                found.extend(returned_constructors(helper))
        return found

    def _self_attribute_is_static_primitive(self, attribute: str) -> bool:
        """``self.<attribute>`` holds a primitive with a static result, such as ``ops.Shape()``."""
        return any(is_static_primitive(created) for created in self.self_attribute_constructors(attribute))

    def _self_attribute_value(self, attribute: str) -> AbstractValue:
        """What ``self.<attribute>`` holds: a Parameter is a graph value; a tensor, a Cell or a
        number set in ``__init__`` is a constant of the graph."""
        return self._of_own_class(self.memo.attribute_values, attribute, self._attribute_value, _CONSTANT)

    def _attribute_value(self, owner: ClassRef, attribute: str) -> AbstractValue:
        constructors = self.self_attribute_constructors(attribute)
        assigned = self.project.attribute_values(owner, attribute)
        values = [value for _, value in assigned]
        if any(is_mindspore_name(c, "Parameter") for c in constructors):
            return _parameter_value(assigned)
        if values and all(is_mindspore_name(c, "Tensor") for c in constructors) and len(constructors) == len(values):
            return AbstractTensor(Kind.CONSTANT)
        if values and all(isinstance(v, ast.Constant) for v in values):
            return join_all([literal(v.value) for v in values if isinstance(v, ast.Constant)], empty=_CONSTANT)
        if values and all(_sequence_literal(v) for v in values) and not changed(owner.node, attribute):
            # `self.sizes = (1, 2)`: a constant whose `len` the compiler folds
            return join_all([literal(ast.literal_eval(v)) for v in values], empty=_CONSTANT)
        given = self._given_to_constructor(owner, attribute)
        if given is not None:
            return given
        classes = self.self_attribute_classes(attribute)
        if values and len(classes) == len(values):
            instances = [AbstractInstance(Kind.CONSTANT, c.qualname, self.project.is_cell(c)) for c in classes]
            return join_all(instances, empty=_CONSTANT)
        made = [c for c in constructors if is_mindspore_name(c)]  # directly or by a helper it calls
        if len(values) == 1 and len(made) == 1 and made[0].rsplit(".", 1)[-1][:1].isupper():
            # a Cell or a Primitive of MindSpore: `nn.Dense(...)`, `ops.ReLU()`
            klass, value = assigned[0]
            qualname: Callable[[ast.expr], str | None] = lambda e: qualified_name(e, klass.module)  # noqa: E731
            direct = isinstance(value, ast.Call) and qualname(value.func) == made[0]  # not made by a helper
            built = (
                construction(value, qualname, self._init_parameters(klass, value))
                if isinstance(value, ast.Call) and direct
                else None
            )
            return AbstractInstance(Kind.CONSTANT, made[0], is_mindspore_cell_name(made[0]), construction=built)
        return _CONSTANT

    def _init_parameters(self, owner: ClassRef, value: ast.expr) -> Mapping[str, AbstractValue] | None:
        """What every instance of ``owner`` gives each parameter of its own ``__init__`` that
        ``value`` (a layer built there: ``nn.Dense(dim, classes)``) reads and ``__init__`` never
        rebinds; None where ``value`` reads none or the instances are not all known."""
        init = self.project.find_method(owner, "__init__")
        if init is None or init.owner is None or init.owner.node is not owner.node:
            return None
        parameters = _kept_parameters(init.node)
        read = {n.id for n in ast.walk(value) if isinstance(n, ast.Name)} & parameters
        given = constructor_values(self.project, owner) if read else None  # asked last: it reads the project
        return None if given is None else {name: given[name] for name in read if name in given}

    def _given_to_constructor(self, owner: ClassRef, attribute: str) -> AbstractValue | None:
        """A Python scalar ``self.<attribute>`` holds in every instance the project builds, where
        the class's own ``__init__`` sets it only to literals and to its parameters (never rebound
        there): ``self.attention = attention`` with ``Block(64, attention=False)`` the only
        instance is ``False`` (:mod:`mslint.model.instances`); None for anything else."""
        if attribute not in _tested_attributes(owner.node):
            return None  # what the instances give decides only a test (and reading every module costs)
        init = self.project.find_method(owner, "__init__")
        assigned = self.project.attribute_values(owner, attribute)
        if init is None or not assigned or any(klass.node is not owner.node for klass, _ in assigned):
            return None
        first, last = init.node.lineno, init.node.end_lineno or init.node.lineno
        parameters = _kept_parameters(init.node)
        names = [v.id for _, v in assigned if isinstance(v, ast.Name) and first <= v.lineno <= last]
        literals = [literal(v.value) for _, v in assigned if isinstance(v, ast.Constant)]
        if len(names) + len(literals) != len(assigned) or not set(names) <= parameters:
            return None
        given = constructor_values(self.project, owner)  # asked last: it reads the project's modules
        if given is None:
            return None
        values = literals + [given[name] for name in names]
        joined = join_all(values, empty=_CONSTANT)
        known = isinstance(joined, AbstractScalar) and joined.kind is Kind.CONSTANT and joined.value is not NOT_KNOWN
        return joined if known else None

    def self_attribute_classes(self, attribute: str) -> list[ClassRef]:
        """Project classes whose instances ``self.<attribute>`` is set to."""
        return self._of_own_class(self.memo.attribute_classes, attribute, self._attribute_classes, [])

    def _attribute_classes(self, owner: ClassRef, attribute: str) -> list[ClassRef]:
        classes = []
        for klass, assigned in self.project.attribute_values(owner, attribute):
            for value in conditional_sides(assigned):  # `Attention() if gated else None`
                if isinstance(value, ast.Call):
                    resolved = self.project.resolve_expr(value.func, klass.module)
                    if isinstance(resolved, ClassRef):
                        classes.append(resolved)
                elif isinstance(value, ast.Name) and _is_kept_parameter(self.project, klass, value):
                    classes += classes_passed(self.project, klass, value.id)  # `self.network = network`
        return classes

    def self_attribute_element_classes(self, attribute: str) -> list[ClassRef]:
        """Project classes of the Cells that ``self.<attribute>`` holds when it is a container
        (``nn.CellList([Block(), Block()])``, or a list grown by ``blocks.append(Block())``)."""
        if self.owner is None:
            return []
        classes = []
        for klass, value in self.project.attribute_values(self.owner, attribute):
            for element in _container_elements(value, klass.node):
                resolved = self.project.resolve_expr(element.func, klass.module)
                if isinstance(resolved, ClassRef):
                    classes.append(resolved)
        return classes

    def instance_classes(self, expr: ast.expr) -> list[ClassRef]:
        """Project classes that ``expr`` (``self.x``, ``self.blocks[i]``, a local bound to ``Cls(...)``
        or a loop variable over ``self.blocks``) is an instance of."""
        if is_self_attribute(expr, self.self_name):
            assert isinstance(expr, ast.Attribute)
            return self.self_attribute_classes(expr.attr)
        if isinstance(expr, ast.Subscript) and is_self_attribute(expr.value, self.self_name):
            assert isinstance(expr.value, ast.Attribute)
            return self.self_attribute_element_classes(expr.value.attr)
        if isinstance(expr, ast.Name) and expr.id in self.loop_attributes:
            return self.self_attribute_element_classes(self.loop_attributes[expr.id])
        if _is_getattr_of(expr, self.self_name):
            return self.named_attribute_classes
        if isinstance(expr, ast.Name) and expr.id in self.local_names:
            return [
                resolved
                for value in self.local_values.get(expr.id, [])
                if isinstance(value, ast.Call)
                for resolved in [self.resolve_call(value)]
                if isinstance(resolved, ClassRef)
            ]
        return []

    @cached_property
    def named_attribute_classes(self) -> list[ClassRef]:
        """Project classes of the Cells set under computed names (``setattr(self, f"block{i}", Block())``,
        ``self.insert_child_to_cell(name, block)``), which ``getattr(self, name)`` reads back."""
        classes = []
        for klass in self.project.mro(self.owner) if self.owner else []:
            for call in registrations_in(klass.module, klass.node):
                registered = registered_cell(call)
                for element in _container_elements(registered, klass.node) if registered is not None else []:
                    resolved = self.project.resolve_expr(element.func, klass.module)
                    if isinstance(resolved, ClassRef):
                        classes.append(resolved)
        return classes

    @cached_property
    def loop_attributes(self) -> dict[str, str]:
        """Loop variables over a container attribute: ``block`` in ``for block in self.blocks`` (or
        ``for i, block in enumerate(self.blocks)``), bound by no other statement."""
        found = {}
        for loop in (n for n in statements(self.node) if isinstance(n, ast.For)):
            attribute = loop_attribute(loop, self.self_name)
            target = loop.target
            if isinstance(target, ast.Tuple) and len(target.elts) == 2 and isinstance(loop.iter, ast.Call):
                target = target.elts[1]
            if attribute is not None and isinstance(target, ast.Name):
                found[target.id] = attribute
        bound = [name for b in bindings(self.node) for name in b.names]
        return {name: attribute for name, attribute in found.items() if bound.count(name) == 1}

    @cached_property
    def local_values(self) -> dict[str, list[ast.expr]]:
        """The values assigned to each plain local name."""
        values: dict[str, list[ast.expr]] = {}
        for node in statements(self.node):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        values.setdefault(target.id, []).append(node.value)
        return values

    def resolve_call(self, call: ast.Call) -> ClassRef | FunctionRef | None:
        qualname = self.qualname(call.func)
        return self.project.resolve(qualname, self.module) if qualname else None

    def callees(self, call: ast.Call) -> list[FunctionRef]:
        """The project functions a call in this function may run."""
        found = self.memo.callees.get(id(call))
        if found is None:
            found = self.memo.callees[id(call)] = self._find_callees(call)
        return found

    def _find_callees(self, call: ast.Call) -> list[FunctionRef]:
        func = call.func
        if self._chained_items(call):
            return [
                ref for item, module in self._chained_items(call) for ref in [self._item_construct(item, module)] if ref
            ]
        if isinstance(func, ast.Attribute):
            receiver = func.value
            if isinstance(receiver, ast.Name) and receiver.id == self.self_name and self.owner:
                method = self.project.find_method(self.owner, func.attr)
                if method is not None and not self.project.attribute_values(self.owner, func.attr):
                    return [method]  # an instance attribute of the name (`self.up = lambda ...`) hides it
            if _is_super_call(receiver) and self.owner:
                return [
                    m for b in self.project.bases(self.owner) for m in [self.project.find_method(b, func.attr)] if m
                ]
            methods = [self.project.find_method(c, func.attr) for c in self.instance_classes(receiver)]
            found = [m for m in methods if m is not None]
            if found:
                return found
        elif isinstance(func, ast.Name) and func.id in self.local_names and func.id not in self.loop_attributes:
            return []
        if self.instance_classes(func):
            return [m for c in self.instance_classes(func) for m in [self._call_method(c)] if m]
        resolved = self.resolve_call(call)
        if isinstance(resolved, FunctionRef):
            return [] if runs_while_compiling(resolved) else [resolved]
        if isinstance(resolved, ClassRef) and is_jit_class(resolved):
            init = self.project.find_method(resolved, "__init__")
            return [init] if init else []
        return self._wrapped_functions(func)

    def _call_method(self, cls: ClassRef) -> FunctionRef | None:
        """What calling an instance runs: ``construct`` for a Cell, ``__call__`` otherwise."""
        return self.project.find_method(cls, "construct" if self.project.is_cell(cls) else "__call__")

    def _wrapped_functions(self, func: ast.expr) -> list[FunctionRef]:
        """Functions wrapped by a module-level ``name = wrapper(f, ...)`` (``value_and_grad(forward)``)."""
        if not isinstance(func, ast.Name) or func.id not in self.module.assigned:
            return []
        return [
            function
            for value in self.module.top_level_values(func.id)
            if isinstance(value, ast.Call)
            for function in _functions_among(value.args, self.module, self.project)
        ]


def returned_constructors(helper: ClassRef | FunctionRef | None) -> list[str]:
    """Qualified names of the calls a function of the checked code returns, directly or through a
    local (``p = Parameter(...)``, ``return p``)."""
    if not isinstance(helper, FunctionRef):
        return []
    names = (qualified_name(c.func, helper.module) for c in returned_calls(helper.node))
    return [name for name in names if name is not None]


def conditional_sides(value: ast.expr) -> list[ast.expr]:
    """The values a conditional expression may give (``Attention() if gated else None``: both
    sides, nested ones too); ``value`` itself for anything else."""
    if isinstance(value, ast.IfExp):
        return [*conditional_sides(value.body), *conditional_sides(value.orelse)]
    return [value]


def _is_super_call(expr: ast.expr) -> bool:
    return isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id == "super"


def _functions_among(args: list[ast.expr], module: ModuleInfo, project: Project) -> list[FunctionRef]:
    refs = (project.resolve_expr(a, module) for a in args if isinstance(a, (ast.Name, ast.Attribute)))
    return [r for r in refs if isinstance(r, FunctionRef)]


def runs_while_compiling(function: FunctionRef) -> bool:
    """Whether the function is a ``constexpr`` (or MindSpore's own ``_primexpr``): the compiler
    calls it in Python on the constant arguments, so its body is Python, not graph code."""
    decorators = (d.func if isinstance(d, ast.Call) else d for d in function.node.decorator_list)
    return any(is_mindspore_name(qualified_name(d, function.module), *COMPILE_TIME_NAMES) for d in decorators)


def is_jit_decorated(function: FunctionNode, module: ModuleInfo) -> bool:
    return jit_decorator_capture(function, module) is not None


def jit_decorator_capture(function: FunctionNode, module: ModuleInfo) -> Capture | None:
    """The capture the function's ``jit`` decorator asks for; None without one."""
    return next((c for d in function.decorator_list if (c := decorator_capture(d, module)) is not None), None)


def jit_wrapped(project: Project, module: ModuleInfo) -> Iterator[tuple[FunctionRef, Capture]]:
    """The functions ``jit(f, ...)`` calls of ``module`` compile, with the capture each asks for:
    a function of the project by name, or ``construct`` of a Cell in ``jit(net.construct, ...)``
    where ``net`` is assigned an instance of a project class in the module."""
    for call, capture in wrapping_calls(module):
        target = call.args[0]
        if isinstance(target, ast.Attribute) and target.attr == "construct" and isinstance(target.value, ast.Name):
            cls = _instance_class(project, module, target.value.id)
            construct = project.find_method(cls, "construct") if cls is not None else None
            if construct is not None:
                yield construct, capture
            continue
        yield from ((ref, capture) for ref in _functions_among([target], module, project))


def _instance_class(project: Project, module: ModuleInfo, name: str) -> ClassRef | None:
    """The project class whose instance ``name = Class(...)`` assigns somewhere in the module."""
    for node in statements(module.tree):
        if not isinstance(node, ast.Assign) or not isinstance(node.value, ast.Call):
            continue
        if any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            resolved = project.resolve_expr(node.value.func, module)
            if isinstance(resolved, ClassRef):
                return resolved
    return None


def _compiled_anywhere(cell: ClassRef) -> bool:
    return False


def entry_points(
    project: Project, module: ModuleInfo, runs_pynative: Callable[[ClassRef], bool] = _compiled_anywhere
) -> Iterator[FunctionRef]:
    """The functions MindSpore compiles as graphs on their own: Cell ``construct`` and ``@jit``.

    The ``construct`` of a Cell that ``runs_pynative`` is not one: PyNative mode runs it
    eagerly. A ``@jit`` one is, since ``@jit`` compiles in PyNative mode too."""
    owners: dict[int, ClassRef] = {}
    for node in statements(module.tree):
        if isinstance(node, ast.ClassDef):
            cls = ClassRef(module, node)
            for statement in node.body:
                if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    owners[id(statement)] = cls
            if project.is_cell(cls) and not runs_pynative(cls):
                construct = next(
                    (s for s in node.body if isinstance(s, ast.FunctionDef) and s.name == "construct"), None
                )
                if construct is not None:
                    yield FunctionRef(module, construct, cls)
    for node in statements(module.tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and is_jit_decorated(node, module):
            yield FunctionRef(module, node, owners.get(id(node)))
    for ref, _ in jit_wrapped(project, module):
        if ref.node.name != "construct" or ref.owner is None:  # a Cell's construct is an entry already
            yield ref


def entry_captures(project: Project, entries: list[FunctionRef]) -> dict[int, Capture]:
    """By function node, the capture of the entries that ``jit`` does not capture as ast."""
    found: dict[int, Capture] = {}
    for module in {id(ref.module): ref.module for ref in entries}.values():
        for ref, capture in jit_wrapped(project, module):
            found.setdefault(id(ref.node), capture)
    for ref in entries:
        decorated = jit_decorator_capture(ref.node, ref.module)
        if decorated is not None:
            found[id(ref.node)] = decorated
    return {node: capture for node, capture in found.items() if capture.mode != AST}


def _captures_by_function(functions: list[GraphFunction], entries: dict[int, Capture]) -> dict[int, Capture]:
    """Each graph function's capture: its entry's, unless an ast graph reaches it (nesting)."""
    by_node = {id(f.node): f for f in functions}
    ast_reached = {id(f.node) for f in functions if id(f.entry.node) not in entries}
    queue = deque(by_node[n] for n in ast_reached)
    while queue:
        function = queue.popleft()
        for call in (n for n in descendants(function.node) if isinstance(n, ast.Call)):
            for ref in function.callees(call):
                if id(ref.node) not in ast_reached and id(ref.node) in by_node:
                    ast_reached.add(id(ref.node))
                    queue.append(by_node[id(ref.node)])
    return {
        id(f.node): entries[id(f.entry.node)]
        for f in functions
        if id(f.node) not in ast_reached and id(f.entry.node) in entries
    }


def graph_functions(
    project: Project, runs_pynative: Callable[[ClassRef], bool] = _compiled_anywhere
) -> list[GraphFunction]:
    """Every function of the project that is graph code, each with the first entry that reaches it.

    The ``construct`` of a Cell that other Cells call as a sub-Cell is reached through those
    calls, so its parameters take the kinds of their arguments: a sub-Cell given shape values
    (``self.pos_embed(B, H, W)``) gets constants, not tensors. A Cell that ``runs_pynative``
    is graph code only where graph code (another Cell, a ``@jit`` function) calls it; so are
    the functions it calls.
    """
    reached: dict[int, GraphFunction] = {}
    queue: deque[GraphFunction] = deque()
    entries = [ref for module in list(project.modules) for ref in entry_points(project, module, runs_pynative)]
    memo = CallMemo()
    sub_cells = {id(ref.node) for ref in _sub_cell_constructs(project, entries, memo)}
    evidence = entry_evidence(project, entries, memo)

    def start(ref: FunctionRef) -> None:
        python = evidence.called_from_python(ref)
        if python:
            memo.called_from_python.add(id(ref.node))
        instance = evidence.instance(ref) if python or evidence.called_from_jit(ref) else None
        if instance:
            memo.instances[id(ref.node)] = instance
        passed_objects = evidence.another_librarys(ref) if python else None
        if passed_objects:
            memo.passed_objects[id(ref.node)] = passed_objects
        values = evidence.parameter_values(ref)
        calls = evidence.calls(ref) if python else None
        new_inputs = bool(calls) and _record_calls(
            memo, ref, [(call, call_input(call, module, ref, given, "input")) for call, module, given in calls or []]
        )
        known = reached.get(id(ref.node))
        if known is None:
            reached[id(ref.node)] = function = GraphFunction(project, ref, ref, values, memo=memo)
            queue.append(function)
        elif python:  # reached from graph code and called from Python too: both give its values
            merged = {n: join(v, values[n]) if n in values else v for n, v in known.parameter_values.items()}
            if merged != known.parameter_values or new_inputs:
                reached[id(ref.node)] = function = GraphFunction(project, ref, known.entry, merged, memo=memo)
                queue.append(function)

    # Cells first: a sub-Cell's `construct` and a `@jit` function that graph code calls get the
    # values its callers give, which say more than its own parameters do. Those Python calls
    # first: what they reach names an entry the program runs, not one it never calls.
    cells = [r for r in entries if r.owner is not None and r.node.name == "construct" and id(r.node) not in sub_cells]
    for ref in sorted(cells, key=lambda r: not evidence.called_from_python(r)):
        start(ref)
    _propagate(project, reached, queue)
    # Then what Python calls, and last what nothing is shown to call: a `@jit` helper that such
    # an entry calls gets its caller's values, not joined with a guess of its own.
    called = [ref for ref in entries if evidence.called_from_python(ref)]
    for batch in (called, [ref for ref in entries if not evidence.called_from_python(ref)]):
        for ref in batch:
            start(ref)
        _propagate(project, reached, queue)
    functions = [each for function in reached.values() for each in _per_call(function, evidence)]
    memo.functions = [weakref.ref(function) for function in functions]
    captures = entry_captures(project, entries)
    if captures:
        memo.captures.update(_captures_by_function(functions, captures))
    return functions


def entry_evidence(project: Project, entries: list[FunctionRef], memo: CallMemo | None = None) -> EntryEvidence:
    """What the project's calls show of ``entries``' parameters, a call's argument that another
    instance returned (``head(backbone(x))``) evaluated by that instance's graph (``memo``: the
    evaluations' memo, shared with the caller's)."""
    return EntryEvidence(project, entries, partial(_returned_to_python, project, memo or CallMemo()))


def _returned_to_python(
    project: Project, memo: CallMemo, ref: FunctionRef, given: dict[str, AbstractValue]
) -> AbstractValue:
    """What the entry ``ref`` returns to a Python call that gives its parameters ``given`` (the
    rest keep their defaults), as its graph evaluates it: ``head(backbone(x))`` hands ``head``
    that (:class:`~mslint.model.call_sites.EntryEvidence`)."""
    values = parameter_values(ref.node, ref.owner is not None)
    values.update(given)
    return GraphFunction(project, ref, ref, values, memo).returned_value


def _per_call(function: GraphFunction, evidence: EntryEvidence) -> list[GraphFunction]:
    """``function``; or, where it is an entry that only calls from Python run, and they give it
    different values (at most :data:`MOST_CALLS` of them), one evaluation of it per call's values,
    each naming the calls (:attr:`GraphFunction.called`): MindSpore compiles one graph for each.
    What the entry calls was reached with the values joined, as the calls' graphs reach it."""
    ref = function.ref
    own_entry = function.entry.node is function.node and id(function.node) in function.memo.called_from_python
    calls = evidence.calls(ref) if own_entry else None
    recorded = function.memo.call_inputs.get(id(function.node), {})  # what `start` made of each call
    graph_calls = any(c.source != "input" for c in recorded.values())
    if not calls or len(calls) < 2 or len(calls) > MOST_CALLS or graph_calls:
        return [function]
    is_method = ref.owner is not None
    defaults = parameter_values(ref.node, is_method)
    named = [parameter.arg for parameter, _ in parameter_defaults(ref.node)][1 if is_method else 0 :]
    by_values: dict[tuple[tuple[str, AbstractValue], ...], tuple[dict[str, AbstractValue], list[str]]] = {}
    for call, _, given in calls:
        values = dict(function.parameter_values)
        values.update((name, value) for name, value in given.items() if value.kind is not Kind.UNKNOWN)
        passed = passed_arguments(call, ref.node, is_method)
        left = [name for name in named if passed is not None and name not in passed]  # a spread may pass any
        values.update((name, defaults[name]) for name in left if defaults[name].kind is not Kind.UNKNOWN)
        key = tuple(sorted(values.items(), key=lambda item: item[0]))
        by_values.setdefault(key, (values, []))[1].append(recorded[id(call)].where)
    if len(by_values) < 2:
        return [function]
    return [
        GraphFunction(function.project, ref, function.entry, values, function.memo, called=" and ".join(wheres))
        for values, wheres in by_values.values()
    ]


def _always_parsed(functions: list[GraphFunction]) -> frozenset[int]:
    """The functions the compiler reads whenever their entry compiles: each entry, and each
    function called from one of them outside what a test on Python values (or on a value not
    inferred) may leave out. MindSpore reads a callee when the graph reaches its call; it folds
    a test on constants and reads only the branch taken, so a call under such a test, or after
    one whose branch returns, is read only for some values."""
    by_node = {id(f.node): f for f in functions}
    parsed = {id(f.node) for f in functions if f.entry.node is f.node}
    walked = [by_node[key] for key in parsed]
    for caller in walked:  # grows while it is walked
        skippable = _skippable_nodes(caller)
        for call in (n for n in descendants(caller.node) if isinstance(n, ast.Call) and id(n) not in skippable):
            for ref in caller.callees(call):
                callee = by_node.get(id(ref.node))
                if callee is not None and id(callee.node) not in parsed:
                    parsed.add(id(callee.node))
                    walked.append(callee)
    return frozenset(parsed)


def _skippable_nodes(function: GraphFunction) -> set[int]:
    """The nodes of ``function`` that a test the compiler folds may leave unread: the branches of
    an ``if`` or a conditional expression on a value that is no tensor, the operands of ``and``/
    ``or`` after one, and what follows an ``if`` on such a value that returns or raises."""
    skippable: set[int] = set(function.pruned_nodes)
    exits = (ast.Return, ast.Raise, ast.Continue, ast.Break)
    first_exit: int | None = None  # the last line of the first such `if` that exits
    for node in descendants(function.node):
        if isinstance(node, (ast.If, ast.IfExp)) and function.inferred_kind(node.test) is not Kind.GRAPH:
            truth = function.folded_truth(node.test)
            body = node.body if isinstance(node.body, list) else [node.body]
            orelse = node.orelse if isinstance(node.orelse, list) else [node.orelse]
            read = body + orelse if truth is None else body if truth else orelse  # the rest is pruned
            if truth is None:
                skippable.update(id(n) for part in read for n in descendants(part))
            if isinstance(node, ast.If) and any(isinstance(n, exits) for part in read for n in descendants(part)):
                end = node.end_lineno or node.lineno
                first_exit = end if first_exit is None else min(first_exit, end)
        elif isinstance(node, ast.BoolOp):
            first = node.values[0]
            if function.inferred_kind(first) is not Kind.GRAPH:
                skippable.update(id(n) for part in node.values[1:] for n in descendants(part))
    if first_exit is not None:
        skippable.update(id(n) for n in descendants(function.node) if isinstance(n, ast.Call) and n.lineno > first_exit)
    return skippable


def _sequence_literal(expr: ast.expr) -> bool:
    """Whether ``expr`` is a tuple or list literal of scalar literals (``(1, 2)``, ``["a"]``)."""
    return isinstance(expr, (ast.Tuple, ast.List)) and all(isinstance(e, ast.Constant) for e in expr.elts)


def _python_value(value: AbstractValue) -> object:
    """The Python value of a known constant: a scalar, or a tuple or list of them (whose ``len``
    the compiler folds); NOT_FOLDED otherwise."""
    if isinstance(value, AbstractScalar) and value.kind is Kind.CONSTANT and value.value is not NOT_KNOWN:
        return value.value
    if isinstance(value, AbstractSequence) and value.kind is Kind.CONSTANT and value.items is not None:
        items = [_python_value(item) for item in value.items]
        if all(isinstance(item, (bool, int, float, str, type(None))) for item in items):
            return tuple(items) if value.type == "tuple" else list(items)
    return NOT_FOLDED


@dataclass(frozen=True)
class _BranchHolding:
    """The nodes an ``if`` or conditional expression of a function holds, by id."""

    branch: ast.If | ast.IfExp
    body: frozenset[int]
    orelse: frozenset[int]
    after: frozenset[int]
    """The statements after an ``if`` in its block, where one of its branches always leaves."""
    body_leaves: bool
    orelse_leaves: bool

    def holds(self, key: int) -> bool:
        return key in self.body or key in self.orelse or key in self.after

    def skipped_by(self, truth: bool, key: int) -> bool:
        """Whether the test folding to ``truth`` skips the node: it is in the branch not taken, or
        after the ``if`` where the branch taken always leaves."""
        skipped, taken_leaves = (self.orelse, self.body_leaves) if truth else (self.body, self.orelse_leaves)
        return key in skipped or (taken_leaves and key in self.after)


_BRANCHES: NodeMemo[ast.AST, list[_BranchHolding]] = NodeMemo()


def _branches_holding(function: ast.AST) -> list[_BranchHolding]:
    """Each ``if`` and conditional expression of ``function`` (in source order) with the nodes it
    holds (memoized by function: each finding capped or not under a test asks, for each evaluation)."""
    return _BRANCHES(function, _find_branches)


def _find_branches(function: ast.AST) -> list[_BranchHolding]:
    following = _following_statements(function)
    found = []
    for branch in descendants(function):
        if not isinstance(branch, (ast.If, ast.IfExp)):
            continue
        body = branch.body if isinstance(branch, ast.If) else [branch.body]
        orelse = branch.orelse if isinstance(branch, ast.If) else [branch.orelse]
        body_leaves = isinstance(branch, ast.If) and _leaves(branch.body)
        orelse_leaves = isinstance(branch, ast.If) and _leaves(branch.orelse)
        after = following.get(id(branch), []) if body_leaves or orelse_leaves else []
        found.append(_BranchHolding(branch, _ids_in(body), _ids_in(orelse), _ids_in(after), body_leaves, orelse_leaves))
    return found


def _ids_in(parts: list[ast.stmt] | list[ast.expr]) -> frozenset[int]:
    return frozenset(id(n) for part in parts for n in descendants(part))


_FOLLOWING: NodeMemo[ast.AST, dict[int, list[ast.stmt]]] = NodeMemo()


def _following_statements(function: ast.AST) -> dict[int, list[ast.stmt]]:
    """By ``if`` statement of ``function``: the statements after it in its block (memoized by
    function: every call's and instance's pruning, and each finding's question, read it)."""
    return _FOLLOWING(function, _statements_after_ifs)


def _statements_after_ifs(function: ast.AST) -> dict[int, list[ast.stmt]]:
    found: dict[int, list[ast.stmt]] = {}
    for node in descendants(function):
        for block_field in ("body", "orelse", "finalbody"):
            block = getattr(node, block_field, None)
            if isinstance(block, list):
                for index, statement in enumerate(block):
                    if isinstance(statement, ast.If):
                        found[id(statement)] = block[index + 1 :]
    return found


def _leaves(branch: list[ast.stmt]) -> bool:
    """Whether a branch always leaves the function: it ends with ``return`` or ``raise``, and no
    ``break`` or ``continue`` in it may jump past that end."""
    ends = bool(branch) and isinstance(branch[-1], (ast.Return, ast.Raise))
    return ends and not any(isinstance(n, (ast.Break, ast.Continue)) for s in branch for n in descendants(s))


def _undecided_operands(boolean: ast.BoolOp, folding: FoldedTest) -> list[ast.expr]:
    """The operands of ``boolean`` after one that decides it where the compiler folds it: never read."""
    deciding = folding.decides(boolean)
    return boolean.values[deciding + 1 :] if deciding is not None else []


def _sub_cell_constructs(project: Project, entries: list[FunctionRef], memo: CallMemo) -> list[FunctionRef]:
    """``construct`` methods that Cells call on their sub-Cells (``self.block(x)``) in any method."""
    found = []
    for ref in entries:
        if ref.owner is None or ref.node.name != "construct":
            continue
        function = GraphFunction(project, ref, ref, {}, memo)
        classes = []
        for node in descendants(ref.owner.node):
            if isinstance(node, ast.Call):
                func = node.func
                if is_self_attribute(func, function.self_name):
                    assert isinstance(func, ast.Attribute)
                    classes += function.self_attribute_classes(func.attr)
                    classes += [
                        resolved
                        for item, module in function.sequential_items(func) + function.repeated_items(func)
                        for resolved in [project.resolve_expr(item.func, module)]
                        if isinstance(resolved, ClassRef)
                    ]
                elif isinstance(func, ast.Subscript) and is_self_attribute(func.value, function.self_name):
                    assert isinstance(func.value, ast.Attribute)
                    classes += function.self_attribute_element_classes(func.value.attr)
                elif _is_getattr_of(func, function.self_name):
                    classes += function.named_attribute_classes
            elif isinstance(node, ast.For):
                attribute = loop_attribute(node, function.self_name)
                classes += function.self_attribute_element_classes(attribute) if attribute else []
        for cls in classes:
            construct = project.find_method(cls, "construct") if project.is_cell(cls) else None
            if construct is not None and construct.node is not ref.node:
                found.append(construct)
    return found


def _is_getattr_of(expr: ast.expr, self_name: str | None) -> bool:
    """``getattr(self, name)``."""
    return (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Name)
        and expr.func.id == "getattr"
        and len(expr.args) == 2
        and isinstance(expr.args[0], ast.Name)
        and expr.args[0].id == self_name
    )


_REGISTERING_METHODS = ("__setattr__", "insert_child_to_cell")


def is_registration(call: ast.Call) -> bool:
    """``setattr(self, name, cell)``, ``self.__setattr__(name, cell)``, ``self.insert_child_to_cell(name, cell)``
    (its arguments by position or keyword: ``child_name=..., child_cell=...``)."""
    func = call.func
    if isinstance(func, ast.Name):
        return func.id == "setattr" and len(call.args) == 3
    return (
        isinstance(func, ast.Attribute)
        and func.attr in _REGISTERING_METHODS
        and len(call.args) + len(call.keywords) == 2
        and registered_cell(call) is not None
    )


def registered_cell(call: ast.Call) -> ast.expr | None:
    """What a registration (:func:`is_registration`) registers: its last positional argument, or
    ``insert_child_to_cell``'s ``child_cell`` and ``__setattr__``'s ``value`` given by keyword."""
    given = {k.arg: k.value for k in call.keywords}
    if given:
        return given.get("child_cell", given.get("value"))
    return call.args[-1] if call.args else None


def registrations_in(module: ModuleInfo, scope: FunctionNode | ast.ClassDef) -> list[ast.Call]:
    """The calls in a function or class of ``module`` (its decorators and nested code too) that
    register a Cell (:func:`is_registration`), in source order: found in the module's index of
    its calls rather than by walking every expression of the scope."""
    first = min([scope.lineno, *(d.lineno for d in scope.decorator_list)])
    last = scope.end_lineno or scope.lineno
    calls = [
        call
        for name in ("setattr", *_REGISTERING_METHODS)
        for call in module.calls_by_name.get(name, ())
        if first <= call.lineno <= last and is_registration(call)
    ]
    return sorted(calls, key=lambda call: (call.lineno, call.col_offset))


def loop_attribute(loop: ast.For, self_name: str | None) -> str | None:
    """The attribute a loop iterates over: ``blocks`` in ``for b in self.blocks``, ``enumerate(self.blocks)``,
    ``self.blocks.cells()`` or ``self.blocks.cell_list``."""
    iterated = loop.iter
    if isinstance(iterated, ast.Call) and isinstance(iterated.func, ast.Name) and iterated.func.id == "enumerate":
        iterated = iterated.args[0] if iterated.args else iterated
    if isinstance(iterated, ast.Call) and isinstance(iterated.func, ast.Attribute) and iterated.func.attr == "cells":
        iterated = iterated.func.value  # `self.layers.cells()`: the Cells of a CellList or SequentialCell
    if isinstance(iterated, ast.Attribute) and iterated.attr == "cell_list":
        iterated = iterated.value  # `self.layers.cell_list`, the same list read directly
    if is_self_attribute(iterated, self_name):
        assert isinstance(iterated, ast.Attribute)
        return iterated.attr
    return None


_CONTAINER_CALLS = frozenset({"CellList", "SequentialCell", "list", "tuple"})


def _container_elements(value: ast.expr, cls: ast.ClassDef) -> list[ast.Call]:
    """The calls that build the items of a container value: the items of a list, tuple or
    comprehension, of the arguments of a container call (``nn.CellList([...])``,
    ``nn.SequentialCell(*blocks)``), and what a list named there is grown by in the class."""
    if isinstance(value, (ast.List, ast.Tuple)):
        return [c for e in value.elts for c in _container_elements(e, cls)]
    if isinstance(value, ast.ListComp):
        return _container_elements(value.elt, cls)
    if isinstance(value, ast.Starred):
        return _container_elements(value.value, cls)
    if isinstance(value, ast.Call):
        func = value.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if name in _CONTAINER_CALLS:
            return [c for a in value.args for c in _container_elements(a, cls)]
        return [value]
    if isinstance(value, ast.Name):
        grown = [
            node.args[0]
            for node in descendants(cls)
            if isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "append"
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == value.id
            and node.args
        ]
        assigned = [
            node.value
            for node in descendants(cls)
            if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == value.id for t in node.targets)
        ]
        return [c for v in [*grown, *assigned] if not isinstance(v, ast.Name) for c in _container_elements(v, cls)]
    return []


def _propagate(project: Project, reached: dict[int, GraphFunction], queue: deque[GraphFunction]) -> None:
    """Reach every function the queued graph functions call, joining argument values into parameters."""
    while queue:
        caller = queue.popleft()
        if reached[id(caller.node)] is not caller:
            continue  # queued again since, with more values: that one gives its callees all of them
        calls = caller.memo.calls.setdefault(id(caller.node), {})
        pruned = caller.pruned_nodes  # the compiler never reads a call there
        for call in (n for n in descendants(caller.node) if isinstance(n, ast.Call) and id(n) not in pruned):
            # an `nn.SequentialCell` gives each item what the one before returned, not the call's arguments
            stages = caller.sequential_stages(call, caller.passed_value)
            called = [(ref, arguments) for ref, arguments, _ in stages if ref is not None] or [
                (ref, argument_values(call, ref, caller.passed_value)) for ref in caller.callees(call)
            ]
            for ref, arguments in called:
                calls.setdefault(id(ref.node), call.lineno)
                given = call_input(call, caller.module, ref, arguments, "subcell")
                new_inputs = _record_calls(caller.memo, ref, [(call, given)])
                callee = reached.get(id(ref.node))
                if callee is None:
                    callee = GraphFunction(project, ref, caller.entry, arguments, memo=caller.memo)
                    reached[id(ref.node)] = callee
                    queue.append(callee)
                    continue
                known = callee.parameter_values
                merged = {n: join(known[n], v) if n in known else v for n, v in arguments.items()}
                merged.update((n, v) for n, v in known.items() if n not in merged)
                if merged != known or new_inputs:  # new values, or a call that prunes otherwise
                    callee = GraphFunction(project, ref, callee.entry, merged, memo=caller.memo)
                    reached[id(ref.node)] = callee
                    queue.append(callee)


def _record_calls(memo: CallMemo, ref: FunctionRef, calls: list[tuple[ast.Call, CallInput]]) -> bool:
    """Record what each of ``calls`` gives ``ref``; whether the constants the calls give it are
    not those seen before (its pruned nodes are then to be worked out again)."""
    recorded = memo.call_inputs.setdefault(id(ref.node), {})
    judged_per_call = len(recorded) <= MOST_CALLS  # beyond, the calls are judged joined, whatever they give
    before = {given.constants for given in recorded.values()}
    recorded.update((id(call), given) for call, given in calls)
    return judged_per_call and {given.constants for given in recorded.values()} != before


def _parameter_value(assigned: list[tuple[ClassRef, ast.expr]]) -> AbstractValue:
    """A Parameter: of the shape and dtype its data or initializer gives, where it is made once
    (``Parameter(initializer("normal", (64, 10)))``, ``Parameter(Tensor(np.zeros((2, 3))))``)."""
    if len(assigned) == 1:
        klass, value = assigned[0]
        parameter = created_by(value, lambda e: qualified_name(e, klass.module))
        if isinstance(parameter, AbstractTensor) and parameter.parameter:
            return parameter
    return AbstractTensor(Kind.GRAPH, parameter=True)


_TESTED_ATTRIBUTES: NodeMemo[ast.ClassDef, frozenset[str]] = NodeMemo()


def _scalar(value: AbstractValue | None) -> object:
    """The Python scalar a constant is known to be; NOT_KNOWN for anything else."""
    if isinstance(value, AbstractScalar) and value.kind is Kind.CONSTANT:
        return value.value
    return NOT_KNOWN


def _kept_parameters(function: FunctionNode) -> set[str]:
    """The parameters of ``function`` that its body never rebinds: what its callers pass, all through it."""
    return {a.arg for a in all_arguments(function.args)} - set(binding_counts(function))


def _is_kept_parameter(project: Project, cls: ClassRef, name: ast.Name) -> bool:
    """Whether ``name`` reads, in the class's own ``__init__``, a parameter it never rebinds there
    (``self.network = network``): what the calls building the class pass it."""
    init = project.find_method(cls, "__init__")
    if init is None or init.owner is None or init.owner.node is not cls.node:
        return False
    if not init.node.lineno <= name.lineno <= (init.node.end_lineno or init.node.lineno):
        return False
    return name.id in _kept_parameters(init.node)


def _tested_attributes(cls: ast.ClassDef) -> frozenset[str]:
    """The attributes of an instance that the class's methods read in the test of an ``if``, a
    conditional expression or an ``and``/``or``, or in what a method assigns to a local name
    such a test reads (``remainder = n % self.landmarks``), in turn (memoized by class)."""
    return _TESTED_ATTRIBUTES(cls, _attributes_in_tests)


def _attributes_in_tests(cls: ast.ClassDef) -> frozenset[str]:
    tests: list[ast.expr] = []
    for method in (n for n in cls.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))):
        read: list[ast.expr] = []
        for node in descendants(method):
            if isinstance(node, (ast.If, ast.IfExp)):
                read.append(node.test)
            elif isinstance(node, ast.BoolOp):
                read.extend(node.values)
        tests += read + _assigned_to_names_read(method, read)
    return frozenset(n.attr for test in tests for n in descendants(test) if isinstance(n, ast.Attribute))


def _assigned_to_names_read(method: FunctionNode, tests: list[ast.expr]) -> list[ast.expr]:
    """The values ``method`` assigns to the local names ``tests`` read, and in turn to the names
    those values read."""
    assignments = [n for n in descendants(method) if isinstance(n, ast.Assign)]
    names = {n.id for test in tests for n in descendants(test) if isinstance(n, ast.Name)}
    found: list[ast.expr] = []
    left = assignments
    while left:
        taken = [a for a in left if any(t in names for target in a.targets for t in target_names(target))]
        left = [a for a in left if a not in taken]
        found += [a.value for a in taken]
        added = {n.id for a in taken for n in descendants(a.value) if isinstance(n, ast.Name)}
        if not taken or added <= names:
            break
        names |= added
    return found


def argument_values(
    call: ast.Call, ref: FunctionRef, value: Callable[[ast.expr], AbstractValue], widen: bool = False
) -> dict[str, AbstractValue]:
    """Values the callee's parameters get from this call site, ``value`` being that of its
    arguments (``widen``: without the constants' values, see :func:`widened`)."""
    parameters = all_parameter_names(ref.node)
    bound_method = ref.owner is not None and bool(parameters) and parameters[0] in ("self", "cls")
    positional = parameters[1:] if bound_method else parameters
    values: dict[str, AbstractValue] = {name: _CONSTANT for name in parameters}
    for name, argument in zip(positional, call.args):
        values[name] = value(argument)
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        values.update({name: _RUNTIME for name in positional})
    for keyword in call.keywords:
        if keyword.arg in values:
            values[keyword.arg] = value(keyword.value)
    arguments = ref.node.args
    if arguments.vararg is not None:
        values[arguments.vararg.arg] = sequence_of("tuple", _RUNTIME, Kind.GRAPH)
    if arguments.kwarg is not None:
        values[arguments.kwarg.arg] = AbstractDict(Kind.GRAPH)
    return {name: widened(v) for name, v in values.items()} if widen else values


_CONSTANT = AbstractAny(Kind.CONSTANT)
_RUNTIME = AbstractAny(Kind.GRAPH)


def is_tensor_method(call: ast.Call, function: GraphFunction) -> bool:
    """``x.method(...)`` on a graph value that is not a module or a ``self`` attribute holding a primitive."""
    func = call.func
    return (
        isinstance(func, ast.Attribute)
        and function.qualname(func) is None
        and not is_self_attribute(func, function.self_name)
        and function.kind(func.value) is Kind.GRAPH
    )


def module_object_origin(qualname: str, function: GraphFunction) -> str | None:
    """The library function that made the module-level object a call goes through:
    ``logging.getLogger`` for ``logger.info(...)`` after ``logger = logging.getLogger(__name__)``,
    ``collections.namedtuple`` for ``Pair(...)`` after ``Pair = namedtuple("Pair", "a b")``;
    None where the call does not go through such an object."""
    found = function.project.module_object(qualname, function.module)
    if found is None:
        return None
    module, values, _ = found
    if len(values) != 1 or not isinstance(values[0], ast.Call):
        return None  # none, or several: which one is called is unknown
    made_by = values[0].func
    if isinstance(made_by, ast.Name) and made_by.id in _top_level_definitions(module):
        return None  # the module's own class or function (a notebook's name is no dotted path)
    origin = qualified_name(made_by, module)
    if origin is None or function.project.is_checked_code(origin, module) or from_a_mindspore_suite(origin):
        return None
    return origin


def _top_level_definitions(module: ModuleInfo) -> frozenset[str]:
    return frozenset(
        s.name for s in module.tree.body if isinstance(s, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
    )
