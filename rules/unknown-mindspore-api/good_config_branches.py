"""A Cell the script builds only where its configuration file asks for it: the file, opened by
its literal path, sets `model.attention` false, so no `Attention` is built and its constructor,
which passes `nn.Dense` a keyword MindSpore 2.10 lacks (PyTorch's `bias`), never runs."""

import json

import numpy as np
from mindspore import Tensor, nn


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
    config = json.load(open("configs/attention_off.json"))
    if config["model"]["attention"]:
        net = Attention(8)
    else:
        net = Decoder(8)
    net(Tensor(np.ones((2, 8), np.float32)))
