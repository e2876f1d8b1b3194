"""PyTorch's `transpose(dim0, dim1)` in graph code: graph mode takes the two numbers as the whole
permutation (PyNative swaps the dimensions, as PyTorch does). On a 2-D tensor, `transpose(0, 1)`
compiles and returns it unchanged (measured in mslint/data/pytorch-differences.json; the verifier's
comparison of graph mode with PyNative shows it on the Cell's line, not the call's)."""

from mindspore import nn


class SwapOfThreeDimensions(nn.Cell):  # mslint: inputs=float32[2,3,4]
    def construct(self, x):
        return x.transpose(1, 2)  # expect: differs-from-pytorch

