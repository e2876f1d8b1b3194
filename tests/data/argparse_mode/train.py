"""Trains Net in the mode its --mode option selects: PyNative by default."""

import argparse

import mindspore as ms

from net import Net


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", type=int, default=1, help="0: graph mode, 1: PyNative")
    args = parser.parse_args()
    ms.set_context(mode=args.mode)
    return Net()


if __name__ == "__main__":
    main()
