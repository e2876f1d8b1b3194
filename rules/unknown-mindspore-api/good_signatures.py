"""The calls of bad_signatures.py as 2.10 takes them, and the overloads it accepts."""

import mindspore as ms
from mindspore import mint, nn, ops


class KeywordOnlyByKeyword(nn.Cell):  # mslint: inputs=float32[3,1]
    def construct(self, x):
        return x + ops.full((3, 1), 2.0, dtype=ms.float32) + ops.full([3, 1], 1)


class SplitInHalves(nn.Cell):  # mslint: inputs=float32[4,6]
    def construct(self, x):
        first, _ = ops.split(x, 3, 1)
        return first


class Layers(nn.Cell):  # mslint: inputs=float32[2,8]
    def __init__(self):
        super().__init__()
        self.norm = nn.LayerNorm((8,))
        self.other_norm = nn.LayerNorm([8], epsilon=1e-5)
        self.dense = nn.Dense(8, 4, has_bias=True)
        self.keyword_dense = nn.Dense(in_channels=4, out_channels=4)

    def construct(self, x):
        return self.keyword_dense(self.dense(self.other_norm(self.norm(x))))


SHAPE = (3,)
ARGUMENTS = ((3,), 2.0)


class ValuesOutOfSight(nn.Cell):  # mslint: inputs=float32[3]
    """Arguments the linter cannot count or type are not judged."""

    def construct(self, x):
        return x + ops.full(SHAPE, 2.0) + ops.full(*ARGUMENTS)


class MindSporeKeywordName(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return ops.softmax(x, axis=-1) + mint.softmax(x, dim=-1)
