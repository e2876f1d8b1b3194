"""Branches of host code that the program's own configuration never takes.

Host code runs as Python: ``if cfg.enable_lossscale:`` in a training script takes the branch the
field's value decides. Where that value is fixed by the program's own code, a field of a
configuration of literals that nothing changes (``cfg = edict({"enable_lossscale": False})``,
also imported from the module that writes it: :mod:`mslint.model.configs`), of a configuration
file named by a literal path or by the launch scripts (:mod:`mslint.model.config_files`), or of
the files a configuration helper may merge where no launch script gives the field
(:mod:`mslint.model.merged_configs`), the other branch never runs, whatever calls the code around
it: what is found there does not hold. The default of an option that takes a value decides
nothing here (a command line may give another value); a flag that no launch script gives holds
its default (:mod:`mslint.model.opt_in_flags`: code only the flag turns on is selected by no
script, configuration or command line that mslint can read).
Tests are read as the host reads them (:mod:`mslint.model.host_tests`) from such fields and literals.
"""

from __future__ import annotations

import ast

from mslint.model.abstract import NOT_KNOWN, AbstractValue, literal
from mslint.model.config_files import field_path
from mslint.model.config_reads import fixed_value
from mslint.model.host_tests import truth
from mslint.model.module import ModuleInfo
from mslint.model.project import Project
from mslint.model.values import UNKNOWN
from mslint.model.walk import parent_of


def untaken_test(project: Project, module: ModuleInfo, node: ast.AST) -> ast.expr | None:
    """The test of an ``if`` statement or conditional expression around ``node`` whose branch
    holding it the fixed configuration never takes (module doc); None where there is none."""

    def value(expr: ast.expr) -> AbstractValue:
        if isinstance(expr, ast.Constant):
            return literal(expr.value)
        if not field_path(expr)[1]:
            return UNKNOWN  # reads no field
        fixed = fixed_value(project, module, expr)
        return UNKNOWN if fixed is NOT_KNOWN or isinstance(fixed, (dict, list)) else literal(fixed)

    child: ast.AST = node
    parent = parent_of(module.tree, child)
    while parent is not None:
        if isinstance(parent, (ast.If, ast.IfExp)) and child is not parent.test:
            in_body = child is parent.body if isinstance(parent, ast.IfExp) else any(child is s for s in parent.body)
            if truth(parent.test, value) is (not in_body):
                return parent.test
        child, parent = parent, parent_of(module.tree, parent)
    return None
