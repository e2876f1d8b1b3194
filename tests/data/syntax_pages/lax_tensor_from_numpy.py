import numpy as np
import mindspore as ms


@ms.jit
def from_array():
    values = np.array([4, 5, 6])
    return ms.Tensor(values) * 2


print(from_array())
