"""Suppression comments left behind when the code was fixed: they silence nothing."""

from mindspore import nn, ops


class FixedNumpyCall(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return ops.maximum(x, 0)  # mslint: disable=third-party-call-in-graph  # expect: useless-suppression


class FixedSlice(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return x[:, :2]  # noqa: MS104  # expect: useless-suppression


class NothingToSilence(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return x * 2  # mslint: disable=all  # expect: useless-suppression
