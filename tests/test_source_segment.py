"""ModuleInfo.source_segment gives what ast.get_source_segment gives, splitting the lines once."""

from __future__ import annotations

import ast
from pathlib import Path

from mslint.model.module import ModuleInfo

SOURCE = "a = f('é',\r\n  2)\rb = [1,\n 'ü' + x]  # \x0c and \u2028 are no line ends\nc = (\n  3)"


def test_every_expression_reads_as_the_standard_library_reads_it() -> None:
    module = ModuleInfo.parse(Path("m.py"), SOURCE, checked=True)
    expressions = [node for node in ast.walk(module.tree) if isinstance(node, ast.expr)]
    assert len(expressions) > 10
    segments = [module.source_segment(e) for e in expressions]
    assert segments == [ast.get_source_segment(module.text, e) for e in expressions]
    assert "'ü' + x" in segments
