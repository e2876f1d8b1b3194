import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor

ms.set_context(mode=ms.GRAPH_MODE)


class Lists(nn.Cell):
    def construct(self, x):
        items = [x, 1]
        items.append(2)
        items.insert(0, 3)
        last = items.pop()
        items.extend([4, 5])
        return items[1] + last + len(items)


print(Lists()(Tensor(np.ones(3, np.float32))))
