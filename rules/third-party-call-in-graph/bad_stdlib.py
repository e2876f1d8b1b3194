"""Standard-library calls given graph values: STRICT rejects them, LAX falls back to Python."""

import collections
import logging
import operator
import typing
import warnings

from mindspore import Tensor, nn

logger = logging.getLogger(__name__)
Pair = collections.namedtuple("Pair", "first second")


class LoggerFormatsTensor(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        logger.info(f"input {x}")  # expect: third-party-call-in-graph
        return x * 2


class LoggerGetsTensorArgument(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        logger.warning("input %s", x)  # expect: third-party-call-in-graph
        return x * 2


class WarningFormatsTensor(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        y = x * 2
        warnings.warn(f"doubled {y}")  # expect: third-party-call-in-graph
        return y


class NamedTupleOfTensors(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        pair = Pair(x, x * 2)  # expect: third-party-call-in-graph
        return pair.first + pair.second


class TypingCastOfTensor(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return typing.cast(Tensor, x) * 2  # expect: third-party-call-in-graph


class ItemGetterOnTensors(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return operator.itemgetter(0)((x, x * 2))  # expect: third-party-call-in-graph


class AttributeGetterOnTensor(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return x * operator.attrgetter("shape")(x)[0]  # expect: third-party-call-in-graph


class CountsInADefaultdict(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return x * collections.defaultdict(int)["rows"]  # expect: third-party-call-in-graph
