"""Python's `max` and `min` of a host list copied from a graph tensor: LAX fails at the builtin
(`Unsupported op [IsDimUnKnown]`: the list's length is known only at run time); STRICT rejects
the copy first, which tensor-to-host-in-graph reports."""

from mindspore import nn


class LoopsUpToTheLongestCaption(nn.Cell):  # mslint: inputs=float32[2,4], int32[2]
    def construct(self, x, caption_lengths):
        lengths = (caption_lengths - 1).asnumpy().tolist()  # expect: tensor-to-host-in-graph
        out = x
        for _ in range(max(lengths)):  # expect: unsupported-syntax
            out = out + 1
        return out


class ScalesByTheSmallestWeight(nn.Cell):  # mslint: inputs=float32[2,4], float32[2]
    def construct(self, x, weights):
        values = weights.tolist()  # expect: tensor-to-host-in-graph
        return x * min(values)  # expect: unsupported-syntax
