"""Watch the argument check of a ``@jit`` function called from Python: ``add(x)`` where
``def add(x, y)``.

The function ``jit`` makes binds the call's keywords to the function's signature
(``_handle_func_args``) and counts its positional arguments (``_check_func_args``, "Function add
needs 2 positional argument, but got 1.") before anything compiles, from the user's line that
called it, outside any entry mslint compiles. Both checks are wrapped: what they raise is
reported on that line, as the error it is, and raised again.
"""

from __future__ import annotations

import functools
from typing import Any, Callable

from mslint.compiler_messages import message_line
from mslint.verify.compiler_output import ERROR, Problem
from mslint.verify.runtime.callers import IsUserFile, Report, caller_location


def install(report: Report, is_user_file: IsUserFile) -> None:
    from mindspore.graph import api

    for name in ("_handle_func_args", "_check_func_args"):
        setattr(api, name, _reporting(getattr(api, name), report, is_user_file))


def _reporting(check: Callable[..., Any], report: Report, is_user_file: IsUserFile) -> Callable[..., Any]:
    @functools.wraps(check)
    def checked(*args: Any, **kwargs: Any) -> Any:
        try:
            return check(*args, **kwargs)
        except TypeError as error:
            where = caller_location(is_user_file)
            if where:  # verify's own call of an entry is judged by that entry's compile
                report(Problem(ERROR, message_line(f"TypeError: {error}"), where))
            raise

    return checked
