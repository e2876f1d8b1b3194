import numpy as np
import mindspore as ms


@ms.jit
def reshape_host():
    grid = np.array([1, 2, 3, 4, 5, 6])
    grid.shape = (3, 2)
    return grid.shape


print(reshape_host())
