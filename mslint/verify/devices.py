"""Which devices MindSpore can compile for here, best first; run as a child: ``python -m
mslint.verify.devices [--lifeline FD]``, or forked by :mod:`mslint.verify.forkserver`."""

from __future__ import annotations

import argparse
import json
import os
import sys

from mslint.workers import follow

DEVICES = ("Ascend", "GPU", "CPU")


class VerifierUnavailable(Exception):
    """MindSpore or the requested device is missing: one line, exit code 2."""


def available_devices() -> list[str]:
    """Devices the installed MindSpore can use on this machine, best first (imports MindSpore)."""
    import mindspore as ms

    return [d for d in DEVICES if getattr(ms.device_context, d.lower()).is_available()]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mslint.verify.devices")
    parser.add_argument("--lifeline", type=int, help="end when this descriptor reads end of file")
    lifeline = parser.parse_args(argv).lifeline
    if lifeline is not None:
        follow(lifeline)
    os.environ.setdefault("GLOG_v", "3")
    import mindspore as ms

    print(json.dumps({"mindspore": ms.__version__, "available": available_devices()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
