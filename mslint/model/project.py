"""All modules of one run, with the cross-file facts: which classes are Cells, where names lead."""

from __future__ import annotations

import ast
import os
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar, Union

from mslint.mindspore_tables import default_release
from mslint.model.file_facts import FileFacts
from mslint.model.import_roots import INSTALLATION_FOLDERS, ImportRoots, module_files
from mslint.model.memo import NodeMemo
from mslint.model.module import ModuleInfo, imported_names, is_self_attribute
from mslint.model.walk import descendants, statements
from mslint.release import Release
from mslint.source import source_text

FunctionNode = Union[ast.FunctionDef, ast.AsyncFunctionDef]
T = TypeVar("T")
ImporterIndex = dict[str, list[tuple[ModuleInfo, tuple[str, ...]]]]
InheritedFact = Callable[["Project", "ClassRef", Callable[["ClassRef"], T]], T]
"""A fact about a class computed from its own definition and the same fact of its project bases."""

# Classes exported by mindspore.nn that are not Cells (measured on 2.10: the metrics).
_NON_CELL_NN_CLASSES = frozenset(
    [
        "Accuracy",
        "BleuScore",
        "ConfusionMatrix",
        "ConfusionMatrixMetric",
        "CosineSimilarity",
        "Dice",
        "F1",
        "Fbeta",
        "HausdorffDistance",
        "Loss",
        "MAE",
        "MSE",
        "MeanSurfaceDistance",
        "Metric",
        "OcclusionSensitivity",
        "Perplexity",
        "Precision",
        "ROC",
        "Recall",
        "RootMeanSquareDistance",
        "Top1CategoricalAccuracy",
        "Top5CategoricalAccuracy",
        "TopKCategoricalAccuracy",
    ]
)
_MAX_REEXPORT_DEPTH = 8


def is_mindspore_cell_name(qualname: str) -> bool:
    """Whether a qualified name inside ``mindspore.nn`` names a Cell class (by MindSpore's naming)."""
    parts = qualname.split(".")
    if parts[:2] != ["mindspore", "nn"] or len(parts) < 3 or "metrics" in parts:
        return False
    last = parts[-1]
    return last[:1].isupper() and last not in _NON_CELL_NN_CLASSES


def from_a_mindspore_suite(qualname: str) -> bool:
    """Whether ``qualname`` is of one of MindSpore's suites (``mindnlp``, ``mindcv``...), whose
    objects are built for graph code (Cells, ``jit_class``es) and are not MindSpore's own API."""
    library = qualname.split(".", 1)[0]
    return library.startswith("mind") and library != "mindspore"


def is_mindspore_name(qualname: str | None, *suffixes: str) -> bool:
    """Whether ``qualname`` is inside mindspore and, if suffixes are given, ends with one of them."""
    if qualname is None or not (qualname == "mindspore" or qualname.startswith("mindspore.")):
        return False
    return not suffixes or qualname.rsplit(".", 1)[-1] in suffixes


@dataclass(frozen=True)
class ClassRef:
    module: ModuleInfo
    node: ast.ClassDef

    @property
    def qualname(self) -> str:
        return f"{self.module.name}.{self.node.name}"


@dataclass(frozen=True)
class FunctionRef:
    module: ModuleInfo
    node: FunctionNode
    owner: ClassRef | None = None

    @property
    def display_name(self) -> str:
        return f"{self.owner.node.name}.{self.node.name}" if self.owner else self.node.name


class Project:
    """The checked modules, plus modules loaded on demand to resolve imported names."""

    def __init__(
        self, mindspore_release: str | None = None, top: Path | None = None, files: FileFacts | None = None
    ) -> None:
        self.files = files or FileFacts()
        """What the run has learnt of the file system (shared by the projects of one run)."""
        self.release = Release(mindspore_release or default_release())
        """The MindSpore release the code is checked against, with its tables."""
        self.import_roots = ImportRoots(top, self.files)
        """Where imports look for the project's modules; ``top`` is the configuration's folder."""
        self.modules: list[ModuleInfo] = []
        self.graph_function_nodes: frozenset[int] = frozenset()
        """Ids of the function nodes the graph rules check, set by the engine before the module
        rules run: a rule about code outside graph code leaves these to them."""
        self.patched_in_run: frozenset[str] = frozenset()
        """MindSpore APIs that the run's modules replace at run time (``ops.zeros = _zeros``), set
        where this project holds only part of the run (a module analysed alone): a patch in one
        module holds for the calls of every other."""
        self.probed: set[Path] = set()
        """Paths looked at to resolve imports that held no module (missing, or not Python): the
        results change when one of them appears."""
        self._by_name_and_root: dict[tuple[str, Path], ModuleInfo] = {}
        """The first module of each name under each import root: a tree of many projects side by
        side has as many modules called ``src.utils`` as projects, each import asks for its own."""
        self._by_file: dict[str, ModuleInfo] = {}
        """The modules by resolved path, as text (imports test thousands of paths: text hashes faster)."""
        self._enclosing_memo: dict[tuple[str, str], ModuleInfo | None] = {}
        self._last_names: set[str] = set()
        """The last part of the name each module of ``_by_file`` may be imported by (``b`` of
        ``a/b.py`` and of ``a/b/__init__.py``): an import of any other (``numpy``) finds none of
        them, in whatever folder it looks."""
        self._searched: dict[tuple[str, Path, str], ModuleInfo | None] = {}
        """What :meth:`module_named` found searching the folders, by name and the asking module's
        import root and folder (all the search depends on)."""
        self._folder_of: dict[int, str] = {}
        self._bases_memo: dict[int, list[ClassRef]] = {}
        self._inherited_memo: dict[Callable[..., object], dict[int, object]] = {}
        self._mro_memo: dict[int, list[ClassRef]] = {}
        self._attribute_memo: dict[int, dict[str, list[ast.expr]]] = {}
        self._method_memo: dict[int, dict[str, ast.FunctionDef | ast.AsyncFunctionDef]] = {}
        self._found_methods: dict[tuple[int, str], FunctionRef | None] = {}
        self._not_on_disk: set[tuple[str, Path]] = set()
        self._folder_memo: dict[str, bool] = {}
        self._package_folder_memo: dict[Path, tuple[Path, ...]] = {}
        self._linked: set[int] = set()
        self._derived: dict[Callable[[Project], object], tuple[int, object]] = {}
        self._indexes: dict[Callable[[Any, ModuleInfo], None], tuple[int, Any]] = {}
        self._checked_count = 0
        self._checked_packages: set[tuple[Path, str]] = set()
        """The installation folders and top-level names of the checked code installed there."""
        self._importers: tuple[int, ImporterIndex, dict[int, list[ModuleInfo]]] = (-1, {}, {})
        """The checked importers' index for a count of checked modules, and each module's importers."""

    def add(self, module: ModuleInfo) -> None:
        self.modules.append(module)
        self._checked_count += module.checked
        self._by_name_and_root.setdefault((module.name, module.root), module)
        resolved = self.files.resolved(module.path)
        if module.checked:
            self._checked_packages.update(_installed_package(resolved))
        self._by_file[str(resolved)] = module
        if resolved.suffix == ".py":
            self._last_names.add(resolved.parent.name if resolved.name == "__init__.py" else resolved.stem)
        self._folder_of[id(module)] = str(resolved.parent)
        self._enclosing_memo.clear()  # a module added may be the nearest one now
        self._searched.clear()
        if not module.checked:
            self.probed.add(module.root / "__init__.py")  # one there would rename the module

    @property
    def checked_modules(self) -> Iterator[ModuleInfo]:
        return (m for m in self.modules if m.checked)

    def link_star_imports(self) -> None:
        """Bind the names of every module's ``from m import *`` (once all checked modules are added)."""
        for module in list(self.modules):
            self._link(module)

    def _link(self, module: ModuleInfo) -> None:
        if id(module) in self._linked:
            return
        self._linked.add(id(module))  # before following: star imports can be circular
        bound_here = {*module.classes, *module.functions, *module.assigned, *module.imports, *module.rebound_imports}
        for imported_as in module.star_imports:
            source = self.module_named(imported_as, module)
            if source is None:
                continue
            self._link(source)
            for name, qualname in source.star_exports(imported_as).items():
                if name not in bound_here:
                    module.star_bindings[name] = qualname

    def is_checked_code(self, qualname: str, near: ModuleInfo) -> bool:
        """Whether ``qualname``, seen from ``near``, names the project's own code rather than a
        library's: its top package is a module of the run, or ``near`` imports it relatively."""
        if qualname.startswith(f"{near.name}."):
            return True  # the module's own names (a file whose name holds dots is no package path)
        root = qualname.split(".", 1)[0]
        return root in near.relative_roots or self.module_named(root, near) is not None

    def module_named(self, name: str, near: ModuleInfo) -> ModuleInfo | None:
        """The module called ``name`` as seen from ``near``; loads it from disk if it is there."""
        same_root = self._by_name_and_root.get((name, near.root))
        if same_root is not None:
            return same_root
        if is_mindspore_name(name):
            return None  # MindSpore is judged by its public names, never loaded from disk
        key = (name, near.root, self._folder_of[id(near)])
        if key not in self._searched:
            self._searched[key] = self._search(name, near)
        return self._searched[key]

    def _search(self, name: str, near: ModuleInfo) -> ModuleInfo | None:
        for root in (*self.import_roots.for_root(near.root), *self._package_folders(near)):
            module = self._module_under(name, root)
            if module is not None:
                return module
        return self._module_in_enclosing_folder(name, near)

    def _module_in_enclosing_folder(self, name: str, near: ModuleInfo) -> ModuleInfo | None:
        """A module of the run called ``name`` under a folder that encloses ``near``, the nearest first.

        The import roots stop at a project marker, and a marker inside the tree that a script
        runs from (a ``setup.py`` that builds ``src/plug_in/sampler``'s extension, while
        ``src/train.py`` puts ``src`` on ``sys.path``) would hide ``src``'s modules. Only modules
        already read: no folder outside the project is probed. A folder beside ``near``'s is never
        searched: projects side by side each find their own ``model.block``."""
        return self._module_at_or_above(self._folder_of[id(near)], name)

    def _module_at_or_above(self, folder: str, name: str) -> ModuleInfo | None:
        last = name.rpartition(".")[2]
        if last and last not in self._last_names and name.replace(".", "").isidentifier():
            return None  # the files it could be (module_files) are no module's, in any folder
        key = (folder, name)
        if key not in self._enclosing_memo:
            found = next((self._by_file[f] for f in module_files(name, folder) if f in self._by_file), None)
            parent = os.path.dirname(folder)
            if found is None and parent != folder:
                found = self._module_at_or_above(parent, name)
            self._enclosing_memo[key] = found
        return self._enclosing_memo[key]

    def _package_folders(self, module: ModuleInfo) -> tuple[Path, ...]:
        """The package folders between ``module``'s import root and the module that hold a script
        (a file with a ``__main__`` guard), outermost first.

        Running that script puts its folder first on ``sys.path``: ``src/train.py`` makes
        ``from nerf_utils import x`` in ``src/models/net.py`` find ``src/nerf_utils`` although
        ``src`` is a package too. Searched after the import roots, so a name they resolve keeps
        its module; a package folder without a script is on no ``sys.path``."""
        folders = self._package_folder_memo.get(module.path)
        if folders is None:
            inside: list[Path] = []
            folder = self.files.resolved(module.path).parent
            while folder != module.root and module.root in folder.parents:
                if self.files.holds_script(folder):
                    inside.insert(0, folder)
                folder = folder.parent
            folders = self._package_folder_memo[module.path] = tuple(inside)
        return folders

    def _module_under(self, name: str, root: Path) -> ModuleInfo | None:
        # numpy, os, ...: asked for again and again; an empty part (`from . import x` at the top) names nothing
        if (name, root) in self._not_on_disk or not all(name.split(".")):
            return None
        top = name.split(".", 1)[0]
        if root.name in INSTALLATION_FOLDERS and (root, top) not in self._checked_packages:
            return None  # another installed library: judged by its names, as wherever code is checked
        if not self._is_folder_or_module(os.path.join(root, top)):
            self._not_on_disk.add((name, root))
            return None
        for file in module_files(name, root):
            known = self._by_file.get(file)
            if known is not None:
                return known
            path = Path(file)
            if not self.files.is_file(file):
                self.probed.add(path)
                continue
            resolved = str(self.files.resolved(path))
            if resolved in self._by_file:
                return self._by_file[resolved]
            try:
                module = ModuleInfo.parse(path, source_text(path), checked=False, packages=self.files.packages)
            except (OSError, SyntaxError, ValueError, UnicodeDecodeError):
                self.probed.add(path)
                continue
            self.add(module)
            self._link(module)
            return module
        self._not_on_disk.add((name, root))
        return None

    def _is_folder_or_module(self, head: str) -> bool:
        """Whether an import's first name exists under a root (a cheap test before the full path)."""
        exists = self._folder_memo.get(head)
        if exists is None:
            module = f"{head}.py"
            exists = self._folder_memo[head] = self.files.is_folder(head) or self.files.is_file(module)
            if not exists:
                self.probed.update((Path(head), Path(module)))
        return exists

    def module_of(self, name: str, near: ModuleInfo) -> ModuleInfo | None:
        """The project module an imported dotted name leads to (``utils.seed_all`` -> ``utils``)."""
        parts = name.split(".")
        for length in range(len(parts), 0, -1):
            found = self.module_named(".".join(parts[:length]), near)
            if found is not None:
                return found
        return None

    def resolve(self, qualname: str, near: ModuleInfo, depth: int = 0) -> ClassRef | FunctionRef | None:
        """The class or function of this project that ``qualname`` names, following re-exports."""
        if depth > _MAX_REEXPORT_DEPTH:
            return None
        parts = qualname.split(".")
        for split in range(len(parts) - 1, 0, -1):
            module = self.module_named(".".join(parts[:split]), near)
            if module is None:
                continue
            return self._member(module, parts[split:], depth)
        return None

    def _member(self, module: ModuleInfo, path: list[str], depth: int) -> ClassRef | FunctionRef | None:
        name = path[0]
        if name in module.classes:
            cls = ClassRef(module, module.classes[name])
            if len(path) == 1:
                return cls
            return self.find_method(cls, path[1]) if len(path) == 2 else None
        if name in module.functions and len(path) == 1:
            return FunctionRef(module, module.functions[name])
        imported = module.imports.get(name) or module.star_bindings.get(name)
        if imported is not None:
            return self.resolve(".".join([imported, *path[1:]]), module, depth + 1)
        return None

    def module_object(self, qualname: str, near: ModuleInfo) -> tuple[ModuleInfo, list[ast.expr], list[str]] | None:
        """For ``qualname`` read as ``module.name.rest``, with the longest prefix that names a
        module of the project: that module, the values its top level assigns to ``name``, and the
        names of ``rest``; None where no prefix names a module."""
        parts = qualname.split(".")
        for split in range(len(parts) - 1, 0, -1):
            module = self.module_named(".".join(parts[:split]), near)
            if module is not None:
                return module, module.top_level_values(parts[split]), parts[split + 1 :]
        return None

    def method_of_module_object(self, qualname: str, near: ModuleInfo) -> FunctionRef | None:
        """The method ``qualname`` names as ``module.name.method``, where the module binds ``name``
        at its top level to an instance of one project class (a registry kept as a singleton:
        ``parameter_register = ParameterRegister()``)."""
        found = self.module_object(qualname, near)
        if found is None or len(found[2]) != 1:
            return None
        module, values, (method,) = found
        classes = {
            id(cls.node): cls
            for value in values
            if isinstance(value, ast.Call)
            for cls in [self.resolve_expr(value.func, module)]
            if isinstance(cls, ClassRef)
        }
        return self.find_method(next(iter(classes.values())), method) if len(classes) == 1 else None

    def resolve_expr(self, expr: ast.expr, module: ModuleInfo) -> ClassRef | FunctionRef | None:
        qualname = qualified_name(expr, module)
        return self.resolve(qualname, module) if qualname else None

    def bases(self, cls: ClassRef) -> list[ClassRef]:
        """The project classes among the bases of ``cls``, in the order written."""
        found = self._bases_memo.get(id(cls.node))
        if found is None:
            resolved = (self.resolve_expr(base, cls.module) for base in cls.node.bases)
            found = [r for r in resolved if isinstance(r, ClassRef) and r.node is not cls.node]
            self._bases_memo[id(cls.node)] = found
        return found

    def inherited(self, cls: ClassRef, fact: InheritedFact[T], cyclic: T) -> T:
        """``fact`` of ``cls``, computed once per class from the facts of its bases: every project
        ancestor's is computed (and kept) before those of the classes that derive from it, with
        a stack of its own, not Python's (a chain of thousands of classes costs as many steps,
        and no ``RecursionError``). Where the bases form a cycle, a base whose fact is still
        being computed gives ``cyclic``."""
        memo: dict[int, T] = self._inherited_memo.setdefault(fact, {})  # type: ignore[assignment]
        if id(cls.node) in memo:
            return memo[id(cls.node)]

        def of(klass: ClassRef) -> T:
            return memo.get(id(klass.node), cyclic)

        walking = {id(cls.node)}
        stack = [(cls, iter(self.bases(cls)))]
        while stack:
            klass, pending = stack[-1]
            base = next((b for b in pending if id(b.node) not in memo and id(b.node) not in walking), None)
            if base is None:
                stack.pop()
                memo[id(klass.node)] = fact(self, klass, of)
            else:
                walking.add(id(base.node))
                stack.append((base, iter(self.bases(base))))
        return memo[id(cls.node)]

    def mro(self, cls: ClassRef) -> list[ClassRef]:
        """The class and its project base classes, nearest first (breadth first), each once."""
        found = self._mro_memo.get(id(cls.node))
        if found is None:
            found = self._mro_memo[id(cls.node)] = self._linearize(cls)
        return found

    def _linearize(self, cls: ClassRef) -> list[ClassRef]:
        """Breadth first, each class once. Where one class is left to visit and its order is
        known, the rest is that order less the classes seen: the classes it would have reached
        first through a class seen were reached already. Only the classes asked get an order:
        those of every ancestor of a chain of thousands would take memory by the square."""
        order: list[ClassRef] = []
        seen: set[int] = set()
        pending = deque([cls])
        while pending:
            current = pending.popleft()
            if id(current.node) in seen:
                continue
            known = self._mro_memo.get(id(current.node)) if not pending else None
            if known is not None:
                order.extend(c for c in known if id(c.node) not in seen)
                break
            seen.add(id(current.node))
            order.append(current)
            pending.extend(self.bases(current))
        return order

    def is_cell(self, cls: ClassRef) -> bool:
        """Whether the class derives from ``mindspore.nn.Cell``, directly or through project classes."""
        return self.inherited(cls, _derives_from_cell, False)

    def is_cell_name(self, qualname: str | None, near: ModuleInfo) -> bool:
        if qualname is None:
            return False
        if is_mindspore_cell_name(qualname):
            return True
        resolved = self.resolve(qualname, near)
        return isinstance(resolved, ClassRef) and self.is_cell(resolved)

    def derived(self, compute: Callable[[Project], T]) -> T:
        """``compute(self)``, once per set of modules: a fact about the whole project that rules
        ask for per class or per call would otherwise make them quadratic in the project."""
        memo = self._derived.get(compute)
        if memo is None or memo[0] != len(self.modules):
            memo = self._derived[compute] = (len(self.modules), compute(self))
        return memo[1]  # type: ignore[return-value]

    def indexed(self, empty: Callable[[], T], add: Callable[[T, ModuleInfo], None]) -> T:
        """An index of the project's modules: ``empty()`` with each module folded in by ``add``, in
        the project's order, once. Kept as modules load (:meth:`derived` computes its fact again
        from every module whenever one loads); ``add`` must load none."""
        count, index = self._indexes.get(add) or (0, empty())
        new = self.modules[count:]
        for module in new:
            add(index, module)
        self._indexes[add] = (count + len(new), index)
        return index  # type: ignore[no-any-return]

    def generator_names(self) -> frozenset[str]:
        """Names of the functions of the project's modules that ``yield`` (a cheap first test)."""
        return self.derived(_all_generator_names)

    def checked_importers(self, module: ModuleInfo) -> list[ModuleInfo]:
        """The checked modules that import ``module`` or a name inside it, in the project's order:
        those where an imported name finds this module, under whatever name (``src.dataset``
        from the folder above a namespace package finds the module ``dataset``); another
        project's module of the same name is another module."""
        checked = self._checked_count
        if self._importers[0] != checked:  # modules loaded to resolve names are never importers here
            self._importers = (checked, _checked_importers(self), {})
        _, index, memo = self._importers
        found = memo.get(id(module))
        if found is None:
            last = module.name.rpartition(".")[2]
            found = memo[id(module)] = [
                importer
                for importer, names in index.get(last, [])
                if any(self.module_of(name, importer) is module for name in names)
            ]
        return found

    def program_of(self, module: ModuleInfo) -> Iterator[ModuleInfo]:
        """The modules whose code may run in the same program as ``module``: itself, the checked
        modules that import it (transitively), then every project module those import, each
        once. Lazily: a rule that finds what it looks for stops before more modules are read.

        Import edges only, never names alone: the answer is the same whether the run holds
        this project alone or many projects side by side (what lets a run be analysed
        component by component)."""
        seen = {id(module): module}
        walked = [module]
        for current in walked:  # grows while it is walked
            yield current
            for other in self.checked_importers(current):
                if id(other) not in seen:
                    seen[id(other)] = other
                    walked.append(other)
        for current in walked:  # grows while it is walked
            for name in imported_names(current):
                found = self.module_of(name, current)
                if found is not None and id(found) not in seen:
                    seen[id(found)] = found
                    walked.append(found)
                    yield found

    def find_method(self, cls: ClassRef, name: str) -> FunctionRef | None:
        """The method ``name`` of ``cls``: the first class of its MRO that defines it.

        Down a line of classes with one project base each, a class that does not define it has
        its base's (its MRO is itself, then its base's): the answer is kept for each class of
        the line, so that asking every class of a chain thousands long costs a step each."""
        line: list[ClassRef] = []
        walked: set[int] = set()
        current = cls
        while (id(current.node), name) not in self._found_methods:
            line.append(current)
            walked.add(id(current.node))
            method = self._methods(current).get(name)
            if method is not None:
                found: FunctionRef | None = FunctionRef(current.module, method, current)
                break
            bases = self.bases(current)
            if len(bases) != 1 or id(bases[0].node) in walked:
                found = self._first_method(self.mro(current), name) if len(bases) > 1 else None
                break
            current = bases[0]
        else:
            found = self._found_methods[(id(current.node), name)]
        for klass in line:
            self._found_methods[(id(klass.node), name)] = found
        return found

    def _first_method(self, classes: list[ClassRef], name: str) -> FunctionRef | None:
        for klass in classes:
            method = self._methods(klass).get(name)
            if method is not None:
                return FunctionRef(klass.module, method, klass)
        return None

    def _methods(self, cls: ClassRef) -> dict[str, ast.FunctionDef | ast.AsyncFunctionDef]:
        """The methods a class body defines, by name (the last definition wins, as in Python)."""
        methods = self._method_memo.get(id(cls.node))
        if methods is None:
            methods = {s.name: s for s in cls.node.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))}
            self._method_memo[id(cls.node)] = methods
        return methods

    def attribute_values(self, cls: ClassRef, attribute: str) -> list[tuple[ClassRef, ast.expr]]:
        """Values assigned to ``self.<attribute>`` in the methods of the class and its project bases."""
        return [
            (klass, value) for klass in self.mro(cls) for value in self.attribute_assignments(klass).get(attribute, [])
        ]

    def sets_own_attribute(self, cls: ClassRef, name: str) -> bool:
        """Whether a method of ``cls``, of a project base or of a project subclass (whose instance
        may run the read) stores ``self.<name>``. A Cell elsewhere in the project that stores the
        same name says nothing of ``cls``."""
        setters = self.indexed(dict, _add_self_attribute_setters).get(name, [])
        ancestors = {id(klass.node) for klass in self.mro(cls)}
        return any(
            id(setter.node) in ancestors or any(klass.node is cls.node for klass in self.mro(setter))
            for setter in setters
        )

    def attribute_assignments(self, cls: ClassRef) -> dict[str, list[ast.expr]]:
        """:func:`self_attribute_assignments` of ``cls``, found once per class."""
        if id(cls.node) not in self._attribute_memo:
            self._attribute_memo[id(cls.node)] = self_attribute_assignments(cls.node)
        return self._attribute_memo[id(cls.node)]


def _derives_from_cell(project: Project, cls: ClassRef, of: Callable[[ClassRef], bool]) -> bool:
    return any(is_mindspore_cell_name(qualified_name(base, cls.module) or "") for base in cls.node.bases) or any(
        of(base) for base in project.bases(cls)
    )


def _all_generator_names(project: Project) -> frozenset[str]:
    return frozenset(name for module in project.modules for name in _generator_names(module))


def _checked_importers(project: Project) -> ImporterIndex:
    """For each part of a dotted name imported (``src.dataset``: ``src`` and ``dataset``), the
    checked modules importing it with the prefixes of their names that end with it
    (``src.dataset`` for ``dataset``): one index of the candidates for every module's importers."""
    index: ImporterIndex = {}
    for module in project.checked_modules:
        by_part: dict[str, set[str]] = {}
        for name in imported_names(module):
            parts = name.split(".")
            for end, part in enumerate(parts, 1):
                by_part.setdefault(part, set()).add(".".join(parts[:end]))
        for part, prefixes in by_part.items():
            index.setdefault(part, []).append((module, tuple(sorted(prefixes))))
    return index


_GENERATORS: NodeMemo[ast.Module, frozenset[str]] = NodeMemo()


def _generator_names(module: ModuleInfo) -> frozenset[str]:
    """Functions of one module that ``yield``, memoized by tree."""
    tree = module.tree
    cached = _GENERATORS.get(tree)
    if cached is None:
        cached = frozenset()
        if "yield" in module.text:  # most modules have none: their trees are not walked
            cached = frozenset(
                node.name
                for node in statements(tree)
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and _yields(node, module)
            )
        _GENERATORS.put(tree, cached)
    return cached


def _yields(function: FunctionNode, module: ModuleInfo) -> bool:
    lines = range(function.lineno, (function.end_lineno or function.lineno) + 1)
    if not any("yield" in module.line(number) for number in lines):  # the keyword is in the function's own lines
        return False
    return any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in descendants(function))


def is_jit_class(cls: ClassRef) -> bool:
    return any(is_mindspore_name(qualified_name(d, cls.module), "jit_class") for d in cls.node.decorator_list)


_SELF_STORES: NodeMemo[ast.ClassDef, list[ast.Attribute]] = NodeMemo()


def self_attribute_stores(node: ast.ClassDef) -> list[ast.Attribute]:
    """Every store or delete of ``self.<name>`` in the methods of a class, in any form (``=``,
    ``+=``, a tuple target, a ``for`` target, under any block); memoized by class: the setters'
    index and the rule's names provided elsewhere both read it."""
    return _SELF_STORES(node, _self_attribute_stores)


def _self_attribute_stores(node: ast.ClassDef) -> list[ast.Attribute]:
    found: list[ast.Attribute] = []
    for method in node.body:
        if not isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)) or not method.args.args:
            continue
        self_name = method.args.args[0].arg
        found.extend(
            inner
            for inner in descendants(method)
            if isinstance(inner, ast.Attribute)
            and isinstance(inner.ctx, (ast.Store, ast.Del))
            and isinstance(inner.value, ast.Name)
            and inner.value.id == self_name
        )
    return found


def _add_self_attribute_setters(found: dict[str, list[ClassRef]], module: ModuleInfo) -> None:
    for node in module.nodes_of(ast.ClassDef):
        for name in {store.attr for store in self_attribute_stores(node)}:
            found.setdefault(name, []).append(ClassRef(module, node))


def self_attribute_assignments(node: ast.ClassDef) -> dict[str, list[ast.expr]]:
    """``self.<name> = value`` assignments in the methods of a class, by attribute name."""
    found: dict[str, list[ast.expr]] = {}
    for method in node.body:
        if not isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)) or not method.args.args:
            continue
        self_name = method.args.args[0].arg
        for statement in statements(method):
            if isinstance(statement, ast.Assign):
                pairs = [(t, statement.value) for t in statement.targets]
            elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
                pairs = [(statement.target, statement.value)]
            else:
                continue
            for target, value in pairs:
                if is_self_attribute(target, self_name):
                    assert isinstance(target, ast.Attribute)
                    found.setdefault(target.attr, []).append(value)
    return found


def qualified_name_in(
    expr: ast.expr, module: ModuleInfo, local_imports: dict[str, str], local_names: frozenset[str]
) -> str | None:
    """``qualified_name`` inside a function: its own imports first, its local values shadow the module's."""
    head = expr
    while isinstance(head, ast.Attribute):
        head = head.value
    if isinstance(head, ast.Name) and head.id in local_imports:
        rest = []
        while isinstance(expr, ast.Attribute):
            rest.append(expr.attr)
            expr = expr.value
        return ".".join([local_imports[head.id], *reversed(rest)])
    return qualified_name(expr, module, local_names)


def qualified_name(expr: ast.expr, module: ModuleInfo, local_names: frozenset[str] = frozenset()) -> str | None:
    """``np.linalg.norm`` -> ``numpy.linalg.norm`` through the module's imports; None for local values."""
    parts: list[str] = []
    while isinstance(expr, ast.Attribute):
        parts.append(expr.attr)
        expr = expr.value
    if not isinstance(expr, ast.Name) or expr.id in local_names:
        return None
    head = module.global_qualname(expr.id)
    if head is None:
        return None
    return ".".join([head, *reversed(parts)])


def _installed_package(path: Path) -> list[tuple[Path, str]]:
    """The installation folder (``site-packages``) and top-level name of the package holding ``path``."""
    for inside in (path, *path.parents):
        if inside.parent.name in INSTALLATION_FOLDERS:
            return [(inside.parent, inside.name[: -len(".py")] if inside.suffix == ".py" else inside.name)]
    return []
