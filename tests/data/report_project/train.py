from mindspore import nn
from mindspore.communication import init

init()
net = nn.Dense(4, 4)
