"""`ops.ResizeBilinear` (absent from 2.10) under `if self.resize_input:`: the program reads the
class's table and builds one instance with `resize_input=True`, which takes the branch, so its
graph evaluates the missing name and the compile fails."""

import numpy as np
from mindspore import Tensor, nn, ops


class InceptionFeatures(nn.Cell):
    BLOCK_INDEX_BY_DIM = {64: 0, 192: 1}

    def __init__(self, output_blocks, resize_input=False):
        super().__init__()
        self.resize_input = resize_input
        self.output_blocks = output_blocks
        self.conv = nn.Conv2d(3, 8, 3)

    def construct(self, x):
        if self.resize_input:
            x = ops.ResizeBilinear((16, 16))(x)  # expect: unknown-mindspore-api
        return self.conv(x)


if __name__ == "__main__":
    print("features of block", InceptionFeatures.BLOCK_INDEX_BY_DIM[64])
    InceptionFeatures((0,), resize_input=True)(Tensor(np.ones((1, 3, 8, 8), np.float32)))
