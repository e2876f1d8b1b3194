from __future__ import annotations

import ast
from collections.abc import Iterator

from mslint.diagnostics import Edit, Fix, Severity
from mslint.model.cell_classes import (
    cell_classes,
    has_method,
    is_base_of_a_construct,
    is_plain_cell,
    method,
    mindspore_bases,
    name_node,
    used_through_its_methods,
)
from mslint.model.instances import never_built
from mslint.model.module import ModuleInfo
from mslint.model.project import Project
from mslint.model.walk import descendants
from mslint.rules.base import Finding, Rule
from mslint.settings import Settings


class ForwardInsteadOfConstruct(Rule):
    """
    ## What it does
    Flags a Cell that defines `forward` and no `construct`, itself or in its base classes
    (a PyTorch habit), unless it is only a base: the project never builds it, and a
    subclass defines `construct`; or unless `forward` serves the Cell's own methods and the
    project calls those (`self.rotary_emb.rotate_queries_or_keys(q)`), never needing `construct`.
    The fix renames `forward` to `construct`, and the module's `.forward` reads with it
    (`self.block.forward(x)`); it is unsafe where there are such reads, which may be another
    object's.

    ## Why it breaks graph mode
    MindSpore runs a Cell's `construct`, never its `forward`. The Cell is built, but the
    first call fails, in graph mode and in PyNative mode alike, with
    `AttributeError: For 'Cell', the method 'construct' is not defined.` (MindSpore 2.10),
    raised from MindSpore's own `Cell.construct`, so the message names no line of the model.

    ## Example
    ```python
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.dense = nn.Dense(4, 4)

        def forward(self, x):
            return self.dense(x)
    ```

    ## Use instead
    ```python
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.dense = nn.Dense(4, 4)

        def construct(self, x):
            return self.dense(x)
    ```
    """

    code = "MS205"
    symbol = "forward-instead-of-construct"
    summary = "a Cell that defines `forward` and no `construct` (MindSpore only calls `construct`)"

    def severity(self, settings: Settings) -> Severity:
        return Severity.ERROR

    def check_module(self, module: ModuleInfo, project: Project) -> Iterator[Finding]:
        for cls in cell_classes(module, project):
            forward = method(cls.node, "forward")
            if forward is None or has_method(cls, project, "construct"):
                continue
            bases = mindspore_bases(cls, project)
            if bases is None or not all(is_plain_cell(base) for base in bases):
                continue  # a MindSpore Cell other than nn.Cell, or a third-party base, may define construct
            if is_base_of_a_construct(cls, project) and never_built(project, cls):
                continue  # an abstract base: MindSpore compiles only its subclasses, which define construct
            if used_through_its_methods(cls, project):
                continue  # graph code calls the methods that call `forward`, never the Cell as a whole
            yield Finding(
                name_node(cls.node, module),
                f"`{cls.node.name}` defines `forward` but no `construct`: MindSpore never calls `forward`",
                hint="rename `forward` to `construct`",
                fix=_rename(forward, module),
            )


def _rename(forward: ast.FunctionDef, module: ModuleInfo) -> Fix:
    """Rename the method, and every ``.forward`` the module reads: those may be another object's
    (a PyTorch module's), so then the fix is unsafe."""
    name = name_node(forward, module)
    reads = [n for n in descendants(module.tree) if isinstance(n, ast.Attribute) and n.attr == "forward"]
    edits = [Edit(name.lineno, name.col_offset + 1, name.lineno, (name.end_col_offset or 0) + 1, "construct")]
    for read in reads:
        end_line, end = read.end_lineno or read.lineno, (read.end_col_offset or 0) + 1
        edits.append(Edit(end_line, end - len("forward"), end_line, end, "construct"))
    edits.sort(key=lambda e: (e.line, e.column))
    return Fix("Rename `forward` to `construct`", tuple(edits), "unsafe" if reads else "safe")
