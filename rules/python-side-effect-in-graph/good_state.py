"""Local dicts given a dict, tensors computed in the function updated in place, and names bound
again before they change: all compile in STRICT, with the results PyNative gives."""

from mindspore import nn, ops


class LocalDictUpdatedWithADict(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        found = {}
        found.update({"last": x})
        return found["last"]


class ComputedTensorAddedInPlace(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        y = ops.relu(x)
        y += 1
        return y


class InputBoundAgainFirst(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        x = x * 2
        x += 1
        return x


class ShapeCountAddedInPlace(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        rows = x.shape[0]
        rows += 1
        return x * rows
