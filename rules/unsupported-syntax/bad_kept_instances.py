"""Trainers and evaluators are plain classes that take the Cell: one keeps it (`self.network =
network`) and a method calls it; one takes it as a method's argument. What the method's caller
passes is what the Cell gets. A tensor there is a graph input: `range` of it fails (see
good_kept_instances.py for the same classes given a Python number)."""

import numpy as np
import mindspore as ms
from mindspore import Tensor, nn


class Refined(nn.Cell):
    """Kept by a `Trainer` built and called in one expression."""

    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 4)

    def construct(self, x, steps):
        for _ in range(steps):  # expect: unsupported-syntax
            x = self.dense(x)
        return x


class Smoothed(nn.Cell):
    """Kept by a `Trainer` bound to a name, whose method the script calls."""

    def construct(self, x, steps):
        for _ in range(steps):  # expect: unsupported-syntax
            x = x * 0.5
        return x


class Trainer:
    def __init__(self, network, lr=0.1):
        self.network = network
        self.lr = lr

    def evaluate(self, steps):
        data = Tensor(np.ones((2, 4), np.float32))
        return self.network(data, steps)


class Features(nn.Cell):
    """Passed to a method of an `Evaluator`, which calls it."""

    def construct(self, images, depth):
        for _ in range(depth):  # expect: unsupported-syntax
            images = images + 1
        return images


class Evaluator:
    def extract(self, model, depth):
        images = Tensor(np.ones((2, 4), np.float32))
        return model(images, depth)


if __name__ == "__main__":
    ms.set_context(mode=ms.GRAPH_MODE)
    Trainer(Refined()).evaluate(Tensor(3, ms.int32))
    trainer = Trainer(Smoothed(), lr=0.01)
    trainer.evaluate(steps=Tensor(2, ms.int32))
    evaluator = Evaluator()
    evaluator.extract(Features(), Tensor(2, ms.int32))
