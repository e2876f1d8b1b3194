"""Real MindSpore code for the benchmarks: released wheels, downloaded once into ``.corpus``."""

from __future__ import annotations

import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

CORPUS_CACHE = Path(__file__).resolve().parent / ".corpus"
ZOO = {"mindcv": "0.3.0", "mindocr": "0.5.0", "mindyolo": "0.5.0"}


def released_package(name: str, version: str) -> Path:
    """The package folder of ``name==version`` from PyPI (``pip download --no-deps``), unpacked."""
    target = CORPUS_CACHE / f"{name}-{version}"
    if not target.is_dir():
        with tempfile.TemporaryDirectory() as download:
            subprocess.run(
                [sys.executable, "-m", "pip", "download", "--no-deps", "-q", f"{name}=={version}", "-d", download],
                check=True,
            )
            wheel = next(Path(download).glob("*.whl"))
            with zipfile.ZipFile(wheel) as archive:
                archive.extractall(target)
    return target / name


def zoo() -> list[Path]:
    """mindcv, mindocr and mindyolo: the model zoos of corpus B."""
    return [released_package(name, version) for name, version in ZOO.items()]
