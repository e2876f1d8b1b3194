"""Lists and dicts in graph code that compile cleanly: the Cell's own only read, a local one changed."""

from mindspore import nn, ops


class ReadCache(nn.Cell):  # mslint: inputs=float32[2,3]
    def __init__(self):
        super().__init__()
        self.cache = {"a": 2}
        self.sizes = [1, 2]

    def construct(self, x):
        return x * self.cache["a"] * self.sizes[1]


class LocalList(nn.Cell):  # mslint: inputs=float32[2,3]
    def __init__(self):
        super().__init__()
        self.scale = 2

    def construct(self, x):
        parts = [x]
        parts.append(x * self.scale)
        return ops.concat(parts)
