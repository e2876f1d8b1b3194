"""What trace capture freezes: the branch and the host reads of the first call become the graph."""

from mindspore import jit


@jit(capture_mode="trace")
def double_or_shift(x):  # mslint: inputs=float32[2,3]
    if x.sum() > 0:  # expect: frozen-by-trace
        return x * 2
    return x + 10


@jit(capture_mode="trace")
def scale_by_total(x):  # mslint: inputs=float32[2,3]
    return x * x.sum().item()  # expect: frozen-by-trace


@jit(capture_mode="trace")
def clip_when_large(x):  # mslint: inputs=float32[2,3]
    return x * 2 if x.max() > 3 else x  # expect: frozen-by-trace


def helper(x):
    while x.sum() < 20:  # expect: frozen-by-trace
        x = x + 3
    return x


@jit(capture_mode="trace")
def grow(x):  # mslint: inputs=float32[2,3]
    return helper(x)
