"""Trainers and evaluators are plain classes that take the Cell: one keeps it (`self.network =
network`) and a method calls it; one takes it as a method's argument. What the method's caller
passes is what the Cell gets. A Python number there is a graph constant: `range` of it compiles (see
bad_kept_instances.py for the same classes given a tensor)."""

import numpy as np
import mindspore as ms
from mindspore import Tensor, nn


class Refined(nn.Cell):
    """Kept by a `Trainer` built and called in one expression."""

    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 4)

    def construct(self, x, steps):
        for _ in range(steps):
            x = self.dense(x)
        return x


class Smoothed(nn.Cell):
    """Kept by a `Trainer` bound to a name, whose method the script calls."""

    def construct(self, x, steps):
        for _ in range(steps):
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
        for _ in range(depth):
            images = images + 1
        return images


class Evaluator:
    def extract(self, model, depth):
        images = Tensor(np.ones((2, 4), np.float32))
        return model(images, depth)


if __name__ == "__main__":
    ms.set_context(mode=ms.GRAPH_MODE)
    Trainer(Refined()).evaluate(3)
    trainer = Trainer(Smoothed(), lr=0.01)
    trainer.evaluate(steps=2)
    evaluator = Evaluator()
    evaluator.extract(Features(), 2)
