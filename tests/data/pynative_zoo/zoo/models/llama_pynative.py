from mindspore import nn

from zoo.pynative.layers.mlp import PyNativeMLP
from zoo.pynative.optimizer.muon import Muon


class PyNativeLlamaForCausalLM(nn.Cell):
    def __init__(self):
        super().__init__()
        self.mlp = PyNativeMLP()
        self.optimizer = Muon()

    def construct(self, x):
        y = self.mlp(x)
        return y.detach()  # expect-without-pynative: torch-api-in-cell
