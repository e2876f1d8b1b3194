"""The same APIs where they belong: in __init__ and host code, kept as constants for construct."""

import mindspore as ms
from mindspore import nn
from mindspore.common.initializer import Normal, initializer


class ConfiguredInInit(nn.Cell):  # mslint: inputs=float32[4]
    def __init__(self):
        super().__init__()
        self.graph_mode = ms.get_context("mode") == ms.GRAPH_MODE
        self.w = ms.Parameter(initializer(Normal(), [4], ms.float32), name="w")
        self.count = len(list(self.get_parameters()))

    def construct(self, x):
        if self.graph_mode:
            return x * self.w * self.count
        return x


def report(net):
    """Host code: logging and inspecting parameters are fine here."""
    ms.log.warning(f"{len(list(net.trainable_params()))} trainable parameters")
