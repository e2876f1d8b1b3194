"""The graph functions of a run, grouped by function, module and line span (mslint.model.graph_index)."""

from __future__ import annotations

import ast

from mslint.model.graph_index import GraphFunctionIndex
from mslint.model.module import ModuleInfo
from mslint.model.project import Project
from mslint.model.scope import graph_functions

SOURCE = """\
import numpy as np
import mindspore as ms
from mindspore import nn


def helper(x):
    return x + 1


class Net(nn.Cell):
    def construct(self, x):
        y = x * 2
        return helper(y)


def outside(x):
    return x


net = Net()
net(ms.Tensor(np.ones((2, 3)), ms.float32))
net(ms.Tensor(np.ones((4,)), ms.int32))
"""


def _index(write) -> tuple[GraphFunctionIndex, ModuleInfo]:
    path = write("net.py", SOURCE)
    module = ModuleInfo.parse(path, path.read_text(), checked=True)
    project = Project()
    project.add(module)
    return GraphFunctionIndex(graph_functions(project)), module


def _node_on(module: ModuleInfo, line: int) -> ast.AST:
    return next(n for n in ast.walk(module.tree) if isinstance(n, ast.Return) and n.lineno == line)


def test_each_graph_function_is_one_group_of_its_evaluations(write) -> None:
    index, _ = _index(write)
    groups = {evaluations[0].node.lineno: evaluations for evaluations in index.evaluations()}
    assert sorted(groups) == [6, 11]
    assert [function.called for function in groups[11]] == [
        "called at net.py:21 with float32[2,3]",
        "called at net.py:22 with int32[4]",
    ]
    assert len(groups[6]) == 1
    assert all(function.node is evaluations[0].node for evaluations in groups.values() for function in evaluations)


def test_the_spans_are_the_lines_of_the_graph_functions_once_each(write) -> None:
    index, module = _index(write)
    assert sorted(index.spans(module)) == [(6, 7), (11, 13)]


def test_a_node_is_in_the_innermost_graph_function_around_its_line(write) -> None:
    index, module = _index(write)
    around = index.around(module, _node_on(module, 13))
    assert [function.called for function in around] == [
        "called at net.py:21 with float32[2,3]",
        "called at net.py:22 with int32[4]",
    ]
    assert index.around(module, _node_on(module, 17)) == []  # `outside` is no graph code
    assert index.around(module, ast.Load()) == []  # no line: nothing holds it
