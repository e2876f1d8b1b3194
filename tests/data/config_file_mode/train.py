"""Trains Net in the mode its configuration file selects (configs/train.yaml: PyNative)."""

import argparse

import mindspore as ms
import yaml

from net import Net


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--config", default="configs/train.yaml")
    args = parser.parse_args()
    with open(args.config) as stream:
        config = yaml.safe_load(stream)
    ms.set_context(mode=config["context"]["mode"])
    return Net()


if __name__ == "__main__":
    main()
