"""What host code reads from a configuration: ``cfg.attention``, ``cfg["model"]["dim"]``,
``args.depth``, where the program builds its Cells (``Block(4, attention=cfg.attention)``).

A field is known where the configuration is one of three things the program's own code shows:
the fields of a configuration file it opens by a path it names (:mod:`mslint.model.config_files`);
the default of an ``argparse`` option (:mod:`mslint.model.option_defaults`: what a plain run of the
program gets); a configuration of literals (``{"dim": 4}``, ``dict(dim=4)``,
``SimpleNamespace(dim=4)``, :mod:`mslint.model.configs`) that the name read is bound to once in
its scope, where no field of it is written there and no call is handed it whole before the read
(in ``if __name__ == "__main__":`` or a ``main()``: a setup the file itself writes), or, where the
scope binds no such name, at a module's top level (``cfg = edict({...})``, also imported:
``from src.config import cfg``) where no read of it may change it.
"""

from __future__ import annotations

import ast

from mslint.model.abstract import NOT_KNOWN
from mslint.model.binder import all_parameter_names, binding_counts, literal_value
from mslint.model.config_files import field_path, file_field, nested_field, unchanged_value
from mslint.model.configs import config_fields
from mslint.model.merged_configs import merged_field
from mslint.model.module import ModuleInfo
from mslint.model.opt_in_flags import unselected_flag
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
    return _literal_field(project, module, root, keys)


def fixed_value(project: Project, module: ModuleInfo, expr: ast.expr) -> object:
    """The value of the field ``expr`` reads where no command line may change it: of a file named by
    a literal path or by the launch scripts, of the files a configuration helper may merge where no
    launch script gives the field (:mod:`mslint.model.merged_configs`), of a command-line flag no
    launch script gives (:mod:`mslint.model.opt_in_flags`), or of a configuration of literals;
    NOT_KNOWN otherwise
    (an ``argparse`` option's default among them: a command line may give another value)."""
    root, keys = field_path(expr)
    if not keys or not isinstance(root, ast.Name):
        return NOT_KNOWN
    from_file = file_field(project, module, root, keys, fixed=True)
    if from_file is not NOT_KNOWN:
        return from_file
    merged = merged_field(project, module, root, keys)
    if merged is not NOT_KNOWN:
        return merged
    flag = unselected_flag(project, module, expr) if len(keys) == 1 else NOT_KNOWN
    return flag if flag is not NOT_KNOWN else _literal_field(project, module, root, keys)


def _literal_field(project: Project, module: ModuleInfo, root: ast.Name, keys: list[str]) -> object:
    """The field ``keys`` of the configuration of literals ``root`` names: bound in the scope that
    reads it, else at a module's top level (its own, or imported from the module that binds it:
    :func:`~mslint.model.configs.config_fields`)."""
    (scope,) = module.scopes_holding([root.lineno])
    bound = unchanged_value(module, scope, root)
    if bound is None and not _binds(scope, root.id):
        bound = root  # a module's configuration, read by name
    fields = None if bound is None else config_fields(project, bound, module)
    if fields is None or keys[0] not in fields:
        return NOT_KNOWN
    return nested_field(literal_value(fields[keys[0]]), keys[1:])


def _binds(scope: ast.AST, name: str) -> bool:
    """Whether ``scope``, a function, binds ``name`` itself (a parameter, a local)."""
    if isinstance(scope, ast.Module):
        return False
    assert isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef))
    return name in binding_counts(scope) or name in all_parameter_names(scope)
