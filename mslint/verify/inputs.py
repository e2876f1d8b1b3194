"""Input specs such as ``float32[N,3,224,224], int32[N]``: dtypes and shapes, no data."""

from __future__ import annotations

import re
from dataclasses import dataclass

_SPEC = re.compile(r"\s*([A-Za-z_]\w*)\s*\[([^\]]*)\]\s*")


@dataclass(frozen=True)
class TensorSpec:
    dtype: str
    shape: tuple[int | None, ...]
    """Dimensions; ``None`` for a named or ``None`` dimension, which compiles as dynamic."""


def parse_input_specs(text: str) -> list[TensorSpec]:
    """Parse a comma-separated list of ``dtype[dims]``; raise ValueError on malformed text."""
    specs = []
    position = 0
    text = text.strip()
    while position < len(text):
        match = _SPEC.match(text, position)
        if match is None:
            raise ValueError(f"bad input spec at {text[position:]!r}: expected dtype[dim, ...]")
        dims = [d.strip() for d in match.group(2).split(",") if d.strip()]
        specs.append(TensorSpec(match.group(1), tuple(int(d) if d.isdigit() else None for d in dims)))
        position = match.end()
        if position < len(text):
            if text[position] != ",":
                raise ValueError(f"bad input spec at {text[position:]!r}: expected ','")
            position += 1
    return specs
