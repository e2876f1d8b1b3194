"""Attributes never set, read in Cells that derive from a Cell class of MindSpore other than
`nn.Cell`: the compile fails as it does for a direct `nn.Cell` subclass."""

from mindspore import nn, ops


class MaskedLoss(nn.LossBase):  # mslint: inputs=float32[2,3], float32[2,3]
    def construct(self, logits, labels):
        return self.get_loss(ops.abs(logits - labels) * self.loss_mask_weight)  # expect: unsupported-attribute-in-graph


class Scaled(nn.Dense):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__(4, 4)

    def construct(self, x):
        return super().construct(x) * self.output_gain  # expect: unsupported-attribute-in-graph
