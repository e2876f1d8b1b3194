import mindspore.nn as msnn
from mindspore import ops


class BaseBlock(msnn.Cell):
    def __init__(self):
        super().__init__()
        self.pick = ops.Unique()
        self.proj = msnn.Dense(4, 4)  # Parameters: a list of these blocks hides them

    def norm(self, x):
        return x / 2
