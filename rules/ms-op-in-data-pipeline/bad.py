"""Dataset code that calls MindSpore network operators; the pipelines are built at import."""

import contextlib

import numpy as np

import mindspore as ms
import mindspore.dataset as ds
import mindspore.numpy as mnp
from mindspore import nn, ops


def numbers():
    return ds.NumpySlicesDataset(np.arange(12, dtype=np.float32).reshape(4, 3), column_names=["x"], shuffle=False)


def normalize(x):
    return ops.div(ms.Tensor(x) - 6.0, 6.0).asnumpy()


def create_dataset():
    def clip(x):
        """Defined in the factory, as data scripts often do."""
        return mnp.clip(ms.Tensor(x), 0.0, 1.0).asnumpy()

    data = numbers().map(operations=normalize, input_columns="x")  # expect: ms-op-in-data-pipeline
    data = data.map(  # expect: ms-op-in-data-pipeline
        operations=clip,
        input_columns=["x"],
        num_parallel_workers=2,
    )
    return data.map(  # expect: ms-op-in-data-pipeline
        operations=lambda x: nn.Softmax()(ms.Tensor(x)).asnumpy(), input_columns=["x"]
    )


def relu_pipeline():
    return numbers().map(operations=nn.ReLU(), input_columns=["x"])  # expect: ms-op-in-data-pipeline


def ones():
    for _ in range(3):
        yield (ops.ones((2,), ms.float32).asnumpy(),)


class Squares:
    """A random-access source: its `__getitem__` runs in the pipeline's workers."""

    def __getitem__(self, index):
        return (ops.square(ms.Tensor([index], ms.float32)).asnumpy(),)

    def __len__(self):
        return 4


train_data = create_dataset()
generated = ds.GeneratorDataset(ones, column_names=["x"])  # expect: ms-op-in-data-pipeline
squares = ds.GeneratorDataset(  # expect: ms-op-in-data-pipeline
    source=Squares(), column_names=["x"], num_parallel_workers=2
)
with contextlib.suppress(ValueError):  # map refuses it; the example module still has to import
    relu_pipeline()


class Model(nn.Cell):  # mslint: inputs=float32[4,3]
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(3, 2)

    def construct(self, x):
        return self.dense(x)
