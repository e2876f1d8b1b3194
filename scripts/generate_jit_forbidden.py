"""Write mslint/data/jit-forbidden-<version>.json: the APIs the installed MindSpore refuses in graph code.

MindSpore registers them itself (``jit_forbidden_register`` and the forbidden modules of
``mindspore.graph._utils.check_jit_forbidden_api``, ``mindspore._check_jit_forbidden_api``
before 2.9); this script reads those registries and maps each forbidden function to the
public names users call it by (``mindspore.get_context`` for ``mindspore.context.get_context``).
Run it in an environment with the MindSpore release to describe: ``python scripts/generate_jit_forbidden.py``;
``--check`` only compares (the test suite runs it against the MindSpore it installs).
"""

from __future__ import annotations

import importlib
import inspect
import json
import sys

from mindspore_table import write_or_check

PUBLIC_NAMESPACES = (
    "mindspore",
    "mindspore.nn",
    "mindspore.ops",
    "mindspore.context",
    "mindspore.log",
    "mindspore.common.initializer",
)


def main() -> int:
    import mindspore

    try:
        from mindspore.graph._utils import check_jit_forbidden_api as registry
    except ModuleNotFoundError:  # before MindSpore 2.9 the registry was a top-level module
        from mindspore import _check_jit_forbidden_api as registry

    modules = sorted(registry.get_jit_forbidden_module())
    methods = sorted(registry.get_jit_forbidden_method())
    functions: dict[str, str] = {}
    for namespace in PUBLIC_NAMESPACES:
        module = importlib.import_module(namespace)
        for name in dir(module):
            if name.startswith("_"):
                continue
            value = getattr(module, name, None)
            if not inspect.isfunction(value):
                continue
            defined = f"{value.__module__}.{value.__qualname__}"
            if defined in methods or any(
                value.__module__ == m or value.__module__.startswith(m + ".") for m in modules
            ):
                functions[f"{namespace}.{name}"] = defined
    cell_methods = sorted(m.rsplit(".", 1)[1] for m in methods if m.startswith("mindspore.nn.cell.Cell."))
    tensor_methods = sorted(m.rsplit(".", 1)[1] for m in methods if m.startswith("mindspore.common.tensor.Tensor."))
    document = {
        "mindspore": mindspore.__version__,
        "modules": modules,
        "functions": dict(sorted(functions.items())),
        "cell_methods": [m for m in cell_methods if not m.startswith("_")],
        "tensor_methods": tensor_methods,
    }
    text = json.dumps(document, indent=1) + "\n"
    summary = f"{len(functions)} functions, {len(cell_methods)} Cell methods"
    return write_or_check(f"jit-forbidden-{mindspore.__version__}.json", text, summary)


if __name__ == "__main__":
    sys.exit(main())
