"""A function of MindSpore's own namespaces handed back from the top graph: an error in both levels."""

from mindspore import mint, nn, ops


class ReturnsAnOpsFunction(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return ops.relu  # expect: unsupported-graph-output


class ReturnsAMintFunctionBeside(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return x, mint.exp  # expect: unsupported-graph-output
