"""What trace capture keeps: operators on tensors, choices made by operators, and shapes."""

from mindspore import jit, ops


@jit(capture_mode="trace")
def double_or_shift(x):  # mslint: inputs=float32[2,3]
    return ops.select(x.sum() > 0, x * 2, x + 10)


@jit(capture_mode="trace")
def by_shape(x):  # mslint: inputs=float32[2,3]
    if x.shape[0] > 1:  # a shape is the same on every call of this graph
        return x * 2
    return x

