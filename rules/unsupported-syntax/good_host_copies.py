"""The longest and shortest lengths taken in the graph, as tensors: STRICT and LAX compile them."""

from mindspore import nn


class CountsUpToTheLongestCaption(nn.Cell):  # mslint: inputs=float32[2,4], int32[2]
    def construct(self, x, caption_lengths):
        steps = (caption_lengths - 1).max()
        out = x
        step = 0
        while step < steps:
            out = out + 1
            step += 1
        return out


class ScalesByTheShortestLength(nn.Cell):  # mslint: inputs=float32[2,4], int32[2]
    def construct(self, x, lens):
        assert x.shape[1] >= lens.max()
        return x * lens.min()
