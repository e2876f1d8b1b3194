"""``--statistics``: how many findings each rule has, most frequent first."""

from __future__ import annotations

import json
from collections import Counter

from mslint.diagnostics import Diagnostic


def counts(diagnostics: list[Diagnostic]) -> list[tuple[int, str, str]]:
    by_rule = Counter((d.code, d.symbol) for d in diagnostics)
    return sorted(((n, code, symbol) for (code, symbol), n in by_rule.items()), key=lambda row: (-row[0], row[1]))


def render_text(diagnostics: list[Diagnostic]) -> str:
    rows = counts(diagnostics)
    width = max((len(str(n)) for n, _, _ in rows), default=1)
    return "".join(f"{n:>{width}}\t{code}\t{symbol}\n" for n, code, symbol in rows)


def render_json(diagnostics: list[Diagnostic]) -> str:
    rows = [{"code": code, "symbol": symbol, "count": n} for n, code, symbol in counts(diagnostics)]
    return json.dumps(rows, indent=2) + "\n"
