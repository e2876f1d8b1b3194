from mindspore import nn

from zoo.tools.utils import scaled


class PyNativeMLP(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 4)

    def construct(self, x):
        print(x.asnumpy())  # expect-without-pynative: tensor-to-host-in-graph
        return scaled(self.dense(x))
