"""The model's memoized facts live exactly as long as their trees: none is written on a node,
and none keeps a tree alive after its analysis is gone (the language server and pylint check
for hours in one process)."""

from __future__ import annotations

import ast
from pathlib import Path

from mslint.engine import load_project
from mslint.model.memo import NodeMemo, facts_kept
from mslint.settings import Settings

NET = """\
import numpy as np
from mindspore import nn, ops

class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.layers = [nn.Dense(2, 2) for _ in range(3)]

    def construct(self, x):
        for layer in self.layers:
            x = layer(x)
        y = np.maximum(x, 0)
        return ops.relu(y)
"""


def test_facts_go_with_their_trees(tmp_path: Path) -> None:
    path = tmp_path / "net.py"
    path.write_text(NET, encoding="utf-8")
    before = facts_kept()
    analysis = load_project([path], Settings())
    assert analysis.report.diagnostics
    assert facts_kept() > before
    del analysis
    assert facts_kept() == before


def test_no_fact_is_written_on_a_node(tmp_path: Path) -> None:
    path = tmp_path / "net.py"
    path.write_text(NET, encoding="utf-8")
    analysis = load_project([path], Settings())
    module = analysis.project.modules[0]
    written = {name for node in ast.walk(module.tree) for name in vars(node) if name not in node._fields}
    assert written <= {"lineno", "col_offset", "end_lineno", "end_col_offset"}


def test_a_memo_computes_once_and_forgets_with_the_node() -> None:
    memo: NodeMemo[ast.AST, int] = NodeMemo()
    calls = []
    node = ast.parse("x = 1")
    assert memo(node, lambda n: calls.append(type(n)) or 7) == 7
    assert memo(node, lambda n: calls.append(type(n)) or 8) == 7
    assert calls == [ast.Module] and len(memo) == 1
    del node
    assert len(memo) == 0
