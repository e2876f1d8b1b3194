"""Calls checked against the full signatures of the API tables (``signatures`` in
``mslint/data/api-<release>.json``, written by ``scripts/generate_api_table.py``): what Python
itself raises TypeError for when it binds the arguments, and constants of a type that the
callable's own first checks refuse."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache, cached_property

from mslint.diagnostics import Edit, Fix, Severity
from mslint.model.abstract import AbstractScalar, AbstractValue, Kind
from mslint.model.instances import constructor_values
from mslint.model.memo import NodeMemo
from mslint.model.module import ModuleInfo
from mslint.model.project import ClassRef, Project
from mslint.model.walk import descendants
from mslint.rules._call_edits import replace_node
from mslint.rules.base import Finding


@dataclass(frozen=True)
class Parameter:
    name: str
    required: bool
    types: tuple[str, ...]
    """The builtin types the callable accepts (``tuple``, ``list``, ``None``); empty: any."""


@dataclass(frozen=True)
class Signature:
    positional: tuple[Parameter, ...]
    """The parameters that can be passed by position (no MindSpore API has positional-only ones)."""
    keyword_only: tuple[Parameter, ...]
    variadic: bool
    """Whether it takes ``*args``."""

    @property
    def parameters(self) -> tuple[Parameter, ...]:
        return self.positional + self.keyword_only

    def names(self) -> list[str]:
        return [p.name for p in self.parameters]


@cache
def parse_signature(text: str) -> Signature:
    """A table's signature text, ``(size: list | tuple, fill_value, *, dtype=...)``."""
    definition = ast.parse(f"def f{text}: ...").body[0]
    assert isinstance(definition, ast.FunctionDef)
    arguments = definition.args
    positional = [*arguments.posonlyargs, *arguments.args]
    first_default = len(positional) - len(arguments.defaults)
    by_position = tuple(_parameter(a, index < first_default) for index, a in enumerate(positional))
    keyword_only = tuple(_parameter(a, d is None) for a, d in zip(arguments.kwonlyargs, arguments.kw_defaults))
    return Signature(by_position, keyword_only, arguments.vararg is not None)


def _parameter(argument: ast.arg, required: bool) -> Parameter:
    return Parameter(argument.arg, required, _type_names(argument.annotation))


def _type_names(annotation: ast.expr | None) -> tuple[str, ...]:
    if isinstance(annotation, ast.BinOp):
        return _type_names(annotation.left) + _type_names(annotation.right)
    if isinstance(annotation, ast.Name):
        return (annotation.id,)
    return ()


def check_call(
    call: ast.Call,
    qualname: str,
    signature: Signature,
    version: str,
    module: ModuleInfo,
    project: Project | None = None,
) -> Iterator[Finding]:
    """Findings for a call of ``qualname`` that Python or the callable's first checks refuse."""
    api = f"`{qualname}`"
    names = signature.names()
    for keyword in call.keywords:
        if keyword.arg is not None and keyword.arg not in names:
            yield unknown_keyword(keyword, call, api, names, version)
    if any(isinstance(a, ast.Starred) for a in call.args):
        return  # how many values it passes is not known
    yield from _positional_count(call, api, signature, version, module)
    bound = dict(zip(signature.positional, call.args))
    given = {k.arg for k in call.keywords}
    for parameter in signature.positional[: len(call.args)]:
        if parameter.name in given:
            yield Finding(call, f"{api} gets two values for `{parameter.name}`: by position and by keyword")
    renamed = any(k not in names for k in given if k is not None)
    if None not in given and not renamed:  # every argument is in sight, none of them misnamed
        missing = [p.name for p in signature.parameters if p.required and p not in bound and p.name not in given]
        if missing:
            yield Finding(
                call,
                f"{api} is called without its required {_plural('argument', missing)} in MindSpore {version}",
            )
    keywords = {p.name: p for p in signature.parameters}
    bound.update((keywords[k.arg], k.value) for k in call.keywords if k.arg in keywords)
    typed = any(p.types and not _is_literal(v) for p, v in bound.items())
    scope = _enclosing_function(module, call.lineno) if typed else None
    instances_give = _given_to_constructor(project, module, scope)
    for parameter, value in bound.items():
        yield from _refused_constant(parameter, value, api, version, scope, instances_give)


def _given_to_constructor(project: Project | None, module: ModuleInfo, scope: ast.AST | None) -> Given:
    """Where ``scope`` is the ``__init__`` of a class of the module, what the instances the
    program builds give its parameters (found when first asked)."""
    if project is None or not isinstance(scope, ast.FunctionDef) or scope.name != "__init__":
        return _NO_INSTANCES
    owner = next((c for c in module.nodes_of(ast.ClassDef) if any(s is scope for s in c.body)), None)
    return _NO_INSTANCES if owner is None else Given(project, ClassRef(module, owner))


class Given:
    """What the instances the program builds give each parameter of a class's ``__init__``
    (:func:`~mslint.model.instances.constructor_values`), found when a check first asks: finding
    them costs more than every other check of the call."""

    def __init__(self, project: Project | None, cls: ClassRef | None) -> None:
        self._project = project
        self._cls = cls

    @cached_property
    def _values(self) -> Mapping[str, AbstractValue]:
        if self._project is None or self._cls is None:
            return {}
        return constructor_values(self._project, self._cls) or {}

    def get(self, name: str) -> AbstractValue | None:
        return self._values.get(name)


_NO_INSTANCES = Given(None, None)


_FUNCTIONS: NodeMemo[ast.Module, list[ast.FunctionDef | ast.AsyncFunctionDef]] = NodeMemo()


def _enclosing_function(module: ModuleInfo, line: int) -> ast.AST:
    """The innermost function holding ``line``, else the module (its functions memoized by tree)."""
    functions = _FUNCTIONS(
        module.tree, lambda _: [*module.nodes_of(ast.FunctionDef), *module.nodes_of(ast.AsyncFunctionDef)]
    )
    holding = [f for f in functions if f.lineno <= line <= (f.end_lineno or f.lineno)]
    return max(holding, key=lambda f: f.lineno) if holding else module.tree


def _is_literal(value: ast.expr) -> bool:
    return _constant_type(value) is not None


_UNTYPED = "an argument of unknown type"
_ARITHMETIC = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow)


def _argument_type(value: ast.expr, scope: ast.AST | None, given: Given, depth: int = 0) -> tuple[str | None, bool]:
    """The type of an argument, and whether it is certain: a literal's and arithmetic on literals
    (certain); a constructor's parameter that every instance the program builds gives a Python
    number (``given``; certain); a name the enclosing function takes as a parameter with a number's annotation or
    default and never rebinds, and arithmetic on it (``hidden * 2``): the type of the value the
    function gets when the caller says nothing (not certain). ``_UNTYPED`` for a constructor's
    parameter nothing says anything of (``def __init__(self, c)``); None where nothing is known."""
    literal = _constant_type(value)
    if literal is not None or depth > 3:
        return literal, True
    if isinstance(value, ast.BinOp) and isinstance(value.op, _ARITHMETIC):
        operands = [_argument_type(o, scope, given, depth + 1) for o in (value.left, value.right)]
        kinds = {kind for kind, _ in operands}
        if not kinds <= {"int", "float"}:
            # `c * 4` repeats a tuple `c`; `c + 1` fails on one as on a number: kept as unknown
            return (_UNTYPED, False) if kinds <= {"int", "float", _UNTYPED} and "int" in kinds else (None, False)
        return ("float" if "float" in kinds else "int"), all(certain for _, certain in operands)
    if not isinstance(value, ast.Name) or not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None, False
    rebound = any(
        isinstance(n, ast.Name) and n.id == value.id and not isinstance(n.ctx, ast.Load) for n in descendants(scope)
    )
    arguments = scope.args
    positional = [*arguments.posonlyargs, *arguments.args]
    defaults = dict(zip([a.arg for a in positional[len(positional) - len(arguments.defaults) :]], arguments.defaults))
    defaults.update((a.arg, d) for a, d in zip(arguments.kwonlyargs, arguments.kw_defaults) if d is not None)
    parameter = next((a for a in (*positional, *arguments.kwonlyargs) if a.arg == value.id), None)
    if parameter is None or rebound:
        return None, False  # a local, or a parameter the function rebinds: not followed
    instances = given.get(value.id)
    if isinstance(instances, AbstractScalar) and instances.kind == Kind.CONSTANT and instances.type in ("int", "float"):
        return instances.type, True
    if isinstance(parameter.annotation, ast.Name) and parameter.annotation.id in ("int", "float"):
        return parameter.annotation.id, False
    default = defaults.get(value.id)
    if default is None:
        # a constructor's argument (`def __init__(self, c)`) that the constructor also uses as a
        # number: where PyTorch habits show
        untyped = parameter.annotation is None and scope.name == "__init__" and _used_as_number(value.id, scope)
        return (_UNTYPED if untyped else None), False
    kind = _constant_type(default)
    return (kind if kind in ("int", "float") else None), False


_SPELLINGS = (frozenset({"dim", "axis"}), frozenset({"keepdim", "keepdims", "keep_dims"}))
"""Names PyTorch, NumPy and MindSpore give the same parameter (``ops.softmax(x, dim=-1)`` is
``axis=-1``; ``mint`` and the Tensor methods of PyTorch's overloads take ``dim``)."""
_PYTORCH_NAMES = frozenset({"dim", "keepdim"})


def unknown_keyword(keyword: ast.keyword, call: ast.Call, api: str, names: list[str], version: str) -> Finding:
    """A keyword the callable (``api``, as findings name it) does not take; where it has exactly one
    parameter of another spelling of that name that the call does not pass already (PyTorch's
    ``ops.softmax(x, dim=-1)`` is ``axis``), that name and the fix that renames it."""
    assert keyword.arg is not None
    message = f"{api} has no parameter `{keyword.arg}` in MindSpore {version}"
    given = {k.arg for k in call.keywords}
    spellings = next((s for s in _SPELLINGS if keyword.arg in s), frozenset())
    renamed = [name for name in names if name in spellings and name not in given]
    if len(renamed) != 1 or None in given:
        return Finding(keyword, message, f"its parameters are: {', '.join(names) or 'none'}")
    name, value = renamed[0], ast.unparse(keyword.value)
    start = keyword.col_offset + 1
    edit = Edit(keyword.lineno, start, keyword.lineno, start + len(keyword.arg), name)
    hint = f"PyTorch's `{keyword.arg}` is `{name}` in MindSpore: `{name}={value}`"
    if keyword.arg not in _PYTORCH_NAMES:
        hint = f"MindSpore calls it `{name}` here: `{name}={value}`"
    return Finding(keyword, message, hint, fix=Fix(f"Rename `{keyword.arg}` to `{name}`", (edit,)))


def _positional_count(
    call: ast.Call, api: str, signature: Signature, version: str, module: ModuleInfo
) -> Iterator[Finding]:
    extra = call.args[len(signature.positional) :]
    if signature.variadic or not extra:
        return
    message = (
        f"{api} takes {len(signature.positional)} positional "
        f"{'argument' if len(signature.positional) == 1 else 'arguments'} in MindSpore {version}, "
        f"{len(call.args)} given"
    )
    keyword_only = [p.name for p in signature.keyword_only]
    if len(extra) != len(keyword_only):
        # Which keyword-only parameter each extra value was meant for is not known (PyTorch's
        # `flatten(x, start_dim, end_dim)` lands `start_dim` in MindSpore's `order`).
        listed = f"{_plural('parameter', keyword_only)} keyword-only" if keyword_only else ""
        yield Finding(extra[0], message, listed or f"its parameters are: {', '.join(signature.names()) or 'none'}")
        return
    hint = f"{_plural('parameter', keyword_only)} keyword-only: " + ", ".join(
        f"`{name}={ast.unparse(value)}`" for name, value in zip(keyword_only, extra)
    )
    edits = [_name_argument(value, name, module) for name, value in zip(keyword_only, extra)]
    named = ", ".join(f"`{name}`" for name in keyword_only)
    fix = None if None in edits else Fix(f"Pass {named} by keyword", tuple(e for e in edits if e is not None))
    yield Finding(extra[0], message, hint, fix=fix)


def _name_argument(value: ast.expr, name: str, module: ModuleInfo) -> Edit | None:
    """``name=`` before an argument that starts its line or follows a comma (not a parenthesis of its own)."""
    before = module.line(value.lineno).encode("utf-8")[: value.col_offset].decode("utf-8", "replace").rstrip()
    if before and not before.endswith(","):
        return None
    return Edit(value.lineno, value.col_offset + 1, value.lineno, value.col_offset + 1, f"{name}=")


_SIZED_LAYERS = frozenset({"Dense", "Linear", "Conv1d", "Conv2d", "Conv3d", "Embedding", "BatchNorm1d", "BatchNorm2d"})
"""Layers whose first argument is a number of features: a name passed there is a number."""


def _used_as_number(name: str, function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether the function uses ``name`` as a number elsewhere: in arithmetic with a number
    (``c * 4``, ``dim // heads``), or as the feature count of a layer (``nn.Dense(c, ...)``)."""
    for node in descendants(function):
        if isinstance(node, ast.BinOp) and isinstance(node.op, _ARITHMETIC):
            operands = (node.left, node.right)
            named = any(isinstance(o, ast.Name) and o.id == name for o in operands)
            if named and any(_constant_type(o) in ("int", "float") for o in operands):
                return True
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Name):
            layer = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if node.args[0].id == name and layer in _SIZED_LAYERS:
                return True
    return False


def _refused_constant(
    parameter: Parameter, value: ast.expr, api: str, version: str, scope: ast.AST | None, given: Given
) -> Iterator[Finding]:
    if not parameter.types or "int" in parameter.types:
        given = _NO_INSTANCES  # a number the instances give is accepted (or, a float, seldom given)
    kind, certain = (_constant_type(value), True) if scope is None else _argument_type(value, scope, given)
    if not parameter.types or kind is None or kind in parameter.types or (kind == "bool" and "int" in parameter.types):
        return
    accepted = " or ".join(parameter.types)
    text = ast.unparse(value)
    if kind == _UNTYPED or not certain:
        if kind in (_UNTYPED, "int", "float") and "tuple" in parameter.types and "int" not in parameter.types:
            # `nn.LayerNorm(c)` with `c` a constructor argument: a number there is PyTorch's habit
            yield Finding(
                value,
                f"{api} takes `{parameter.name}` as {accepted} in MindSpore {version}: "
                f"if `{text}` is a number it raises TypeError",
                f"a one-element tuple: `({text},)`",
                severity=Severity.WARNING,
                fix=Fix("Make it a tuple", (replace_node(value, f"({text},)"),), "unsafe"),
            )
        return
    hint, fix = f"it takes {accepted} only", None
    if kind in ("int", "float") and "tuple" in parameter.types:
        hint = f"a one-element tuple: `({text},)`"
        fix = Fix("Make it a tuple", (replace_node(value, f"({text},)"),))
    # a constructor's parameter: the type is what the program's instances give it
    built = f" (`{text}` is one in every instance the program builds)" if isinstance(value, ast.Name) else ""
    yield Finding(
        value,
        f"{api} takes `{parameter.name}` as {accepted} in MindSpore {version}, not {kind}{built}: it raises TypeError",
        hint,
        fix=fix,
    )


def _constant_type(value: ast.expr) -> str | None:
    """The type of a literal (``8`` -> int, ``-1.0`` -> float, ``(1, 2)`` -> tuple), else None."""
    signed = isinstance(value, ast.UnaryOp) and isinstance(value.op, (ast.USub, ast.UAdd))
    while isinstance(value, ast.UnaryOp) and isinstance(value.op, (ast.USub, ast.UAdd)):
        value = value.operand
    if signed:
        return {int: "int", float: "float"}.get(type(value.value)) if isinstance(value, ast.Constant) else None
    if isinstance(value, ast.Constant):
        literal = value.value
        types = {bool: "bool", int: "int", float: "float", str: "str", type(None): "None"}
        return types.get(type(literal))
    return {ast.Tuple: "tuple", ast.List: "list", ast.Dict: "dict"}.get(type(value))


def _plural(noun: str, names: list[str]) -> str:
    listed = ", ".join(f"`{n}`" for n in names)
    if noun == "parameter":
        return f"{listed} {'is' if len(names) == 1 else 'are'}"
    return f"{noun}{'s' if len(names) > 1 else ''} {listed}"
