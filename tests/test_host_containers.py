"""The value model of code that is not compiled, given the project: the Cells and Parameters an
``__init__`` builds, the containers an expression may be and what they hold."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path
from typing import Callable

from mslint.model.abstract import AbstractAny, AbstractInstance, AbstractScalar, AbstractTensor, Kind
from mslint.model.host_values import HostValues
from mslint.model.module import ModuleInfo
from mslint.model.project import ClassRef, Project
from mslint.model.values import UNKNOWN

Write = Callable[[str, str], Path]

CELLS = """
import numpy as np
from mindspore import Parameter, Tensor, nn


class Block(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 4)


class Act(nn.Cell):
    def __init__(self, name):
        super().__init__()
        self.name = name


def either(flag):
    if flag:
        return nn.Dense(4, 4)
    return nn.Identity()
"""


def _init(
    write: Write, body: str, *others: tuple[str, str], methods: str = ""
) -> tuple[HostValues, dict[str, ast.expr]]:
    """The values of ``Net.__init__`` (``body`` under it) and what it assigns each attribute."""
    source = CELLS + "\n\nclass Net(nn.Cell):\n    def __init__(self, blocks=None):\n        super().__init__()\n"
    source += textwrap.indent(textwrap.dedent(body).strip("\n"), " " * 8) + "\n\n"
    source += textwrap.indent(textwrap.dedent(methods).strip("\n"), " " * 4) + "\n"
    project = Project()
    for name, text in [("net.py", source), *others]:
        path = write(name, text)
        project.add(ModuleInfo.parse(path, path.read_text(), checked=True))
    module = project.modules[0]
    cls = ClassRef(module, module.classes["Net"])
    init = cls.node.body[0]
    assert isinstance(init, ast.FunctionDef)
    assigned = {
        t.attr: node.value
        for node in ast.walk(init)
        if isinstance(node, ast.Assign)
        for t in node.targets
        if isinstance(t, ast.Attribute)
    }
    return HostValues(init, module, project, cls), assigned


def _cell(qualname: str, parameters: bool | None) -> AbstractInstance:
    return AbstractInstance(Kind.CONSTANT, qualname, True, parameters)


def test_calls_make_cells_that_own_parameters_or_not_and_parameters(write: Write) -> None:
    values, assigned = _init(
        write,
        """
        self.a = nn.Dense(4, 4)
        self.b = nn.ReLU()
        self.c = nn.Dropout(p=0.5)
        self.d = nn.SequentialCell()
        self.e = Block()
        self.f = Act("relu")
        self.g = Act(blocks)
        self.h = Parameter(Tensor(np.ones(4)), name="w")
        self.i = len(blocks)
        """,
    )
    made = {name: values.objects(value) for name, value in assigned.items()}
    assert made == {
        "a": [_cell("mindspore.nn.Dense", True)],
        "b": [_cell("mindspore.nn.ReLU", False)],
        "c": [_cell("mindspore.nn.Dropout", False)],
        "d": [_cell("mindspore.nn.SequentialCell", True)],  # it holds what it is given
        "e": [_cell("net.Block", True)],
        "f": [_cell("net.Act", False)],  # creates none and is given a literal
        "g": [_cell("net.Act", None)],  # may keep what it is given
        "h": [AbstractTensor(Kind.GRAPH, parameter=True)],
        "i": [AbstractScalar(Kind.CONSTANT, "int")],
    }
    assert {name: [values.value(value)] for name, value in assigned.items()} == made


def test_helpers_return_each_of_their_values_unjoined(write: Write) -> None:
    values, assigned = _init(
        write,
        """
        self.a = either(True)
        self.b = self._make(2)
        """,
        methods="""
        def _make(self, depth):
            layers = []
            for _ in range(depth):
                layers.append(Block())
            return nn.SequentialCell(layers)
        """,
    )
    assert values.objects(assigned["a"]) == [_cell("mindspore.nn.Dense", True), _cell("mindspore.nn.Identity", False)]
    assert values.objects(assigned["b"]) == [_cell("mindspore.nn.SequentialCell", True)]
    # `value` joins them: Cells of two classes have no type in common.
    assert values.value(assigned["a"]) == AbstractAny(Kind.CONSTANT)


def test_containers_literals_generators_and_grown_locals(write: Write) -> None:
    values, assigned = _init(
        write,
        """
        self.a = [nn.Dense(4, 4)]
        self.b = tuple(nn.Dense(4, 4) for _ in range(2))
        layers = []
        layers.append(nn.Dense(4, 4))
        layers += [nn.ReLU()]
        self.c = layers
        body = []
        body.append(nn.Dense(4, 4))
        body = nn.SequentialCell(*body)
        self.d = body
        self.e = nn.Dense(4, 4)
        """,
    )
    kinds = {name: [type(c.node).__name__ for c in values.containers(value)] for name, value in assigned.items()}
    assert kinds == {
        "a": ["List"],
        "b": ["GeneratorExp"],
        "c": ["List", "List", "List"],  # `[]`, the appended item, the `+=` list
        "d": [],  # rebound to the Cell it was built into
        "e": [],
    }
    assert values.containers(assigned["c"], hidden=lambda name: name == "layers") == []
    (grown,) = values.containers(assigned["c"])[1:2]
    assert values.held(grown) == [_cell("mindspore.nn.Dense", True)]


def test_an_attribute_grown_by_append_insert_and_extend(write: Write) -> None:
    values, assigned = _init(
        write,
        """
        self.blocks = []
        self.blocks.append(Block())
        self.blocks.insert(0, nn.ReLU())
        self.blocks.extend([nn.Dropout(p=0.1)])
        """,
    )
    target = ast.Attribute(ast.Name("self", ast.Load()), "blocks", ast.Load())
    held = [v for c in values.grown(target) for v in values.held(c)]
    assert held == [_cell("net.Block", True), _cell("mindspore.nn.ReLU", False), _cell("mindspore.nn.Dropout", False)]
    assert [type(c.node).__name__ for c in values.containers(assigned["blocks"])] == ["List"]


def test_what_a_container_holds_through_names_nested_lists_and_unpacking(write: Write) -> None:
    values, assigned = _init(
        write,
        """
        first, second = nn.Dense(4, 4), nn.ReLU()
        inner = [Block()]
        registered = nn.Dense(4, 4)
        self.a = [first, second, *inner, registered]
        """,
    )
    (container,) = values.containers(assigned["a"])
    assert values.held(container) == [
        _cell("mindspore.nn.Dense", True),
        _cell("mindspore.nn.ReLU", False),
        _cell("net.Block", True),
        _cell("mindspore.nn.Dense", True),
    ]
    assert values.held(container, hidden=lambda name: name == "registered") == [
        _cell("mindspore.nn.Dense", True),
        _cell("mindspore.nn.ReLU", False),
        _cell("net.Block", True),
    ]


def test_a_container_given_to_init_where_the_class_is_instantiated(write: Write) -> None:
    caller = """
from mindspore import nn
from net import Block, Net


def build(name):
    spare = Block()
    return Net([spare, nn.ReLU(), Block()]), Net(blocks=(nn.Dense(4, 4),))
"""
    values, assigned = _init(write, "self.blocks = blocks", ("main.py", caller))
    given = values.containers(assigned["blocks"])
    assert [type(c.node).__name__ for c in given] == ["List", "Tuple"]
    assert given[0].values is not values  # read in the code that wrote it
    assert [values.held(c) for c in given] == [
        [_cell("net.Block", True), _cell("mindspore.nn.ReLU", False), _cell("net.Block", True)],
        [_cell("mindspore.nn.Dense", True)],
    ]


def test_without_the_project_calls_of_the_checked_code_stay_unknown(write: Write) -> None:
    path = write("solo.py", CELLS + "\nlayer = nn.Dense(4, 4)\nlayers = [layer]\n")
    module = ModuleInfo.parse(path, path.read_text(), checked=True)
    values = HostValues(module.tree, module)
    (container,) = values.containers(ast.Name("layers", ast.Load()))
    assert values.held(container) == [UNKNOWN]
    assert not values.makes_cell(ast.parse("nn.Dense(4, 4)", mode="eval").body)  # type: ignore[arg-type]
