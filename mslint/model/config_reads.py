"""What host code reads from a configuration: ``cfg.attention``, ``cfg["model"]["dim"]``,
``args.depth``, where the program builds its Cells (``Block(4, attention=cfg.attention)``).

A field is known where the configuration is one of three things the program's own code shows:
the fields of a configuration file it opens by a path it names (:mod:`mslint.model.config_files`);
the default of an ``argparse`` option (:mod:`mslint.model.option_defaults`: what a plain run of the
program gets); a configuration of literals (``{"dim": 4}``, ``dict(dim=4)``,
``SimpleNamespace(dim=4)``, :mod:`mslint.model.configs`) that the name read is bound to once in
its scope, where no field of it is written there and no call is handed it whole before the read
(in ``if __name__ == "__main__":`` or a ``main()``: a setup the file itself writes).
"""

from __future__ import annotations

import ast

from mslint.model.abstract import NOT_KNOWN
from mslint.model.binder import literal_value
from mslint.model.config_files import field_path, file_field, nested_field, unchanged_value
from mslint.model.configs import config_fields
from mslint.model.module import ModuleInfo
from mslint.model.option_defaults import option_default
from mslint.model.project import Project


def configured_value(project: Project, module: ModuleInfo, expr: ast.expr) -> object:
    """The value of the field ``expr`` reads of a configuration (module doc); NOT_KNOWN where it is none."""
    root, keys = field_path(expr)
    if not keys or not isinstance(root, ast.Name):
        return NOT_KNOWN
    from_file = file_field(project, module, root, keys)
    if from_file is not NOT_KNOWN:
        return from_file
    option = option_default(module, expr) if len(keys) == 1 and isinstance(expr, ast.Attribute) else None
    if option is not None:
        return option.value
    (scope,) = module.scopes_holding([root.lineno])
    bound = unchanged_value(module, scope, root)
    fields = None if bound is None else config_fields(project, bound, module)
    if fields is None or keys[0] not in fields:
        return NOT_KNOWN
    return nested_field(literal_value(fields[keys[0]]), keys[1:])
