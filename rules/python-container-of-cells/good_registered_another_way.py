"""Plain lists whose Cells are registered after all: wrapped later, under another name or by the
same one, appended to a Cell container, registered one by one, or holding no Parameters."""

from mindspore import nn


class WrappedUnderAnotherName(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        layers = [nn.Dense(4, 4), nn.Dense(4, 4)]
        self.layers = layers
        self.body = nn.SequentialCell(*layers)

    def construct(self, x):
        return self.body(x)


class ListAndCellListOfIt(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.layers = [nn.Dense(4, 4), nn.Dense(4, 4)]
        self.registered = nn.CellList(self.layers)

    def construct(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


class LocalRebound(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self, depth=2):
        super().__init__()
        layers = []
        for _ in range(depth):
            layers.append(nn.Dense(4, 4))
        layers = nn.SequentialCell(*layers)
        self.layers = layers

    def construct(self, x):
        return self.layers(x)


class AppendedToSequentialCell(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self, depth=2):
        super().__init__()
        layers = nn.SequentialCell()
        for _ in range(depth):
            layers.append(nn.Dense(4, 4))
        self.layers = layers

    def construct(self, x):
        return self.layers(x)


class AppendedToCellList(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        heads = nn.CellList()
        heads.append(nn.Dense(4, 2))
        heads.append(nn.Dense(4, 2))
        self.heads = heads

    def construct(self, x):
        return self.heads[0](x) + self.heads[1](x)


class InsertedOneByOne(nn.Cell):  # mslint: inputs=float32[2,4]
    """`insert_child_to_cell` keeps the Parameters' own names: two Cells of a class would clash in LAX."""

    def __init__(self):
        super().__init__()
        self.layers = [nn.Dense(4, 4), nn.LayerNorm((4,))]
        for i, layer in enumerate(self.layers):
            self.insert_child_to_cell(f"layer{i}", layer)

    def construct(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


class AlsoInRegisteredCellLists(nn.Cell):  # mslint: inputs=float32[2,4]
    """The plain lists index Cells that a CellList kept on the Cell holds too: one registered with
    `insert_child_to_cell` (by keyword), one set as an attribute."""

    def __init__(self, parts=2):
        super().__init__()
        heads = []
        head_cells = nn.CellList()
        self.tails = []
        self.tail_cells = nn.CellList()
        for _ in range(parts):
            head = nn.Dense(4, 4)
            heads.append(head)
            head_cells.append(head)
            tail = nn.LayerNorm((4,))  # its Parameters' names differ from the heads': both lists are named by index
            self.tails.append(tail)
            self.tail_cells.append(tail)
        self.insert_child_to_cell(child_name="head_cells", child_cell=head_cells)
        self.heads = heads

    def construct(self, x):
        return self.tails[0](self.heads[0](x)) + self.tails[1](self.heads[1](x))


class ParameterFreeActivations(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.activations = [nn.ReLU(), nn.GELU(), nn.Sigmoid()]
        self.by_name = {"relu": nn.ReLU(), "tanh": nn.Tanh()}

    def construct(self, x):
        for activation in self.activations:
            x = activation(x)
        return self.by_name["relu"](x) + self.by_name["tanh"](x)


class _Candidates(nn.Cell):
    """No construct: it keeps the layers a search picks from, and no graph code reads the list."""

    def __init__(self):
        super().__init__()
        self.layers = [nn.Dense(4, 4), nn.Dense(4, 2)]

    def pick(self, index):
        return self.layers[index]


class PicksACandidate(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.head = _Candidates().pick(1)

    def construct(self, x):
        return self.head(x)


class StagesAppendedByIndexToACellList(nn.Cell):  # mslint: inputs=float32[2,4]
    """A plain list of stages (each an `nn.CellList`) that the kept CellList holds too, given
    its last item each time round."""

    def __init__(self, depth=2):
        super().__init__()
        self.stages = []
        self.layers = nn.CellList()
        for _ in range(depth):
            self.stages.append(nn.CellList([nn.Dense(4, 4), nn.Dense(4, 4)]))
            self.layers.append(self.stages[-1])

    def construct(self, x):
        for stage in self.stages:
            for layer in stage:
                x = layer(x)
        return x


class StagesExtendingACellList(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self, depth=2):
        super().__init__()
        self.stages = [nn.CellList([nn.Dense(4, 4)]) for _ in range(depth)]
        self.layers = nn.CellList()
        self.layers.extend(self.stages)

    def construct(self, x):
        for stage in self.stages:
            x = stage[0](x)
        return x


class StagesAlsoInAWrappedList(nn.Cell):  # mslint: inputs=float32[2,4]
    """Each stage also goes to a local list that becomes the kept `nn.CellList`."""

    def __init__(self, depth=2):
        super().__init__()
        self.stages = []
        layers = []
        for _ in range(depth):
            stage = nn.CellList([nn.Dense(4, 4), nn.Dense(4, 4)])
            self.stages.append(stage)
            layers.append(stage)
        self.layers = nn.CellList(layers)

    def construct(self, x):
        for stage in self.stages:
            for layer in stage:
                x = layer(x)
        return x
