import mindspore as ms
from mindspore import nn, Tensor, Parameter


class InnerNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.param = Parameter(Tensor([1], ms.float32), name="name_a")

    def construct(self, x):
        return x + self.param


class OutNet(nn.Cell):
    def __init__(self, net1, net2):
        super().__init__()
        self.nets = nn.CellList([net1, net2])

    def construct(self, x):
        return self.nets[0](x) + self.nets[1](x)


ms.set_context(mode=ms.GRAPH_MODE)
out_net = OutNet(InnerNet(), InnerNet())
out_net(Tensor([1], ms.float32))
