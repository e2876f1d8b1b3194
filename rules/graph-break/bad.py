"""What bytecode capture leaves to Python: a graph break, a warning; an error under fullgraph=True."""

import numpy as np

import mindspore as ms
from mindspore import jit


@jit(capture_mode="bytecode")
def host_round_trip(x):  # mslint: inputs=float32[2,3]
    y = x * 2
    return ms.Tensor(np.abs(y.asnumpy()))  # expect: graph-break


@jit(capture_mode="bytecode", fullgraph=True)
def branch_on_value(x):  # mslint: inputs=float32[2,3]
    if x.sum() > 0:  # expect: graph-break
        return x * 2
    return x + 10
