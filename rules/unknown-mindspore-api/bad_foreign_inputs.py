"""The same Cell called on a tensor: a Tensor has no `to_eng_string` (2.10: "'Tensor' object has
no attribute 'to_eng_string'")."""

import numpy as np
from mindspore import Tensor, nn


class RootAsText(nn.Cell):
    def construct(self, amount):
        return amount.sqrt().to_eng_string()  # expect: unknown-mindspore-api


if __name__ == "__main__":
    RootAsText()(Tensor(np.full((2,), 2.0, np.float32)))
