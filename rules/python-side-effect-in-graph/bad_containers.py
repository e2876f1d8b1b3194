"""A list or dict kept by the Cell, changed in graph code: STRICT rejects it, or LAX falls back."""

from mindspore import nn


class PopFromCache(nn.Cell):  # mslint: inputs=float32[2,3]
    def __init__(self):
        super().__init__()
        self.cache = {"a": 1}

    def construct(self, x):
        return x * self.cache.pop("a")  # expect: python-side-effect-in-graph


class RemoveSeen(nn.Cell):  # mslint: inputs=float32[2,3]
    def __init__(self):
        super().__init__()
        self.seen = [1, 2]

    def construct(self, x):
        self.seen.remove(1)  # expect: python-side-effect-in-graph
        return x * len(self.seen)


class ExtendSeen(nn.Cell):  # mslint: inputs=float32[2,3]
    def __init__(self):
        super().__init__()
        self.seen = [1, 2]

    def construct(self, x):
        self.seen.extend([x])  # expect: python-side-effect-in-graph
        return x


class StoreInCache(nn.Cell):  # mslint: inputs=float32[2,3]
    def __init__(self):
        super().__init__()
        self.cache = {"a": 1}

    def construct(self, x):
        self.cache["a"] = 2  # expect: python-side-effect-in-graph
        return x * 2
