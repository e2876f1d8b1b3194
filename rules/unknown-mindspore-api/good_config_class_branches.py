"""A Cell the script builds only where its configuration class asks for it: `Config` sets
`attention` false, so no `Attention` is built and its constructor, which passes `nn.Dense` a
keyword MindSpore 2.10 lacks (PyTorch's `bias`), never runs."""

import numpy as np
from mindspore import Tensor, nn


class Config:
    hidden = 8
    attention = False


class Attention(nn.Cell):
    def __init__(self, hidden=8):
        super().__init__()
        self.proj = nn.Dense(hidden, hidden, bias=False)

    def construct(self, x):
        return self.proj(x)


class Decoder(nn.Cell):  # mslint: inputs=float32[2,8]
    def __init__(self, hidden=8):
        super().__init__()
        self.out = nn.Dense(hidden, hidden)

    def construct(self, x):
        return self.out(x)


if __name__ == "__main__":
    config = Config()
    net = Attention(8) if config.attention else Decoder(8)
    net(Tensor(np.ones((2, 8), np.float32)))
