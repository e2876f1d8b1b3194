"""What a Cell class of MindSpore sets is had by its subclasses: `nn.LossBase`'s `reduce_sum`
and `get_loss`, `nn.Dense`'s `weight` and `bias`."""

from mindspore import nn, ops


class MaskedLoss(nn.LossBase):  # mslint: inputs=float32[2,3], float32[2,3]
    def __init__(self):
        super().__init__()
        self.mask = 0.5

    def construct(self, logits, labels):
        return self.get_loss(ops.abs(logits - labels) * self.mask) + self.reduce_sum(labels)


class Scaled(nn.Dense):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__(4, 4)
        self.scale = 2.0

    def construct(self, x):
        return ops.matmul(x, self.weight.T) * self.scale + self.bias
