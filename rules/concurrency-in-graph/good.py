"""Concurrency in host code, and graph code with names that only look like it."""

import concurrent.futures
import threading

from mindspore import nn, ops


class PoolsFeatures(nn.Cell):  # mslint: inputs=float32[2,4,4]
    def __init__(self):
        super().__init__()
        self.pool = nn.AvgPool1d(kernel_size=2, stride=2)
        self.lock = threading.Lock()  # host state, built once in __init__ and never used in construct

    def construct(self, x):
        return self.pool(x)


class WaitsOnItsInputs(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        y = x * 2
        return ops.depend(y, x)


def predict_all(net, batches):
    """Host code: threads around the calls of a Cell are fine."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as executor:
        return list(executor.map(net, batches))
