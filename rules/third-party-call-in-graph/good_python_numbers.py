"""numpy on Python numbers passed to a Cell is folded at compile time: it compiles in STRICT."""

import numpy as np

from mindspore import nn


class StepsOfATimeSpan(nn.Cell):  # mslint: inputs=float32[2,4], 1.0, 0.25
    def construct(self, x, span, dt):
        steps = int(np.round(span / dt))
        return x * steps
