"""Exports its own Cell in graph mode: the configuration file of train.py says nothing of it."""

import mindspore as ms
from mindspore import nn


class Exported(nn.Cell):
    def construct(self, x):
        return x * self.scale


if __name__ == "__main__":
    ms.set_context(mode=ms.GRAPH_MODE)
    Exported()
