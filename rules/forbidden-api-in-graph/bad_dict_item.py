"""An initializer in the value of an item assigned to a dict attribute: STRICT rejects the
assignment (the dict is not a Parameter), and LAX, which runs such an assignment in the
interpreter, still refuses the initializer while compiling (measured on 2.10, both levels).
The assignment itself is python-side-effect-in-graph's (MS109, silenced here), as its examples show."""

from mindspore import nn
from mindspore.common.initializer import initializer


class BuffersInADict(nn.Cell):  # mslint: inputs=float32[4]
    def __init__(self):
        super().__init__()
        self.d = {}

    def construct(self, x):
        self.d[0] = initializer("zeros", [4])  # expect: forbidden-api-in-graph  # noqa: MS109
        return x + 1
