"""Refused Cell methods on any Cell, not only `self`, and the classes of a refused module."""

import mindspore as ms
from mindspore import nn
from mindspore.common.initializer import One


class Scale(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor([1.0, 2.0, 3.0, 4.0], ms.float32), name="w")

    def construct(self, x):
        return x * self.w


SHARED = Scale()


class CountsSubCellParameters(nn.Cell):  # mslint: inputs=float32[4]
    def __init__(self):
        super().__init__()
        self.encoder = Scale()

    def construct(self, x):
        n = len(self.encoder.trainable_params())  # expect: forbidden-api-in-graph
        return self.encoder(x) * n


class CountsMindSporeCell(nn.Cell):  # mslint: inputs=float32[4]
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 4)

    def construct(self, x):
        n = len(self.dense.untrainable_params())  # expect: forbidden-api-in-graph
        return self.dense(x.reshape(1, 4)) * n


class LoopsOverCellList(nn.Cell):  # mslint: inputs=float32[4]
    def __init__(self):
        super().__init__()
        self.layers = nn.CellList([Scale(), Scale()])

    def construct(self, x):
        for layer in self.layers:
            x = layer(x) * len(layer.trainable_params())  # expect: forbidden-api-in-graph
        return x


class ReadsModuleLevelNet(nn.Cell):  # mslint: inputs=float32[4]
    def construct(self, x):
        return x * len(SHARED.get_parameters())  # expect: forbidden-api-in-graph


def parameter_count(cell: nn.Cell):
    return len(cell.trainable_params())  # expect: forbidden-api-in-graph


def weight_count(cell):
    return len(cell.get_parameters())  # expect: forbidden-api-in-graph


class PassesItsSubCell(nn.Cell):  # mslint: inputs=float32[4]
    def __init__(self):
        super().__init__()
        self.encoder = Scale()

    def construct(self, x):
        return self.encoder(x) * parameter_count(self.encoder)


class PassesItself(nn.Cell):  # mslint: inputs=float32[4]
    def construct(self, x):
        return x * weight_count(self)


class ReadsParametersDict(nn.Cell):  # mslint: inputs=float32[4]
    def __init__(self):
        super().__init__()
        self.encoder = Scale()

    def construct(self, x):
        weights = self.encoder.parameters_dict()  # expect: forbidden-api-in-graph
        return x * weights["w"]


class WalksParameters(nn.Cell):  # mslint: inputs=float32[4]
    def __init__(self):
        super().__init__()
        self.encoder = Scale()

    def construct(self, x):
        for _, p in self.encoder.parameters_and_names():  # expect: forbidden-api-in-graph
            x = x * p
        return x


class SwitchesToEvaluation(nn.Cell):  # mslint: inputs=float32[4]
    def __init__(self):
        super().__init__()
        self.encoder = Scale()

    def construct(self, x):
        self.encoder.set_train(False)  # expect: forbidden-api-in-graph
        return self.encoder(x)


class BuildsAnInitializer(nn.Cell):  # mslint: inputs=float32[4]
    def construct(self, x):
        ones = One()  # expect: forbidden-api-in-graph
        return x
