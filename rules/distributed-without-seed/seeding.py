"""A project helper that seeds everything (imported by good_helper.py)."""

import random

import mindspore as ms
import numpy as np


def seed_everything(seed):
    random.seed(seed)
    np.random.seed(seed)
    ms.set_seed(seed)
