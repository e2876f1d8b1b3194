"""Items of a Cell's list, dict or Tensor attribute changed in graph code."""

import numpy as np

from mindspore import Tensor, nn

SEEN = []
STEPS = 0


class CacheInDict(nn.Cell):  # mslint: inputs=float32[2,3]
    def __init__(self):
        super().__init__()
        self.cache = {}

    def construct(self, x):
        self.cache["last"] = x  # expect: python-side-effect-in-graph
        return x * 2


class HistoryInList(nn.Cell):  # mslint: inputs=float32[2,3]
    def __init__(self):
        super().__init__()
        self.history = [0]

    def construct(self, x):
        self.history[0] = x  # expect: python-side-effect-in-graph
        return x * 2


class TensorAttributeItem(nn.Cell):  # mslint: inputs=float32[2,3]
    def __init__(self):
        super().__init__()
        self.bias = Tensor(np.ones((2, 3), np.float32))

    def construct(self, x):
        self.bias[0] = 1.0  # expect: python-side-effect-in-graph
        return x + self.bias


class DictUpdate(nn.Cell):  # mslint: inputs=float32[2,3]
    def __init__(self):
        super().__init__()
        self.stats = {}

    def construct(self, x):
        self.stats.update(seen=1)  # expect: python-side-effect-in-graph
        return x * 2


class RemembersInputs(nn.Cell):  # mslint: inputs=float32[2,3]
    def __init__(self):
        super().__init__()
        self.inputs = []

    def construct(self, x):
        self.inputs.append(x)  # expect: python-side-effect-in-graph
        return x * 2


class DictPop(nn.Cell):  # mslint: inputs=float32[2,3]
    def __init__(self):
        super().__init__()
        self.pending = {"scale": 2}

    def construct(self, x):
        scale = self.pending.pop("scale")  # expect: python-side-effect-in-graph
        return x * scale


class AppendsToModuleList(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        SEEN.append(x)  # expect: python-side-effect-in-graph
        return x * 2


class CountsInGlobal(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        global STEPS
        STEPS += 1  # expect: python-side-effect-in-graph
        return x * 2


class RemovesFromList(nn.Cell):  # mslint: inputs=float32[2,3]
    def __init__(self):
        super().__init__()
        self.seen = [1, 2]

    def construct(self, x):
        self.seen.remove(1)  # expect: python-side-effect-in-graph
        return x * len(self.seen)


class ClearsList(nn.Cell):  # mslint: inputs=float32[2,3]
    def __init__(self):
        super().__init__()
        self.seen = [1, 2]

    def construct(self, x):
        self.seen.clear()  # expect: python-side-effect-in-graph
        return x * len(self.seen)


class InsertsIntoList(nn.Cell):  # mslint: inputs=float32[2,3]
    def __init__(self):
        super().__init__()
        self.seen = [1, 2]

    def construct(self, x):
        self.seen.insert(0, x)  # expect: python-side-effect-in-graph
        return x
