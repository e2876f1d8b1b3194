from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from typing import Any

from mslint.diagnostics import Severity
from mslint.mindspore_tables import attribute_table, module_table
from mslint.mindspore_tables import table as release_table
from mslint.model.abstract import AbstractTensor, Kind
from mslint.model.host_values import host_tensor_method_calls
from mslint.model.module import ModuleInfo
from mslint.model.narrowing import tested
from mslint.model.project import Project, qualified_name
from mslint.model.scope import GraphFunction
from mslint.model.walk import descendants
from mslint.rules._call_signatures import check_call, parse_signature, unknown_keyword
from mslint.rules._measured_arguments import refused_call
from mslint.rules._patched_api import patched_apis
from mslint.rules.base import Finding, Rule
from mslint.rules.dynamic_shape_op import is_tensor_method
from mslint.rules.torch_api import TORCH_ONLY_METHODS
from mslint.settings import Settings


class UnknownMindsporeApi(Rule):
    """
    ## What it does
    Flags names of `mindspore.ops`, `mindspore.nn`, `mindspore.mint`, `mindspore.numpy` and
    `mindspore.Tensor` that do not exist in the targeted MindSpore release (`mnp.chunk`),
    imports of MindSpore modules the release no longer has (`mindspore.dataset.vision.c_transforms`
    and `py_transforms`, removed in 2.0; read off the release's files, for the releases whose
    modules mslint has read), and
    keyword arguments those functions and classes do not take — anywhere in the code, not
    only in graph code — and keywords that Tensor methods called on tensors do not take
    (`x.prod(axis=1)`, `x.mean(keepdims=True)`, `x.clip(xmin=0)`, `x.repeat(2, axis=0)`):
    in graph code where the receiver is inferred to be a tensor, elsewhere (scripts,
    `__init__`, PyNative code) where MindSpore made it (`t = ops.ones(...)`, `Tensor(...)`).
    Calls of functions and classes of `ops`, `nn`, `mint`, `mint.nn`, `mindspore.numpy` and of
    `Parameter` are checked against their full signature, as Python binds the arguments: too
    many positional arguments (`ops.full((n, 1), v, ms.float32)`: `dtype` is keyword-only,
    fixed by naming it), a required argument missing, one given by position and by keyword,
    and a constant of a type that the callable's own first checks refuse (`nn.LayerNorm(8)`:
    `normalized_shape` is a tuple or a list, fixed as `(8,)`; `nn.Dense(4, 4, has_bias=1)`).
    Arguments it cannot count (`*args`, `**kwargs`) or values it cannot type are not judged. A
    keyword spelled as PyTorch or NumPy spell it (`ops.softmax(x, dim=-1)`, `keepdims=`) is fixed
    to the one spelling of that parameter the callable has (`axis=-1`). Calls of the ops and
    layers ports use most (`ops.interpolate`, `nn.Upsample`, pooling, `nn.Conv2d`, norms,
    `nn.Dense`, `nn.Embedding`, `ops.softmax`, reductions, `ops.split`/`chunk`, `ops.pad`,
    `ops.cat`/`stack`, `ops.topk`, `ops.clamp`, `ops.one_hot`, `ops.broadcast_to`) whose measured
    parameters are all literals are checked against what the release accepts, measured by
    `scripts/generate_argument_table.py` (each combination of value classes run in PyNative and
    compiled in a graph, on each input rank it is for): a combination that raised on every one
    is reported with the release's message (`ops.interpolate(x, scale_factor=2,
    mode="bilinear")`: "the 'scale_factor' must be float, but got 'int'"), one that raised on
    some ranks only as a warning (`scale_factor=2.0, mode="nearest"` raises on 3-D and 4-D
    inputs, runs on 5-D); fixed where a call measured to run on every rank is the same value
    written otherwise (`2` -> `2.0`, `nn.MaxPool2d(2.0)` -> `2`, a list as a tuple) or, for a
    whole-number scale factor, `recompute_scale_factor=True` (which 2.10 needs for a scale factor
    on 3-D and 4-D inputs). The
    names, parameters and signatures come from tables generated from the real releases
    (`scripts/generate_api_table.py`; the parameters of Tensor methods written in C++ are
    those of the overloads MindSpore's dispatcher accepts) and shipped with mslint, so no
    MindSpore install is needed: every release from 2.7.0 to 2.10.0. The release is `mindspore-version`
    (`--mindspore-version 2.9`), else the installed MindSpore's, else the newest.
    Version-portable code is left alone: a name under an `if` whose test names it
    (`if hasattr(ops, "ResizeBilinear"):`, `if self.size_name == "sizes":`), under an `if`
    on a version (`if is_ms_version_2():`), or in a `try` that catches `ImportError`,
    `AttributeError` or `TypeError`. An API the project replaces itself (`ops.zeros = _zeros`,
    `setattr(Tensor, "std", _std)`, as libraries that give MindSpore PyTorch's signatures do)
    is the project's, and is not checked.

    ## Why it breaks graph mode
    APIs are renamed and removed between releases: code written for an older MindSpore
    fails as soon as it runs on a newer one, inside `construct` as a compile error
    (`AttributeError: module 'mindspore.ops' has no attribute 'ResizeBilinear'`,
    `TypeError: pad() got an unexpected keyword argument 'paddings'`), elsewhere when the
    line runs. Model zoos written for MindSpore 1.x/2.0 are full of them.

    ## Example
    ```python
    class Net(nn.Cell):
        def construct(self, x):
            x = ops.pad(x, paddings=((0, 0), (0, 0), (1, 1), (1, 1)))
            return ops.ResizeBilinear((8, 8))(x)
    ```

    ## Use instead
    ```python
    class Net(nn.Cell):
        def construct(self, x):
            x = ops.pad(x, (1, 1, 1, 1))
            return ops.interpolate(x, size=(8, 8), mode="bilinear")
    ```
    """

    code = "MS301"
    symbol = "unknown-mindspore-api"
    summary = "a `mindspore.ops`/`nn`/`mint` name, module, keyword or call that the MindSpore release lacks or refuses"
    node_types = (ast.Call, ast.Attribute)

    def severity(self, settings: Settings) -> Severity:
        return Severity.ERROR

    def check_module(self, module: ModuleInfo, project: Project) -> Iterator[Finding]:
        table = release_table("api", project.mindspore_release)
        namespaces: dict[str, dict[str, list[str] | None]] = table["namespaces"]
        signatures: dict[str, dict[str, str]] = table["signatures"]
        version = table["mindspore"]
        aliases = {local for local, name in module.imports.items() if name.split(".", 1)[0] == "mindspore"}
        if not aliases:
            return
        yield from _host_tensor_keywords(module, project, table)
        guards = _Guards(module.tree)
        patched = patched_apis(project)
        modules = module_table(project.mindspore_release)
        if modules is not None:
            yield from _missing_module_imports(module, modules, guards, version)
        yield from _missing_names(module, aliases, namespaces, patched, guards, version)
        # each call of a MindSpore name against its signature, or the keywords the table lists
        for node in module.nodes_of(ast.Call):
            if _root(node.func) not in aliases:
                continue
            qualname = qualified_name(node.func, module) or ""
            if qualname in patched:
                continue
            namespace, _, name = qualname.rpartition(".")
            signature = signatures.get(namespace, {}).get(name)
            if signature is not None:
                parsed = parse_signature(signature)
                findings = list(check_call(node, qualname, parsed, version, module))
                if not findings:  # what the release's own checks refuse of a call Python binds
                    findings = list(refused_call(node, qualname, parsed, project.mindspore_release, version, module))
                yield from (f for f in findings if not guards.allow(f.node, _keyword_name(f.node)))
                continue
            accepted = namespaces.get(namespace, {}).get(name)
            if accepted is None:
                continue
            for keyword in _unknown_keywords(node, accepted):
                if not guards.allow(keyword, keyword.arg or ""):
                    yield unknown_keyword(keyword, node, f"{namespace}.{name}", accepted, version)

    def check_graph_node(self, node: ast.AST, function: GraphFunction) -> Iterator[Finding]:
        """Keywords of Tensor methods called on tensors in graph code (``x.mean(keepdims=True)``),
        where the receiver is known to be a tensor; ``mindspore.Tensor.mean(...)`` is checked above;
        and attributes of tensors that the release's Tensor lacks (``x.abcd``)."""
        if isinstance(node, ast.Attribute):
            yield from _tensor_attribute(node, function)
            return
        assert isinstance(node, ast.Call)
        if not node.keywords or not isinstance(node.func, ast.Attribute) or not is_tensor_method(node, function):
            return
        yield from _tensor_method_keywords(
            node, release_table("api", function.project.mindspore_release), function.project
        )


_MODULE_HINT = (
    "the module was removed or renamed: `mindspore.dataset.vision.c_transforms` and `py_transforms` "
    "are `mindspore.dataset.vision` (and `.transforms`) since MindSpore 2.0; look it up in the API of "
    "the release you target"
)


def _missing_module_imports(
    module: ModuleInfo, modules: frozenset[str], guards: _Guards, version: str
) -> Iterator[Finding]:
    imports: list[ast.Import | ast.ImportFrom] = [*module.nodes_of(ast.Import), *module.nodes_of(ast.ImportFrom)]
    for node in imports:
        for name in _missing_modules(node, modules):
            if not guards.allow(node, name.rpartition(".")[2]):
                yield Finding(node, f"module `{name}` does not exist in MindSpore {version}", _MODULE_HINT)


def _missing_names(
    module: ModuleInfo,
    aliases: set[str],
    namespaces: dict[str, dict[str, list[str] | None]],
    patched: frozenset[str],
    guards: _Guards,
    version: str,
) -> Iterator[Finding]:
    """``ops.ResizeBilinear`` and ``from mindspore.ops import ResizeBilinear`` where the release lacks the name."""
    for attribute in module.nodes_of(ast.Attribute):
        if isinstance(attribute.ctx, ast.Load) and _root(attribute) in aliases:
            qualname = qualified_name(attribute, module) or ""
            namespace, _, name = qualname.rpartition(".")
            if _missing(namespaces, namespace, name) and qualname not in patched and not guards.allow(attribute, name):
                yield Finding(attribute, f"`{namespace}.{name}` does not exist in MindSpore {version}", _HINT)
    for imported in module.nodes_of(ast.ImportFrom):
        if imported.module not in namespaces or imported.level:
            continue
        for alias in imported.names:
            missing = alias.name != "*" and _missing(namespaces, imported.module, alias.name)
            if missing and not guards.allow(imported, alias.name):
                yield Finding(
                    imported, f"`{imported.module}.{alias.name}` does not exist in MindSpore {version}", _HINT
                )


def _missing_modules(node: ast.Import | ast.ImportFrom, modules: frozenset[str]) -> list[str]:
    """The MindSpore modules an import needs that the release lacks: each ``import mindspore.a.b``,
    and the module ``from mindspore.a.b import c`` reads (``c`` may be any name of it)."""
    if isinstance(node, ast.ImportFrom):
        needed = [node.module] if node.module and not node.level else []
    else:
        needed = [alias.name for alias in node.names]
    return [name for name in needed if name.split(".", 1)[0] == "mindspore" and name not in modules]


def _host_tensor_keywords(module: ModuleInfo, project: Project, table: dict[str, Any]) -> Iterator[Finding]:
    """The same keywords outside graph code (scripts, ``__init__``, PyNative Cells), on tensors
    MindSpore made there: a keyword the method lacks fails in every mode."""
    methods = table["namespaces"]["mindspore.Tensor"]
    for call in host_tensor_method_calls(module, project, methods, lambda c: bool(c.keywords)):
        yield from _tensor_method_keywords(call, table, project)


def _tensor_method_keywords(call: ast.Call, table: dict[str, Any], project: Project) -> Iterator[Finding]:
    assert isinstance(call.func, ast.Attribute)
    name = call.func.attr
    accepted = table["namespaces"]["mindspore.Tensor"].get(name)
    if accepted is None or f"mindspore.Tensor.{name}" in patched_apis(project):
        return
    for keyword in _unknown_keywords(call, accepted):
        yield unknown_keyword(keyword, call, f"mindspore.Tensor.{name}", accepted, table["mindspore"])


def _tensor_attribute(node: ast.Attribute, function: GraphFunction) -> Iterator[Finding]:
    """``x.abcd`` on a value inferred to be a tensor (not only a graph value), where neither the
    release's Tensor nor the other graph values (Parameter, sparse tensors, Python's tuples, lists,
    numbers and strings) have ``abcd``. PyTorch's own methods are torch-api-in-cell's."""
    name = node.attr
    if not isinstance(node.ctx, ast.Load) or name.startswith("_") or name in TORCH_ONLY_METHODS:
        return
    release = function.project.mindspore_release
    table = release_table("api", release)
    if name in table["namespaces"]["mindspore.Tensor"] or name in _other_graph_value_attributes(release):
        return
    if function.qualname(node) is not None or f"mindspore.Tensor.{name}" in patched_apis(function.project):
        return
    value = function.value(node.value)
    if value.kind is not Kind.GRAPH or not isinstance(value, AbstractTensor):
        return
    # `if isinstance(t, DTensor): t.to_local()`: another class's attribute. Asked last: the type
    # tests of a function cost more to find than the values its rules share.
    if not tested(node.value, node, function.node):
        yield Finding(
            node,
            f"a Tensor has no attribute `{name}` in MindSpore {table['mindspore']}",
            "look it up in the Tensor API of the release you target (`mindspore.ops` may have it as a function)",
        )


_PYTHON_ATTRIBUTES = frozenset(
    name for kind in (tuple, list, dict, str, int, float, bool, complex) for name in dir(kind)
)


@cache
def _other_graph_value_attributes(release: str) -> frozenset[str]:
    attributes = attribute_table(release)
    return _PYTHON_ATTRIBUTES.union(*(attributes[c] for c in ("Parameter", "COOTensor", "CSRTensor", "RowTensor")))


def _keyword_name(node: ast.AST) -> str:
    return node.arg or "" if isinstance(node, ast.keyword) else ""


def _unknown_keywords(call: ast.Call, accepted: list[str]) -> list[ast.keyword]:
    return [k for k in call.keywords if k.arg is not None and k.arg not in accepted]


class _Guards:
    """Code that runs only where an API exists, as version-portable code writes it: the body
    of an ``if`` whose test names the API in a string (``hasattr(ops, "ResizeBilinear")``,
    ``"sizes" in signature.parameters``, ``self.size_name == "sizes"``), both branches of an
    ``if`` on a version (``if is_ms_version_2():``, ``ms.__version__ >= "2.0"``), and the body
    of a ``try`` whose handlers catch what a missing API raises, and those handlers. Computed on the first
    question: most modules have nothing to ask."""

    _CAUGHT = frozenset({"ImportError", "ModuleNotFoundError", "AttributeError", "TypeError", "Exception"})

    def __init__(self, tree: ast.Module) -> None:
        self.tree = tree
        self._names: dict[int, set[str]] | None = None
        self._any_name: set[int] = set()

    def allow(self, node: ast.AST, name: str) -> bool:
        if self._names is None:
            self._names = {}
            for statement in descendants(self.tree):
                if isinstance(statement, (ast.If, ast.IfExp)):
                    self._add_branches(statement)
                elif isinstance(statement, ast.Try) and any(self._catches(h) for h in statement.handlers):
                    # the body tries this release's API; a handler that catches its absence is the
                    # fallback for another release (`except ImportError: from mindspore.nn.generator ...`)
                    fallbacks = [s for h in statement.handlers if self._catches(h) for s in h.body]
                    self._any_name.update(id(n) for s in [*statement.body, *fallbacks] for n in descendants(s))
        return id(node) in self._any_name or name in self._names.get(id(node), ())

    def _add_branches(self, branch: ast.If | ast.IfExp) -> None:
        assert self._names is not None
        test = list(descendants(branch.test))
        body = branch.body if isinstance(branch.body, list) else [branch.body]
        orelse = branch.orelse if isinstance(branch.orelse, list) else [branch.orelse]
        if any("version" in _identifier(n).lower() for n in test):
            self._any_name.update(id(n) for s in (*body, *orelse) for n in descendants(s))
            return
        named = {str(n.value) for n in test if isinstance(n, ast.Constant)}
        for inner in (n for s in body for n in descendants(s)):
            self._names.setdefault(id(inner), set()).update(named)

    def _catches(self, handler: ast.ExceptHandler) -> bool:
        caught = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
        return any(c is None or (isinstance(c, ast.Name) and c.id in self._CAUGHT) for c in caught)


def _identifier(node: ast.AST) -> str:
    return node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""


def _missing(namespaces: dict[str, dict[str, list[str] | None]], namespace: str, name: str) -> bool:
    """Whether the table says ``namespace.name`` does not exist: it lists public names only, so a
    private or special name (``mindspore.Tensor.__init__`` in a subclass) is not judged."""
    return namespace in namespaces and not name.startswith("_") and name not in namespaces[namespace]


def _root(expr: ast.expr) -> str | None:
    """The name an attribute chain starts from (``ops`` in ``ops.nn.Dense``)."""
    while isinstance(expr, ast.Attribute):
        expr = expr.value
    return expr.id if isinstance(expr, ast.Name) else None


_HINT = "look it up in the MindSpore API reference of the release you target (it was renamed or removed)"
