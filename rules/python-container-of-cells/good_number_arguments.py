"""A plain list of Cells that own no Parameters, given a constructor argument that their `__init__`
computes with as a number (a batch size, as a list of losses is built from a script's options):
no Cell can be given there (building the class would raise TypeError), so the list hides no
Parameter, and GRAPH mode compiles the loop over it and trains the network."""

import numpy as np

from mindspore import nn


class NormalizedL2(nn.Cell):
    def __init__(self, batch_size, p=2):
        super().__init__()
        self.batch_size = batch_size
        self.scale = float(np.power(batch_size, 1.0 / p))

    def construct(self, pred, target):
        return ((pred - target) ** 2).sum() / self.scale


class LossList(nn.Cell):
    def __init__(self, names, weights, batch_size):
        super().__init__()
        self.weights = weights
        self.losses = []
        for name in names:
            if name == "l2":
                self.losses.append(NormalizedL2(batch_size))
            elif name == "mse":
                self.losses.append(nn.MSELoss())

    def construct(self, pred, target):
        total = 0
        for i, loss in enumerate(self.losses):
            total += loss(pred, target) * self.weights[i]
        return total


class Regression(nn.Cell):  # mslint: inputs=float32[2,4], float32[2,1]
    def __init__(self):
        super().__init__()
        self.net = nn.Dense(4, 1)
        self.loss = LossList(["l2", "mse"], [1.0, 0.5], 2)

    def construct(self, x, target):
        return self.loss(self.net(x), target)
