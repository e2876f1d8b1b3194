"""Names that are defined somewhere graph code can see them, and a branch MindSpore never reads."""

from mindspore import nn


def set_offset():
    global OFFSET
    OFFSET = 1


class ReadsModuleNames(nn.Cell):  # mslint: inputs=float32[2,4]
    factor = 2

    def construct(self, x):
        return x * SCALE + OFFSET + self.factor + LAST_STEP


class ReadsClosuresAndComprehensions(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        k = 2

        def scaled(y):
            return y * k

        return sum([scaled(x) * i for i in range(3)])


class SkipsABranchOnAnAttribute(nn.Cell):  # mslint: inputs=float32[2,4]
    """MindSpore decides `if self.debug:` while parsing and never reads the branch it skips."""

    def __init__(self):
        super().__init__()
        self.debug = False

    def construct(self, x):
        if self.debug:
            return x * debug_scale
        return x


SCALE = 0.5  # defined after the class: the module has run before anything is compiled
for LAST_STEP in range(3):
    pass
set_offset()
