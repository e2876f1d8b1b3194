"""More statements and expressions MindSpore 2.10 rejects at every syntax level, LAX included."""

import contextlib

from mindspore import nn, ops


class Timer:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


class ShapeError(ValueError):
    pass


class NonlocalInClosure(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        count = 0

        def bump():
            nonlocal count  # expect: unsupported-syntax
            count = count + 1

        bump()
        return x * count


class SetComprehension(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        sizes = {n for n in x.shape}  # expect: unsupported-syntax
        return x * len(sizes)


class ClassDefinedInConstruct(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        class Scale:  # expect: unsupported-syntax
            factor = 2

        return x * Scale.factor


class WithPlainObject(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        with Timer():  # expect: unsupported-syntax
            y = x * 2
        return y


class WithContextlib(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        with contextlib.suppress(ValueError):  # expect: unsupported-syntax
            y = x * 2
        return y


class RaiseOwnException(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        if x.sum() < -100:
            raise ShapeError("too small")  # expect: unsupported-syntax
        return x * 2


class SetDisplay(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        sizes = {x.shape[0], x.shape[1]}  # expect: unsupported-syntax
        return x * len(sizes)


class MaxOfOneTensor(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return max(x)  # expect: unsupported-syntax


class FilterNone(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        kept = list(filter(None, [x, x * 2]))  # expect: unsupported-syntax
        return kept[0]


class MapOverTensor(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        rows = list(map(ops.relu, x))  # expect: unsupported-syntax
        return rows[0]


class GeneratorDefinedInConstruct(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        def halves():
            yield from (x, x * 2)  # expect: unsupported-syntax

        return next(halves())


class GeneratorDefinedInALoop(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        y = x
        for _ in range(2):

            def twice():
                yield y * 2  # expect: unsupported-syntax

            y = next(twice())
        return y


class ConstructIsAGenerator(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        yield x * 2  # expect: unsupported-syntax
