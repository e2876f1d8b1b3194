"""Whether a Cell's ``self.training`` holds the ``False`` that ``nn.Cell.__init__`` gives it.

MindSpore folds a test on ``self.training`` as on any constant of the Cell (the fold table's
``training`` rows), and a Cell that nothing switches to training reads it as ``False``: measured
on 2.10, fresh process per case, STRICT and LAX, the branch ``if self.training:`` guards (or the
rest of ``construct`` after ``if not self.training: return x``) is never compiled for an instance
only built and called, handed to ``nn.WithLossCell`` and ``nn.TrainOneStepCell`` and called
through them, or differentiated by ``value_and_grad`` (``training`` stays ``False``); it is
compiled after ``set_train()``, and building ``mindspore.train.Model`` with an optimizer or
``nn.WithGradCell`` switches ``training`` to ``True`` (``Model.train`` and ``Model.eval`` set it
each time; ``amp.build_train_network`` and the loss landscape callback call ``set_train``).

So the value is known only where no code that may run in the same program as the Cell's module
(:meth:`~mslint.model.project.Project.program_of`) names any of those switches, nor sets an
attribute ``training``, nor calls a ``train`` or ``fit`` method (another library's trainer may
switch the Cells it is given), nor defines ``training`` itself: then every instance holds
``False``. The caller also asks that the program's instances of the class be known, so that no
code outside the checked files builds (and trains) one.
"""

from __future__ import annotations

import ast

from mslint.model.memo import NodeMemo
from mslint.model.module import ModuleInfo
from mslint.model.project import Project

_SWITCHES = frozenset(
    {
        "set_train",
        "add_flags",
        "add_flags_recursive",
        "Model",
        "WithGradCell",
        "build_train_network",
        "SummaryLandscape",
        "train",
        "fit",
        "Trainer",
    }
)
"""Names that may switch a Cell to training (module doc): MindSpore's, and a trainer's methods."""

_SWITCHING: NodeMemo[ast.Module, bool] = NodeMemo()


def never_trained(project: Project, module: ModuleInfo) -> bool:
    """Whether no code that may run in the same program as ``module`` may switch a Cell to
    training or define ``training`` otherwise (module doc); once per module and set of modules."""
    known = project.derived(_nothing_known)
    if id(module) not in known:
        known[id(module)] = not any(_SWITCHING(other.tree, _may_switch) for other in project.program_of(module))
    return known[id(module)]


def _nothing_known(project: Project) -> dict[int, bool]:
    return {}


def _may_switch(tree: ast.Module) -> bool:
    """Whether ``tree`` names a switch, imports one, sets or defines ``training``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and (node.id in _SWITCHES or _defines_training(node.id, node.ctx)):
            return True
        if isinstance(node, ast.Attribute) and (node.attr in _SWITCHES or _defines_training(node.attr, node.ctx)):
            return True
        if isinstance(node, ast.alias) and node.name.rpartition(".")[2] in _SWITCHES:
            return True
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == "training":
            return True  # a property of a Cell of the project
        if isinstance(node, ast.Constant) and node.value == "training":
            return True  # `setattr(cell, "training", True)`
    return False


def _defines_training(name: str, context: ast.expr_context) -> bool:
    return name == "training" and not isinstance(context, ast.Load)
