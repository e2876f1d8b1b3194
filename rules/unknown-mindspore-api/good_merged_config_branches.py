"""A Cell the script builds only where the configuration its helper merges asks for it. The
helper (the model zoo's `get_config`) reads the YAML file its `--config_path` option names and
adds an option of each field; every configuration kept beside the default sets `attention`
false and no launch script gives `--attention`, so no `Attention` is built and its constructor,
which passes `nn.Dense` a keyword MindSpore 2.10 lacks (PyTorch's `bias`), never runs."""

import argparse
import os

import numpy as np
import yaml
from mindspore import Tensor, nn


class Attention(nn.Cell):
    def __init__(self, hidden=8):
        super().__init__()
        self.proj = nn.Dense(hidden, hidden, bias=False)

    def construct(self, x):
        return self.proj(x)


class Decoder(nn.Cell):  # mslint: inputs=float32[2,8]
    def __init__(self, hidden=8):
        super().__init__()
        self.out = nn.Dense(hidden, hidden)

    def construct(self, x):
        return self.out(x)


def get_config():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--config_path", default=os.path.join(here, "configs/merged_off/train.yaml"))
    path_args, _ = parser.parse_known_args()
    with open(os.path.join(here, path_args.config_path)) as stream:
        fields = next(yaml.safe_load_all(stream))
    for key, value in fields.items():
        parser.add_argument("--" + key, type=type(value), default=value)
    merged, _ = parser.parse_known_args()
    return merged


config = get_config()


def main():
    args = config
    net = Attention(args.hidden) if args.attention else Decoder(args.hidden)
    return net(Tensor(np.ones((2, args.hidden), np.float32)))


if __name__ == "__main__":
    main()
