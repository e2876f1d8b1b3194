"""Operators the CPU backend of MindSpore 2.10 has no kernel for: the graph compiles, and its
first run on CPU stops at kernel selection (checked with --target cpu)."""

from mindspore import mint, nn


class IndexOfSmallest(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return mint.argmin(x)  # expect: unsupported-kernel


class IndexOfSmallestPerRow(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        # another overload than the measured mint.argmin(x): a warning, and the same missing kernel
        return mint.argmin(x, 1)  # expect: unsupported-kernel


class RepeatedTile(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        # the form of x.repeat((2, 1, 1)), which the tensor-signature table saw stop at Repeat
        return x.repeat((3, 2))  # expect: unsupported-kernel


class Halves(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        # a Tensor method with a keyword: MindSpore's node for it has no source line, its users do
        first, second = x.chunk(2, dim=1)  # expect: unsupported-kernel
        return first + second


class RunningTotal(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return x.cumsum(dim=1)  # expect: unsupported-kernel
