"""Add a rule: its module, its line in the registry, its examples and its documentation skeleton.

    python scripts/new_rule.py SYMBOL CODE "what it flags, in a few words" [--root DIR]

Writes ``mslint/rules/<symbol with underscores>.py`` (a graph rule with the four documentation
sections to fill in), adds ``CODE: (SYMBOL, module, class)`` to ``mslint/rule_codes.py``, and
writes ``rules/SYMBOL/bad.py`` and ``good.py`` to fill with examples the compiler confirms. The
new rule finds nothing until its ``check_graph_node`` is written, so the example tests fail
until then: that is the to-do list. Then run ``python scripts/generate_rule_docs.py``.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

MODULE = '''from __future__ import annotations

import ast
from collections.abc import Iterator

from mslint.diagnostics import Severity
from mslint.model.scope import GraphFunction
from mslint.rules.base import Finding, Rule
from mslint.settings import Settings


class {cls}(Rule):
    """
    ## What it does
    TODO: what the rule flags, in graph code or outside it.

    ## Why it breaks graph mode
    TODO: what MindSpore does with it, as measured (the compiler's message).

    ## Example
    ```python
    TODO
    ```

    ## Use instead
    ```python
    TODO
    ```
    """

    code = "{code}"
    symbol = "{symbol}"
    summary = "{summary}"
    node_types: tuple[type[ast.AST], ...] = ()

    def severity(self, settings: Settings) -> Severity:
        return Severity.ERROR

    def check_graph_node(self, node: ast.AST, function: GraphFunction) -> Iterator[Finding]:
        return iter(())
'''

BAD = '''"""{symbol}: each line marked `# expect: {symbol}` must fail, fall back or diverge on MindSpore."""

from mindspore import nn


class Bad(nn.Cell):
    def construct(self, x):
        return x  # TODO: the flagged form, marked # expect: {symbol}
'''

GOOD = '''"""{symbol}: forms that look alike and compile cleanly in STRICT: the rule must stay quiet."""

from mindspore import nn


class Good(nn.Cell):
    def construct(self, x):
        return x
'''


def add_rule(root: Path, symbol: str, code: str, summary: str) -> list[Path]:
    """The files written or changed under ``root`` (a checkout of this repository)."""
    if not re.fullmatch(r"[a-z][a-z0-9]*(-[a-z0-9]+)+", symbol):
        raise ValueError(f"a symbol is lowercase words joined by hyphens, not {symbol!r}")
    if not re.fullmatch(r"MS[1-3]\d\d", code):
        raise ValueError(f"a code is MS1xx (graph), MS2xx (migration) or MS3xx (version), not {code!r}")
    registry = root / "mslint" / "rule_codes.py"
    text = registry.read_text(encoding="utf-8")
    if f'"{code}"' in text or f'"{symbol}"' in text:
        raise ValueError(f"{code} or {symbol} is already in {registry}")
    module_name = symbol.replace("-", "_")
    cls = "".join(part.capitalize() for part in symbol.split("-"))
    module = root / "mslint" / "rules" / f"{module_name}.py"
    module.write_text(MODULE.format(cls=cls, code=code, symbol=symbol, summary=summary), encoding="utf-8")
    end = text.index("\n}\n")
    registry.write_text(
        f'{text[:end]}\n    "{code}": ("{symbol}", "{module_name}", "{cls}"),{text[end:]}', encoding="utf-8"
    )
    examples = root / "rules" / symbol
    examples.mkdir(parents=True, exist_ok=True)
    (examples / "bad.py").write_text(BAD.format(symbol=symbol), encoding="utf-8")
    (examples / "good.py").write_text(GOOD.format(symbol=symbol), encoding="utf-8")
    return [module, registry, examples / "bad.py", examples / "good.py"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("symbol")
    parser.add_argument("code")
    parser.add_argument("summary")
    parser.add_argument("--root", type=Path, default=REPO, help="the checkout to add it to (default: this one)")
    arguments = parser.parse_args()
    try:
        written = add_rule(arguments.root, arguments.symbol, arguments.code.upper(), arguments.summary)
    except ValueError as error:
        print(f"new_rule.py: error: {error}", file=sys.stderr)
        return 2
    for path in written:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
