"""PyTorch's `transpose(dim0, dim1)` on every kind of tensor a port writes it on: a helper's result,
a layer's output, a Parameter, a subscript, the argument of another call, with negative axes. In
graph code the two numbers are the whole permutation, a compile error on a tensor that does not
have 2 dimensions ("For Tensor.transpose, the number of axes must be equal to the dimension of
Tensor, but got 2")."""

import mindspore as ms
from mindspore import Parameter, nn, ops


class HelperResult(nn.Cell):  # mslint: inputs=float32[2,3,8]
    def __init__(self):
        super().__init__()
        self.key = nn.Dense(8, 8)

    def split_heads(self, x):
        return x.reshape(2, 3, 2, 4).transpose(0, 2, 1, 3)

    def construct(self, x):
        k = self.split_heads(self.key(x))
        return ops.matmul(k, k.transpose(-1, -2))  # expect: differs-from-pytorch


class LayerOutput(nn.Cell):  # mslint: inputs=float32[2,3,8]
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(8, 8)

    def construct(self, x):
        return self.dense(x).transpose(1, 2)  # expect: differs-from-pytorch


class ParameterAttribute(nn.Cell):  # mslint: inputs=float32[2,3,4]
    def __init__(self):
        super().__init__()
        self.table = Parameter(ops.zeros((2, 4, 3), ms.float32), name="table")

    def construct(self, x):
        return x + self.table.transpose(1, 2)  # expect: differs-from-pytorch


class Subscript(nn.Cell):  # mslint: inputs=float32[5,2,3,4]
    def construct(self, x):
        return x[0].transpose(-1, -2)  # expect: differs-from-pytorch


class ArgumentOfAnotherCall(nn.Cell):  # mslint: inputs=float32[2,3,4]
    def construct(self, x):
        return ops.relu(ops.tanh(x).transpose(2, 1))  # expect: differs-from-pytorch
