"""A Cell the script builds only where its configuration file asks for it: the file, opened by
its literal path, sets `model.attention` true, so the script builds `Attention`, whose
constructor passes `nn.Dense` a keyword MindSpore 2.10 lacks (PyTorch's `bias`): TypeError."""

import json

import numpy as np
from mindspore import Tensor, nn


class Attention(nn.Cell):  # mslint: inputs=float32[2,8]
    def __init__(self, hidden=8):
        super().__init__()
        self.proj = nn.Dense(hidden, hidden, bias=False)  # expect: unknown-mindspore-api

    def construct(self, x):
        return self.proj(x)


class Decoder(nn.Cell):  # mslint: inputs=float32[2,8]
    def __init__(self, hidden=8):
        super().__init__()
        self.out = nn.Dense(hidden, hidden)

    def construct(self, x):
        return self.out(x)


if __name__ == "__main__":
    config = json.load(open("configs/attention_on.json"))
    if config["model"]["attention"]:
        net = Attention(8)
    else:
        net = Decoder(8)
    net(Tensor(np.ones((2, 8), np.float32)))
