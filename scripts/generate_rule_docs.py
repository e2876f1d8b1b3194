"""Write docs/rules.md and docs/rules/<symbol>.md from the rules' documentation and rules/ examples.

Run ``python scripts/generate_rule_docs.py`` after changing a rule or its examples;
``--check`` exits with 1 when a page is out of date (the test suite runs it).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from mslint.rule_docs import render_page, severity_text
from mslint.rules import all_rules

REPO = Path(__file__).resolve().parent.parent
INTRODUCTION = """\
`mslint rules` lists these rules and `mslint rule SYMBOL` prints one rule's documentation;
[Severity](configuration.md#severity) shows how `syntax-level` and `target` change the
severities.

**Graph code** means what MindSpore compiles into a graph: `construct` of every `nn.Cell`
subclass (also through base classes in other files), functions decorated with
`mindspore.jit` / `ms_function`, and every function or method they call, except Cells that
only run in PyNative mode ([`pynative`](configuration.md#pynative)). A **graph value**
is a tensor, an input of graph code, or anything computed from one. Values computed only
from literals, attributes set in `__init__` and shapes (`x.shape`) are compile-time
constants: the compiler folds them, and mslint does not flag them.

Each rule's page ends with its examples from `rules/<symbol>/` of the repository, which
the test suite compiles with the real MindSpore 2.10 compiler."""


def pages() -> dict[Path, str]:
    rules = all_rules()
    rows = "\n".join(
        f"| [`{r.code}`](rules/{r.symbol}.md) | `{r.symbol}` | {severity_text(r)} | {r.summary} |" for r in rules
    )
    index = f"# Rules\n\n{INTRODUCTION}\n\n| code | symbol | severity | summary |\n|---|---|---|---|\n{rows}\n"
    found = {REPO / "docs" / "rules.md": index}
    for rule in rules:
        found[REPO / "docs" / "rules" / f"{rule.symbol}.md"] = render_page(rule, REPO / "rules")
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="only report pages that are out of date")
    args = parser.parse_args()
    stale = [path for path, text in pages().items() if not path.is_file() or path.read_text() != text]
    if args.check:
        for path in stale:
            print(f"{path.relative_to(REPO)} is out of date: run python scripts/generate_rule_docs.py")
        return 1 if stale else 0
    for path in stale:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(pages()[path])
        print(f"wrote {path.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
