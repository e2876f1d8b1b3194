"""Exports its own Cell in graph mode: the --mode option of train.py says nothing of it."""

import numpy as np
import mindspore as ms
from mindspore import nn


class Exported(nn.Cell):
    def construct(self, x):
        return np.tanh(x)


if __name__ == "__main__":
    ms.set_context(mode=ms.GRAPH_MODE)
    Exported()
