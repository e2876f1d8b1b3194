"""What each call of a graph function gives it, call by call.

MindSpore specialises a graph on the Python values each call passes (``self.soft(x, "SOFT")``
and ``self.hard(x, "HARD")`` are two graphs of one ``construct``), and folds a test on them in
each: a branch that no call takes is compiled for none, and one that some take holds for those
alone. The model joins what every call passes into one value per parameter; this keeps, beside
it, the Python constants of each call (a literal, ``None``, a literal default it leaves), so that
a finding is judged for the calls that reach it and names them
(``called at net.py:20 with float32[2,2], 'HARD'``). An entry that only calls from Python run is
evaluated once per call's values instead, shapes included (:func:`mslint.model.scope.graph_functions`).
"""

from __future__ import annotations

import ast
from typing import NamedTuple

from mslint.model.abstract import NOT_KNOWN, AbstractScalar, AbstractValue, Kind, literal
from mslint.model.binder import binding_counts, literal_value, parameter_defaults, passed_arguments
from mslint.model.call_sites import input_specs
from mslint.model.module import ModuleInfo
from mslint.model.project import FunctionRef

MOST_CALLS = 8
"""Beyond this many different calls of one function, they are judged together, joined."""


class CallInput(NamedTuple):
    """One call of a graph function: where it is and the Python constants it gives."""

    where: str
    """``called at net.py:20 with float32[2,2], 'HARD'`` (the inputs where each is known)."""
    source: str
    """The fold table's source of these constants: ``input`` (a call from Python), ``subcell``."""
    constants: tuple[tuple[str, object], ...]
    """The parameters the call gives a known Python scalar, never rebound in the function."""


def call_input(
    call: ast.Call, module: ModuleInfo, ref: FunctionRef, values: dict[str, AbstractValue], source: str
) -> CallInput:
    """The call ``call`` in ``module`` of ``ref``, its parameters holding ``values`` (what the
    call passes); a literal default a parameter keeps where the call leaves it is its constant."""
    is_method = ref.owner is not None
    passed = passed_arguments(call, ref.node, is_method)
    given = dict(values)
    for parameter, default in parameter_defaults(ref.node)[1 if is_method else 0 :]:
        left = passed is not None and parameter.arg not in passed  # a spread may pass any of them
        value = literal_value(default) if left and default is not None else NOT_KNOWN
        if value is not NOT_KNOWN:
            given[parameter.arg] = literal(value)
    rebound = binding_counts(ref.node)
    constants = tuple(
        sorted(
            (name, value.value)
            for name, value in given.items()
            if name not in rebound
            and isinstance(value, AbstractScalar)
            and value.kind is Kind.CONSTANT
            and value.value is not NOT_KNOWN
        )
    )
    names = [p.arg for p, _ in parameter_defaults(ref.node)[1 if is_method else 0 :] if p.arg in (passed or {})]
    inputs = input_specs(given, names) if names else None
    where = f"called at {module.path.name}:{call.lineno}" + (f" with {inputs}" if inputs else "")
    return CallInput(where, source, constants)
