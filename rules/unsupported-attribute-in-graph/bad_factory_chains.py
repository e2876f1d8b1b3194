"""The branch the instance takes: `Fusion`'s `resnet101(rgbd=True, bbox=True)` passes `bbox` on
through `_resnet` to `ResNet`, so compiling the read of `fc3` fails; `resnet50`, never called,
builds nothing."""

import numpy as np
from mindspore import Tensor, nn


class ResNet(nn.Cell):
    def __init__(self, layers, rgbd, bbox, num_classes=10):
        super().__init__()
        self.rgbd = rgbd
        self.yolobox = bbox
        self.stem = nn.Dense(4, num_classes)

    def _forward_impl_bbox(self, x):
        return self.fc3(x)  # expect: unsupported-attribute-in-graph

    def construct(self, x):
        if self.yolobox:
            return self._forward_impl_bbox(x)
        return self.stem(x)


def _resnet(arch, layers, pretrained, rgbd, bbox, **kwargs):
    return ResNet(layers, rgbd, bbox, **kwargs)


def resnet50(pretrained=False, rgbd=False, bbox=False, **kwargs):
    return _resnet("resnet50", [3, 4, 6, 3], pretrained, rgbd, bbox, **kwargs)


def resnet101(pretrained=False, rgbd=False, bbox=False, **kwargs):
    return _resnet("resnet101", [3, 4, 23, 3], pretrained, rgbd, bbox, **kwargs)


class Fusion(nn.Cell):
    def __init__(self):
        super().__init__()
        self.backbone = resnet101(rgbd=True, bbox=True)

    def construct(self, x):
        return self.backbone(x)


if __name__ == "__main__":
    net = Fusion()
    net(Tensor(np.ones((2, 4), np.float32)))
