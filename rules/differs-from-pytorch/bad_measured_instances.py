"""A PyTorch rate or momentum in an instance the program builds, where the default is MindSpore's:
`Classifier(dropout_ratio=0.1)` (from the script's configuration) keeps 10 % of the elements and
zeroes 90 % while training, and `Norm(4, training=True)` builds a layer whose running
statistics take 90 % from each batch (measured in mslint/data/pytorch-differences.json). Both
compile and run at both levels."""

import numpy as np
from mindspore import Tensor, nn


class Classifier(nn.Cell):  # mslint: inputs=float32[2,8]
    def __init__(self, num_class=10, dropout_ratio=0.5):
        super().__init__()
        self.dropout_ratio = dropout_ratio
        self.drop = nn.Dropout(self.dropout_ratio)  # expect: differs-from-pytorch
        self.head_dropout = nn.Dropout(dropout_ratio)  # expect: differs-from-pytorch
        self.fc = nn.Dense(8, num_class)

    def construct(self, x):
        return self.fc(self.head_dropout(self.drop(x)))


class Norm(nn.Cell):  # mslint: inputs=float32[2,4,2,2]
    def __init__(self, c=4, momentum=0.1, training=False):
        super().__init__()
        self.stats = nn.BatchNorm2d(c, momentum=momentum, use_batch_statistics=training)  # expect: differs-from-pytorch

    def construct(self, x):
        return self.stats(x)


class Backbone(nn.Cell):  # mslint: inputs=float32[2,4,2,2]
    def __init__(self):
        super().__init__()
        self.stem = Norm(4)
        self.norm = Norm(4, training=True)

    def construct(self, x):
        return self.norm(self.stem(x))


if __name__ == "__main__":
    cfg = {"num_class": 5, "dropout_ratio": 0.1}
    net = Classifier(cfg["num_class"], dropout_ratio=cfg["dropout_ratio"])
    net(Tensor(np.ones((2, 8), np.float32)))
    Backbone()(Tensor(np.ones((2, 4, 2, 2), np.float32)))
