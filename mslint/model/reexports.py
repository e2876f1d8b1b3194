"""What a name that the project re-exports stands for: ``from utils.ms import P``, where
``utils/ms.py`` does ``from mindspore.ops import operations as P``, names ``mindspore.ops.operations``."""

from __future__ import annotations

from mslint.model.module import ModuleInfo
from mslint.model.project import Project

_MAX_DEPTH = 8
"""Re-exports followed at most (a cycle of star imports ends here)."""


def library_name(qualname: str, near: ModuleInfo, project: Project) -> str:
    """``qualname`` with the project's re-exports followed to the name they import; unchanged
    where no module of the project imports it (a library's name, or the project's own class)."""
    for _ in range(_MAX_DEPTH):
        parts = qualname.split(".")
        found = _project_module(parts, near, project)
        if found is None:
            return qualname
        module, split = found
        name = parts[split]
        if name in module.classes or name in module.functions or name in module.assigned:
            return qualname
        imported = module.imports.get(name) or module.star_bindings.get(name)
        if imported is None:
            return qualname
        qualname, near = ".".join([imported, *parts[split + 1 :]]), module
    return qualname


def _project_module(parts: list[str], near: ModuleInfo, project: Project) -> tuple[ModuleInfo, int] | None:
    """The module of the project named by the longest prefix of ``parts`` that leaves a name, and
    where that name starts."""
    for split in range(len(parts) - 1, 0, -1):
        module = project.module_named(".".join(parts[:split]), near)
        if module is not None:
            return module, split
    return None
