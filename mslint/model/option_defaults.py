"""The literal defaults of the ``argparse`` options a program reads: ``args.mode`` where
``parser.add_argument("--mode", type=int, default=1)`` and ``args = parser.parse_args()``.

An option's value is its default only where no command line is parsed (``parse_args([])``,
``parse_args(args=[])``); ``parse_args()`` reads the one the program is run with, which may give
any other value: the default is then what a plain run gets, and the caller says so. A default is
known only where the module declares the option once, with a literal default, one of
MindSpore's modes (``default=context.PYNATIVE_MODE``) or the default of ``action="store_true"``
(False) or ``"store_false"`` (True), a string converted by a ``type`` of ``int``,
``float`` or ``str`` as ``argparse`` converts it; and where the name read is bound once in its
scope (or once at the module's top level) to the parsed options (or to what a function of the
module's top level returns where its one ``return`` gives them: ``args = parse_args()``), no
field of which the module writes.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from mslint.model.module import ModuleInfo
from mslint.model.project import is_mindspore_name, qualified_name
from mslint.model.walk import own_nodes, parent_of

_CONVERSIONS = {"int": int, "float": float, "str": str}
_FLAG_DEFAULTS = {"store_true": False, "store_false": True}
"""What an option of these actions holds where the command line does not give it."""
_MODES = {"GRAPH_MODE": 0, "PYNATIVE_MODE": 1}
"""MindSpore's modes by name: the numbers ``set_context`` takes."""


@dataclass(frozen=True)
class OptionDefault:
    """An option's literal default, and whether a command line may give it another value."""

    value: object
    from_command_line: bool


def option_default(module: ModuleInfo, expr: ast.expr) -> OptionDefault | None:
    """The default of the option ``expr`` reads (``args.mode``); None where it is not known."""
    if not (isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and isinstance(expr.ctx, ast.Load)):
        return None
    parsed = _parsed_once(module, expr.value)
    if parsed is None or field_written(module, expr.value.id):
        return None
    return parsed_default(module, parsed, expr.attr)


def parsed_default(module: ModuleInfo, parsed: ast.Call, option: str) -> OptionDefault | None:
    """The default of ``option`` in what the ``parse_args`` call ``parsed`` of ``module`` returns,
    where the module declares the option once (module doc)."""
    declared = [
        call
        for call in module.nodes_of(ast.Call)
        if isinstance(call.func, ast.Attribute) and call.func.attr == "add_argument" and destination(call) == option
    ]
    if len(declared) != 1:
        return None
    value = _default(declared[0], module)
    given = parsed.args[0] if parsed.args else next((k.value for k in parsed.keywords if k.arg == "args"), None)
    if value is None or (isinstance(given, (ast.List, ast.Tuple)) and given.elts):
        return None  # `parse_args(["--mode", "0"])` may give the option
    from_command_line = not isinstance(given, (ast.List, ast.Tuple))  # `parse_args([])` parses nothing
    return OptionDefault(value[0], from_command_line)


def destination(call: ast.Call) -> str | None:
    """The attribute an ``add_argument`` call's option is read as: its ``dest``, or its first long
    option's name (``--config-path``: ``config_path``)."""
    dest = next((k.value for k in call.keywords if k.arg == "dest"), None)
    if dest is not None:
        return dest.value if isinstance(dest, ast.Constant) and isinstance(dest.value, str) else None
    options = [a.value for a in call.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    long = [o for o in options if o.startswith("--")]
    chosen = long[0][2:] if long else options[0].lstrip("-") if options else None
    return None if chosen is None else chosen.replace("-", "_")


def _default(call: ast.Call, module: ModuleInfo) -> tuple[object] | None:
    """The option's default as the parsed options hold it, in a tuple; None where it is no literal."""
    keywords = {k.arg: k.value for k in call.keywords}
    default = keywords.get("default")
    action = keywords.get("action")
    flag = action.value if isinstance(action, ast.Constant) else None
    if default is None and flag in _FLAG_DEFAULTS:  # `action="store_true"` defaults to False
        return (_FLAG_DEFAULTS[flag],)
    named = qualified_name(default, module) if isinstance(default, (ast.Name, ast.Attribute)) else None
    if is_mindspore_name(named, "GRAPH_MODE", "PYNATIVE_MODE"):  # `default=context.GRAPH_MODE`
        return (_MODES[str(named).rsplit(".", 1)[-1]],)
    if not isinstance(default, ast.Constant):
        return None
    converter = keywords.get("type")
    if not isinstance(default.value, str) or converter is None:
        return (default.value,)
    convert = _CONVERSIONS.get(converter.id) if isinstance(converter, ast.Name) else None
    if convert is None:
        return None
    try:
        return (convert(default.value),)  # argparse converts a string default by the option's type
    except ValueError:
        return None


def _parsed_once(module: ModuleInfo, name: ast.Name) -> ast.Call | None:
    """The ``parse_args`` call ``name`` is bound to (:func:`bound_once`), directly or by a helper
    of the module that returns it."""
    value = bound_once(module, name)
    if value is None:
        return None
    return value if isinstance(value, ast.Call) and _parses(value) else _parsed_by_helper(module, value)


def bound_once(module: ModuleInfo, name: ast.Name) -> ast.expr | None:
    """The value ``name`` is bound to where it is read, in the scope that reads it, or at the
    module's top level where that scope does not bind it: its one assignment, or the last one
    before the read where each is a statement of that scope's own body (``args =
    parser.parse_args()`` before ``args = load_cfg(args.config)``); None where it is bound otherwise."""
    (scope,) = module.scopes_holding([name.lineno])
    for holder in dict.fromkeys([scope, module.tree]):
        names = [n for n in own_nodes(holder) if isinstance(n, ast.Name) and n.id == name.id]
        stores = [n for n in names if not isinstance(n.ctx, ast.Load)]
        if not stores:
            continue
        assignments = [parent_of(module.tree, store) for store in stores]
        if not all(isinstance(a, ast.Assign) and a.targets == [s] for a, s in zip(assignments, stores)):
            return None
        if len(assignments) == 1:
            assert isinstance(assignments[0], ast.Assign)
            return assignments[0].value
        return _reaching(holder, assignments, name)
    return None


def _reaching(holder: ast.AST, assignments: list[ast.AST | None], name: ast.Name) -> ast.expr | None:
    """The value of the last of ``assignments`` before the statement of ``holder``'s own body that
    holds the read ``name``, where each assignment is a statement of that body (no branch or loop
    decides which runs)."""
    body: list[ast.stmt] = getattr(holder, "body", [])
    if not all(any(a is statement for statement in body) for a in assignments):
        return None
    reading = next((s for s in body if s.lineno <= name.lineno <= (s.end_lineno or s.lineno)), None)
    before = [a for a in assignments if isinstance(a, ast.Assign) and reading is not None and a.lineno < reading.lineno]
    return before[-1].value if before else None


def _parses(value: ast.expr | None) -> bool:
    return isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "parse_args"


def _parsed_by_helper(module: ModuleInfo, value: ast.expr) -> ast.Call | None:
    """The ``parse_args`` call that a function of the module's top level called without
    arguments returns, as its one ``return`` (``args = parse_args()``, ``def parse_args(): ...
    return parser.parse_args()``); None otherwise."""
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and not value.args and not value.keywords):
        return None
    name = value.func.id
    helpers = [s for s in module.tree.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) and s.name == name]
    return returned_parse(helpers[0]) if len(helpers) == 1 else None


def returned_parse(function: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.Call | None:
    """The ``parse_args`` call ``function`` returns as its one ``return`` (``def parse_args(): ...
    return parser.parse_args()``); None otherwise."""
    returns = [n for n in own_nodes(function) if isinstance(n, ast.Return)]
    parsed = returns[0].value if len(returns) == 1 else None
    return parsed if isinstance(parsed, ast.Call) and _parses(parsed) else None


def field_written(module: ModuleInfo, name: str) -> bool:
    """Whether the module writes a field of a name ``name`` (``args.mode = 0``, ``setattr(args, ...)``)."""
    for node in module.nodes_of(ast.Attribute):
        if isinstance(node.value, ast.Name) and node.value.id == name and not isinstance(node.ctx, ast.Load):
            return True
    return any(
        isinstance(call.func, ast.Name)
        and call.func.id == "setattr"
        and call.args
        and isinstance(call.args[0], ast.Name)
        and call.args[0].id == name
        for call in module.nodes_of(ast.Call)
    )
