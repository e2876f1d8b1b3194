"""Tensors copied to the host in graph code: STRICT rejects it, LAX falls back to Python."""

import numpy as np

import mindspore as ms
from mindspore import nn, ops


class AsNumpy(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        y = x.asnumpy()  # expect: tensor-to-host-in-graph
        y = ms.Tensor(y)
        return y


class NumpyMethod(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return x.numpy()  # expect: tensor-to-host-in-graph


class ToList(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return ms.Tensor((x * 2).tolist())  # expect: tensor-to-host-in-graph


def round_trip(logits):
    return ms.Tensor(logits.asnumpy())  # expect: tensor-to-host-in-graph


class HelperCopiesToHost(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return round_trip(x) * 2


class TensorOfGraphValue(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return ms.Tensor(x * 2) + 1  # expect: tensor-to-host-in-graph


class TensorFunctionOfGraphValue(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return ms.tensor(x) * 2  # expect: tensor-to-host-in-graph


class HostCopyOfConstantTensor(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        ones = ops.ones((2, 3), ms.float32)
        return x * float(ones.asnumpy()[0, 0])  # expect: tensor-to-host-in-graph


class NumpyResultToList(nn.Cell):  # mslint: inputs=float32[2,4]
    """`.tolist()` of a numpy result is numpy's: no tensor reaches it, the numpy call is the problem."""

    def construct(self, x):
        starts = np.cumsum(x).tolist()  # expect: third-party-call-in-graph
        return x * starts[0]
