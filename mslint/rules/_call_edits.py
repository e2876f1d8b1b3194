"""Edits of a call's arguments, shared by the fixes that rewrite calls."""

from __future__ import annotations

import ast

from mslint.diagnostics import Edit
from mslint.model.module import ModuleInfo


def replace_node(node: ast.expr, content: str) -> Edit:
    return Edit(
        node.lineno, node.col_offset + 1, node.end_lineno or node.lineno, (node.end_col_offset or 0) + 1, content
    )


def add_keyword(call: ast.Call, module: ModuleInfo, keyword: str) -> Edit:
    """``, keyword`` after the last argument (and the parentheses around it); after a trailing
    comma, `` keyword,`` or, when each argument has a line (as formatters write them), a line of
    its own before the closing parenthesis; in an empty call, ``keyword`` alone."""
    arguments: list[ast.expr | ast.keyword] = [*call.args, *call.keywords]
    if not arguments:
        line, column = call.end_lineno or call.lineno, call.end_col_offset or 1
        return Edit(line, column, line, column, keyword)
    last = max(arguments, key=lambda n: (n.lineno, n.col_offset))
    line, column = _after(last, call, module)
    closing_line = call.end_lineno or line
    if module.line(line).encode("utf-8")[column - 1 : column] != b",":
        return Edit(line, column + 1, line, column + 1, f", {keyword}")
    indent = module.line(last.lineno).encode("utf-8")[: last.col_offset]
    if closing_line > line and not indent.strip() and module.line(closing_line).lstrip().startswith(")"):
        return Edit(closing_line, 1, closing_line, 1, f"{indent.decode('utf-8')}{keyword},\n")
    return Edit(line, column + 1, line, column + 1, f" {keyword},")


def _after(last: ast.expr | ast.keyword, call: ast.Call, module: ModuleInfo) -> tuple[int, int]:
    """The line and 0-based byte column just past the last argument, the parentheses closing it
    and a trailing comma: between it and the call's `)` there are only those and comments."""
    line, column = last.end_lineno or last.lineno, last.end_col_offset or 0
    position = (line, column)
    for number in range(line, (call.end_lineno or line) + 1):
        text = module.line(number).encode("utf-8")  # ast columns are UTF-8 byte offsets
        stop = (call.end_col_offset or 1) - 1 if number == call.end_lineno else len(text)
        for index in range(column if number == line else 0, stop):
            if text[index : index + 1] == b"#":
                break
            if text[index : index + 1] in (b")", b","):
                position = (number, index + 1)
    return position
