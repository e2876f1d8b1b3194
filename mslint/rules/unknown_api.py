from __future__ import annotations

import ast
from collections.abc import Iterator

from mslint.diagnostics import Severity
from mslint.mindspore_tables import table as release_table
from mslint.model.module import ModuleInfo
from mslint.model.project import Project, qualified_name
from mslint.model.walk import descendants
from mslint.rules.base import Finding, Rule
from mslint.settings import Settings


class UnknownMindsporeApi(Rule):
    """
    ## What it does
    Flags names of `mindspore.ops`, `mindspore.nn`, `mindspore.mint` and `mindspore.Tensor`
    that do not exist in the targeted MindSpore release, and keyword arguments those
    functions and classes do not take — anywhere in the code, not only in graph code. The
    names and parameters come from tables generated from the real releases
    (`scripts/generate_api_table.py`) and shipped with mslint, so no MindSpore install is
    needed: every release from 2.7.0 to 2.10.0. The release is `mindspore-version`
    (`--mindspore-version 2.9`), else the installed MindSpore's, else the newest.

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
    summary = "a `mindspore.ops`/`nn`/`mint` name or keyword argument that the MindSpore release lacks"

    def severity(self, settings: Settings) -> Severity:
        return Severity.ERROR

    def check_module(self, module: ModuleInfo, project: Project) -> Iterator[Finding]:
        table = release_table("api", project.mindspore_release)
        namespaces: dict[str, dict[str, list[str] | None]] = table["namespaces"]
        version = table["mindspore"]
        aliases = {local for local, name in module.imports.items() if name.split(".", 1)[0] == "mindspore"}
        if not aliases:
            return
        for node in descendants(module.tree):
            if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load) and _root(node) in aliases:
                namespace, _, name = (qualified_name(node, module) or "").rpartition(".")
                if _missing(namespaces, namespace, name):
                    yield Finding(node, f"`{namespace}.{name}` does not exist in MindSpore {version}", _HINT)
            elif isinstance(node, ast.ImportFrom) and node.module in namespaces and not node.level:
                for alias in node.names:
                    if alias.name != "*" and _missing(namespaces, node.module, alias.name):
                        yield Finding(
                            node, f"`{node.module}.{alias.name}` does not exist in MindSpore {version}", _HINT
                        )
            elif isinstance(node, ast.Call) and node.keywords and _root(node.func) in aliases:
                namespace, _, name = (qualified_name(node.func, module) or "").rpartition(".")
                accepted = namespaces.get(namespace, {}).get(name)
                for keyword in node.keywords:
                    if accepted is not None and keyword.arg is not None and keyword.arg not in accepted:
                        yield Finding(
                            keyword,
                            f"`{namespace}.{name}` has no parameter `{keyword.arg}` in MindSpore {version}",
                            f"its parameters are: {', '.join(accepted) or 'none'}",
                        )


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
