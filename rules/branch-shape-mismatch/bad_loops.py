"""A tensor that grows at each iteration of a loop: a tensor `while` fails to compile; a loop
over a constant range is unrolled, but in a tensor `if` the grown value joins one of another shape."""

from mindspore import nn, ops


class GrowsInTensorWhile(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        y = x
        while y.sum() < 100:  # expect: branch-shape-mismatch
            y = ops.concat((y, y))
        return y


class StacksWhileTheInputIsSmall(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        y = x
        while x.sum() < 100:  # expect: branch-shape-mismatch
            y = ops.stack((y, y))
            x = x * 2
        return y


class GrowsInTensorBranch(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        y = x  # expect: branch-shape-mismatch
        if x.sum() > 0:
            for _ in range(3):
                y = ops.concat((y, x))
        return y * 2
