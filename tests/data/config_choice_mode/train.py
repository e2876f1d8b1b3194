"""Trains Net in the mode its configuration file selects (configs/train.yaml: PyNative), through
env.init_env, which reads the mode from the configuration env.load_config parsed."""

import argparse

from env import init_env, load_config
from net import Net


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--config", default="configs/train.yaml")
    args = parser.parse_args()
    cfg = load_config(args.config)
    init_env(cfg)
    return Net()


if __name__ == "__main__":
    main()
