"""Evaluation and feature-extraction helpers take the Cell as a parameter and call it: what the
helper's caller passes is what the Cell gets. A Python number there is a graph constant: `range` of it compiles
(see bad_passed_instances.py for the same helpers given a tensor)."""

import numpy as np
import mindspore as ms
from mindspore import Tensor, nn


class Refined(nn.Cell):
    """Passed to `evaluate`, which calls it with the step count the script gives."""

    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 4)

    def construct(self, x, steps):
        for _ in range(steps):
            x = self.dense(x)
        return x


class Smoothed(nn.Cell):
    """Passed to the same `evaluate` as `Refined`: its parameter calls each."""

    def construct(self, x, steps):
        for _ in range(steps):
            x = x * 0.5
        return x


def evaluate(model, steps):
    data = Tensor(np.ones((2, 4), np.float32))
    return model(data, steps)


class Features(nn.Cell):
    """Passed by keyword to `extract_features` through `run_extraction`, a helper that passes it on."""

    def construct(self, images, depth):
        for _ in range(depth):
            images = images + 1
        return images


def extract_features(model, images, depth):
    return model(images, depth)


def run_extraction(network, depth):
    images = Tensor(np.ones((2, 4), np.float32))
    return extract_features(model=network, images=images, depth=depth)


class Trained(nn.Cell):
    """Passed to `train`, whose `forward` closure calls it with what `grad_fn`'s call gives."""

    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 4)

    def construct(self, x, steps):
        for _ in range(steps):
            x = self.dense(x)
        return x.sum()


def train(model):
    def forward(data, steps):
        return model(data, steps)

    grad_fn = ms.value_and_grad(forward, None, model.trainable_params())
    return grad_fn(Tensor(np.ones((2, 4), np.float32)), 2)


if __name__ == "__main__":
    ms.set_context(mode=ms.GRAPH_MODE)
    net = Refined()
    evaluate(net, 3)
    evaluate(Smoothed(), 2)
    run_extraction(Features(), 2)
    train(Trained())
