"""A Cell the script builds only under a command-line flag that no launch script gives: a run
leaves `--attention` off, so no `Attention` is built and its constructor, which passes `nn.Dense`
a keyword MindSpore 2.10 lacks (PyTorch's `bias`), never runs."""

import argparse

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


parser = argparse.ArgumentParser()
parser.add_argument("--attention", action="store_true")
if __name__ == "__main__":
    args = parser.parse_args()
else:
    args = parser.parse_args([])


def main():
    net = Attention(8) if args.attention else Decoder(8)
    return net(Tensor(np.ones((2, 8), np.float32)))


if __name__ == "__main__":
    main()
