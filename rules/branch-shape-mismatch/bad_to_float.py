"""A Cell cast by `to_float(ms.float16)` gets its float32 inputs as float16: a branch that keeps
the input joins float16 with the float32 of the other (no `# mslint: inputs=`: the program's own
calls give the input; see good_to_float.py for the same Cells left in float32)."""

import numpy as np
import mindspore as ms
from mindspore import Tensor, nn, ops


class KeepOrZeros(nn.Cell):
    def construct(self, x):
        if x.sum() > 0:  # expect: branch-shape-mismatch
            y = x
        else:
            y = ops.zeros((2, 3), ms.float32)
        return y


if __name__ == "__main__":
    cast = KeepOrZeros().to_float(ms.float16)
    cast(Tensor(np.ones((2, 3), np.float32)))
