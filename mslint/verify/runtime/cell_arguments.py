"""Watch the argument check of a Cell called from Python in GRAPH_MODE: ``net(x, y)`` where
``construct`` takes one input.

``Cell.__call__`` counts the positional arguments against ``construct``'s signature
(``Cell._check_construct_args``) before anything compiles, from the user's line that called the
instance, outside any entry mslint compiles. The check is wrapped: what it raises is reported on
that line, as the error it is, and raised again.
"""

from __future__ import annotations

import functools
from typing import Any

from mslint.compiler_messages import message_line
from mslint.verify.compiler_output import ERROR, Problem
from mslint.verify.runtime.callers import IsUserFile, Report, caller_location


def install(report: Report, is_user_file: IsUserFile) -> None:
    from mindspore import nn

    original = nn.Cell._check_construct_args

    @functools.wraps(original)
    def checked(self: Any, *args: Any) -> None:
        try:
            original(self, *args)
        except TypeError as error:
            where = caller_location(is_user_file)
            if where:  # verify's own call of an entry is judged by that entry's compile
                report(Problem(ERROR, message_line(f"TypeError: {error}"), where))
            raise

    nn.Cell._check_construct_args = checked
