"""Functions called `init` that are not MindSpore's distributed `init()`: nothing to seed."""

from mindspore import nn
from mindspore.common.initializer import Normal, initializer


def init(cell):
    """The project's own weight initialization, run the same way on every process."""
    cell.weight.set_data(initializer(Normal(0.02), cell.weight.shape, cell.weight.dtype))


class Net(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 4)
        init(self.dense)

    def construct(self, x):
        return self.dense(x)


def main(communication):
    communication.init()  # some other object's `init`
    return Net()
