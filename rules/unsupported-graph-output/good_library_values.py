"""MindSpore's functions called in the graph, their results handed back."""

from mindspore import mint, nn, ops


class CallsAnOpsFunction(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return ops.relu(x)


class CallsAMintFunctionBeside(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return x, mint.exp(x)
