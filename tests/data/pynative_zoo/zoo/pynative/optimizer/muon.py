from mindspore import nn

from zoo.tools.utils import rank_table


class Muon(nn.Cell):
    def construct(self, grads):
        order = rank_table(grads)
        return grads.detach(), order  # expect-without-pynative: torch-api-in-cell
