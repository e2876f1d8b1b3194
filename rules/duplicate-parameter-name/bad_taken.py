"""Two instances of one Cell given to another, which keeps only their Parameters
(`ParameterTuple(net.get_parameters())`, as the FAQ's example does): nothing holds the two Cells,
so their Parameters keep the name their Cell gave them, and the graph that reads both refuses the
second "name_a" (2.10, STRICT and LAX)."""

import numpy as np
from mindspore import Parameter, ParameterTuple, Tensor, nn


class Inner(nn.Cell):
    def __init__(self):
        super().__init__()
        self.param = Parameter(Tensor(np.ones(1, np.float32)), name="name_a")

    def construct(self, x):
        return x + self.param


class Outer(nn.Cell):
    def __init__(self, net1, net2):
        super().__init__()
        self.param1 = ParameterTuple(net1.get_parameters())
        self.param2 = ParameterTuple(net2.trainable_params())

    def construct(self, x):
        return x + self.param1[0] + self.param2[0]  # expect: duplicate-parameter-name


if __name__ == "__main__":
    Outer(Inner(), Inner())(Tensor(np.ones(1, np.float32)))
