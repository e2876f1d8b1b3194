"""The fixes of bad_taken.py: the two Cells held in an `nn.CellList`, or as attributes beside the
Parameters taken from them; either way MindSpore renames their Parameters by that path
(`nets.0.name_a`, `net1.name_a`)."""

import numpy as np
from mindspore import Parameter, ParameterTuple, Tensor, nn


class Inner(nn.Cell):
    def __init__(self):
        super().__init__()
        self.param = Parameter(Tensor(np.ones(1, np.float32)), name="name_a")

    def construct(self, x):
        return x + self.param


class InAList(nn.Cell):
    def __init__(self, net1, net2):
        super().__init__()
        self.nets = nn.CellList([net1, net2])

    def construct(self, x):
        return self.nets[0](x) + self.nets[1](x)


class HeldToo(nn.Cell):
    def __init__(self, net1, net2):
        super().__init__()
        self.param1 = ParameterTuple(net1.get_parameters())
        self.param2 = ParameterTuple(net2.get_parameters())
        self.net1 = net1
        self.net2 = net2

    def construct(self, x):
        return x + self.param1[0] + self.param2[0]


if __name__ == "__main__":
    InAList(Inner(), Inner())(Tensor(np.ones(1, np.float32)))
    HeldToo(Inner(), Inner())(Tensor(np.ones(1, np.float32)))
