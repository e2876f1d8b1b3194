"""Fields of a configuration file that a program reads by a path it names: ``mode`` of
``config = yaml.safe_load(open("config.yaml"))``, read as ``config["mode"]``.

The program's own code names the file: a literal path (``open("configs/train.yaml")``), or the
default of an ``argparse`` option it reads (``args.config``, ``add_argument("--config",
default="configs/train.yaml")``), given to the loader or to a function of the project that opens
the path it is given and returns what the loader makes of it (``cfg = load_config(args.config)``).
The file is read with a maintained parser, never by running code: JSON with :mod:`json`, YAML
with PyYAML's safe loader (which builds no Python object a tag names).
Its path is taken from the module's folder, then from its import root, as the program is run from
either; each path tried is recorded among the project's probed paths, so that a cached result
is not reused once the file changes. A field is known only where nothing may have changed it
before it is read: the name bound once in its scope, to the parsed file (or a plain wrapper of it,
``EasyDict(...)``), no field of it written there, and it is handed to no call before the read.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

from mslint.model.abstract import NOT_KNOWN
from mslint.model.binder import bound_once
from mslint.model.launch_scripts import option_values
from mslint.model.module import ModuleInfo
from mslint.model.option_defaults import destination
from mslint.model.project import FunctionRef, Project, qualified_name
from mslint.model.walk import own_nodes, parent_of
from mslint.source import read_regular_file

_LOADERS = frozenset({"yaml.safe_load", "yaml.load", "yaml.full_load", "json.load"})
"""Calls that parse an open file: each is read here as the safe loader reads it."""
_WRAPPERS = frozenset(
    {"easydict.EasyDict", "addict.Dict", "munch.Munch", "munch.munchify", "builtins.dict", "types.SimpleNamespace"}
)
"""Calls that make an object of a parsed dict's fields, unchanged (``EasyDict(cfg)``, ``SimpleNamespace(**cfg)``)."""
_LARGEST = 1024 * 1024
"""Bytes: a larger file is not read (a configuration is a few kilobytes)."""


def config_file_field(project: Project, module: ModuleInfo, expr: ast.expr) -> object:
    """The value of the field ``expr`` reads (``config.mode``, ``config["context"]["mode"]``,
    ``config.get("mode")``) of a configuration file (module doc); NOT_KNOWN where it is none, or
    where the files the launch scripts name hold different values."""
    return file_field(project, module, *field_path(expr))


def file_field(project: Project, module: ModuleInfo, root: ast.expr, keys: list[str], fixed: bool = False) -> object:
    """:func:`config_file_field` of the read of ``keys`` in turn from ``root`` (:func:`field_path`);
    with ``fixed``, only of a file that no command line may change: named by a literal path, or by
    the launch scripts (never by an option's default, which a command line replaces)."""
    values = _file_fields(project, module, root, keys, fixed)
    first = values[0] if values else NOT_KNOWN
    return first if all(value == first for value in values) else NOT_KNOWN


def config_file_fields(project: Project, module: ModuleInfo, expr: ast.expr) -> list[object]:
    """The value of the field ``expr`` reads in each configuration file the program may open: the
    one its code names, or each that its launch scripts name; empty where none is known, and
    NOT_KNOWN for a file without the field."""
    return _file_fields(project, module, *field_path(expr))


def _file_fields(
    project: Project, module: ModuleInfo, root: ast.expr, keys: list[str], fixed: bool = False
) -> list[object]:
    if not keys or not isinstance(root, ast.Name):
        return []
    (scope,) = module.scopes_holding([root.lineno])
    bound = unchanged_value(module, scope, root)
    paths = None if bound is None else _file_loaded(project, bound, module, scope, fixed)
    return [nested_field(_parsed(project, module, path, folder), keys) for path, folder in paths or []]


def nested_field(value: object, keys: list[str]) -> object:
    """What ``value`` holds under ``keys`` in turn (``value["model"]["dim"]``): NOT_KNOWN where one
    of them is missing, or read from what is not a dict."""
    for key in keys:
        value = value.get(key, NOT_KNOWN) if isinstance(value, dict) else NOT_KNOWN
    return value


def field_path(expr: ast.expr) -> tuple[ast.expr, list[str]]:
    """What ``expr`` reads fields of, and the fields in order: ``cfg``, ``["model", "mode"]`` for
    ``cfg.model["mode"]``; ``expr`` itself and no fields where it reads none."""
    keys: list[str] = []
    read = _field_key(expr)
    while read is not None:
        expr, key = read
        keys.insert(0, key)
        read = _field_key(expr)
    return expr, keys


def _field_key(expr: ast.expr) -> tuple[ast.expr, str] | None:
    """What ``expr`` reads a field of, and the field: ``cfg.mode``, ``cfg["mode"]``, ``cfg.get("mode")``."""
    if isinstance(expr, ast.Attribute) and isinstance(expr.ctx, ast.Load):
        return expr.value, expr.attr
    if isinstance(expr, ast.Subscript) and isinstance(expr.slice, ast.Constant) and isinstance(expr.slice.value, str):
        return expr.value, expr.slice.value
    if (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Attribute)
        and expr.func.attr == "get"
        and len(expr.args) == 1
        and not expr.keywords
        and isinstance(expr.args[0], ast.Constant)
        and isinstance(expr.args[0].value, str)
    ):
        return expr.func.value, expr.args[0].value
    return None


def unchanged_value(module: ModuleInfo, scope: ast.AST, read: ast.Name) -> ast.expr | None:
    """The value that ``read``'s name is bound to once in ``scope`` (:func:`bound_once`), where no
    field of it is written there and no call is handed it whole, nor any method of it but ``get``
    called (``config.update(vars(args))``), before ``read``."""
    value = bound_once(scope, read.id)
    if value is None:
        return None
    for name in own_nodes(scope):
        if not (isinstance(name, ast.Name) and name.id == read.id):
            continue
        parent = parent_of(module.tree, name)
        if isinstance(parent, (ast.Attribute, ast.Subscript)) and not isinstance(parent.ctx, ast.Load):
            return None  # a field written
        handed = isinstance(parent, (ast.Call, ast.keyword, ast.Starred)) and not _is_loader_argument(parent, module)
        handed = handed or _method_called(module, parent)
        if handed and (name.lineno, name.col_offset) < (read.lineno, read.col_offset):
            return None
    return value


def _method_called(module: ModuleInfo, parent: ast.AST | None) -> bool:
    """Whether ``parent``, the attribute read of a name, is called, and is no ``get``."""
    return (
        isinstance(parent, ast.Attribute)
        and parent.attr != "get"
        and isinstance(called := parent_of(module.tree, parent), ast.Call)
        and called.func is parent
    )


def _file_loaded(
    project: Project, value: ast.expr, module: ModuleInfo, scope: ast.AST, fixed: bool = False
) -> list[_Named] | None:
    """The paths of the file ``value`` parses (:func:`_path_named`): by a loader call (or a wrapper
    of one), or by a function of the project that returns what a loader makes of the file its
    parameter names (``cfg = load_config(args.config)``, ``def load_config(path): with open(path)
    as f: return yaml.safe_load(f)``), the path read from the call's argument."""
    loader = _unwrapped(value, module)
    if loader is not None:
        opened = _file_named(loader, module, scope)
        return None if opened is None else _path_named(project, opened, module, fixed)
    if not isinstance(value, ast.Call) or not isinstance(value.func, (ast.Name, ast.Attribute)):
        return None
    function = project.resolve_expr(value.func, module)
    if not isinstance(function, FunctionRef) or function.owner is not None:
        return None
    returned = [n.value for n in own_nodes(function.node) if isinstance(n, ast.Return)]
    loader = _unwrapped(returned[0], function.module) if len(returned) == 1 and returned[0] is not None else None
    opened = None if loader is None else _file_named(loader, function.module, function.node)
    parameters = [a.arg for a in [*function.node.args.posonlyargs, *function.node.args.args]]
    if not (isinstance(opened, ast.Name) and opened.id in parameters and len(value.args) == len(parameters)):
        return None  # the file named otherwise, or the path given by keyword or a default
    if any(
        isinstance(n, ast.Name) and n.id == opened.id and not isinstance(n.ctx, ast.Load)
        for n in own_nodes(function.node)
    ):
        return None  # the parameter rebound before it is opened
    return _path_named(project, value.args[parameters.index(opened.id)], module, fixed)


def _is_loader_argument(parent: ast.AST, module: ModuleInfo) -> bool:
    return isinstance(parent, ast.Call) and qualified_name(parent.func, module) in _WRAPPERS


def _unwrapped(value: ast.expr, module: ModuleInfo) -> ast.Call | None:
    """The loader call ``value`` is, or wraps (``EasyDict(yaml.safe_load(f))``)."""
    while isinstance(value, ast.Call):
        name = qualified_name(value.func, module)
        if name in _LOADERS:
            return value if value.args else None
        arguments = [*value.args, *(k.value for k in value.keywords if k.arg is None)]
        if name not in _WRAPPERS or len(arguments) != 1:
            return None
        value = arguments[0].value if isinstance(arguments[0], ast.Starred) else arguments[0]
    return None


def _file_named(loader: ast.Call, module: ModuleInfo, scope: ast.AST) -> ast.expr | None:
    """What names the file the loader parses: ``PATH`` of ``open(PATH)`` given to it, or of a
    ``with open(PATH) as f`` of ``scope`` that binds the name given to it."""
    stream = loader.args[0]
    if isinstance(stream, ast.Name):
        opened = [
            item.context_expr
            for node in own_nodes(scope)
            if isinstance(node, ast.With)
            for item in node.items
            if isinstance(item.optional_vars, ast.Name) and item.optional_vars.id == stream.id
        ]
        if len(opened) != 1:
            return None
        stream = opened[0]
    if not (isinstance(stream, ast.Call) and qualified_name(stream.func, module) == "builtins.open" and stream.args):
        return None
    return stream.args[0]


_Named = tuple[str, "Path | None"]
"""A path a program opens, and the folder of the launch script that names it (None: its code does)."""


def _path_named(project: Project, expr: ast.expr, module: ModuleInfo, fixed: bool = False) -> list[_Named] | None:
    """A literal path; or the literal default of the ``argparse`` option ``args.NAME`` reads (not
    with ``fixed``), or where the option has none, each path the launch scripts give it
    (:mod:`mslint.model.launch_scripts`)."""
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        return [(expr.value, None)]
    if not isinstance(expr, ast.Attribute):
        return None
    declared = [
        call
        for call in module.nodes_of(ast.Call)
        if isinstance(call.func, ast.Attribute) and call.func.attr == "add_argument" and destination(call) == expr.attr
    ]
    defaults = {default for call in declared for default in [_keyword(call, "default")] if default is not None}
    if len(defaults) == 1:
        (default,) = defaults
        if isinstance(default, ast.Constant) and not fixed and isinstance(default.value, str):
            return [(default.value, None)]
        return None
    if len(declared) != 1 or defaults:
        return None
    options = [a.value for a in declared[0].args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    given = option_values(project, module, options)
    return None if given is None else [(path, folder) for path, folder in given]


def _keyword(call: ast.Call, name: str) -> ast.expr | None:
    return next((k.value for k in call.keywords if k.arg == name), None)


def _parsed(project: Project, module: ModuleInfo, path: str, script_folder: Path | None = None) -> object:
    """The content of the file ``path`` names, as JSON or YAML; NOT_KNOWN where none is read. A
    path a launch script gives is taken from the script's folder too (``../configs/x.yaml``)."""
    named = Path(path)
    folders = [module.path.parent, module.root] if not named.is_absolute() else [Path("/")]
    if script_folder is not None and not named.is_absolute():
        folders.append(script_folder)
    for folder in dict.fromkeys(folders):
        content = parsed_file(project, folder / named)
        if content is not UNREAD:
            return content
    return NOT_KNOWN


UNREAD = object()
"""What :func:`parsed_file` returns for a file it cannot read (NOT_KNOWN: one it cannot parse)."""


def parsed_file(project: Project, path: Path, first_document: bool = False) -> object:
    """The content of the file at ``path``, as JSON or YAML (with ``first_document``, the first of
    a YAML stream's documents); NOT_KNOWN where it cannot be parsed, and ``UNREAD`` where it
    cannot be read. The path is recorded among the project's probed paths."""
    project.probed.add(path)
    try:
        text = read_regular_file(path, _LARGEST).decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return UNREAD
    if path.suffix == ".json":
        try:
            return json.loads(text)
        except (ValueError, RecursionError):  # deep nesting exhausts the parser's stack
            return NOT_KNOWN
    # Imported here, where a YAML file is read: PyYAML's import is a tenth of the start of every
    # `mslint check`, and most runs read no configuration file.
    import yaml

    try:
        return next(iter(yaml.safe_load_all(text)), None) if first_document else yaml.safe_load(text)
    except (ValueError, RecursionError, yaml.YAMLError):
        return NOT_KNOWN
