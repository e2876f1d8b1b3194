"""Messages graph mode writes at every call, and logging outside graph code."""

import logging

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
