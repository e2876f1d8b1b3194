"""A program that selects GRAPH_MODE compiles its Cells: a name that nothing defines, in a
function the graph reads whatever the Python values are, fails the compile (an error)."""

import mindspore as ms
from mindspore import nn, ops

ms.set_context(mode=ms.GRAPH_MODE)


class ChannelGate(nn.Cell):
    def construct(self, inputs):
        return inputs * ops.sigmoid(x)  # expect: undefined-name-in-graph


class GatedBlock(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.gate = ChannelGate()

    def construct(self, x):
        return self.gate(x) + 1


def scaled(y):
    return y * output_scale  # expect: undefined-name-in-graph


class ScalesOnATensorTest(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        if x.sum() > 0:  # a tensor test: the compiler reads both branches
            return scaled(x)
        return x
