"""Run the compile probe (mslint.verify.probe) in child processes and collect its evidence."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from tests.examples import REPO, compile_entries

PROBE_TIMEOUT_S = 240


@dataclass
class FileEvidence:
    """What the compiler said about every entry of one example file."""

    by_entry: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)

    def confirmed_lines(self) -> set[int]:
        lines: set[int] = set()
        for levels in self.by_entry.values():
            for evidence in levels.values():
                if evidence["error"]:
                    lines.update(evidence["error"]["lines"])
                lines.update(evidence["fallback_lines"], evidence["dynamic_shape_lines"])
                for untracked in evidence["untracked_cells"]:
                    lines.update(untracked["lines"])
        return lines

    def problems(self) -> list[str]:
        """Everything that keeps an entry from being clean graph code."""
        found = []
        for entry, levels in self.by_entry.items():
            strict, lax = levels["strict"], levels["lax"]
            if strict["error"]:
                found.append(f"{entry}: STRICT error {strict['error']['type']}: {strict['error']['message']}")
            if lax["fallback_lines"]:
                found.append(f"{entry}: LAX fallback at lines {lax['fallback_lines']}")
            if strict["dynamic_shape_lines"] or lax["dynamic_shape_lines"]:
                found.append(f"{entry}: dynamic shape at lines {strict['dynamic_shape_lines']}")
            if strict["untracked_cells"]:
                found.append(f"{entry}: untracked Cells {strict['untracked_cells']}")
        return found


def run_probe(path: Path, entry: str, inputs: str, level: str) -> dict[str, Any]:
    command = [sys.executable, "-m", "mslint.verify.probe", str(path), entry, "--inputs", inputs, "--level", level]
    environment = {**os.environ, "PYTHONPATH": str(REPO), "GLOG_v": "3"}
    result = subprocess.run(command, capture_output=True, text=True, timeout=PROBE_TIMEOUT_S, env=environment)
    if result.returncode != 0 or not result.stdout.strip():
        raise AssertionError(f"probe of {path.name}:{entry} ({level}) failed:\n{result.stderr[-3000:]}")
    evidence: dict[str, Any] = json.loads(result.stdout.strip().splitlines()[-1])
    return evidence


@cache
def file_evidence(path: Path) -> FileEvidence:
    """Compile every entry of ``path`` at both syntax levels, each in its own process."""
    jobs = [(entry, level) for entry in compile_entries(path) for level in ("strict", "lax")]
    with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
        results = list(pool.map(lambda job: run_probe(path, job[0].name, job[0].inputs, job[1]), jobs))
    evidence = FileEvidence()
    for (entry, level), result in zip(jobs, results):
        evidence.by_entry.setdefault(entry.name, {})[level] = result
    return evidence
