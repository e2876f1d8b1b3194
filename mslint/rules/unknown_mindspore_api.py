from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import replace
from functools import cache

from mslint.diagnostics import Edit, Fix, Severity
from mslint.model.abstract import AbstractTensor, Kind
from mslint.model.host_values import host_tensor_method_calls
from mslint.model.instances import mindspore_callable_called, skipped_by_first_instance
from mslint.model.module import ModuleInfo, is_self_attribute
from mslint.model.narrowing import tested
from mslint.model.patched_api import patched_apis
from mslint.model.project import Project, qualified_name
from mslint.model.python_libraries import TORCH_ONLY_METHODS
from mslint.model.reexports import library_name
from mslint.model.scope import GraphFunction, is_tensor_method
from mslint.model.walk import descendants
from mslint.release import Release
from mslint.rules._call_signatures import check_call, parse_signature, unknown_keyword
from mslint.rules._measured_arguments import (
    is_measured_method,
    refused_call,
    refused_method_arguments,
    refused_method_call,
)
from mslint.rules.base import Finding, Rule
from mslint.settings import Settings


class UnknownMindsporeApi(Rule):
    """
    ## What it does
    Flags names of `mindspore.ops`, `mindspore.nn`, `mindspore.mint`, `mindspore.numpy`,
    `mindspore.Tensor`, of the package itself (`ms.mean`) and of `mindspore.ops.operations`,
    `functional` and `composite` that do not exist in the targeted MindSpore release
    (`mnp.chunk`, `P.ResizeBilinear`), under whatever alias the code reads them
    (`from mindspore.ops import operations as P`, `import mindspore.ops.operations as ops_p`,
    `from mindspore import ops as O`, or a module of the project that re-exports one),
    imports of MindSpore modules the release no longer has (`mindspore.dataset.vision.c_transforms`
    and `py_transforms`, removed in 2.0; read off the release's files, for the releases whose
    modules mslint has read), and
    keyword arguments those functions and classes do not take — anywhere in the code, not
    only in graph code — and keywords that Tensor methods called on tensors do not take
    (`x.prod(axis=1)`, `x.mean(keepdims=True)`, `x.clip(xmin=0)`, `x.repeat(2, axis=0)`):
    in graph code where the receiver is inferred to be a tensor, elsewhere (scripts,
    `__init__`, PyNative code) where MindSpore made it (`t = ops.ones(...)`, `Tensor(...)`).
    Attributes the release's Tensor lacks, read in graph code on a value inferred to be a tensor,
    are flagged too: `x.grad_fn`, and `getattr(x, "grad_fn")` without a default.
    Calls of functions and classes of `ops`, `nn`, `mint`, `mint.nn`, `mindspore.numpy` and of
    `Parameter` are checked against their full signature, as Python binds the arguments: too
    many positional arguments (`ops.full((n, 1), v, ms.float32)`: `dtype` is keyword-only,
    fixed by naming it), a required argument missing, one given by position and by keyword,
    and a constant of a type that the callable's own first checks refuse (`nn.LayerNorm(8)`:
    `normalized_shape` is a tuple or a list, fixed as `(8,)`; `nn.Dense(4, 4, has_bias=1)`;
    also a constructor's argument that every instance the program builds gives a number:
    `nn.LayerNorm(dim)` in `Block`, built as `Block(192)`; and a call of a constructor's parameter
    that every instance gives one MindSpore class, as its default, a `functools.partial` of it or
    what the parent passes: `norm_layer(dim)` with `norm_layer=nn.LayerNorm`);
    a warning, with the same fix marked unsafe, where the value is a constructor's argument that
    a number default or its use as a number (`c * 4`, `nn.Dense(c, ...)`) shows to be a number.
    PyTorch's keyword names (`dim`, `keepdim`) and class names (`nn.Sequential`,
    `nn.ModuleList`) are named with MindSpore's and fixed.
    Arguments it cannot count (`*args`, `**kwargs`) or values it cannot type are not judged. A
    keyword spelled as PyTorch or NumPy spell it (`ops.softmax(x, dim=-1)`, `keepdims=`) is fixed
    to the one spelling of that parameter the callable has (`axis=-1`). Calls of the ops and
    layers ports use most (`ops.interpolate`, `nn.Upsample`, pooling, `nn.Conv2d`, norms,
    `nn.Dense`, `nn.Embedding`, `ops.softmax`, reductions, `ops.split`/`chunk`, `ops.pad`,
    `ops.cat`/`stack`, `ops.topk`, `ops.clamp`, `ops.one_hot`, `ops.broadcast_to`,
    `ops.gather`/`gather_elements`/`scatter`, `ops.sort`, `ops.cumsum`, `ops.where`,
    `ops.masked_fill`, `ops.arange`/`linspace`, their `mint` spellings, and the Tensor methods
    `x.sum`, `x.softmax`, `x.masked_fill`, `x.cumsum`, `x.topk`)
    whose measured parameters are all literals are checked against what the release accepts, measured by
    `scripts/generate_argument_table.py` (each combination of value classes run in PyNative and
    compiled in a graph, on each input rank it is for): a combination that raised on every one
    is reported with the release's message (`ops.interpolate(x, scale_factor=2,
    mode="bilinear")`: "the 'scale_factor' must be float, but got 'int'"), one that raised on
    some ranks only as a warning (`scale_factor=2.0, mode="nearest"` raises on 3-D and 4-D
    inputs, runs on 5-D); fixed where a call measured to run on every rank is the same value
    written otherwise (`2` -> `2.0`, `nn.MaxPool2d(2.0)` -> `2`, a list as a tuple) or, for a
    whole-number scale factor, `recompute_scale_factor=True` (which 2.10 needs for a scale factor
    on 3-D and 4-D inputs). A Tensor method is checked in graph code, on a receiver that is a
    tensor there, against what the graph refused (`x.sum(dim=1.0)`, `x.topk(2.0)`; fixed as
    `1`, `2`). The
    names, parameters and signatures come from tables generated from the real releases
    (`scripts/generate_api_table.py`; the parameters of Tensor methods written in C++ are
    those of the overloads MindSpore's dispatcher accepts) and shipped with mslint, so no
    MindSpore install is needed: every release from 2.7.0 to 2.10.0 (the package's own names and
    those of `operations`, `functional` and `composite` from 2.10.0). The release is
    `mindspore-version` (`--mindspore-version 2.9`), else the installed MindSpore's, else the newest.
    Version-portable code is left alone: a name under an `if` whose test names it
    (`if hasattr(ops, "ResizeBilinear"):`, `if self.size_name == "sizes":`), under an `if`
    on MindSpore's version (`if ms.__version__ < "2":`, `if is_ms_version_2():`, or a name the
    project computes from `mindspore.__version__`; also what follows such an `if` that returns,
    and a function only that code names), or in a `try` whose handler catches what its
    absence raises (`ImportError` or `AttributeError` for a name, `TypeError` for a keyword,
    `Exception` for both). Any other `if` (a model's own `version`, a mode flag) guards nothing.
    The body of a `MultitypeFuncGraph` overload that no call of the program selects
    (`@_adam_opt.register(...)` with 19 type names, where every call of `_adam_opt` passes 11 or
    12 arguments) is never parsed (measured on 2.10, GRAPH and PyNative), and is not checked; one
    registered for a sparse type (`"RowTensor"`) that a call may select runs only where the
    program passes a sparse gradient, which mslint does not infer: a warning.
    An API the project replaces itself (`ops.zeros = _zeros`,
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
        release = project.release
        namespaces, version = release.api_namespaces, release.version
        aliases = _MindsporeNames(module, project)
        if not aliases.any_mindspore():
            return
        yield from _host_tensor_keywords(module, project)
        guards = _Guards(module, project)
        patched = patched_apis(project)
        if release.modules is not None:
            yield from _missing_module_imports(module, release.modules, guards, version)
        yield from _missing_names(module, aliases, namespaces, patched, guards, version)
        # each call of a MindSpore name against its signature, or the keywords the table lists
        for node in module.nodes_of(ast.Call):
            qualname = aliases.qualname(node.func)
            if qualname is None and isinstance(node.func, ast.Name):
                yield from _held_callable_call(node, module, project, guards, patched)
                continue
            if qualname is None or qualname in patched:
                continue
            namespace, _, name = qualname.rpartition(".")
            signature = release.api_signatures.get(namespace, {}).get(name)
            if signature is not None:
                parsed = parse_signature(signature)
                findings = list(check_call(node, qualname, parsed, version, module, project))
                if not findings:  # what the release's own checks refuse of a call Python binds
                    findings = list(refused_call(node, qualname, parsed, release, module))
                yield from (f for f in findings if not guards.allow_keyword(f.node, _keyword_name(f.node)))
                continue
            accepted = namespaces.get(namespace, {}).get(name)
            if accepted is None:
                continue
            for keyword in _unknown_keywords(node, accepted):
                if not guards.allow_keyword(keyword, keyword.arg or ""):
                    yield unknown_keyword(keyword, node, f"`{namespace}.{name}`", accepted, version)

    def check_graph_node(self, node: ast.AST, function: GraphFunction) -> Iterator[Finding]:
        """Keywords of Tensor methods called on tensors in graph code (``x.mean(keepdims=True)``),
        where the receiver is known to be a tensor; ``mindspore.Tensor.mean(...)`` is checked above;
        and attributes of tensors that the release's Tensor lacks (``x.abcd``)."""
        if isinstance(node, ast.Attribute):
            if isinstance(node.ctx, ast.Load):
                yield from _tensor_attribute(node, node.value, node.attr, function)
            return
        assert isinstance(node, ast.Call)
        name = _getattr_name(node, function)
        if name is not None:
            yield from _tensor_attribute(node, node.args[0], name, function)
            return
        if _rounds_a_tensor(node, function):
            release = function.project.release
            yield from refused_method_arguments(node, "round", node.args[1:], [], release, function.module)
            return
        if not isinstance(node.func, ast.Attribute):
            return
        on_graph_value = is_tensor_method(node, function)
        if not on_graph_value and not _on_a_tensor_of_any_kind(node.func, function):
            return
        findings = list(_tensor_method_keywords(node, function.project)) if node.keywords else []
        yield from findings
        release = function.project.release
        measured = not findings and on_graph_value and is_measured_method(node.func.attr, release)
        if measured and _on_a_tensor(node.func, function):
            yield from refused_method_call(node, release, function.module)


def _held_callable_call(
    call: ast.Call, module: ModuleInfo, project: Project, guards: _Guards, patched: frozenset[str]
) -> Iterator[Finding]:
    """``norm_layer(dim)`` where ``norm_layer`` holds ``nn.LayerNorm`` (or a ``partial`` of it) in
    every instance the program builds (:func:`~mslint.model.instances.mindspore_callable_called`)
    and the first instance runs it (:func:`~mslint.model.instances.skipped_by_first_instance`):
    checked against the signature as the call ``nn.LayerNorm(dim)`` would be, the partial's keywords
    under the call's own. Findings on the partial's own arguments (another line) are left out."""
    held = mindspore_callable_called(project, module, call)
    if held is None or held.qualname in patched:
        return
    namespace, _, name = held.qualname.rpartition(".")
    signature = project.release.api_signatures.get(namespace, {}).get(name)
    if signature is None:
        return
    own = {k.arg for k in call.keywords}
    given = [k for k in held.partial.keywords if k.arg not in own] if held.partial is not None else []
    as_named = ast.copy_location(ast.Call(call.func, call.args, [*given, *call.keywords]), call)
    parsed = parse_signature(signature)
    release = project.release
    findings = list(check_call(as_named, held.qualname, parsed, release.version, module, project))
    if not findings and not given:
        findings = list(refused_call(as_named, held.qualname, parsed, release, module))
    if not findings or skipped_by_first_instance(project, module, call):
        return
    foreign = {id(node) for keyword in given for node in descendants(keyword)}
    holder = f"`{ast.unparse(call.func)}` holds `{held.qualname}` in every instance the program builds"
    for finding in findings:
        node = call if finding.node is as_named else finding.node
        if id(node) not in foreign and not guards.allow_keyword(node, _keyword_name(node)):
            yield replace(finding, node=node, message=f"{holder}: {finding.message}")


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
            if not guards.allow_name(node, name.rpartition(".")[2]):
                yield Finding(node, f"module `{name}` does not exist in MindSpore {version}", _MODULE_HINT)


def _missing_names(
    module: ModuleInfo,
    aliases: _MindsporeNames,
    namespaces: dict[str, dict[str, list[str] | None]],
    patched: frozenset[str],
    guards: _Guards,
    version: str,
) -> Iterator[Finding]:
    """``ops.ResizeBilinear``, ``P.ResizeBilinear`` (``P`` being ``mindspore.ops.operations``,
    imported or re-exported by the project), ``ms.mean`` and ``from mindspore.ops import
    ResizeBilinear`` where the release lacks the name."""
    for attribute in module.nodes_of(ast.Attribute):
        qualname = aliases.qualname(attribute) if isinstance(attribute.ctx, ast.Load) else None
        if qualname is not None:
            namespace, _, name = qualname.rpartition(".")
            missing = _missing(namespaces, namespace, name) and qualname not in patched
            if missing and not guards.allow_name(attribute, name):
                yield _missing_name(attribute, namespace, name, namespaces, version)
    for imported in module.nodes_of(ast.ImportFrom):
        if imported.module not in namespaces or imported.level:
            continue
        for alias in imported.names:
            missing = alias.name != "*" and _missing(namespaces, imported.module, alias.name)
            if missing and not guards.allow_name(imported, alias.name):
                yield Finding(
                    imported, f"`{imported.module}.{alias.name}` does not exist in MindSpore {version}", _HINT
                )


_PYTORCH_NAMES = {
    "mindspore.nn": {
        "Sequential": "SequentialCell",
        "ModuleList": "CellList",
        "ModuleDict": "CellDict",
        "Module": "Cell",
    }
}
"""PyTorch's names of MindSpore classes; the containers take the same arguments (the fix renames)."""
_SAME_ARGUMENTS = frozenset({"Sequential", "ModuleList", "ModuleDict"})


def _missing_name(
    attribute: ast.Attribute,
    namespace: str,
    name: str,
    namespaces: dict[str, dict[str, list[str] | None]],
    version: str,
) -> Finding:
    message = f"`{namespace}.{name}` does not exist in MindSpore {version}"
    renamed = _PYTORCH_NAMES.get(namespace, {}).get(name)
    if renamed is None or renamed not in namespaces[namespace]:
        return Finding(attribute, message, _HINT)
    hint = f"PyTorch's `{name}` is `{renamed}` in MindSpore"
    if name not in _SAME_ARGUMENTS:
        return Finding(attribute, message, hint + " (not a drop-in replacement: a Cell defines `construct`)")
    end = attribute.end_col_offset or 0
    edit = Edit(
        attribute.end_lineno or attribute.lineno,
        end + 1 - len(name),
        attribute.end_lineno or attribute.lineno,
        end + 1,
        renamed,
    )
    return Finding(attribute, message, hint, fix=Fix(f"Use `{renamed}`", (edit,)))


def _missing_modules(node: ast.Import | ast.ImportFrom, modules: frozenset[str]) -> list[str]:
    """The MindSpore modules an import needs that the release lacks: each ``import mindspore.a.b``,
    and the module ``from mindspore.a.b import c`` reads (``c`` may be any name of it)."""
    if isinstance(node, ast.ImportFrom):
        needed = [node.module] if node.module and not node.level else []
    else:
        needed = [alias.name for alias in node.names]
    return [name for name in needed if name.split(".", 1)[0] == "mindspore" and name not in modules]


def _host_tensor_keywords(module: ModuleInfo, project: Project) -> Iterator[Finding]:
    """The same keywords outside graph code (scripts, ``__init__``, PyNative Cells), on tensors
    MindSpore made there: a keyword the method lacks fails in every mode."""
    methods = project.release.tensor_attributes
    for call in host_tensor_method_calls(module, project, methods, lambda c: bool(c.keywords)):
        yield from _tensor_method_keywords(call, project)


def _tensor_method_keywords(call: ast.Call, project: Project) -> Iterator[Finding]:
    assert isinstance(call.func, ast.Attribute)
    name = call.func.attr
    accepted = project.release.tensor_attributes.get(name)
    if accepted is None or f"mindspore.Tensor.{name}" in patched_apis(project):
        return
    for keyword in _unknown_keywords(call, accepted):
        yield unknown_keyword(keyword, call, f"`mindspore.Tensor.{name}`", accepted, project.release.version)


def _getattr_name(call: ast.Call, function: GraphFunction) -> str | None:
    """The constant name ``getattr(x, "abcd")`` reads without a default: it fails as ``x.abcd``
    does where the value lacks it (with a default, the default is the answer)."""
    if len(call.args) != 2 or call.keywords or not isinstance(call.func, ast.Name):
        return None
    name = call.args[1]
    if not (isinstance(name, ast.Constant) and isinstance(name.value, str)):
        return None
    return name.value if function.qualname(call.func) == "builtins.getattr" else None


def _rounds_a_tensor(call: ast.Call, function: GraphFunction) -> bool:
    """``round(x, 2)`` of a graph tensor: the compiler makes it the operator of ``x.round(2)``
    (measured on 2.10: the same message, "For Round only support decimals equal 0")."""
    if len(call.args) != 2 or call.keywords or not isinstance(call.func, ast.Name) or call.func.id != "round":
        return False
    if function.qualname(call.func) != "builtins.round":
        return False
    value = function.value(call.args[0])
    return value.kind is Kind.GRAPH and isinstance(value, AbstractTensor)


def _tensor_attribute(node: ast.expr, receiver: ast.expr, name: str, function: GraphFunction) -> Iterator[Finding]:
    """``x.abcd`` (or ``getattr(x, "abcd")``) on a value inferred to be a tensor (not only a graph
    value), where neither the release's Tensor nor the other graph values (Parameter, sparse
    tensors, Python's tuples, lists, numbers and strings) have ``abcd``. PyTorch's own methods are
    torch-api-in-cell's."""
    if name.startswith("_") or name in TORCH_ONLY_METHODS:
        return
    release = function.project.release
    if name in release.tensor_attributes or name in _other_graph_value_attributes(release):
        return
    if isinstance(node, ast.Attribute) and function.qualname(node) is not None:
        return  # `ops.abcd`: a name of a module, judged above
    if f"mindspore.Tensor.{name}" in patched_apis(function.project):
        return
    value = function.value(receiver)
    if value.kind is not Kind.GRAPH or not isinstance(value, AbstractTensor):
        return
    # `if isinstance(t, DTensor): t.to_local()`: another class's attribute. Asked last: the type
    # tests of a function cost more to find than the values its rules share.
    if not tested(receiver, node, function.node):
        yield Finding(
            node,
            f"a Tensor has no attribute `{name}` in MindSpore {release.version}",
            "look it up in the Tensor API of the release you target (`mindspore.ops` may have it as a function)",
        )


def _on_a_tensor_of_any_kind(method: ast.Attribute, function: GraphFunction) -> bool:
    """Whether the receiver of a method is a tensor whatever the values it is computed from: an
    op's output (``ops.sigmoid(x).clip(xmin=0.0)``) is a tensor even where ``x`` is a Python
    number, so a keyword its method lacks fails in every case, and the finding rests on no unknown."""
    if function.qualname(method) is not None or is_self_attribute(method, function.self_name):
        return False
    return isinstance(function.value(method.value), AbstractTensor)


def _on_a_tensor(method: ast.Attribute, function: GraphFunction) -> bool:
    """Whether the receiver of a graph value's method is a tensor: inferred to be one, or the
    method is one that no other graph value has (a Parameter is a tensor; a CSRTensor has `sum`)."""
    if isinstance(function.value(method.value), AbstractTensor):
        return True
    release = function.project.release
    sparse = (release.attributes[c] for c in ("COOTensor", "CSRTensor", "RowTensor"))
    return method.attr not in _PYTHON_ATTRIBUTES.union(*sparse)


_PYTHON_ATTRIBUTES = frozenset(
    name for kind in (tuple, list, dict, str, int, float, bool, complex) for name in dir(kind)
)


@cache
def _other_graph_value_attributes(release: Release) -> frozenset[str]:
    attributes = release.attributes
    return _PYTHON_ATTRIBUTES.union(*(attributes[c] for c in ("Parameter", "COOTensor", "CSRTensor", "RowTensor")))


def _keyword_name(node: ast.AST) -> str:
    return node.arg or "" if isinstance(node, ast.keyword) else ""


def _unknown_keywords(call: ast.Call, accepted: list[str]) -> list[ast.keyword]:
    return [k for k in call.keywords if k.arg is not None and k.arg not in accepted]


class _Guards:
    """Code that runs only where an API exists, as version-portable code writes it:

    * the body of an ``if`` whose test names the API in a string (``hasattr(ops, "ResizeBilinear")``,
      ``"sizes" in signature.parameters``, ``self.size_name == "sizes"``);
    * both branches of an ``if`` on MindSpore's version (``ms.__version__ >= "2.0"``, a name that
      says so, ``if is_ms_version_2():``, or one the project computes from ``mindspore.__version__``);
    * the body of a ``try`` whose handlers catch what the absence raises (``ImportError`` or
      ``AttributeError`` for a name or module, ``TypeError`` for a keyword, ``Exception`` for
      either), and those handlers.

    An ``if`` on anything else (a model's own version, a mode flag) guards nothing. Computed on the
    first question: most modules have nothing to ask."""

    _NAME_ERRORS = frozenset({"ImportError", "ModuleNotFoundError", "AttributeError", "Exception", "BaseException"})
    _KEYWORD_ERRORS = frozenset({"TypeError", "Exception", "BaseException"})

    def __init__(self, module: ModuleInfo, project: Project) -> None:
        self.module = module
        self.project = project
        self._named: dict[int, set[str]] | None = None
        self._on_version: set[int] = set()
        self._tried_names: set[int] = set()
        self._tried_keywords: set[int] = set()
        self._version_names: dict[tuple[int, str], bool] = {}
        self._statement_lists: list[list[ast.stmt]] | None = None

    def allow_name(self, node: ast.AST, name: str) -> bool:
        named = self._index()
        return id(node) in self._on_version or id(node) in self._tried_names or name in named.get(id(node), ())

    def allow_keyword(self, node: ast.AST, name: str) -> bool:
        named = self._index()
        return id(node) in self._on_version or id(node) in self._tried_keywords or name in named.get(id(node), ())

    def _index(self) -> dict[int, set[str]]:
        if self._named is None:
            self._named = {}
            for statement in descendants(self.module.tree):
                if isinstance(statement, (ast.If, ast.IfExp)):
                    self._add_branches(statement, self._named)
                elif isinstance(statement, ast.Try):
                    self._add_try(statement, self._NAME_ERRORS, self._tried_names)
                    self._add_try(statement, self._KEYWORD_ERRORS, self._tried_keywords)
            self._add_functions_used_only_on_a_version()
        return self._named

    def _add_functions_used_only_on_a_version(self) -> None:
        """A function of the module that only version-guarded code names (``return old_norm``
        after ``if is_version_ge(ms.__version__, "1.11"): return new_norm``) runs on that
        version only."""
        reads: dict[str, list[int]] = {}
        for node in descendants(self.module.tree):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                reads.setdefault(node.id, []).append(id(node))
        for definition in descendants(self.module.tree):
            if isinstance(definition, (ast.FunctionDef, ast.AsyncFunctionDef)):
                named = reads.get(definition.name, [])
                if named and all(n in self._on_version for n in named):
                    self._on_version.update(id(n) for n in descendants(definition))

    def _add_try(self, statement: ast.Try, errors: frozenset[str], guarded: set[int]) -> None:
        # the body tries this release's API; a handler that catches its absence is the fallback
        # for another release (`except ImportError: from mindspore.nn.generator ...`)
        handlers = [h for h in statement.handlers if _catches(h, errors)]
        if handlers:
            fallbacks = [s for h in handlers for s in h.body]
            guarded.update(id(n) for s in [*statement.body, *fallbacks] for n in descendants(s))

    def _add_branches(self, branch: ast.If | ast.IfExp, named: dict[int, set[str]]) -> None:
        body = branch.body if isinstance(branch.body, list) else [branch.body]
        orelse = branch.orelse if isinstance(branch.orelse, list) else [branch.orelse]
        if self._on_mindspore_version(branch.test):
            self._on_version.update(id(n) for s in (*body, *orelse, *self._after(branch)) for n in descendants(s))
            return
        strings = {str(n.value) for n in descendants(branch.test) if isinstance(n, ast.Constant)}
        for inner in (n for s in body for n in descendants(s)):
            named.setdefault(id(inner), set()).update(strings)

    def _after(self, branch: ast.If | ast.IfExp) -> list[ast.stmt]:
        """The statements after an ``if`` whose body always leaves the block (``return``,
        ``raise``): they are its ``else``."""
        if not isinstance(branch, ast.If) or not isinstance(branch.body[-1], (ast.Return, ast.Raise)):
            return []
        for block in self._blocks():
            for index, statement in enumerate(block):
                if statement is branch:
                    return block[index + 1 :]
        return []

    def _blocks(self) -> list[list[ast.stmt]]:
        if self._statement_lists is None:
            self._statement_lists = [
                block
                for node in descendants(self.module.tree)
                for field in ("body", "orelse", "finalbody")
                for block in [getattr(node, field, None)]
                if isinstance(block, list) and block and isinstance(block[0], ast.stmt)
            ]
        return self._statement_lists

    def _on_mindspore_version(self, test: ast.expr) -> bool:
        """Whether a test reads MindSpore's version: itself, through a name that says so
        (``IS_MS_VERSION_1``), or through names of the module or the project whose values or
        bodies read it (``NEW_API = ms.__version__ >= "2"``, ``def is_old(): return not NEW_API``)."""
        return self._reads_version(test, self.module, _VERSION_DEPTH)

    def _reads_version(self, tree: ast.AST, module: ModuleInfo, depth: int) -> bool:
        if _reads_mindspore_version(tree, module):
            return True
        names = {n.id for n in descendants(tree) if isinstance(n, ast.Name)}
        if any(_says_mindspore_version(_identifier(n)) for n in descendants(tree)):
            return True
        return depth > 0 and any(self._name_reads_version(name, module, depth - 1) for name in names)

    def _name_reads_version(self, name: str, module: ModuleInfo, depth: int) -> bool:
        key = (id(module), name)
        if key not in self._version_names:
            self._version_names[key] = False  # a name defined through itself reads nothing more
            definitions = self._definitions(name, module)
            self._version_names[key] = any(self._reads_version(d, m, depth) for m, d in definitions)
        return self._version_names[key]

    def _definitions(self, name: str, module: ModuleInfo) -> list[tuple[ModuleInfo, ast.AST]]:
        """What a module-level ``name`` is bound to: its top-level values or function, here or in
        the project module it is imported from."""
        if name in module.imports:
            qualname = module.imports[name]
            found = self.project.resolve(qualname, module)
            if found is not None:
                return [(found.module, found.node)]
            values = self.project.module_object(qualname, module)
            return [(values[0], value) for value in values[1]] if values is not None and not values[2] else []
        function = module.functions.get(name)
        return [(module, function)] if function is not None else [(module, v) for v in module.top_level_values(name)]


_VERSION_DEPTH = 3
"""Names followed from a test to where MindSpore's version is read (a flag computed by a function
that reads a constant that reads ``__version__``)."""


def _reads_mindspore_version(tree: ast.AST, module: ModuleInfo) -> bool:
    """``mindspore.__version__``, or a version looked up by the distribution's name
    (``importlib.metadata.version("mindspore")``)."""
    nodes = descendants(tree)
    for node in nodes:
        if isinstance(node, ast.Attribute) and node.attr == "__version__" and _is_mindspore_value(node.value, module):
            return True
    named = any(isinstance(n, ast.Constant) and n.value == "mindspore" for n in nodes)
    return named and any("version" in _identifier(n).lower() for n in nodes)


_MINDSPORE_VERSION_NAME = re.compile(r"(mindspore|(^|_)ms_?)(_?ver)", re.IGNORECASE)


def _is_mindspore_value(expr: ast.expr, module: ModuleInfo) -> bool:
    return _is_mindspore(qualified_name(expr, module) or "")


def _says_mindspore_version(identifier: str) -> bool:
    """``IS_MS_VERSION_1``, ``is_ms_version_2``, ``mindspore_version``, ``MS_VER``; not a model's
    own ``version``."""
    return _MINDSPORE_VERSION_NAME.search(identifier) is not None


def _catches(handler: ast.ExceptHandler, errors: frozenset[str]) -> bool:
    caught = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return any(c is None or (_identifier(c) in errors) for c in caught)


def _identifier(node: ast.AST) -> str:
    return node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""


def _missing(namespaces: dict[str, dict[str, list[str] | None]], namespace: str, name: str) -> bool:
    """Whether the table says ``namespace.name`` does not exist: it lists public names only, so a
    private or special name (``mindspore.Tensor.__init__`` in a subclass) is not judged."""
    return namespace in namespaces and not name.startswith("_") and name not in namespaces[namespace]


class _MindsporeNames:
    """The MindSpore name an attribute chain reads, through the module's imports (``P.Sum`` ->
    ``mindspore.ops.operations.Sum`` after ``from mindspore.ops import operations as P`` or
    ``import mindspore.ops.operations as P``) and through the project's own modules that
    re-export one (``from utils.ms import P``, ``utils.ms.P.Sum``)."""

    def __init__(self, module: ModuleInfo, project: Project) -> None:
        self.module = module
        self.project = project
        self.heads: dict[str, str] = {}
        """Module-level names bound by imports -> what they import, as the module sees them."""
        for local in {*module.imports, *module.star_bindings}:
            head = module.global_qualname(local)
            if head is not None:
                self.heads[local] = head
        self._project_heads: dict[str, bool] = {}
        self._followed: dict[str, str] = {}

    def any_mindspore(self) -> bool:
        """Whether the module may read a MindSpore name at all (else it has nothing to check)."""
        if any(_is_mindspore(head) for head in self.heads.values()):
            return True
        return any(_is_mindspore(self.qualname_of(local) or "") for local in self.heads)

    def qualname(self, expr: ast.expr) -> str | None:
        parts: list[str] = []
        while isinstance(expr, ast.Attribute):
            parts.append(expr.attr)
            expr = expr.value
        local = expr.id if isinstance(expr, ast.Name) else ""
        head = self.heads.get(local)
        if head is None or not (_is_mindspore(head) or self._from_the_project(local, head)):
            return None  # what qualname_of answers, before the dotted name is made
        found = self.qualname_of(".".join([local, *reversed(parts)]))
        return found if found is not None and _is_mindspore(found) else None

    def qualname_of(self, dotted: str) -> str | None:
        local, _, rest = dotted.partition(".")
        head = self.heads.get(local)
        if head is None:
            return None
        full = f"{head}.{rest}" if rest else head
        if _is_mindspore(head):
            return full
        if not self._from_the_project(local, head):
            return None  # a library's name stays that library's: only the project's own modules re-export
        if full not in self._followed:
            self._followed[full] = library_name(full, self.module, self.project)
        return self._followed[full]

    def _from_the_project(self, local: str, head: str) -> bool:
        if local not in self._project_heads:
            self._project_heads[local] = self.project.module_of(head, self.module) is not None
        return self._project_heads[local]


def _is_mindspore(qualname: str) -> bool:
    return qualname.split(".", 1)[0] == "mindspore"


_HINT = "look it up in the MindSpore API reference of the release you target (it was renamed or removed)"
