"""Convolutions given PyTorch's padding: MindSpore uses it only with pad_mode="pad"."""

from mindspore import nn


class Conv2dPadding(nn.Cell):  # mslint: inputs=float32[1,3,8,8]
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)  # expect: conv-padding-without-pad-mode

    def construct(self, x):
        return self.conv(x)


class MultiLineCall(nn.Cell):  # mslint: inputs=float32[1,3,8,8]
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(  # expect: conv-padding-without-pad-mode
            in_channels=3,
            out_channels=8,
            kernel_size=3,
            padding=(1, 1, 1, 1),
            has_bias=True,  # a trailing comma
        )

    def construct(self, x):
        return self.conv(x)


class Conv1dPadding(nn.Cell):  # mslint: inputs=float32[1,3,8]
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(3, 8, 3, padding=1)  # expect: conv-padding-without-pad-mode

    def construct(self, x):
        return self.conv(x)


class Conv3dPadding(nn.Cell):  # mslint: inputs=float32[1,3,4,4,4]
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv3d(3, 8, 3, padding=1)  # expect: conv-padding-without-pad-mode

    def construct(self, x):
        return self.conv(x)


class TransposePadding(nn.Cell):  # mslint: inputs=float32[1,8,4,4]
    def __init__(self):
        super().__init__()
        self.up = nn.Conv2dTranspose(8, 3, 4, stride=2, padding=1)  # expect: conv-padding-without-pad-mode

    def construct(self, x):
        return self.up(x)


class SameWithPadding(nn.Cell):  # mslint: inputs=float32[1,3,8,8]
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, pad_mode="same", padding=1)  # expect: conv-padding-without-pad-mode

    def construct(self, x):
        return self.conv(x)


class PositionalPadding(nn.Cell):  # mslint: inputs=float32[1,3,8,8]
    def __init__(self):
        super().__init__()
        self.down = nn.Conv2d(3, 8, 3, 2, 1)  # expect: conv-padding-without-pad-mode

    def construct(self, x):
        return self.down(x)
