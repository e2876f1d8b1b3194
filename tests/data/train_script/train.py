"""A small training script with a graph-mode bug, for `mslint verify --run`."""

import argparse

import numpy as np

import mindspore as ms
from mindspore import nn, ops

ms.set_context(mode=ms.GRAPH_MODE)


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 2)

    def construct(self, x):
        return np.tanh(self.dense(x))


class Unused(nn.Cell):
    def construct(self, x):
        return np.exp(x)


@ms.jit
def accuracy(logits, labels):
    predicted = ops.argmax(logits, 1)
    with open("accuracy.log") as log:
        log.read()
    return predicted


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=1)
    args = parser.parse_args()
    net = Net()
    data = ms.Tensor(np.ones((2, 4)), ms.float32)
    for _ in range(args.steps):
        logits = ms.Tensor(net(data), ms.float32)
    print("trained", args.steps, "steps")
    accuracy(logits, ms.Tensor(np.zeros(2), ms.int32))


if __name__ == "__main__":
    main()
