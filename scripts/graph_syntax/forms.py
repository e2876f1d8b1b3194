"""A form: one construct of Python (a statement, a builtin call, a module's function, a way to
touch state) written as a few lines of graph code, and the positions it is measured in.

A form's ``body`` runs in graph code with ``x``, a float32 Tensor of shape (2, 3), in scope and
must leave a Tensor in ``y``. Its hazard line (the line mslint should flag, and where the
compiler's evidence should point) is the body line ending in ``# hazard``, or its first line.
``setup`` lines run in ``__init__`` (``self`` in scope); ``module`` lines at the top of the file.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

HAZARD = "# hazard"

POSITIONS = ("construct", "helper", "jit", "branch", "loop", "run", "grad")
"""Where a form is measured: ``construct`` itself (compiled, not run); a method ``construct`` calls;
a ``@jit`` function; under ``if`` on a tensor; in a ``for`` loop; in ``construct`` compiled and run
once (what ``grad`` does, without the gradient); in ``construct`` compiled through ``value_and_grad``
and run."""


IMPORTS = ("import numpy as np", "import mindspore as ms", "from mindspore import nn, ops, Tensor")
"""The imports every generated program starts with."""
BLOCK_HEADS = {"branch": "if x.sum() > 0:", "loop": "for _ in range(2):"}
"""The statement a form's body is nested in at the ``branch`` and ``loop`` positions."""


@dataclass(frozen=True)
class Form:
    id: str
    """Stable key of the table's row, ``family.name[/variant]``: ``builtin.max/tensor-int``."""
    family: str
    body: str
    setup: str = ""
    module: str = ""
    argument: str = ""
    """A Python expression the entry is given as its second argument, ``n``, which the body reads
    (``3``, ``(3, 2)``, ``Tensor(3, ms.int32)``); such a form is placed in the entry itself."""

    @property
    def needs_self(self) -> bool:
        """A form that reads ``self`` cannot be measured in a ``@jit`` function."""
        return bool(self.setup) or "self" in self.body

    def positions(self) -> tuple[str, ...]:
        return tuple(p for p in POSITIONS if not (p == "jit" and self.needs_self))


@dataclass(frozen=True)
class Program:
    """One form rendered at one position: a module whose ``make()`` returns ``(entry, inputs)``."""

    form: Form
    position: str
    source: str
    hazard_line: int
    """1-based line of the form's hazard line in ``source``."""


def render(form: Form, position: str) -> Program:
    """The program measuring ``form`` at ``position`` (one of :data:`POSITIONS`)."""
    body = textwrap.dedent(form.body).strip("\n").splitlines()
    marked = next((i for i, line in enumerate(body) if line.rstrip().endswith(HAZARD)), 0)
    if position in BLOCK_HEADS:
        body = ["y = x", BLOCK_HEADS[position]] + ["    " + line for line in body]
        marked += 2
    graph = ["    " + line for line in body] + ["    return y"]
    lines = [
        *IMPORTS,
        *textwrap.dedent(form.module).strip("\n").splitlines(),
        "",
    ]
    setup = ["        " + line for line in textwrap.dedent(form.setup).strip("\n").splitlines()]
    if position == "jit":
        lines += ["@ms.jit", "def entry(x):"]
        start = len(lines)
        lines += graph
        lines += ["", "def make():", "    return entry, (_input(),)"]
    else:
        lines += ["class Net(nn.Cell):", "    def __init__(self):", "        super().__init__()", *setup, ""]
        if position == "helper":
            lines += ["    def construct(self, x):", "        return self.helper(x)", "", "    def helper(self, x):"]
        else:
            lines += ["    def construct(self, x):"]
        start = len(lines)
        lines += ["    " + line for line in graph]
        lines += ["", "", "def make():"]
        if position == "grad":
            lines += [
                "    global _grad",
                "    _grad = ms.value_and_grad(Net())",
                "    return ms.jit(_grad_step), (_input(),)",
                "",
                "",
                "def _grad_step(x):",
                "    return _grad(x)",
            ]
        elif position == "run":
            lines += [
                "    global _net",
                "    _net = Net()",
                "    return ms.jit(_run_step), (_input(),)",
                "",
                "",
                "def _run_step(x):",
                "    return _net(x)",
            ]
        else:
            lines += ["    return Net(), (_input(),)"]
    lines += ["", "", "def _input():", "    return Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))", ""]
    return Program(form, position, "\n".join(lines), start + marked + 1)


SEED_FORMS = (
    Form("builtin.max/tensor-int", "builtin", "y = max(x, 1)"),
    Form("builtin.len/tensor", "builtin", "y = x * len(x)"),
    Form("stdlib.random.random", "stdlib", "y = x * random.random()", module="import random"),
    Form("stdlib.math.sqrt/constant", "stdlib", "y = x * math.sqrt(4.0)", module="import math"),
    Form("state.self-list.append", "state", "self.seen.append(x)\ny = x", setup="self.seen = []"),
    Form("numpy.call/tensor", "numpy", "y = Tensor(np.sin(x.asnumpy()))"),
    Form("format.fstring/tensor", "format", 's = f"{x}"\ny = x'),
)
"""A few forms of each kind of outcome; the table's catalog lists the rest."""
