"""List comprehensions with an `if` clause that MindSpore 2.10 compiles (the clause tests a bool), and
the loops a dict comprehension of two `for` clauses is written as."""

from mindspore import nn


class FilteredOnComparisons(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        odd = [x * i for i in range(4) if i % 2 == 1]
        even = [x * i for i in range(4) if not i % 2]
        kept = [x * i for i in (1, 2, 3) if i != 2]
        converted = [x * i for i in range(4) if bool(i % 2)]
        numbers = [i for i in range(4) if i % 2]
        return odd[1] + even[1] + kept[1] + converted[0] * len(numbers)


class FilteredCells(nn.Cell):  # mslint: inputs=float32[2,3]
    def __init__(self):
        super().__init__()
        self.act = nn.ReLU()
        self.norm = None
        self.cell_list = nn.CellList([nn.ReLU(), nn.Tanh()])

    def construct(self, x):
        present = [cell(x) for cell in (self.act, self.norm) if cell is not None]
        relus = [cell(x) for cell in self.cell_list if isinstance(cell, nn.ReLU)]
        flagged = [x * i for i, flag in enumerate((True, False, True)) if flag]
        tensors = [part for part in (x, x * 2) if part is not None]
        return present[0] + relus[0] + flagged[1] + tensors[1]


class DictOfTwoLoops(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        grid = {}
        for i in range(2):
            row = {(i, j): x * i * j for j in range(2)}
            grid.update(row)
        return grid[(1, 1)]
