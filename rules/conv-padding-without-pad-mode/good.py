"""Convolutions whose padding MindSpore accepts."""

from mindspore import mint, nn


def conv3x3(in_channels, out_channels, stride=1):
    return nn.Conv2d(in_channels, out_channels, 3, stride, pad_mode="pad", padding=1)


class PadMode(nn.Cell):  # mslint: inputs=float32[1,3,8,8]
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1, pad_mode="pad")
        self.positional = nn.Conv2d(8, 8, 3, 1, "pad", 1)

    def construct(self, x):
        return self.positional(self.conv(x))


class ZeroPadding(nn.Cell):  # mslint: inputs=float32[1,3,8,8]
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 1, padding=0)
        self.valid = nn.Conv2d(8, 8, 3, pad_mode="valid", padding=(0, 0, 0, 0))

    def construct(self, x):
        return self.valid(self.conv(x))


class ThroughHelper(nn.Cell):  # mslint: inputs=float32[1,3,8,8]
    def __init__(self, width=8, pad_mode="same", padding=0):
        super().__init__()
        self.stem = conv3x3(3, width, stride=2)
        self.body = nn.Conv2d(width, width, 3, pad_mode=pad_mode, padding=padding)

    def construct(self, x):
        return self.body(self.stem(x))


def mint_convolution():
    """mint.nn takes PyTorch's arguments (not compiled here: 2.10 has no CPU kernel for it)."""
    return mint.nn.Conv2d(3, 8, 3, padding=1)
