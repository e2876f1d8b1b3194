"""Trains the inversion model in GRAPH_MODE."""

import mindspore as ms
import numpy as np
from lib import InversionAttack
from mindspore import nn

if __name__ == "__main__":
    ms.set_context(mode=ms.GRAPH_MODE)
    attack = InversionAttack(nn.Dense(4, 2))
    print(attack.train_inversion_model(ms.Tensor(np.ones((2, 4), np.float32)), ms.Tensor(np.ones((2, 2), np.float32))))
