"""A list of Python numbers a program hands a Cell: the lengths a padding helper counts in a list,
or a list of a shape element (`[inputs.shape[1]]`); `Tensor(lengths)` of it is a graph constant
at every syntax level. The forms real code uses: a helper returning the batch and its lengths,
unpacked in a training loop, and one call made of the batch's shape."""

import numpy as np
import mindspore as ms
from mindspore import Tensor, nn


class Encoder(nn.Cell):
    """Weighs its input by the real lengths of the batch's rows, given as a Python list."""

    def construct(self, inputs, input_lengths):
        lengths = Tensor(input_lengths).astype(ms.float32)
        return inputs * lengths.sum()


def pad_to_batch(batch):
    inputs = Tensor(np.ones((2, 5), np.float32)) * batch
    input_lengths = [list(row).count(1.0) for row in np.ones((2, 5), np.float32)]
    return inputs, input_lengths


encoder = Encoder()

if __name__ == "__main__":
    ms.set_context(mode=ms.GRAPH_MODE)
    for step in range(2):
        inputs, input_lengths = pad_to_batch(step)
        encoder(inputs, input_lengths)
    encoder(inputs, [inputs.shape[1]])
    Encoder()(Tensor(np.ones((2, 5), np.float32)), [list(row).count(1.0) for row in np.ones((2, 5), np.float32)])
