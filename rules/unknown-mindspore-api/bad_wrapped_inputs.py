"""`Model` calls the network it trains with every column of the dataset: each input is a
tensor, and so is each item of one (2.10: "'Tensor' object has no attribute 'get_field'")."""

from mindspore import Model, nn


class Detector(nn.Cell):  # mslint: inputs=float32[2,4], float32[3,4]
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 4)

    def construct(self, images, targets=None):
        out = self.dense(images)
        if targets is None:
            return out
        labels = [target.get_field("labels") for target in targets]  # expect: unknown-mindspore-api
        return out, labels


def train(dataset):
    Model(Detector()).train(1, dataset)
