"""Command-line flags that no launch script gives: ``args.fp8_e8m0fnu_unet`` of
``parser.add_argument("--fp8_e8m0fnu-unet", action="store_true")``.

A flag (``action="store_true"`` or ``"store_false"``, no ``default``) turns on what a user asks
for by name. Where no launch script of the project gives it (:mod:`mslint.model.launch_scripts`),
the code only the flag selects is selected by no script, configuration or command line mslint can
read, and the flag holds its default: False for ``store_true``, True for ``store_false``. An
option that takes a value (``--device_target``) is no such flag: its default is one value among
those the user is expected to pick, and decides nothing here.

The flag is known where the name read (no parameter of the function reading it) is bound, in the
module that declares the flag (once) or
imported from it (``from comfy.cli_args import args``), only to what ``parse_args`` calls of that
module return (``args = parser.parse_args()``, and ``parser.parse_args([])`` in another branch),
and where no module of the project writes a field of that name
(:func:`~mslint.model.merged_configs.field_written_anywhere`).
"""

from __future__ import annotations

import ast

from mslint.model.abstract import NOT_KNOWN
from mslint.model.binder import all_parameter_names
from mslint.model.launch_scripts import option_given
from mslint.model.merged_configs import field_written_anywhere
from mslint.model.module import ModuleInfo
from mslint.model.option_defaults import destination
from mslint.model.project import Project
from mslint.model.visible_constants import imported_binding
from mslint.model.walk import parent_of

_FLAG_DEFAULTS = {"store_true": False, "store_false": True}


def unselected_flag(project: Project, module: ModuleInfo, expr: ast.expr) -> object:
    """The default of the flag ``expr`` reads (``args.fp16``) where no launch script gives it
    (module doc); NOT_KNOWN otherwise."""
    if not (isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and isinstance(expr.ctx, ast.Load)):
        return NOT_KNOWN
    home, name = module, expr.value.id
    (scope,) = module.scopes_holding([expr.lineno])
    if not isinstance(scope, ast.Module) and name in all_parameter_names(scope):
        return NOT_KNOWN  # a parameter: given whatever its callers pass
    if not _assigned(module, name):
        imported = imported_binding(project, module, name)
        if imported is None:
            return NOT_KNOWN
        home, name = imported
    assigned = _assigned(home, name)
    if not assigned or not all(_parses(value) for value in assigned):
        return NOT_KNOWN
    declared = [
        call
        for call in home.nodes_of(ast.Call)
        if isinstance(call.func, ast.Attribute) and call.func.attr == "add_argument" and destination(call) == expr.attr
    ]
    if len(declared) != 1:
        return NOT_KNOWN
    keywords = {k.arg: k.value for k in declared[0].keywords}
    action = keywords.get("action")
    flag = action.value if isinstance(action, ast.Constant) else None
    if (
        flag not in _FLAG_DEFAULTS
        or "default" in keywords
        or field_written_anywhere(project, expr.attr, home, {expr.value.id, name})
    ):
        return NOT_KNOWN
    options = [a.value for a in declared[0].args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    if option_given(project, module, options) or option_given(project, home, options):
        return NOT_KNOWN
    return _FLAG_DEFAULTS[flag]


def _assigned(module: ModuleInfo, name: str) -> list[ast.expr | None]:
    """What each binding of ``name`` anywhere in the module assigns it: the value of an assignment
    of which it is the one target, None for any other binding (``for args in ...``, ``with ...
    as args``)."""
    found: list[ast.expr | None] = []
    for node in module.nodes_of(ast.Name):
        if node.id == name and isinstance(node.ctx, ast.Store):
            assign = parent_of(module.tree, node)
            found.append(assign.value if isinstance(assign, ast.Assign) and assign.targets == [node] else None)
    return found


def _parses(value: ast.expr | None) -> bool:
    return isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "parse_args"
