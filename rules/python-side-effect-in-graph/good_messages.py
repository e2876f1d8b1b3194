"""Messages graph mode writes at every call, warnings it writes once as Python does, and logging
outside graph code."""

import logging
import warnings

from mindspore import nn

logger = logging.getLogger(__name__)


class PrintsEachStep(nn.Cell):  # mslint: inputs=float32[2,3]
    def __init__(self):
        super().__init__()
        logger.info("building the network")

    def construct(self, x):
        print("forward pass")
        print(x)
        return x * 2


class WarnsOnce(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        warnings.warn("this layer is slow")  # Python's default filter, too, writes it once
        return x * 2
