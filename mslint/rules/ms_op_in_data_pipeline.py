from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Union

from mslint.diagnostics import Severity
from mslint.model.binder import all_parameter_names
from mslint.model.cell_classes import method
from mslint.model.module import ModuleInfo, bound_names, call_argument, imports_in
from mslint.model.project import (
    ClassRef,
    FunctionRef,
    Project,
    is_mindspore_cell_name,
    qualified_name,
    qualified_name_in,
)
from mslint.model.walk import descendants, statements
from mslint.rules.base import Finding, Rule
from mslint.settings import Settings

_NETWORK_MODULES = ("mindspore.ops", "mindspore.nn", "mindspore.numpy", "mindspore.mint")
_PIPELINE_METHODS = ("__getitem__", "__next__")
"""The methods of a GeneratorDataset source that run in the pipeline's workers."""

Function = Union[ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda]


class MsOpInDataPipeline(Rule):
    """
    ## What it does
    Flags a dataset `map(operations=...)`, and a `GeneratorDataset(source)`, whose Python
    function (or the source's `__getitem__`/`__next__`) calls MindSpore network operators:
    `mindspore.ops`, `mindspore.nn`, `mindspore.numpy` or `mindspore.mint`. A Cell or an
    operator passed to `map` itself (`operations=nn.ReLU()`) is flagged as an error.

    ## Why it is bad
    Dataset code runs in the pipeline's worker threads, where MindSpore's network operators
    are not supported (MindSpore 2.10 supports them only with the `spawn` start method and
    `python_multiprocessing=True`). MindSpore 2.10 recognises such a function and quietly runs
    the whole `map` with one worker, logging `Input 'operations' of 'map' includes network
    computing operators like in mindspore.nn, mindspore.ops, mindspore.numpy module and etc,
    which do not support multithreading compiling, recommend to replace it with python
    implemented operator like numpy etc. Here decrease 'num_parallel_workers' into 1.`; with
    `python_multiprocessing=True` and the default `fork` start method such a pipeline hung.
    A Cell or operator given as an operation is refused: `ValueError: Input operations should
    not contain network computing operator like in mindspore.nn or mindspore.ops`.

    MindSpore recognises a function by the module names it mentions (`ops.mul`, `nn.ReLU`,
    `mnp.abs`); mslint also follows names imported from those modules and `mint`. A function
    given inside a list (`operations=[decode, normalize]`) escapes MindSpore's check: the
    `map` keeps its workers and runs the operators in several threads, which worked on CPU
    but is unsupported; mslint does not flag it, for want of evidence.

    ## Example
    ```python
    def normalize(image):
        return ops.div(image - 127.5, 127.5)


    dataset = dataset.map(operations=normalize, input_columns=["image"], num_parallel_workers=8)
    ```

    ## Use instead
    ```python
    def normalize(image):
        return (image - 127.5) / 127.5  # numpy


    dataset = dataset.map(operations=normalize, input_columns=["image"], num_parallel_workers=8)
    ```
    Or use the transforms of `mindspore.dataset.vision`, and move tensor operators into the
    network's `construct`.
    """

    code = "MS202"
    symbol = "ms-op-in-data-pipeline"
    summary = "MindSpore network operators in dataset `map` functions or `GeneratorDataset` sources"

    def severity(self, settings: Settings) -> Severity:
        return Severity.WARNING

    def check_module(self, module: ModuleInfo, project: Project) -> Iterator[Finding]:
        if ".map(" not in module.text and "GeneratorDataset" not in module.text:
            return  # the cheap test: most files build no pipeline
        if not any(name.startswith("mindspore") for name in module.imports.values()):
            return
        nested = _nested_functions(module)
        for node in descendants(module.tree):
            if not isinstance(node, ast.Call):
                continue
            if _is_dataset_map(node):
                yield from _check_map(node, module, project, nested)
            elif (qualified_name(node.func, module) or "").endswith("dataset.GeneratorDataset"):
                yield from _check_source(node, module, project, nested)


def _is_dataset_map(call: ast.Call) -> bool:
    """``<dataset>.map(...)`` with MindSpore's keywords: ``map`` alone is too common a name."""
    keywords = {k.arg for k in call.keywords}
    return (
        isinstance(call.func, ast.Attribute)
        and call.func.attr == "map"
        and ("operations" in keywords or ("input_columns" in keywords and bool(call.args)))
    )


def _check_map(
    call: ast.Call, module: ModuleInfo, project: Project, nested: dict[str, ast.FunctionDef]
) -> Iterator[Finding]:
    operations = call_argument(call, 0, "operations")
    if operations is None or _runs_in_spawned_processes(call, module, project):
        return
    listed = operations.elts if isinstance(operations, (ast.List, ast.Tuple)) else [operations]
    for operation in listed:
        if isinstance(operation, ast.Call) and _is_network_object(operation, module, project):
            yield Finding(
                call,
                f"`{ast.unparse(operation.func)}(...)` is a MindSpore network operator: `map` refuses it",
                hint="use a transform of `mindspore.dataset`, or a numpy function",
                severity=Severity.ERROR,
            )
    function = _function(operations, module, project, nested)
    used = _network_operator(function, module) if function is not None else None
    if used is not None:
        yield Finding(
            call,
            f"`{_label(operations)}` calls `{used[0]}` (line {used[1]}) in the dataset's workers: "
            "MindSpore runs this `map` with one worker",
            hint="write the function with numpy, or move the operator into the network",
        )


def _check_source(
    call: ast.Call, module: ModuleInfo, project: Project, nested: dict[str, ast.FunctionDef]
) -> Iterator[Finding]:
    source = call_argument(call, 0, "source")
    if source is None or _runs_in_spawned_processes(call, module, project):
        return
    functions: list[Function] = []
    if isinstance(source, ast.Call):
        cls = project.resolve_expr(source.func, module)
        if isinstance(cls, ClassRef):
            functions = [m for m in (method(cls.node, name) for name in _PIPELINE_METHODS) if m is not None]
            module = cls.module
    else:
        function = _function(source, module, project, nested)
        functions = [function] if function is not None else []
    for function in functions:
        used = _network_operator(function, module)
        if used is not None:
            yield Finding(
                call,
                f"the source of `GeneratorDataset` calls `{used[0]}` (line {used[1]}) in the dataset's workers",
                hint="produce numpy arrays in the source; apply MindSpore operators in the network",
            )
            return


def _runs_in_spawned_processes(call: ast.Call, module: ModuleInfo, project: Project) -> bool:
    """The one set-up MindSpore supports network operators in: ``python_multiprocessing=True``
    with the ``spawn`` start method set somewhere in the program."""
    multiprocessing = any(
        k.arg == "python_multiprocessing" and isinstance(k.value, ast.Constant) and k.value.value is True
        for k in call.keywords
    )
    return multiprocessing and any(_sets_spawn(m) for m in project.program_of(module))


def _sets_spawn(module: ModuleInfo) -> bool:
    if "set_multiprocessing_start_method" not in module.text:
        return False  # the call names the function: most modules are not walked for it
    return any(
        isinstance(node, ast.Call)
        and isinstance(node.func, (ast.Attribute, ast.Name))
        and (node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id)
        == "set_multiprocessing_start_method"
        and any(isinstance(a, ast.Constant) and a.value == "spawn" for a in node.args)
        for node in descendants(module.tree)
    )


def _is_network_object(call: ast.Call, module: ModuleInfo, project: Project) -> bool:
    """A Cell or an operator being built: ``nn.ReLU()``, ``ops.Abs()``, a Cell of the project's."""
    name = qualified_name(call.func, module) or ""
    if is_mindspore_cell_name(name) or project.is_cell_name(name, module):
        return True
    return name.startswith("mindspore.ops.") and name.rsplit(".", 1)[-1][:1].isupper()


def _function(
    operation: ast.expr, module: ModuleInfo, project: Project, nested: dict[str, ast.FunctionDef]
) -> Function | None:
    """The plain function an operation names (MindSpore's check, like this rule, reads only
    plain functions and lambdas: not methods or callable objects)."""
    if isinstance(operation, ast.Lambda):
        return operation
    if isinstance(operation, ast.Name) and operation.id in nested and operation.id not in module.functions:
        return nested[operation.id]
    ref = project.resolve_expr(operation, module) if isinstance(operation, ast.Name) else None
    return ref.node if isinstance(ref, FunctionRef) and ref.owner is None and ref.module is module else None


def _nested_functions(module: ModuleInfo) -> dict[str, ast.FunctionDef]:
    """Functions defined inside other functions (``def decode(x)`` in ``create_dataset()``), by name."""
    found = {}
    for function in statements(module.tree):
        if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for node in statements(function):
                if isinstance(node, ast.FunctionDef):
                    found[node.name] = node
    return found


def _network_operator(function: Function, module: ModuleInfo) -> tuple[str, int] | None:
    """The first MindSpore network operator ``function`` uses, and its line."""
    local_imports = imports_in(function, module.package)
    local_names = set(all_parameter_names(function))
    for node in descendants(function):
        if isinstance(node, ast.Assign):
            local_names.update(n for target in node.targets for n in bound_names(target))
    shadowing = frozenset(local_names - local_imports.keys())
    for node in descendants(function):
        if not isinstance(node, (ast.Name, ast.Attribute)) or not isinstance(node.ctx, ast.Load):
            continue
        name = qualified_name_in(node, module, local_imports, shadowing)
        if name is not None and any(name.startswith(f"{m}.") for m in _NETWORK_MODULES):
            return ast.unparse(node), node.lineno
    return None


def _label(operation: ast.expr) -> str:
    return "lambda" if isinstance(operation, ast.Lambda) else ast.unparse(operation)
