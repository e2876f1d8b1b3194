"""What the pruning tests share: the unset attributes ``unsupported-attribute-in-graph`` reports on
a module, each with its severity, by name."""

from __future__ import annotations

from pathlib import Path

from mslint.engine import check_files
from mslint.settings import Settings


def missing_attributes(tmp_path: Path, source: str) -> dict[str, str]:
    path = tmp_path / "net.py"
    path.write_text(source, encoding="utf-8")
    return {
        d.message.split("`")[3]: d.severity.name
        for d in check_files([path], Settings()).diagnostics
        if d.symbol == "unsupported-attribute-in-graph"
    }
