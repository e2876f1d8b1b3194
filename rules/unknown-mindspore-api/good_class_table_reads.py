"""`ops.ResizeBilinear` (absent from 2.10) under `if self.resize_input:` of a Cell that the program
builds once, with the default `resize_input=False`: the compiler folds the test on that constant
and never evaluates the branch. The program also names the class without building it (a read of
its table, a static method, an annotation), which hands no instance elsewhere."""

import numpy as np
from mindspore import Tensor, nn, ops


class InceptionFeatures(nn.Cell):  # mslint: inputs=float32[1,3,8,8]
    BLOCK_INDEX_BY_DIM = {64: 0, 192: 1}

    def __init__(self, output_blocks=(3,), resize_input=False):
        super().__init__()
        self.resize_input = resize_input
        self.output_blocks = output_blocks
        self.conv = nn.Conv2d(3, 8, 3)

    @staticmethod
    def scaled(images):
        return images / 255

    def construct(self, x):
        if self.resize_input:
            x = ops.ResizeBilinear((16, 16))(x)
        return self.conv(x)


def activations(model: InceptionFeatures, images):
    return model(Tensor(InceptionFeatures.scaled(images)))


def features(dims, images):
    block = InceptionFeatures.BLOCK_INDEX_BY_DIM[dims]
    return activations(InceptionFeatures([block]), images)


if __name__ == "__main__":
    features(64, np.ones((1, 3, 8, 8), np.float32))
