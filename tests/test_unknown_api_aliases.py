"""unknown-mindspore-api resolves every alias of a MindSpore module, also through the project's
own re-exports, and only a real version guard (MindSpore's version, hasattr, a try catching the
error) leaves an absent name alone."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from mslint.engine import check_files
from mslint.settings import Settings

Write = Callable[[str, str], Path]


def findings(paths: list[Path]) -> list[tuple[str, int, str]]:
    report = check_files(paths, Settings(select=("unknown-mindspore-api",), mindspore_version="2.10"))
    return sorted((Path(d.path).name, d.line, d.message.split("`")[1]) for d in report.diagnostics)


def test_names_read_through_the_projects_own_reexports(write: Write) -> None:
    write("project/common/__init__.py", "")
    write(
        "project/common/ms_ops.py",
        """
        from mindspore.ops import operations as P
        import mindspore.ops.functional as F
        from mindspore.ops import *
        """,
    )
    write("project/common/api.py", "from common.ms_ops import P as Prims, F\n")
    net = write(
        "project/net.py",
        """
        from common.api import Prims, F
        from common import ms_ops


        def build():
            return Prims.ResizeBilinear((8, 8)), F.ReduceSum(), ms_ops.P.Sum(), Prims.ReduceSum()
        """,
    )
    assert findings([net]) == [
        ("net.py", 6, "mindspore.ops.functional.ReduceSum"),
        ("net.py", 6, "mindspore.ops.operations.ResizeBilinear"),
        ("net.py", 6, "mindspore.ops.operations.Sum"),
    ]


def test_star_imports_of_a_reexporting_module(write: Write) -> None:
    write("project/ms_names.py", "import mindspore as ms\nfrom mindspore.ops import operations as P\n")
    net = write("project/net.py", "from ms_names import *\n\nx = ms.mean, P.Upsample, ms.ops.mean\n")
    assert findings([net]) == [("net.py", 3, "mindspore.mean"), ("net.py", 3, "mindspore.ops.operations.Upsample")]


def test_a_name_imports_bind_to_different_modules_is_neither(write: Write) -> None:
    """Held-out (ACL-DGReID-mindspore, test/align/torch.nn.ReLU.py): ``import torch.nn as nn``, a
    PyTorch call, then ``import mindspore.nn as nn``: the first call was read as mindspore.nn's."""
    script = "import torch.nn as nn\n\nrelu = nn.ReLU(inplace=True)\n\nimport mindspore.nn as nn\n\nnn.Nothing\n"
    assert findings([write("project/align.py", script)]) == []
    same = "import mindspore.ops as P\nfrom mindspore import ops as P\n\nx = P.Nothing\n"
    assert findings([write("project/same.py", same)]) == [("same.py", 4, "mindspore.ops.Nothing")]


def test_a_project_class_of_the_same_name_is_the_projects(write: Write) -> None:
    write("project/ops.py", "class P:\n    Sum = 1\n")
    net = write("project/net.py", "from ops import P\n\nimport mindspore\n\nx = P.Sum\n")
    assert findings([net]) == []


def test_only_mindspore_versions_hasattr_and_caught_errors_guard_a_name(write: Write) -> None:
    write(
        "project/versions.py",
        """
        import mindspore

        NEW_RELEASE = mindspore.__version__ >= "2"


        def old_release():
            return not NEW_RELEASE
        """,
    )
    net = write(
        "project/net.py",
        """
        from importlib.metadata import version

        import mindspore as ms
        from mindspore import ops
        from versions import NEW_RELEASE, old_release

        MS_VERSION = ms.__version__
        CONFIG_VERSION = 2

        if ms.__version__.startswith("1."):
            a = ops.ResizeBilinear
        if MS_VERSION < "2":
            a = ops.ResizeBilinear
        if not NEW_RELEASE:
            a = ops.ResizeBilinear
        if old_release():
            a = ops.ResizeBilinear
        if version("mindspore") < "2":
            a = ops.ResizeBilinear
        if hasattr(ops, "ResizeBilinear"):
            a = ops.ResizeBilinear
        try:
            a = ops.ResizeBilinear
        except (ImportError, AttributeError):
            a = None
        if CONFIG_VERSION == 2:
            a = ops.ResizeBilinear
        if a is None:
            a = ops.Upsample
        try:
            a = ops.Upsample
        except TypeError:
            a = None
        try:
            a = ops.pad(a, paddings=1)
        except TypeError:
            a = None
        try:
            a = ops.pad(a, paddings=1)
        except AttributeError:
            a = None
        """,
    )
    assert findings([net]) == [
        ("net.py", 27, "mindspore.ops.ResizeBilinear"),
        ("net.py", 29, "mindspore.ops.Upsample"),
        ("net.py", 31, "mindspore.ops.Upsample"),
        ("net.py", 39, "mindspore.ops.pad"),
    ]


def test_code_after_a_version_return_and_functions_only_it_names_are_guarded(write: Write) -> None:
    net = write(
        "project/version_control.py",
        """
        import mindspore as ms
        from mindspore.ops import functional as F


        def get_norm():
            def new_norm(x):
                return F.norm(x, dim=1)

            def old_norm(x):
                return F.norm(x, 1, p=2, keep_dims=False)

            if ms.__version__ >= "1.11":
                return new_norm
            return old_norm


        def unguarded(x):
            return F.norm(x, keep_dims=False)
        """,
    )
    assert findings([net]) == [("version_control.py", 18, "mindspore.ops.functional.norm")]
