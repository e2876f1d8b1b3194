"""Measure tests/data/user_reports/ (or the folder given, such as tests/data/syntax_pages/) on the
installed MindSpore: each program run as its report runs it, in a fresh process per program and
syntax level (STRICT, LAX), with the fallback dump on. Prints one JSON row per run: the case, the
level, its verdict (``error``, ``fallback``: LAX ran a line in the Python interpreter, ``ok``) and
the compiler's last error line. docs/user-reports.md and docs/syntax-pages.md hold the results.

    python scripts/measure_user_reports.py > user-reports.json
    python scripts/measure_user_reports.py tests/data/syntax_pages > syntax-pages.json
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "user_reports"
LEVELS = {"strict": "0", "lax": "2"}
_ERROR_LINE = re.compile(r"^[A-Za-z_.]*(Error|Exception)\b")
# The fallback dump's second section lists the lines really interpreted at run time.
_INTERPRETED = re.compile(r"After Optimizer Phase.*?In file", re.S)


def measure(path: Path, level: str) -> dict[str, str]:
    env = dict(os.environ, MS_DEV_JIT_SYNTAX_LEVEL=LEVELS[level], MS_DEV_FALLBACK_DUMP_NODE="1", GLOG_v="3")
    run = subprocess.run(
        [sys.executable, path.name], cwd=path.parent, env=env, capture_output=True, text=True, timeout=600
    )
    errors = [line for line in run.stderr.splitlines() if _ERROR_LINE.match(line)]
    message = (errors[-1] if errors else run.stderr.strip().splitlines()[-1]) if run.returncode else ""
    verdict = "error" if run.returncode else "fallback" if _INTERPRETED.search(run.stderr) else "ok"
    return {"case": path.stem, "level": level, "verdict": verdict, "message": message}


def main() -> None:
    folder = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else DATA
    runs = [(path, level) for path in sorted(folder.glob("*.py")) for level in LEVELS]
    with ThreadPoolExecutor(2) as pool:
        for row in pool.map(lambda run: measure(*run), runs):
            print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
