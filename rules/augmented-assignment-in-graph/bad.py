"""Augmented assignments graph mode makes in place where PyNative makes a new tensor: on an input
(written back into the caller's tensor) and on a tensor graph mode folds into a constant (kept
from one call to the next). Nothing fails: the numbers of the second call are wrong."""

import mindspore as ms
from mindspore import Tensor, nn, ops


class IncrementsItsInput(nn.Cell):  # mslint: inputs=float32[2,2]
    def construct(self, x):
        x += 1  # expect: augmented-assignment-in-graph
        return x


class HalvesItsInputInAHelper(nn.Cell):  # mslint: inputs=float32[2,2]
    def construct(self, x):
        return self.halve(x)

    def halve(self, x):
        x /= 2  # expect: augmented-assignment-in-graph
        return x


class ShiftsAnAliasOfItsInput(nn.Cell):  # mslint: inputs=float32[2,2]
    def construct(self, x):
        out = x
        out -= 1  # expect: augmented-assignment-in-graph
        return out


class CountsWithATensorCounter(nn.Cell):  # mslint: inputs=float32[2,2]
    """The static-graph page's loop: the counter starts where the last call left it."""

    def construct(self, x):
        i = Tensor(1, ms.int32)
        while i < 3:
            x = x * 2
            i += 1  # expect: augmented-assignment-in-graph
        return x


class ScalesAOnesLike(nn.Cell):  # mslint: inputs=float32[2,2]
    def construct(self, x):
        scale = ops.ones_like(x)
        scale *= 2  # expect: augmented-assignment-in-graph
        return x * scale


class BumpsAnItemOfItsInput(nn.Cell):  # mslint: inputs=float32[2,2]
    """PyNative writes the item into the caller's tensor; graph mode updates a copy."""

    def construct(self, x):
        x[0] += 1  # expect: augmented-assignment-in-graph
        return x


@ms.jit
def incremented(x):  # mslint: inputs=float32[2,2]
    x += 1  # expect: augmented-assignment-in-graph
    return x


class AddsOneInPlace(nn.Cell):
    def construct(self, x):
        x += 1  # expect: augmented-assignment-in-graph
        return x


class ReadsWhatItGaveABlock(nn.Cell):  # mslint: inputs=float32[2,2]
    """Graph mode changes `h` too: the block's `+=` is made on its parent's tensor."""

    def __init__(self):
        super().__init__()
        self.block = AddsOneInPlace()

    def construct(self, x):
        h = x * 2
        y = self.block(h)
        return y + h
