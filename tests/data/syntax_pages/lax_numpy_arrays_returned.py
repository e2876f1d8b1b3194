import numpy as np
import mindspore as ms


@ms.jit
def add_arrays():
    left = np.array([3, 4, 5])
    right = np.array([1, 1, 1])
    return left + right


print(add_arrays())
