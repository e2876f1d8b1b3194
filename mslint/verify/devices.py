"""Which devices MindSpore can compile for here, best first; run as a child: ``python -m mslint.verify.devices``."""

from __future__ import annotations

import json
import os
import sys

DEVICES = ("Ascend", "GPU", "CPU")


def main() -> int:
    os.environ.setdefault("GLOG_v", "3")
    import mindspore as ms

    available = [d for d in DEVICES if getattr(ms.device_context, d.lower()).is_available()]
    print(json.dumps({"mindspore": ms.__version__, "available": available}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
