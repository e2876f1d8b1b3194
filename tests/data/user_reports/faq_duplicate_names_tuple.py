import mindspore as ms
from mindspore import nn, Tensor, ParameterTuple, Parameter


class ParamNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.res = ParameterTuple(
            (Parameter(Tensor([2], ms.float32), name="name_a"), Parameter(Tensor([4], ms.float32), name="name_a"))
        )

    def construct(self):
        return self.res[0] + self.res[1]


ms.set_context(mode=ms.GRAPH_MODE)
net = ParamNet()
net()
