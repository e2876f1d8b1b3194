"""Python numbers a program hands a Cell from its batches: a shape element (`targets.shape[1]`, a
Python int while the program runs), a count from Python's `random`, and Python's arithmetic of
lengths (`max(lengths) - 1`); each is a graph constant, so `range` of it is a constant loop (see
bad_batch_shapes.py, where the helper returns a tensor). The forms real code uses: a helper
returning the batch's tensors, unpacked in a forward function that a training loop calls, and a
script drawing the count."""

import random

import numpy as np
import mindspore as ms
from mindspore import Tensor, nn, ops


class Decoder(nn.Cell):
    """Decodes as many steps as its caller asks."""

    def construct(self, context, max_length):
        decoded = []
        for _ in range(max_length):
            context = context * 2
            decoded.append(context)
        return ops.cat(decoded, 1)


class Repeat(nn.Cell):
    """Repeats as many times as its caller asks."""

    def construct(self, y, times):
        for _ in range(times):
            y = y + 1
        return y


def pad_to_batch(batch):
    inputs = Tensor(np.ones((2, 5), np.float32)) * batch
    targets = Tensor(np.ones((2, 3), np.int32))
    return inputs, targets


decoder = Decoder()


def forward_fn(batch):
    inputs, targets = pad_to_batch(batch)
    return decoder(inputs, targets.shape[1])


if __name__ == "__main__":
    ms.set_context(mode=ms.GRAPH_MODE)
    for step in range(2):
        forward_fn(step)
    Decoder()(Tensor(np.ones((2, 5), np.float32)), Tensor(np.ones((2, 3), np.int32)).shape[1])
    Repeat()(Tensor(np.ones([2, 2], np.float32)), random.randint(1, 3))
    repeat = Repeat()
    lengths = [len(row) for row in [[1, 2], [3]]]
    repeat(Tensor(np.ones([2, 2], np.float32)), max(lengths) - 1)
