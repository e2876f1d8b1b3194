"""Trains Net in the mode its configuration file selects (configs/train.yaml: PyNative), through
env.init_env, which reads the mode from the configuration it is passed."""

import argparse

import yaml
from easydict import EasyDict

from env import init_env
from net import Net


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--config", default="configs/train.yaml")
    args = parser.parse_args()
    with open(args.config) as stream:
        cfg = EasyDict(yaml.safe_load(stream))
    init_env(cfg)
    return Net()


if __name__ == "__main__":
    main()
