import numpy as np
import mindspore as ms


@ms.jit
def bump_first():
    values = np.array([7, 8, 9])
    values[1] += 2
    return ms.Tensor(values)


print(bump_first())
