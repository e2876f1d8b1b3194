import numpy as np

from zoo.layers import BaseBlock
from zoo.layers.helpers import unused_in_graph


class AbsoluteBlock(BaseBlock):
    def construct(self, x, n):
        return self.norm(x)[:n]  # expect: variable-slice


class Head(BaseBlock):
    def __init__(self):
        super().__init__()
        self.blocks = [AbsoluteBlock(), AbsoluteBlock()]  # expect: python-container-of-cells

    def construct(self, x):
        return np.tanh(x)  # expect: third-party-call-in-graph


def load_batch(path):
    return unused_in_graph(np.load(path))
