"""Log messages in graph code: run once while compiling, never when the graph runs."""

import logging

from mindspore import nn

logger = logging.getLogger(__name__)


class LogsEachStep(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        logger.info("forward pass")  # expect: python-side-effect-in-graph
        return x * 2


class LogsThroughModule(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        logging.debug("step %d", 3)  # expect: python-side-effect-in-graph
        return x * 2


class LogsThroughANewLogger(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        logging.getLogger(__name__).warning("step")  # expect: python-side-effect-in-graph
        return x * 2
