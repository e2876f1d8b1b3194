"""Parameters changed in graph code: MindSpore 2.10 rejects these at every syntax level."""

import mindspore as ms
from mindspore import Parameter, nn, ops


class SetData(nn.Cell):  # mslint: inputs=float32[4]
    def __init__(self):
        super().__init__()
        self.w = Parameter(ms.Tensor([1.0, 2.0, 3.0, 4.0], ms.float32), name="w")

    def construct(self, x):
        self.w.set_data(x)  # expect: parameter-mutation-in-graph
        return self.w * 2


class ParameterCreated(nn.Cell):  # mslint: inputs=float32[4]
    def construct(self, x):
        w = Parameter(ms.Tensor([1.0, 2.0, 3.0, 4.0], ms.float32), name="w")  # expect: parameter-mutation-in-graph
        return x * w


class RequiresGradChanged(nn.Cell):  # mslint: inputs=float32[4]
    def __init__(self):
        super().__init__()
        self.w = Parameter(ms.Tensor([1.0, 2.0, 3.0, 4.0], ms.float32), name="w")

    def construct(self, x):
        self.w.requires_grad = False  # expect: parameter-mutation-in-graph
        return x * self.w


class RequiresGradThroughALocal(nn.Cell):  # mslint: inputs=float32[4]
    def __init__(self):
        super().__init__()
        self.w = Parameter(ms.Tensor([1.0, 2.0, 3.0, 4.0], ms.float32), name="w")

    def construct(self, x):
        w = self.w
        w.requires_grad = False  # expect: parameter-mutation-in-graph
        return x * w


class RequiresGradOfAPlainTensor(nn.Cell):  # mslint: inputs=float32[2,4]
    """A tensor computed in graph code is no Parameter: this compiles, STRICT included, but the
    statement runs in the Python interpreter (a warning, not an error)."""

    def construct(self, x):
        mask = ops.ones((2, 4), ms.float32)
        mask.requires_grad = False  # expect: parameter-mutation-in-graph
        return x * 2 + mask


class RequiresGradOfAnInput(nn.Cell):  # mslint: inputs=float32[2,4]
    """An input of construct is a tensor, no Parameter: as for a computed tensor, this compiles,
    STRICT included, and the statement runs in the Python interpreter (a warning)."""

    def construct(self, x):
        x.requires_grad = False  # expect: parameter-mutation-in-graph
        return x * 2


class Block(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 4)

    def construct(self, x):
        return self.dense(x)


class RequiresGradOfACellOutput(nn.Cell):  # mslint: inputs=float32[2,4]
    """What a Cell or an operator returns is a tensor, no Parameter: it compiles, STRICT
    included, and the statement runs in the Python interpreter (a warning)."""

    def __init__(self):
        super().__init__()
        self.block = Block()

    def construct(self, x):
        features = self.block(x)
        features.requires_grad = False  # expect: parameter-mutation-in-graph
        first, second = ops.split(x, 2, 1)
        first.requires_grad = False  # expect: parameter-mutation-in-graph
        third = ops.split(x, 2, 1)[1]
        third.requires_grad = False  # expect: parameter-mutation-in-graph
        return features + ops.concat((first, second + third), 1)
