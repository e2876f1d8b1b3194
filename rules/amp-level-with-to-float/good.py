"""`to_float` with amp levels that keep it, amp levels without `to_float`, and MindSpore's own
list to keep a Cell at full precision; the models are built at import."""

import mindspore as ms
from mindspore import amp, nn, ops
from mindspore.train import Model


class Energy(nn.Cell):
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


class Plain(nn.Cell):  # mslint: inputs=float32[2,3]
    def __init__(self):
        super().__init__()
        self.body = nn.Dense(3, 3)
        self.energy = Energy()

    def construct(self, x):
        return self.energy(self.body(x))


def optimizer(net):
    return nn.Momentum(net.trainable_params(), learning_rate=0.01, momentum=0.9)


# O1 and "auto" keep the precision `to_float` gave
net = Net()
kept_o1 = Model(net, nn.MSELoss(), optimizer(net), amp_level="O1")
kept_auto = amp.build_train_network(Net(), optimizer(net), nn.MSELoss(), level="auto")
full_precision = Model(Net(), nn.MSELoss(), optimizer(net), amp_level="O0")
no_level = Model(Net(), nn.MSELoss(), optimizer(net))

# an amp level on a network without `to_float`
plain = Plain()
o3 = Model(plain, nn.MSELoss(), optimizer(plain), amp_level="O3")

# the whole network already in float16: O3 changes nothing
half = Plain()
half.to_float(ms.float16)
same = amp.auto_mixed_precision(half, "O3")

# `to_float` on another network than the one given
other = Plain()
other.energy.to_float(ms.float32)
elsewhere = amp.auto_mixed_precision(Plain(), "O2")

# MindSpore's own list keeps Energy in float32 at O2; the model adds no level
listed = amp.custom_mixed_precision(Plain(), black_list=amp.get_black_list() + [Energy])
listed_model = Model(listed, nn.MSELoss(), optimizer(listed))

# bfloat16 kept where the level's type is bfloat16 too
bf16 = Plain()
bf16.energy.to_float(ms.bfloat16)
same_type = amp.auto_mixed_precision(bf16, "O3", dtype=ms.bfloat16)
