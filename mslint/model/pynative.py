"""PyNative-only modules, found from the scripts that set the mode.

In PyNative mode (MindSpore's default since 2.0) a Cell's ``construct`` runs eagerly, as
ordinary Python: numpy on a tensor works there. ``@jit`` functions, ``jit(cell)`` and the
Cells they call still compile, in any mode. So a module is PyNative-only only where the run
leaves no doubt:

* a *PyNative script* calls ``set_context(mode=PYNATIVE_MODE)`` (or ``mode=1``, or a field of a
  configuration file the program names that holds 1: :mod:`mslint.model.config_files`, or a choice
  decided for PyNative: :mod:`mslint.model.mode_choice`), or calls a function of the project that
  selects PyNative alone (``init_env(cfg)``), and neither
  it nor any project module it imports, at any depth, sets another mode (``GRAPH_MODE``, a
  mode taken from a variable, ``**options``) or uses ``jit`` / ``ms_function``;
* an entry script that selects no mode runs in MindSpore's default mode, PyNative: beside a
  PyNative script whose code it imports, where neither it nor what it imports sets another mode
  or uses ``jit``, it leaves that code PyNative-only (MVSNet's ``eval.py`` beside its
  ``train.py``), while its own Cells stay graph code (a model file's demo) and a pytest module
  keeps the Cells it tests graph code;
* such a script, or a module it imports, is PyNative-only when every module of the run that
  imports it is PyNative-only too: a test or another script that imports a module keeps its
  Cells graph entries. Modules that import each other (a package's ``__init__.py`` and its
  submodules) are PyNative-only together when nothing else of the run imports them;
* a Cell of a module that such a script imports is PyNative-only when the other modules that
  import it are scripts (nothing imports them) that build the Cell without ever calling it as
  a whole (``cell_uses``): MoCo's GRAPH_MODE ``infer.py`` runs only ``model.encoder_q``;
* or when no code outside the PyNative programs names it, through the functions and methods that
  lead to it (:mod:`mslint.model.pynative_users`): a package's ``__init__.py`` that re-exports it
  builds nothing (mindarmour's ``ShadowModelLoss``);
* a library module that nothing imports is PyNative-only when the code it imports is: it
  counts as one more PyNative script where that leaves all it imports PyNative-only.
"""

from __future__ import annotations

import ast
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from mslint.model.abstract import NOT_KNOWN
from mslint.model.cell_uses import CellUses
from mslint.model.config_files import config_file_fields
from mslint.model.memo import NodeMemo
from mslint.model.mode_choice import (
    GRAPH,
    OTHER,
    PYNATIVE,
    UNDECIDED,
    chosen_modes,
    named_mode,
    never_runs,
    numbered_mode,
)
from mslint.model.module import ModuleInfo, imported_names, imports_in
from mslint.model.option_defaults import option_default
from mslint.model.project import ClassRef, FunctionRef, Project, is_mindspore_name, qualified_name_in
from mslint.model.pynative_users import cells_only_pynative_code_names
from mslint.model.scope import is_jit_decorated
from mslint.model.walk import descendants, own_nodes, statements

_MODES: NodeMemo[ast.AST, frozenset[str]] = NodeMemo()
_JIT: NodeMemo[ast.AST, bool] = NodeMemo()
_IMPORTED_MODULES: NodeMemo[ast.AST, frozenset[str]] = NodeMemo()
_MOVED: NodeMemo[ast.AST, dict[str, ModuleInfo]] = NodeMemo()


@dataclass(frozen=True)
class PyNativeCode:
    """The Cells that run only in PyNative mode, as far as the run shows: those of whole
    modules, and single Cells (their class nodes) of other modules."""

    modules: frozenset[Path]
    cells: frozenset[int]

    def __contains__(self, cell: object) -> bool:
        return isinstance(cell, ClassRef) and (cell.module.path in self.modules or id(cell.node) in self.cells)


def pynative_code(project: Project) -> PyNativeCode:
    """The modules and Cells of the run that only PyNative mode runs."""
    closures: dict[int, list[ModuleInfo]] = {}
    scripts = [m for m in list(project.modules) if _modes(m, project) == {PYNATIVE}]
    scripts += _scripts_made_pynative_by_an_import(project, closures)
    scripts += _scripts_made_pynative_by_a_call(project)
    default = _scripts_in_the_default_mode(project, scripts, closures)
    candidates, importers, only = _pynative_programs(project, scripts + default, closures)
    if not only:
        return PyNativeCode(frozenset(), frozenset())
    unimported = _unimported_library_modules(project, candidates)
    while unimported:
        wider_candidates, wider_importers, wider_only = _pynative_programs(
            project, scripts + default + unimported, closures
        )
        kept = [
            module
            for module in unimported
            if all(id(m) in wider_only for m in closures[id(module)])
            and any(id(m) in candidates for m in closures[id(module)][1:])
        ]
        if len(kept) == len(unimported):
            candidates, importers, only = wider_candidates, wider_importers, wider_only
            break
        unimported = kept
    for module in default:  # the code it imports runs eagerly; its own Cells stay graph code (module doc)
        candidates.pop(id(module), None)
        only.discard(id(module))
    dropped = [module for key, module in candidates.items() if key not in only]
    cells = _cells_never_called_elsewhere(project, dropped, importers, only)
    left = [
        node
        for module in dropped
        for node in module.classes.values()
        if id(node) not in cells and project.is_cell(ClassRef(module, node))
    ]
    programs = only | {id(module) for module in default}  # a default-mode script runs what it imports eagerly
    cells |= cells_only_pynative_code_names(list(project.modules), left, programs, _uses_jit)
    return PyNativeCode(frozenset(candidates[key].path for key in only), cells)


def graph_mode_modules(project: Project) -> frozenset[Path]:
    """The modules that a program selecting GRAPH_MODE runs: every module imported, at any
    depth, by one whose ``set_context`` calls all select ``GRAPH_MODE`` (``mode=0``), or by one
    that imports such a module (a ``utils/args.py`` that sets the context for ``train.py``).
    A mode read from a variable or an option is not known: such a program is not counted."""
    selecting = [m for m in project.modules if _modes(m, project) == {GRAPH}]
    if not selecting:
        return frozenset()
    importers = _importers(project, selecting)
    roots = {id(m): m for m in selecting}
    roots.update((id(u), u) for m in selecting for u in importers[id(m)] if _modes(u, project) <= {GRAPH})
    return frozenset(m.path for root in roots.values() for m in _imported_closure(root, project))


def pynative_mode_modules(project: Project) -> frozenset[Path]:
    """The modules that a program selecting PyNative may run: every module imported, at any
    depth, by one that calls ``set_context(mode=PYNATIVE_MODE)``, or a mode chosen by a condition
    mslint cannot decide with PyNative among its outcomes, anywhere (at its top level or
    in a function: a trainer's ``__init__``), or by a module that imports such a one (the entry
    script that calls the function). Such a program is not known to compile its Cells: a line
    of ``construct`` fails there only when it runs. A module may be in this set and in
    :func:`graph_mode_modules` too (another program of the project compiles it)."""
    selecting = [m for m in project.modules if _modes(m, project) & {PYNATIVE, UNDECIDED}]
    if not selecting:
        return frozenset()
    importers = _importers(project, selecting)
    roots = {id(m): m for m in selecting}
    roots.update((id(u), u) for m in selecting for u in importers[id(m)] if GRAPH not in _modes(u, project))
    return frozenset(m.path for root in roots.values() for m in _imported_closure(root, project))


def may_run_in_pynative(project: Project, entry: FunctionRef) -> bool:
    """Whether the run of ``entry`` is not known to compile it: a program that selects
    PYNATIVE_MODE runs its module (:func:`pynative_mode_modules`), no program that selects
    GRAPH_MODE does, and it is no ``@jit`` function (compiled in any mode). PyNative fails on a
    line of ``construct`` only when the line runs."""
    path = entry.module.path
    return (
        path in project.derived(pynative_mode_modules)
        and path not in project.derived(graph_mode_modules)
        and not is_jit_decorated(entry.node, entry.module)
    )


def _scripts_made_pynative_by_an_import(project: Project, closures: dict[int, list[ModuleInfo]]) -> list[ModuleInfo]:
    """Scripts that select no mode but import a module that selects PyNative when it is
    imported (a ``set_context`` among its top-level statements: a project's ``datautil.py``
    imported by its ``eval.py``). Found only where such a module exists: most runs have none."""
    if not any(PYNATIVE in _modes(m, project) for m in project.modules):
        return []  # the cheap test: no module selects PyNative anywhere
    at_import: dict[int, frozenset[str]] = {}  # by module: the closures below share most modules

    def selects_pynative(module: ModuleInfo) -> bool:
        modes = at_import.get(id(module))
        if modes is None:
            modes = at_import[id(module)] = _modes_at_import(module, project)
        return modes == {PYNATIVE}

    if not any(selects_pynative(m) for m in project.modules):
        return []
    found = []
    for module in list(project.modules):
        if _modes(module, project) or _is_library(module):
            continue
        if id(module) not in closures:
            closures[id(module)] = _imported_closure(module, project)
        if any(selects_pynative(m) for m in closures[id(module)][1:]):
            found.append(module)
    return found


def _scripts_made_pynative_by_a_call(project: Project) -> list[ModuleInfo]:
    """Scripts that select no mode but call a function of the project that selects PyNative, and
    only PyNative (``init_env(cfg)`` in ``main()``, whose body calls ``set_context``)."""
    selecting = {
        id(function): function.name
        for module in project.modules
        if _modes(module, project) == {PYNATIVE}
        for function in module.nodes_of(ast.FunctionDef)
        if "set_context" in {n.attr if isinstance(n, ast.Attribute) else n.id for n in _called(function)}
    }
    if not selecting:
        return []  # the cheap test: no module selects PyNative alone
    names = set(selecting.values())
    found = []
    for module in list(project.modules):
        if _modes(module, project) or _is_library(module):
            continue
        for call in module.nodes_of(ast.Call):
            if _name_called(call.func) not in names:
                continue
            called = project.resolve_expr(call.func, module)
            if isinstance(called, FunctionRef) and id(called.node) in selecting:
                found.append(module)
                break
    return found


def _scripts_in_the_default_mode(
    project: Project, scripts: list[ModuleInfo], closures: dict[int, list[ModuleInfo]]
) -> list[ModuleInfo]:
    """Entry scripts that select no mode, other than the PyNative ``scripts``, that import code
    that those of them that call ``set_context`` themselves import (entry scripts, or library
    modules that select the mode when a class of theirs is built: MVSNet's ``eval.py`` beside its
    PyNative ``train.py``), where neither they nor any project module they import selects another
    mode or uses ``jit``: they run in MindSpore's default mode, PyNative. Tests keep the Cells
    they test graph code."""
    selecting = [
        s for s in scripts if _modes(s, project) == {PYNATIVE} and (not _is_library(s) or _selects_when_built(s))
    ]
    if not selecting:
        return []  # the cheap test: no program selects PyNative
    for script in selecting:
        if id(script) not in closures:
            closures[id(script)] = _imported_closure(script, project)
    reached = {id(m) for script in selecting for m in closures[id(script)]}
    taken = reached | {id(s) for s in scripts}
    found = []
    for module in list(project.modules):
        if id(module) in taken or _modes(module, project) or _is_library(module) or _is_pytest_module(module):
            continue
        if id(module) not in closures:
            closures[id(module)] = _imported_closure(module, project)
        program = closures[id(module)]
        if any(id(m) in reached for m in program[1:]) and all(
            _modes(m, project) <= {PYNATIVE} and not _uses_jit(m) for m in program
        ):
            found.append(module)
    return found


def _selects_when_built(module: ModuleInfo) -> bool:
    """Whether a class of the library module calls, on ``self``, a method of its own that calls
    ``set_context`` (DistributedRAG's ``QwenCausalLM.__init__`` calls ``self._set_device``): building
    it selects the mode, where a function that nothing may call selects nothing."""
    for cls in module.classes.values():
        selecting = {
            f.name
            for f in cls.body
            if isinstance(f, ast.FunctionDef) and any(_name_called(n) == "set_context" for n in _called(f))
        }
        if any(_is_self_method(n, selecting) for n in descendants(cls) if isinstance(n, ast.Call)):
            return True
    return False


def _is_self_method(call: ast.Call, names: set[str]) -> bool:
    func = call.func
    return (
        isinstance(func, ast.Attribute)
        and func.attr in names
        and isinstance(func.value, ast.Name)
        and func.value.id == "self"
    )


def _called(function: ast.FunctionDef) -> list[ast.Name | ast.Attribute]:
    return [
        n.func
        for n in descendants(function)
        if isinstance(n, ast.Call) and isinstance(n.func, (ast.Name, ast.Attribute))
    ]


def _name_called(func: ast.expr) -> str | None:
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None


def _modes_at_import(module: ModuleInfo, project: Project) -> frozenset[str]:
    """The modes selected by the module's top-level statements, outside a ``__main__`` guard:
    importing the module selects them, also through a function of the project it calls there
    (``setup_env()`` in a package's ``__init__.py``, whose body calls ``set_context``)."""
    guarded = {id(n) for s in module.tree.body if _is_main_guard(s) for n in descendants(s)}
    calls = [n for n in own_nodes(module.tree) if isinstance(n, ast.Call) and id(n) not in guarded]
    bindings = imports_in(module.tree, module.package)
    modes = {
        mode
        for node in calls
        if _is_set_context(node, module, bindings)
        for mode in _mode_of(node, module, bindings, project)
    }
    for node in calls:
        called = project.resolve_expr(node.func, module) if isinstance(node.func, (ast.Name, ast.Attribute)) else None
        if isinstance(called, FunctionRef) and _modes(called.module, project):
            inner = imports_in(called.module.tree, called.module.package)
            modes.update(
                mode
                for call in descendants(called.node)
                if isinstance(call, ast.Call) and _is_set_context(call, called.module, inner)
                for mode in _mode_of(call, called.module, inner, project)
            )
    return frozenset(modes)


def _is_main_guard(statement: ast.stmt) -> bool:
    test = statement.test if isinstance(statement, ast.If) else None
    return (
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Name)
        and test.left.id == "__name__"
        and any(isinstance(c, ast.Constant) and c.value == "__main__" for c in test.comparators)
    )


def _pynative_programs(
    project: Project, roots: list[ModuleInfo], closures: dict[int, list[ModuleInfo]]
) -> tuple[dict[int, ModuleInfo], dict[int, list[ModuleInfo]], set[int]]:
    """The modules that ``roots`` import, each root taken as a PyNative script, their importers,
    and which of them only PyNative code runs. ``closures`` keeps each root's closure for the
    next call."""
    candidates: dict[int, ModuleInfo] = {}
    for root in roots:
        if id(root) not in closures:
            closures[id(root)] = _imported_closure(root, project)
        program = closures[id(root)]
        if all(_modes(m, project) <= {PYNATIVE} and not _uses_jit(m) for m in program):
            candidates.update((id(m), m) for m in program)
    importers = _importers(project, list(candidates.values()))
    is_root = {id(m) for m in roots}
    # Every candidate is PyNative-only until an importer outside the set shows otherwise:
    # modules that import each other (a package and its submodules) stay in together.
    only = {key for key in candidates if importers[key] or key in is_root}
    changed = True
    while changed:
        changed = False
        for key in list(only):
            if not all(id(u) in only for u in importers[key]):
                only.discard(key)
                changed = True
    return candidates, importers, only


def _unimported_library_modules(project: Project, imported: dict[int, ModuleInfo]) -> list[ModuleInfo]:
    """The library modules that nothing imports and that select no mode.

    No script shows the mode of such a module, one whose import was dropped (ICON's
    ``seg3d_lossless.py``), but the code it is written on. It is PyNative-only where, taken as a
    PyNative script, it imports code that a PyNative script imports and all it imports stays
    PyNative-only. MoCo's ``split_batchnorm.py`` imports no project code and stays graph code.
    An entry point is no library module: a script (a ``__main__`` guard, or calls at its top
    level), whose own code runs in the graph mode mslint assumes where it selects no mode
    (External-Attention's model files, each with its own demo, beside the one that selects
    PyNative), or a pytest module, which keeps the Cells it tests graph code."""
    unimported = [m for m in project.modules if id(m) not in imported and not _modes(m, project) and _is_library(m)]
    importers = _importers(project, unimported)
    return [m for m in unimported if not importers[id(m)]]


def _is_library(module: ModuleInfo) -> bool:
    return not (
        "__main__" in module.text
        or _is_test(module)
        or any(isinstance(s, ast.Expr) and isinstance(s.value, ast.Call) for s in module.tree.body)
    )


def _is_test(module: ModuleInfo) -> bool:
    name = module.path.name
    return name.startswith("test_") or name.endswith("_test.py") or name == "conftest.py"


def _is_pytest_module(module: ModuleInfo) -> bool:
    """A test module that pytest collects: a script named ``test_tank.py`` is none."""
    return _is_test(module) and any(
        (isinstance(s, ast.FunctionDef) and s.name.startswith("test"))
        or (isinstance(s, ast.ClassDef) and s.name.startswith("Test"))
        for s in module.tree.body
    )


def _cells_never_called_elsewhere(
    project: Project, dropped: list[ModuleInfo], importers: dict[int, list[ModuleInfo]], only: set[int]
) -> frozenset[int]:
    """Cells of the ``dropped`` modules (imported by a PyNative script and by other code) whose
    other importers are scripts that build them without calling them as a whole."""
    others = {id(m): [u for u in importers[id(m)] if id(u) not in only] for m in dropped}
    importers_of_others = _importers(project, list({id(u): u for us in others.values() for u in us}.values()))
    uses: dict[int, CellUses] = {}
    found: set[int] = set()
    for module in dropped:
        scripts = others[id(module)]
        if not scripts or any(importers_of_others[id(u)] for u in scripts):
            continue  # only a script that nothing imports keeps its instances to itself
        names = _identifiers(module.tree)
        for node in module.classes.values():
            cell = ClassRef(module, node)
            if (
                project.is_cell(cell)
                and names[node.name] == _identifiers(node)[node.name]  # no subclass or factory beside it
                and all(uses.setdefault(id(u), CellUses(project, u)).builds_without_calling(cell) for u in scripts)
            ):
                found.add(id(node))
    return frozenset(found)


def _identifiers(node: ast.AST) -> Counter[str]:
    """How often each name is used under ``node``, as a variable or as an attribute."""
    return Counter(
        n.id if isinstance(n, ast.Name) else n.attr
        for n in descendants(node)
        if isinstance(n, (ast.Name, ast.Attribute))
    )


def _imported_closure(script: ModuleInfo, project: Project) -> list[ModuleInfo]:
    """The script and every project module it imports, at any depth (packages on the way included)."""
    found = {id(script): script}
    walked = [script]
    for current in walked:  # grows while it is walked
        for name in _imported_modules(current):
            module = _module_imported(project, name, current)
            if module is not None and id(module) not in found:
                found[id(module)] = module
                walked.append(module)
    return walked


def _importers(project: Project, modules: list[ModuleInfo]) -> dict[int, list[ModuleInfo]]:
    """For each of ``modules``, the project modules that import it (or a module inside it).

    Imports are resolved as the closure resolves them: a folder without ``__init__.py`` makes
    ``models.net`` lead to a module that calls itself ``net``."""
    wanted = {id(m) for m in modules}
    stems = {m.name.rpartition(".")[2] for m in modules}
    importers: dict[int, list[ModuleInfo]] = {id(m): [] for m in modules}
    for importer in list(project.modules):
        for name in _imported_modules(importer):
            if name.rpartition(".")[2] not in stems:
                continue  # the cheap test: most imports lead elsewhere
            module = _module_imported(project, name, importer)
            if module is not None and id(module) in wanted and module is not importer:
                importers[id(module)].append(importer)
    return importers


def _module_imported(project: Project, name: str, importer: ModuleInfo) -> ModuleInfo | None:
    """The project module the import of ``name`` in ``importer`` runs, or the one it names from a
    former place (:func:`_moved_modules`)."""
    module = project.module_named(name, importer)
    return module if module is not None else _moved_modules(project, importer).get(name)


def _moved_modules(project: Project, importer: ModuleInfo) -> dict[str, ModuleInfo]:
    """Modules a script imports by a path the project no longer has, taken where they lie now
    (memoized by tree): ``from models.segmentation import DETRsegm`` in ``src/infer.py``, where the
    project's ``models`` package has no ``segmentation`` and ``src/segmentation.py``, beside the
    script, defines ``DETRsegm``. The script shows it is meant to run that module (the precision
    page's judging rule), so the module's mode is the script's. Only an import whose package is
    the project's, and only a module beside the script that defines every name it imports."""
    cached = _MOVED.get(importer.tree)
    if cached is None:
        cached = {}
        for statement in statements(importer.tree):
            if not (isinstance(statement, ast.ImportFrom) and statement.module and not statement.level):
                continue
            package, _, stem = statement.module.rpartition(".")
            if not package or project.module_named(package, importer) is None:
                continue  # another library's module, or none of the project
            if project.module_named(statement.module, importer) is not None:
                continue
            moved = project.module_named(stem, importer)  # the script's folder is on the path it runs with
            if (
                moved is not None
                and moved.path.resolve().parent == importer.path.resolve().parent
                and all(_defines(moved, alias.name) for alias in statement.names)
            ):
                cached[statement.module] = moved
        _MOVED.put(importer.tree, cached)
    return cached


def _defines(module: ModuleInfo, name: str) -> bool:
    """Whether the module's own code binds ``name`` at its top level (a class, a function, an assignment)."""
    return name in module.classes or name in module.functions or name in module.assigned


def _imported_modules(module: ModuleInfo) -> frozenset[str]:
    """Names of the modules an import may run: ``import a.b.c`` runs ``a``, ``a.b`` and ``a.b.c``
    (memoized by tree: every search for importers asks it of every module)."""
    cached = _IMPORTED_MODULES.get(module.tree)
    if cached is None:
        cached = frozenset(
            ".".join(parts[:length])
            for name in imported_names(module)
            for parts in [name.split(".")]
            for length in range(1, len(parts) + 1)
        )
        _IMPORTED_MODULES.put(module.tree, cached)
    return cached


def _modes(module: ModuleInfo, project: Project) -> frozenset[str]:
    """The execution modes the module's ``set_context`` calls select (memoized by tree)."""
    cached = _MODES.get(module.tree)
    if cached is None:
        modes: set[str] = set()
        if "set_context" in module.text:
            bindings = imports_in(module.tree, module.package)
            for node in descendants(module.tree):
                if isinstance(node, ast.Call) and _is_set_context(node, module, bindings):
                    modes.update(_mode_of(node, module, bindings, project))
        cached = frozenset(modes)
        _MODES.put(module.tree, cached)
    return cached


def _is_set_context(call: ast.Call, module: ModuleInfo, bindings: dict[str, str]) -> bool:
    return is_mindspore_name(_qualname(call.func, module, bindings), "set_context")


def _mode_of(call: ast.Call, module: ModuleInfo, bindings: dict[str, str], project: Project) -> list[str]:
    """The mode a ``set_context`` call selects: none, PyNative, graph, or an unknown one; a field of
    a configuration file the program names gives its number (``mode=config["mode"]``)."""
    if any(k.arg is None for k in call.keywords):
        return [OTHER]  # set_context(**options) may set any mode
    mode = next((k.value for k in call.keywords if k.arg == "mode"), None)
    if mode is None or never_runs(project, module, call):
        return []
    chosen = chosen_modes(project, module, mode)
    if chosen is not None:
        return chosen
    numbers = [mode.value] if isinstance(mode, ast.Constant) else config_file_fields(project, module, mode)
    modes = {numbered_mode(n) if type(n) is int else OTHER for n in numbers}
    if len(modes) > 1:  # launch scripts naming files of different modes: the run decides
        return [UNDECIDED] if PYNATIVE in modes else [OTHER]
    number = numbers[0] if numbers else NOT_KNOWN
    default = option_default(module, mode) if number is NOT_KNOWN else None
    if default is not None and type(default.value) is int:
        number = default.value
        if default.from_command_line and number != 1:
            # Another mode than PyNative makes findings errors: none rests on what a command line may change.
            return [OTHER]
    if type(number) is int:
        return [numbered_mode(number)]
    return [named_mode(_qualname(mode, module, bindings))]


def _uses_jit(module: ModuleInfo) -> bool:
    """Whether the module names ``mindspore.jit`` or ``ms_function`` anywhere (memoized by tree)."""
    cached = _JIT.get(module.tree)
    if cached is None:
        cached = False
        if "jit" in module.text or "ms_function" in module.text:
            bindings = imports_in(module.tree, module.package)
            cached = any(
                isinstance(node, (ast.Name, ast.Attribute))
                and is_mindspore_name(_qualname(node, module, bindings), "jit", "ms_function")
                for node in descendants(module.tree)
            )
        _JIT.put(module.tree, cached)
    return cached


def _qualname(expr: ast.expr, module: ModuleInfo, bindings: dict[str, str]) -> str | None:
    """The qualified name of ``expr`` through the imports anywhere in the module (``main()`` often imports)."""
    return qualified_name_in(expr, module, bindings, frozenset())
