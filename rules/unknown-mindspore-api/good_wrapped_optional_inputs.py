"""`WithLossCell` and `WithEvalCell` call their network with the first column alone
(`self._backbone(data)`): an optional input after it keeps its default, None, and is no
tensor (the items of a `targets` list, ground-truth objects of a detection port). Built and
called as `WithLossCell(net, loss)(data, label)`, 2.10 compiles it at both levels."""

import numpy as np
from mindspore import Tensor, nn


class Detector(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 4)

    def construct(self, images, targets=None):
        out = self.dense(images)
        if targets is None:
            return out
        labels = [target.get_field("labels") for target in targets]
        return out, labels


if __name__ == "__main__":
    net = nn.WithLossCell(Detector(), nn.MSELoss())
    x = Tensor(np.ones((2, 4), np.float32))
    net(x, x)
