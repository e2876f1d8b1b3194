import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor

ms.set_context(mode=ms.GRAPH_MODE)


class Checked(nn.Cell):
    def __init__(self, mode):
        super().__init__()
        self.mode = mode

    def construct(self, x):
        if self.mode not in ("sum", "mean"):
            raise ValueError("unknown mode")
        return x.sum() if self.mode == "sum" else x.mean()


print(Checked("sum")(Tensor(np.ones(3, np.float32))))
