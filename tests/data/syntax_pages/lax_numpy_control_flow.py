import numpy as np
import mindspore as ms


@ms.jit
def clamp_up():
    level = np.array(0)
    if level < 2:
        level += 3
    return ms.Tensor(level)


print(clamp_up())
