"""What bytecode capture keeps in one graph: a `try` around tensor code, and choices made by operators."""

from mindspore import jit, ops


@jit(capture_mode="bytecode")
def guarded(x):  # mslint: inputs=float32[2,3]
    try:
        y = x * 2
    except ValueError:
        y = x
    return ops.abs(y)


@jit(capture_mode="bytecode", fullgraph=True)
def double_or_shift(x):  # mslint: inputs=float32[2,3]
    return ops.select(x.sum() > 0, x * 2, x + 10)
