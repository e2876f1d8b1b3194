"""A demo that runs its network in PyNative mode only: numpy on tensors is fine there."""

import mindspore as ms
import numpy as np
from mindspore import nn

from demo_blocks import EagerBlock
from shared_blocks import SharedBlock


class DemoNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.block = EagerBlock()
        self.shared = SharedBlock()

    def construct(self, x):
        y = self.shared(self.block(x))
        return ms.Tensor(np.maximum(y.asnumpy(), 0))  # expect-without-pynative: tensor-to-host-in-graph


def main():
    ms.set_context(mode=ms.PYNATIVE_MODE)
    print(DemoNet()(ms.Tensor(np.ones((2, 4), np.float32))))


if __name__ == "__main__":
    main()
