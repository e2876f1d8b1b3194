import mindspore as ms
from mindspore import nn, Tensor, ParameterTuple, Parameter


class InnerNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.param = Parameter(Tensor([1], ms.float32), name="name_a")

    def construct(self, x):
        return x + self.param


class OutNet(nn.Cell):
    def __init__(self, net1, net2):
        super().__init__()
        self.param1 = ParameterTuple(net1.get_parameters())
        self.param2 = ParameterTuple(net2.get_parameters())

    def construct(self, x):
        return x + self.param1[0] + self.param2[0]


ms.set_context(mode=ms.GRAPH_MODE)
out_net = OutNet(InnerNet(), InnerNet())
out_net(Tensor([1], ms.float32))
