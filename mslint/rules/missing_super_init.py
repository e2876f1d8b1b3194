from __future__ import annotations

import ast
from collections.abc import Iterator

from mslint.diagnostics import Edit, Fix, Severity
from mslint.model.cell_classes import cell_classes, is_plain_cell, method, mindspore_bases, name_node
from mslint.model.module import ModuleInfo, is_self_attribute
from mslint.model.project import ClassRef, FunctionRef, Project, is_mindspore_name, qualified_name
from mslint.model.walk import descendants, statements
from mslint.rules.base import Finding, Rule
from mslint.settings import Settings


class MissingSuperInit(Rule):
    """
    ## What it does
    Flags a Cell subclass whose `__init__` never calls `super().__init__()` (nor
    `nn.Cell.__init__(self)` or a base class's `__init__(self, ...)`). The finding is on the
    first `self.<name> = ...` that builds a Cell, Parameter or operator (the line that
    raises), or on the class name when `__init__` keeps no such attribute.

    ## Why it breaks graph mode
    `Cell.__init__` creates the tables a Cell keeps its sub-Cells, Parameters and operators
    in. Without it, MindSpore 2.10 raises as soon as `__init__` gives the Cell one:
    `AttributeError: The 'Net' object has no attribute '_auto_prefix'.` for a sub-Cell,
    `'_primitives'` for an operator, and `AttributeError: For 'insert_param_to_cell', please
    call Cell.__init__() firstly.` for a Parameter. A Cell that keeps only plain values is
    built, but compiling it fails with `AttributeError: The 'Net' object has no attribute
    '_dynamic_shape_inputs'.` and calling it with `... no attribute '_init_flag'.`, in graph
    and PyNative mode alike.

    ## Example
    ```python
    class Net(nn.Cell):
        def __init__(self):
            self.dense = nn.Dense(4, 4)
    ```

    ## Use instead
    ```python
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.dense = nn.Dense(4, 4)
    ```
    """

    code = "MS204"
    symbol = "missing-super-init"
    summary = "a Cell subclass whose `__init__` never calls `super().__init__()`"

    def severity(self, settings: Settings) -> Severity:
        return Severity.ERROR

    def check_module(self, module: ModuleInfo, project: Project) -> Iterator[Finding]:
        for cls in cell_classes(module, project):
            init = method(cls.node, "__init__")
            if init is None or _calls_base_init(init):
                continue
            failing = _first_registration(init, module, project)
            where = f"setting `self.{failing.attr}` raises" if failing else "the Cell cannot be compiled"
            yield Finding(
                failing or name_node(cls.node, module),
                f"`{cls.node.name}.__init__` never calls `super().__init__()`: {where}",
                hint="call `super().__init__()` first in `__init__`",
                fix=_insert_super_init(init, cls, module, project),
            )


def _calls_base_init(init: ast.FunctionDef) -> bool:
    """``super().__init__(...)``, ``super(Net, self).__init__(...)`` or ``Base.__init__(self, ...)``."""
    self_name = init.args.args[0].arg
    for node in descendants(init):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "__init__":
            receiver = node.func.value
            if isinstance(receiver, ast.Call) and isinstance(receiver.func, ast.Name) and receiver.func.id == "super":
                return True
            if node.args and isinstance(node.args[0], ast.Name) and node.args[0].id == self_name:
                return True
    return False


def _first_registration(init: ast.FunctionDef, module: ModuleInfo, project: Project) -> ast.Attribute | None:
    """The first ``self.<name>`` set to a value MindSpore keeps in the tables ``Cell.__init__``
    makes (a Cell, a Parameter, an operator), which is where the constructor raises."""
    self_name = init.args.args[0].arg
    for node in statements(init):
        if isinstance(node, ast.Assign) and _may_need_cell_tables(node.value, module, project):
            target = next((t for t in node.targets if is_self_attribute(t, self_name)), None)
            if isinstance(target, ast.Attribute):
                return target
    return None


def _may_need_cell_tables(value: ast.expr, module: ModuleInfo, project: Project) -> bool:
    if not isinstance(value, ast.Call):
        return False  # plain values and names (a Cell passed in is not told apart from a number)
    qualname = qualified_name(value.func, module)
    if qualname is None:
        return True  # a local callable or a method such as `self._make_layer(...)`: most build layers
    if is_mindspore_name(qualname):
        namespace, _, name = qualname.rpartition(".")
        is_operator = namespace.startswith("mindspore.ops") and name[:1].isupper()
        return project.is_cell_name(qualname, module) or name in ("Parameter", "ParameterTuple") or is_operator
    resolved = project.resolve(qualname, module)
    if isinstance(resolved, ClassRef):
        return project.is_cell(resolved)
    return isinstance(resolved, FunctionRef)  # a project helper may build a layer; numpy, math... do not


def _insert_super_init(init: ast.FunctionDef, cls: ClassRef, module: ModuleInfo, project: Project) -> Fix | None:
    """``super().__init__()`` before the first statement after the docstring, when the base's
    ``__init__`` needs no argument (otherwise the user must say which)."""
    has_docstring = isinstance(init.body[0], ast.Expr) and isinstance(init.body[0].value, ast.Constant)
    statements = init.body[1:] if has_docstring else init.body
    if not statements or _base_init_needs_arguments(cls, project):
        return None
    first = statements[0]
    line = min([first.lineno, *(d.lineno for d in getattr(first, "decorator_list", []))])
    indent = module.line(line)[: first.col_offset]
    if indent.strip():  # the body shares a line with the header: `def __init__(self): self.a = 1`
        return None
    return Fix("Call `super().__init__()`", (Edit(line, 1, line, 1, f"{indent}super().__init__()\n"),))


def _base_init_needs_arguments(cls: ClassRef, project: Project) -> bool:
    """Whether the ``__init__`` that ``super().__init__()`` reaches has required parameters."""
    for base in project.mro(cls)[1:]:
        init = method(base.node, "__init__")
        if init is not None:
            arguments = init.args
            positional = [*arguments.posonlyargs, *arguments.args][1:]
            return len(positional) > len(arguments.defaults) or None in arguments.kw_defaults
    bases = mindspore_bases(cls, project)
    return bases is None or not all(is_plain_cell(base) for base in bases)
