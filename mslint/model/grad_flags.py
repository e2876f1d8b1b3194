"""What a Cell's ``requires_grad`` holds when it is compiled, where the project says.

``Cell.__init__`` sets ``requires_grad = False``, and only ``set_grad`` changes it (on the Cell it
is called on; a ``CellList`` or ``SequentialCell`` passes it to its items), besides an assignment of
the attribute. MindSpore's own wrappers call ``set_grad()`` on the network they are given
(``TrainOneStepCell``, ``TrainOneStepWithLossScaleCell``, ``ForwardValueAndGrad``, and ``Model``
through them). The compiler reads the flag as a constant of ``self`` and folds a test on it (2.10,
STRICT and LAX: ``if self.requires_grad:`` after ``set_grad(False)`` never compiles its branch).

So every Cell of the project holds ``False`` where no module names one of those wrappers, every
``set_grad`` call passes a literal ``False`` and nothing assigns ``requires_grad`` (a Parameter's
included: the receiver of an assignment is not told apart); otherwise nothing is said.
"""

from __future__ import annotations

import ast

from mslint.model.project import Project

_WRAPPERS = ("TrainOneStepCell", "TrainOneStepWithLossScaleCell", "ForwardValueAndGrad", "Model", "boost")
"""Names of MindSpore's code that calls ``set_grad()`` on a network it is given (by the last part of
the name: a project's subclass names its base)."""


def cells_require_no_grad(project: Project) -> bool:
    """Whether every Cell of the project holds ``requires_grad = False`` when compiled (module doc)."""
    return project.derived(_no_grad)


def _no_grad(project: Project) -> bool:
    for module in project.modules:
        names = {n.id for n in module.nodes_of(ast.Name)} | {n.attr for n in module.nodes_of(ast.Attribute)}
        if names & set(_WRAPPERS):
            return False
        stored = (n for n in module.nodes_of(ast.Attribute) if not isinstance(n.ctx, ast.Load))
        if any(n.attr == "requires_grad" for n in stored):
            return False
        for call in module.calls_by_name.get("set_grad", ()):
            arguments = [*call.args, *(k.value for k in call.keywords)]
            if len(arguments) != 1 or not (isinstance(arguments[0], ast.Constant) and arguments[0].value is False):
                return False
    return True
