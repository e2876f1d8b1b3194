"""A suppression that silences a finding, kept on purpose; other tools' codes are theirs to judge."""

import random

from mindspore import nn, ops


class ScaleDrawnPerCompile(nn.Cell):  # mslint: inputs=float32[2,4]
    """One scale per compiled graph is what this Cell wants: the finding is silenced on purpose."""

    def construct(self, x):
        return x * random.uniform(0.5, 1.5)  # mslint: disable=python-side-effect-in-graph


class OtherToolsCode(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return ops.maximum(x, 0)  # noqa: E501
