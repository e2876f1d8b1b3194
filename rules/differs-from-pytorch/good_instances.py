"""Rates and momenta that mean the same in MindSpore and PyTorch in every instance the program
builds, whatever the defaults say: each `Classifier` is given `dropout_ratio=0.5` (from the
script's configuration), and keeping half of the elements is zeroing half; every call of the
factory `frozen_norm` gives `use_batch_statistics=False`, so the layer normalizes with its moving
statistics and never updates them (measured on 2.10: moving_mean stays 0 after a training step),
and PyTorch's momentum changes nothing."""

import numpy as np
from mindspore import Tensor, nn


class Classifier(nn.Cell):  # mslint: inputs=float32[2,8]
    def __init__(self, num_class=10, dropout_ratio=0.1):
        super().__init__()
        self.dropout_ratio = dropout_ratio
        self.drop = nn.Dropout(self.dropout_ratio)
        self.head_dropout = nn.Dropout(dropout_ratio)
        self.fc = nn.Dense(8, num_class)

    def construct(self, x):
        return self.fc(self.head_dropout(self.drop(x)))


def frozen_norm(channels, momentum=0.1, use_batch_statistics=True):
    return nn.BatchNorm2d(channels, momentum=momentum, use_batch_statistics=use_batch_statistics)


class Backbone(nn.Cell):  # mslint: inputs=float32[2,4,2,2]
    def __init__(self):
        super().__init__()
        training = False
        self.stem = frozen_norm(4, use_batch_statistics=training)
        self.norm = frozen_norm(4, 0.1, use_batch_statistics=False)

    def construct(self, x):
        return self.norm(self.stem(x))


if __name__ == "__main__":
    cfg = {"num_class": 5, "dropout_ratio": 0.5}
    net = Classifier(cfg["num_class"], dropout_ratio=cfg["dropout_ratio"])
    net(Tensor(np.ones((2, 8), np.float32)))
    Backbone()(Tensor(np.ones((2, 4, 2, 2), np.float32)))
