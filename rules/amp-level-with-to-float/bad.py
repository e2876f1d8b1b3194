"""Sub-Cells kept at full precision with `to_float`, then an amp level that casts the whole
network to float16; the models are built at import."""

import mindspore as ms
from mindspore import amp, nn, ops
from mindspore.train import Model


class Energy(nn.Cell):
    """The squares overflow float16: kept in float32."""

    def construct(self, x):
        return ops.sqrt(ops.sum(x * x, dim=-1))


class Net(nn.Cell):  # mslint: inputs=float32[2,3]
    def __init__(self):
        super().__init__()
        self.body = nn.Dense(3, 3)
        self.energy = Energy()
        self.energy.to_float(ms.float32)

    def construct(self, x):
        return self.energy(self.body(x))


class Classifier(nn.Cell):
    def __init__(self):
        super().__init__()
        self.body = nn.Dense(3, 4)
        self.norm = nn.LayerNorm((4,))
        self.head = nn.Dense(4, 2)

    def construct(self, x):
        return self.head(self.norm(self.body(x)))


def optimizer(net):
    return nn.Momentum(net.trainable_params(), learning_rate=0.01, momentum=0.9)


net = Net()
model = Model(net, nn.MSELoss(), optimizer(net), amp_level="O3")  # expect: amp-level-with-to-float

classifier = Classifier()
classifier.to_float(ms.float16)
classifier.head.to_float(ms.float32)
train_step = amp.build_train_network(  # expect: amp-level-with-to-float
    classifier, optimizer(classifier), nn.MSELoss(), level="O2", loss_scale_manager=None
)


def build_bfloat16():
    network = Classifier().to_float(ms.bfloat16)
    return amp.auto_mixed_precision(network, "O2")  # expect: amp-level-with-to-float


low_precision = build_bfloat16()
