"""PyTorch tensor habits in construct: MindSpore 2.10 rejects each of them at every syntax level."""

import numpy as np

import mindspore as ms
from mindspore import nn


class MovesToGpu(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return x.cuda() * 2  # expect: torch-api-in-cell


class MovesToCpu(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return x.cpu() * 2  # expect: torch-api-in-cell


class Detaches(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return x.detach() * 2  # expect: torch-api-in-cell


class FlattensWithSizeCall(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return x.view(x.size(0), -1)  # expect: torch-api-in-cell


class ToDevice(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return x.to("cuda")  # expect: torch-api-in-cell


class ToDeviceMindSporeDoesNotName(nn.Cell):  # mslint: inputs=float32[2,4]
    """`Tensor.to` takes "CPU" or "Ascend" in 2.10: PyTorch's "cuda:0" fails to convert."""

    def construct(self, x):
        return x.to(device="cuda:0")  # expect: torch-api-in-cell


class ToGpu(nn.Cell):  # mslint: inputs=float32[2,4]
    """Nor does a "GPU": 2.10's device names are "CPU" and "Ascend"."""

    def construct(self, x):
        return x.to("GPU")  # expect: torch-api-in-cell


class SizeOfTensorAttribute(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.scale = ms.Tensor(np.ones((2, 4), np.float32))

    def construct(self, x):
        return x.reshape(self.scale.size(1), -1)  # expect: torch-api-in-cell
