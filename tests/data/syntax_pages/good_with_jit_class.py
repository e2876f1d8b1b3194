import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor

ms.set_context(mode=ms.GRAPH_MODE)


@ms.jit_class
class Scope:
    def __init__(self, gain):
        self.gain = gain

    def __enter__(self):
        return self.gain

    def __exit__(self, exc_type, exc_value, traceback):
        return


class Scaled(nn.Cell):
    def __init__(self):
        super().__init__()
        self.scope = Scope(3)

    def construct(self, x):
        with self.scope as gain:
            x = x * gain
        return x


print(Scaled()(Tensor(np.ones(3, np.float32))))
