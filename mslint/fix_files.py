"""``check --fix`` and ``--diff`` on the files themselves: each fix is applied to the exact text
it was computed from, and written whole or not at all.

A file saved while mslint checked it is left alone (its fixes hold for the old text); a file
saved while mslint writes it is left alone too; a full disk or a killed process leaves every
file as it was (:mod:`mslint.atomic_write`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from mslint.atomic_write import FileChanged, digest, write_atomically
from mslint.diagnostics import Diagnostic
from mslint.engine import Report
from mslint.fixes import apply_fixes, fixable
from mslint.source import Source, decode_source, read_regular_file


@dataclass(frozen=True)
class FixedFile:
    source: Source
    """The text the findings were computed from."""
    fixed: str
    """The text with the fixes applied, as written (its own line endings)."""
    applied: int
    read_digest: str | None
    """Digest of the file's bytes when read; None for text that is not on disk (stdin)."""


def fixed_sources(
    diagnostics: list[Diagnostic], unsafe: bool, analysed: dict[str, str], sources: dict[str, Source] | None = None
) -> tuple[dict[str, FixedFile], list[str]]:
    """path -> its fixed text, for every file a fix changes, and one line per file left alone
    because it changed since it was analysed (``analysed``: path -> digest of the bytes checked);
    ``sources`` gives the text of paths that are not read from disk (stdin)."""
    by_path: dict[str, list[Diagnostic]] = {}
    for diagnostic in diagnostics:
        by_path.setdefault(diagnostic.path, []).append(diagnostic)
    changed, stale = {}, []
    for path, found in by_path.items():
        fixes = fixable(found, unsafe)
        if not fixes:
            continue
        read_digest = None
        if sources and path in sources:
            source = sources[path]
        else:
            try:
                content = read_regular_file(Path(path))
                source = decode_source(content)
            except (OSError, UnicodeDecodeError) as error:
                stale.append(f"{path}: cannot read the file to fix: {getattr(error, 'strerror', None) or error}")
                continue
            read_digest = digest(content)
            if read_digest != analysed.get(path):
                stale.append(f"{path}: changed while mslint checked it, not fixed: run again")
                continue
        fixed, applied = apply_fixes(source.written, fixes)
        if fixed != source.written:
            changed[path] = FixedFile(source, fixed, applied, read_digest)
    return changed, stale


def write_fixes(report: Report, unsafe: bool) -> tuple[set[str], int, list[str]]:
    """Write the fixed files back in their own encoding, each only if it still holds the text
    the fixes were computed from: the paths written, the fixes applied in them, and one line
    per file that was not written."""
    written: set[str] = set()
    count = 0
    changed, failures = fixed_sources(report.diagnostics, unsafe, report.analysed)
    for path, file in changed.items():
        try:
            # A link the user named is followed: its target holds the text that was checked.
            write_atomically(Path(path).resolve(), file.source.encode(file.fixed), file.read_digest)
        except FileChanged:
            failures.append(f"{path}: changed while mslint fixed it, not fixed: run again")
            continue
        except (OSError, UnicodeEncodeError) as error:
            reason = getattr(error, "strerror", None) or error
            failures.append(f"{path}: cannot write the fixes, the file is unchanged: {reason}")
            continue
        written.add(path)
        count += file.applied
    return written, count, failures
