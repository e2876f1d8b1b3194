import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor

ms.set_context(mode=ms.GRAPH_MODE)


class Dicts(nn.Cell):
    def construct(self, x):
        table = {"w": x, "b": x * 2}
        table["c"] = x + 1
        total = x
        for value in table.values():
            total = total + value
        return total, table.get("b"), len(table.keys())


print(Dicts()(Tensor(np.ones(3, np.float32))))
