"""Reads in a branch the compiler never reads, for the instance the program builds through a chain
of factories (a ResNet fusion port): `Fusion`'s `resnet101(rgbd=True)` passes `rgbd` and its own default
`bbox=False` to `_resnet`, which passes them with `**kwargs` to `ResNet`; `resnet50`, beside it,
is never called and builds nothing. MindSpore folds both tests on the constants (2.10, STRICT and
LAX compile)."""

import numpy as np
from mindspore import Tensor, nn


class ResNet(nn.Cell):
    def __init__(self, layers, rgbd, bbox, num_classes=10):
        super().__init__()
        self.rgbd = rgbd
        self.yolobox = bbox
        self.stem = nn.Dense(4, num_classes)

    def _forward_impl_bbox(self, x):
        return self.fc3(x)

    def _forward_impl(self, x):
        x = self.stem(x)
        if not self.rgbd:
            x = self.fc1(x)
        return x

    def construct(self, x):
        if self.yolobox:
            return self._forward_impl_bbox(x)
        return self._forward_impl(x)


def _resnet(arch, layers, pretrained, rgbd, bbox, **kwargs):
    return ResNet(layers, rgbd, bbox, **kwargs)


def resnet50(pretrained=False, rgbd=False, bbox=False, **kwargs):
    return _resnet("resnet50", [3, 4, 6, 3], pretrained, rgbd, bbox, **kwargs)


def resnet101(pretrained=False, rgbd=False, bbox=False, **kwargs):
    return _resnet("resnet101", [3, 4, 23, 3], pretrained, rgbd, bbox, **kwargs)


class Fusion(nn.Cell):
    def __init__(self):
        super().__init__()
        self.backbone = resnet101(rgbd=True)

    def construct(self, x):
        return self.backbone(x)


if __name__ == "__main__":
    net = Fusion()
    net(Tensor(np.ones((2, 4), np.float32)))
