"""An offset drawn with Python's `random` is a Python int, a graph constant: slicing from it has a
static shape. The form real code uses: a script drawing it and calling the model."""

import random

import numpy as np
import mindspore as ms
from mindspore import Tensor, nn


class Window(nn.Cell):
    """Reads a window of its batch size from the shuffled indices, from where its caller says."""

    def __init__(self, batch_size):
        super().__init__()
        self.batch_size = batch_size

    def construct(self, count, shuffled):
        return shuffled[count : count + self.batch_size]


if __name__ == "__main__":
    ms.set_context(mode=ms.GRAPH_MODE)
    model = Window(4)
    count = random.randint(0, 11)
    print(model(count, Tensor(np.arange(16), ms.int32)))
    print(Window(4)(random.randint(0, 11), Tensor(np.arange(16), ms.int32)))
