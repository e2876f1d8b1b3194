"""Trains the shadow model in PyNative mode."""

import mindspore as ms
import numpy as np
from lib.attacks import ShadowAttack
from mindspore import nn

if __name__ == "__main__":
    ms.set_context(mode=ms.PYNATIVE_MODE)
    attack = ShadowAttack(nn.Dense(4, 2))
    print(attack.train_shadow_model(ms.Tensor(np.ones((2, 4), np.float32)), ms.Tensor(np.ones((2, 2), np.float32))))
