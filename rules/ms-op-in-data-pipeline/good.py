"""Dataset code in numpy and MindSpore's own transforms; network operators stay in the network."""

import numpy as np

import mindspore as ms
import mindspore.dataset as ds
import mindspore.dataset.transforms as transforms
from mindspore import nn, ops


def numbers():
    return ds.NumpySlicesDataset(np.arange(12, dtype=np.float32).reshape(4, 3), column_names=["x"], shuffle=False)


def normalize(x):
    """Only numpy: the docstring may say that ops.div would be slower here."""
    return (x - 6.0) / 6.0


def create_dataset():
    def clip(x):
        ops = np  # a local name shadows the module's `ops`
        return ops.clip(x, 0.0, 1.0)

    data = numbers().map(operations=[normalize, clip], input_columns=["x"], num_parallel_workers=2)
    data = data.map(operations=transforms.TypeCast(ms.float32), input_columns=["x"])
    return data.map(operations=lambda x: np.maximum(x, 0.0), input_columns=["x"])


def squares():
    for i in range(3):
        yield (np.array([i * i], np.float32),)


def scale(x):
    return x * 2.0


train_data = create_dataset()
generated = ds.GeneratorDataset(squares, column_names=["x"])
names = ["a", "b"]
upper = list(map(str.upper, names))  # Python's map, and other libraries' `map`, are not dataset maps
scaled = {"x": np.ones(3)}.get("x")


class Model(nn.Cell):  # mslint: inputs=float32[4,3]
    """The operators the data code avoided, in construct where they belong."""

    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(3, 2)
        self.relu = nn.ReLU()

    def construct(self, x):
        return ops.div(self.relu(self.dense(x)), 2.0)
