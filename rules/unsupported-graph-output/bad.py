"""What the top graph cannot hand back to Python."""

from mindspore import nn


def scale(x):
    return x * 2


class ReturnsAMethod(nn.Cell):  # mslint: inputs=float32[2,4]
    def head(self, x):
        return x * 2

    def construct(self, x):
        return x, self.head  # expect: unsupported-graph-output


class ReturnsAFunction(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return scale  # expect: unsupported-graph-output


class ReturnsALambda(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return x, lambda y: y * 2  # expect: unsupported-graph-output


class ReturnsADict(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return {"features": x, "scores": x * 2}  # expect: unsupported-graph-output


class Box:
    def __init__(self, size):
        self.size = size


class ReturnsAPlainObject(nn.Cell):  # mslint: inputs=float32[2,3]
    def __init__(self):
        super().__init__()
        self.box = Box(2)

    def construct(self, x):
        return x, self.box  # expect: unsupported-graph-output


class ReturnsADictCall(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return x, dict(scale=2, shift=1)  # expect: unsupported-graph-output
