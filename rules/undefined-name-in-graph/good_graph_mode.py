"""A program that selects GRAPH_MODE: a function the graph never reads is never resolved. The
test on `self.use_gate`, False in every instance, is folded while parsing and its call skipped."""

import mindspore as ms
from mindspore import nn, ops

ms.set_context(mode=ms.GRAPH_MODE)


def gated(y):
    return y * ops.sigmoid(gate_weight)


class OptionalGate(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.use_gate = False

    def construct(self, x):
        if self.use_gate:
            return gated(x)
        return x + 1
