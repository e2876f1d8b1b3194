"""``# mslint: disable=symbol[,symbol]`` comments, which silence findings on their line."""

from __future__ import annotations

import io
import re
import tokenize

_DISABLE = re.compile(r"#\s*mslint:\s*disable=\s*([\w\-]+(?:\s*,\s*[\w\-]+)*)")


def disabled_by_line(source: str) -> dict[int, set[str]]:
    """Line -> the symbols or codes disabled there (``all`` disables every rule)."""
    if "mslint:" not in source:
        return {}
    disabled: dict[int, set[str]] = {}
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.COMMENT:
                match = _DISABLE.search(token.string)
                if match:
                    names = {n.strip() for n in match.group(1).split(",") if n.strip()}
                    disabled.setdefault(token.start[0], set()).update(names)
    except (tokenize.TokenError, SyntaxError):
        pass
    return disabled


def is_disabled(disabled: dict[int, set[str]], line: int, symbol: str, code: str) -> bool:
    names = disabled.get(line, ())
    return bool(names) and ("all" in names or symbol in names or code in names)
