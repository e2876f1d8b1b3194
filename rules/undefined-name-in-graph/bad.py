"""Names graph code reads that nothing defines: the compiler resolves every branch it parses."""

from mindspore import nn


class ReadsAnUndefinedName(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return x * scale  # expect: undefined-name-in-graph


class UndefinedInATensorBranch(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        if x.sum() > 100:
            return x * threshold  # expect: undefined-name-in-graph
        return x


class UndefinedUnderANoneTest(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x, mask=None):
        if mask is not None:
            return x * mask_scale  # expect: undefined-name-in-graph
        return x


class ReadsAClassAttributeBare(nn.Cell):  # mslint: inputs=float32[2,4]
    factor = 2

    def construct(self, x):
        return x * factor  # expect: undefined-name-in-graph


class UndefinedInAConditionalExpression(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.training_mode = True

    def construct(self, x):
        return x if self.training_mode else x * eval_scale  # expect: undefined-name-in-graph


class UndefinedUnderAnIsinstanceTest(nn.Cell):  # mslint: inputs=float32[2,4]
    """The parser folds a test of `self`'s constants, but not `isinstance` of one: it reads both branches."""

    def __init__(self):
        super().__init__()
        self.scale = 2

    def construct(self, x):
        if isinstance(self.scale, float):
            return x * fine_scale  # expect: undefined-name-in-graph
        return x * self.scale
