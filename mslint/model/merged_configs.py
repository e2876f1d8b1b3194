"""Fields of a configuration that a helper of the project assembles from a YAML file and the
command line: ``config.temporal_pool`` where ``src/model_utils/config.py`` says ``config =
get_config()``, and ``get_config`` parses the file its ``--config_path`` option names and adds an
option of each of the file's fields (the configuration helper of MindSpore's model zoo).

The helper is known by what its module does, not followed line by line: one ``add_argument``
whose default names a YAML file (``default=os.path.join(here, "../config/x.yaml")``), a YAML
loader called, and the name read bound once at its top level to what a function of that module
returns when called without arguments (also read where another module imports it, ``from
src.model_utils.config import config``, or through a local name, ``args = config``). A run may
pick any configuration the project keeps beside the default or beside a file its launch scripts
give that option, so a field is known where every such file (``*.yaml``, ``*.yml``; the first
document of each: the model zoo's files add the options' help and choices as further documents)
holds it with one value, where no launch script gives the field's own option
(``--temporal_pool``), and where no module of the project writes a field of that name
(``args.temporal_pool = True``, ``args["temporal_pool"] = ...``, ``setattr(args,
"temporal_pool", ...)``) or calls ``setattr`` with a computed name outside the helper's module.
"""

from __future__ import annotations

import ast
from pathlib import Path

from mslint.model.abstract import NOT_KNOWN
from mslint.model.config_files import nested_field, parsed_file
from mslint.model.launch_scripts import option_given, option_values
from mslint.model.module import ModuleInfo
from mslint.model.option_defaults import bound_once
from mslint.model.project import FunctionRef, Project, qualified_name
from mslint.model.visible_constants import imported_binding

_YAML_LOADERS = frozenset({"yaml.load", "yaml.load_all", "yaml.safe_load", "yaml.safe_load_all", "yaml.full_load"})
_SUFFIXES = (".yaml", ".yml")


def merged_field(project: Project, module: ModuleInfo, root: ast.Name, keys: list[str]) -> object:
    """The value of the field ``keys`` read in turn from ``root`` of a configuration a helper
    assembles (module doc); NOT_KNOWN where it is none, or where the files differ."""
    helper = _helper_of(project, module, root)
    if helper is None:
        return NOT_KNOWN
    option, default, name = helper
    if field_written_anywhere(project, keys[0], default[1], {root.id, name}):
        return NOT_KNOWN
    if option_given(project, module, [f"--{keys[0]}"]) or option_given(project, default[1], [f"--{keys[0]}"]):
        return NOT_KNOWN  # a launch script gives the field on the command line
    files = _configurations(project, module, option, default)
    values = [nested_field(parsed_file(project, path, first_document=True), keys) for path in files]
    first = values[0] if values else NOT_KNOWN
    return first if all(value == first for value in values) else NOT_KNOWN


_Helper = tuple[ast.Call, tuple[str, ModuleInfo], str]
"""The ``add_argument`` call of a helper's file option, its default path with the helper's module,
and the name the helper's module binds the configuration to."""


def _helper_of(project: Project, module: ModuleInfo, root: ast.Name) -> _Helper | None:
    """The file option of the helper whose configuration ``root`` names (module doc); None otherwise."""
    value = bound_once(module, root)
    name = root.id
    if isinstance(value, ast.Name):  # `args = config`
        name, value = value.id, bound_once(module, value)
    home = module
    if value is None:
        imported = imported_binding(project, module, name)
        if imported is None:
            return None
        home, name = imported
        values = home.top_level_values(name)
        value = values[0] if len(values) == 1 else None
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and not value.args and not value.keywords):
        return None
    function = project.resolve_expr(value.func, home)
    if not isinstance(function, FunctionRef) or function.owner is not None or function.module is not home:
        return None
    if not any(qualified_name(call.func, home) in _YAML_LOADERS for call in home.nodes_of(ast.Call)):
        return None
    options = [
        (call, path)
        for call in home.nodes_of(ast.Call)
        if isinstance(call.func, ast.Attribute) and call.func.attr == "add_argument"
        for path in [_yaml_default(call)]
        if path is not None
    ]
    if len(options) != 1:
        return None
    ((option, path),) = options
    return option, (path, home), name


def _yaml_default(call: ast.Call) -> str | None:
    """The one literal path of a YAML file that the option's default holds (``default=
    os.path.join(here, "../config/x.yaml")``); None where it holds none or several."""
    default = next((k.value for k in call.keywords if k.arg == "default"), None)
    if default is None:
        return None
    paths = [
        node.value
        for node in ast.walk(default)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.endswith(_SUFFIXES)
    ]
    return paths[0] if len(paths) == 1 else None


def _configurations(
    project: Project, module: ModuleInfo, option: ast.Call, default: tuple[str, ModuleInfo]
) -> list[Path]:
    """The YAML files of the folders holding the default configuration and each that the launch
    scripts of ``module`` give the option; none where a folder is not found."""
    path, home = default
    options = [a.value for a in option.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    named: list[tuple[str, Path | None]] = [(path, None)]
    named += [(value, folder) for value, folder in option_values(project, module, options) or []]
    files: list[Path] = []
    for value, script_folder in named:
        bases = [home.path.parent, home.root, *([script_folder] if script_folder is not None else [])]
        folder = next((f for base in bases for f in [(base / value).parent] if f.is_dir()), None)
        if folder is None:
            return []
        project.probed.add(folder)
        files += sorted(p for p in folder.iterdir() if p.suffix in _SUFFIXES and p.is_file())
    return list(dict.fromkeys(files))


def field_written_anywhere(project: Project, key: str, home: ModuleInfo, names: set[str]) -> bool:
    """Whether a module of the project writes a field named ``key`` of an object other than ``self``
    (``args.key = ...``, ``cfg["key"] = ...``, ``setattr(args, "key", ...)``), or one other than
    ``home`` (where the configuration is made) calls ``setattr`` with a computed attribute name on
    one of the ``names`` the configuration goes by."""
    for module in project.modules:
        if key not in module.text and "setattr" not in module.text:
            continue
        fields: list[ast.Attribute | ast.Subscript] = [*module.nodes_of(ast.Attribute), *module.nodes_of(ast.Subscript)]
        for node in fields:
            if not isinstance(node.ctx, ast.Load) and _of_a_configuration(node) and _field_named(node) == key:
                return True
        for call in module.nodes_of(ast.Call):
            if not (isinstance(call.func, ast.Name) and call.func.id == "setattr" and len(call.args) > 1):
                continue
            target, name = call.args[0], call.args[1]
            if not _of_a_configuration(target):
                continue
            if isinstance(name, ast.Constant) and name.value == key:
                return True
            computed = not isinstance(name, ast.Constant) and module is not home
            if computed and isinstance(target, ast.Name) and target.id in names:
                return True
    return False


def _of_a_configuration(expr: ast.expr) -> bool:
    """Whether ``expr`` or the fields it writes belong to an object other than ``self`` or ``cls``."""
    root = expr.value if isinstance(expr, (ast.Attribute, ast.Subscript)) else expr
    while isinstance(root, (ast.Attribute, ast.Subscript)):
        root = root.value
    return isinstance(root, ast.Name) and root.id not in ("self", "cls")


def _field_named(node: ast.Attribute | ast.Subscript) -> object:
    return (
        node.attr
        if isinstance(node, ast.Attribute)
        else node.slice.value
        if isinstance(node.slice, ast.Constant)
        else None
    )
