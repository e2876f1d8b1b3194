"""The MindSpore release a run targets, with its tables: what the rules and the model ask of it.

Each table is read on first use and kept (a run that never asks for the bytecode table never reads
it: start-up time matters). Tables measured on fewer releases than the API are read from the
nearest measured release not newer, or are empty where only that release's own measurement holds;
each attribute says which.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any, Optional

from mslint.capture_tables import CaptureTable, capture_rows
from mslint.compiler_messages import missing_kernel
from mslint.fold_table import FoldedForms, folded_forms
from mslint.mindspore_tables import attribute_table, module_table, releases_with, shadow_table, table
from mslint.syntax_table import SyntaxTable, augassign_table, syntax_table

Namespaces = dict[str, dict[str, Optional[list[str]]]]
"""``mindspore.ops`` -> name -> its keywords (None: a name that is not a function)."""


@dataclass(frozen=True)
class Release:
    """A described MindSpore release. Equal releases (same ``version``) are interchangeable, so that
    facts derived from a release's tables can be cached by release."""

    version: str
    """``2.10.0``: the release's name, for messages and cache keys."""

    @cached_property
    def api_namespaces(self) -> Namespaces:
        """The public names of each MindSpore namespace and their keywords (``api-<release>.json``)."""
        namespaces: Namespaces = table("api", self.version)["namespaces"]
        return namespaces

    @cached_property
    def api_signatures(self) -> dict[str, dict[str, str]]:
        """The signatures of the functions of each namespace, as text (``(x, axis=None)``)."""
        signatures: dict[str, dict[str, str]] = table("api", self.version)["signatures"]
        return signatures

    @property
    def tensor_attributes(self) -> dict[str, list[str] | None]:
        """The attributes of ``mindspore.Tensor``, each method's with its keywords."""
        return self.api_namespaces["mindspore.Tensor"]

    @cached_property
    def jit_forbidden(self) -> dict[str, Any]:
        """What graph code may not call (``jit-forbidden-<release>.json``): ``functions``,
        ``modules``, ``cell_methods``, ``tensor_methods`` and, where measured, the functions that
        log a deprecation and the Cell methods refused for what their body does."""
        return table("jit-forbidden", self.version)

    @cached_property
    def modules(self) -> frozenset[str] | None:
        """The release's modules; None where this release's files were not read (modules come and
        go between releases: no other release's stand in)."""
        return module_table(self.version)

    @cached_property
    def attributes(self) -> dict[str, Any]:
        """The attributes of MindSpore's objects (``Cell``, ``Parameter``, ..., and ``bases``: what
        each Cell class adds), measured on the nearest release not newer."""
        return attribute_table(self.version)

    @cached_property
    def shadowed(self) -> dict[str, Any]:
        """What building a Cell does when ``__init__`` assigns a name ``nn.Cell`` has (``self.cells = ...``)."""
        return shadow_table(self.version)

    @cached_property
    def syntax(self) -> SyntaxTable:
        """What graph mode does with each form of Python, measured on the nearest release not newer."""
        return syntax_table(self.version)

    @cached_property
    def augassign(self) -> SyntaxTable:
        """What graph mode does with each augmented assignment on a tensor, measured on the nearest
        release not newer."""
        return augassign_table(self.version)

    @cached_property
    def folds(self) -> FoldedForms:
        """The conditions on graph constants that the compiler folds, by source, position and
        stage, measured on the nearest release not newer."""
        return folded_forms(self.version)

    @cached_property
    def bytecode(self) -> CaptureTable:
        """What ``jit``'s bytecode capture does with forms of Python, measured on the nearest release
        not newer; empty where none was measured."""
        return CaptureTable(capture_rows("bytecode", self.version))

    @cached_property
    def trace(self) -> CaptureTable:
        """What ``jit``'s trace capture does with cases such as ``control.if``, measured on the
        nearest release not newer; empty where none was measured."""
        return CaptureTable(capture_rows("trace", self.version))

    @cached_property
    def tensor_signatures(self) -> dict[str, list[dict[str, Any]]]:
        """The calls of each Tensor method measured in PyNative and graph mode
        (``tensor-signatures-<release>.json``); empty where this release itself was not measured."""
        if self.version not in releases_with("tensor-signatures"):
            return {}
        methods: dict[str, list[dict[str, Any]]] = table("tensor-signatures", self.version)["methods"]
        return methods

    @cached_property
    def arguments(self) -> dict[str, dict[str, Any]]:
        """The literal arguments measured for each API, with what each call did
        (``arguments-<release>.json``); empty where this release itself was not measured (what a
        release accepts changes between releases)."""
        if self.version not in releases_with("arguments"):
            return {}
        apis: dict[str, dict[str, Any]] = table("arguments", self.version)["apis"]
        return apis

    @cached_property
    def missing_cpu_kernels(self) -> dict[str, dict[str, str]]:
        """``ops.argsort``, ``mint.argmin``, ``Tensor.repeat`` -> the kernel the CPU backend lacks
        and the call that measured it (``kernels-<release>.json``); empty where this release itself
        was not measured (kernels come and go between releases)."""
        if self.version not in releases_with("kernels"):
            return {}
        missing: dict[str, dict[str, str]] = table("kernels", self.version)["missing"]
        return missing

    @cached_property
    def missing_cpu_kernel_calls(self) -> dict[str, list[tuple[str, str]]]:
        """Tensor method -> the call forms of the tensor-signature table (``x.chunk(2, dim=1)``)
        that compiled in STRICT and stopped at a kernel the CPU lacks, with that kernel."""
        found: dict[str, list[tuple[str, str]]] = {}
        for method, forms in self.tensor_signatures.items():
            for form in forms:
                kernel = missing_kernel(str(form.get("strict", {}).get("error", "")))
                if kernel is not None:
                    found.setdefault(method, []).append((str(form["call"]), kernel))
        return found
