"""What the top graph may return, and what graph code may hand to the graph code that calls it."""

from mindspore import nn


class ReturnsResults(nn.Cell):  # mslint: inputs=float32[2,4]
    def head(self, x):
        return x * 2

    def construct(self, x):
        return x, self.head(x)


class Features(nn.Cell):
    def construct(self, x):
        return {"features": x, "scores": x * 2}


class ReadsASubCellsDict(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.features = Features()

    def construct(self, x):
        out = self.features(x)
        return out["features"] + out["scores"]


class ReadsADictCall(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        parts = dict(scale=2, shift=1)
        return x * parts["scale"] + parts["shift"]


class ReturnsAPropertyValue(nn.Cell):  # mslint: inputs=float32[2,4]
    @property
    def scale(self):
        return 2

    def construct(self, x):
        def double(y):
            return y * 2

        return double(x) * self.scale


class Scale:
    def __init__(self, factor):
        self.factor = factor


class UsesAPlainObject(nn.Cell):  # mslint: inputs=float32[2,3]
    def __init__(self):
        super().__init__()
        self.scale = Scale(2.0)

    def construct(self, x):
        return x * self.scale.factor
