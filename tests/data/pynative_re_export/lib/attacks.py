"""Two attacks that train a loss Cell whose construct copies its input to a new Tensor."""

from mindspore import Tensor, nn


class ShadowLoss(nn.Cell):
    """Run only by the PyNative shadow_attack.py, through ShadowAttack.train_shadow_model."""

    def __init__(self, network, loss_fn):
        super().__init__()
        self._network = network
        self._loss_fn = loss_fn

    def construct(self, inputs, targets):
        return self._loss_fn(self._network(Tensor(inputs)), targets)


class InversionLoss(nn.Cell):
    """Run by the GRAPH_MODE inversion_attack.py, through InversionAttack.train_inversion_model."""

    def __init__(self, network, loss_fn):
        super().__init__()
        self._network = network
        self._loss_fn = loss_fn

    def construct(self, inputs, targets):
        return self._loss_fn(self._network(Tensor(inputs)), targets)  # expect: tensor-to-host-in-graph


class ShadowAttack:
    def __init__(self, network):
        self._network = network

    def train_shadow_model(self, inputs, targets):
        net = ShadowLoss(self._network, nn.MSELoss())
        return net(inputs, targets)


class InversionAttack:
    def __init__(self, network):
        self._network = network

    def train_inversion_model(self, inputs, targets):
        net = InversionLoss(self._network, nn.MSELoss())
        return net(inputs, targets)
