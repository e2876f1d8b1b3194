"""Write mslint/data/transfer-disagreements-<version>.json: how often mslint's transfer functions
(:mod:`mslint.model.transfer`, :mod:`mslint.model.layer_transfer`) give the shape and dtype the
installed MindSpore gives, over the seeded random cases of :mod:`transfer_cases`, and every case
where they do not.

Each disagreement keeps the reason written for it in the shipped file (by its case's text); a new
one is written with an empty reason, which ``tests/test_transfer_functions.py`` refuses until
someone explains it (or fixes the transfer function). Run it in an environment with the release
to describe: ``python scripts/generate_transfer_table.py``; ``--check`` only compares with the
shipped table. About 30 s on two cores (PyNative, CPU).
"""

from __future__ import annotations

import sys

from mindspore_table import installed_mindspore, write_or_check
from transfer_cases import measure, reasons, table_text, undrawn


def main() -> int:
    version = installed_mindspore("generate_transfer_table.py")
    if version is None:
        return 1
    if undrawn():
        print(f"no cases are drawn for {', '.join(undrawn())}", file=sys.stderr)
        return 1
    found = measure()
    figures = found.figures()
    print(
        f"{figures['ran']} of {figures['cases']} cases ran"
        f" ({figures['skipped (MindSpore raised)']} refused by MindSpore)"
        f" in {found.seconds:.0f} s; agreement {figures['agreement']} ({figures['agreeing']} of {figures['claimed']}"
        f" claimed), coverage {figures['coverage']} ({figures['fully claimed']} fully claimed)"
    )
    text = table_text(found, version, reasons(version))
    summary = f"{len(found.disagreements or [])} disagreements, {len(found.never_ran or [])} entries never ran"
    return write_or_check(f"transfer-disagreements-{version}.json", text, summary)


if __name__ == "__main__":
    sys.exit(main())
