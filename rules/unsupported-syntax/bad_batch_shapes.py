"""A number a program hands a Cell from its batches as a tensor: `range` of it fails at every syntax
level (see good_batch_shapes.py, where it is a shape element, a Python int). The form real code
uses: a helper returning the batch's tensors and the steps to decode, unpacked in a forward
function that a training loop calls."""

import numpy as np
import mindspore as ms
from mindspore import Tensor, nn, ops


class Decoder(nn.Cell):
    """Decodes as many steps as its caller asks."""

    def construct(self, context, max_length):
        decoded = []
        for _ in range(max_length):  # expect: unsupported-syntax
            context = context * 2
            decoded.append(context)
        return ops.cat(decoded, 1)


def pad_to_batch(batch):
    inputs = Tensor(np.ones((2, 5), np.float32)) * batch
    steps = Tensor(3, ms.int32)
    return inputs, steps


decoder = Decoder()


def forward_fn(batch):
    inputs, steps = pad_to_batch(batch)
    return decoder(inputs, steps)


if __name__ == "__main__":
    ms.set_context(mode=ms.GRAPH_MODE)
    for step in range(2):
        forward_fn(step)
    Decoder()(Tensor(np.ones((2, 5), np.float32)), Tensor(3, ms.int32))
