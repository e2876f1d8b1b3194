"""Builtins, formatting, `with` and `raise` forms MindSpore 2.10 compiles in STRICT."""

import mindspore as ms
from mindspore import nn, ops


@ms.jit_class
class Scope:
    def __init__(self):
        self.factor = 2

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


class BuiltinsThatCompile(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        y = abs(x) + pow(x, 2) + round(x) + sum([x, x])
        y = y * max(x.sum(), x.mean()) * min(x.shape[0], 3)
        for i, row in enumerate(x):
            y = y + row * i
        return y * len(x) * float(x.sum())


class FormattingThatCompiles(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        print(x)
        if x.sum() < -100:
            raise ValueError(f"too small: {x.shape}")
        return x * 2


class WithJitClass(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        with Scope() as scope:
            y = x * scope.factor
        return y


class ComprehensionsThatCompile(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        scaled = [x * i for i in range(3)]
        by_index = {i: x * i for i in range(2)}
        return scaled[2] + by_index[1] + sum(x * i for i in range(3))


class Backbone(nn.Cell):
    def construct(self, x):
        return {"stem": x, "head": x * 2}


class MembershipAndSequences(nn.Cell):  # mslint: inputs=float32[2,3]
    def __init__(self):
        super().__init__()
        self.backbone = Backbone()

    def construct(self, x):
        features = self.backbone(x)
        y = features["head"] if "head" in features else x
        kept = list(filter(lambda t: True, [y, x]))
        return kept[0] * max([x.sum(), x.mean()])


class MapOverSequences(nn.Cell):  # mslint: inputs=float32[2,3], float32[2,3]
    def construct(self, x, *others):
        doubled = list(map(lambda t: t * 2, [x, x]))
        summed = list(map(ops.reduce_sum, others))
        return doubled[0] + summed[0]


class StringsAndTypesOfStaticValues(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        print("rows: " + str(x.shape[0]))
        if isinstance(x, ms.Tensor) and hasattr(x, "shape"):
            return x * int(x.shape[1]) * bool(x.sum())
        return x


class TypeInAnErrorMessage(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        if not isinstance(x, ms.Tensor):
            raise TypeError(f"expected a Tensor, got {type(x)}")
        return x * 2


class EvaluatesAConstantExpression(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return x * eval("1 + 1")


class ReadsAnOptionalAttribute(nn.Cell):  # mslint: inputs=float32[2,3]
    def __init__(self, keep_extra=False):
        super().__init__()
        self.extra = 2
        if not keep_extra:
            delattr(self, "extra")

    def construct(self, x):
        if hasattr(self, "extra"):
            return x * getattr(self, "extra")
        return x


class Doubler(nn.Cell):
    def construct(self, x):
        return x * 2


class CallsTheParentConstruct(Doubler):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return super().construct(x) + 1


class MaxOfLengthsAndOneElementTensors(nn.Cell):  # mslint: inputs=int32[4], float32[1]
    def construct(self, lengths, step):
        longest = max(lengths)  # a 1-D tensor's items are 0-d tensors: they compare
        return max(ms.Tensor(0.0, ms.float32), step) + longest


class MaxOfOneElementTensors(nn.Cell):  # mslint: inputs=float32[2,3], float32[1]
    def construct(self, x, scale):
        total = x.sum()
        return x * max(total, ms.Tensor(1.0, ms.float32)) * min(ms.Tensor(x.shape[0], ms.float32), scale)
