"""What a ``mslint check`` process imports: a library the run does not use is not loaded, since
every command pays for its imports at start (a one-file check is mostly start-up)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

_LOADED = """
import sys
from mslint.cli import main
try:
    main(["check", sys.argv[1], "--no-cache", "-q"])
except SystemExit:
    pass
print(" ".join(sorted(sys.modules)))
"""


def _modules_loaded_by_check(source: Path) -> set[str]:
    done = subprocess.run([sys.executable, "-c", _LOADED, str(source)], capture_output=True, text=True, check=True)
    return set(done.stdout.split())


def test_a_check_that_reads_no_configuration_file_loads_no_yaml_parser(tmp_path: Path) -> None:
    source = tmp_path / "net.py"
    source.write_text('import json\n\nconfig = json.load(open("config.json"))\n')
    assert "yaml" not in _modules_loaded_by_check(source)
