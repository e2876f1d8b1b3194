"""Watch the gradients a script calls from Python: ``GradOperation(...)(net)(x, sens)``,
``ms.grad(net, ...)(x)``.

Such a gradient is compiled (in GRAPH_MODE) or run (in PyNative) when the function the gradient
operation returns is called, from the user's line, outside any entry mslint compiles. Each
returned function is wrapped: what it raises is reported on the user's line that called it, as
the compile error it is, and raised again. Only the Python calls are wrapped: graph code that
uses a gradient operation is compiled from the operation itself, not from its ``__call__``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from mslint.compiler_messages import message_line
from mslint.verify.compiler_output import ERROR, Problem
from mslint.verify.runtime.callers import IsUserFile, Report, caller_location


def install(report: Report, is_user_file: IsUserFile) -> None:
    from mindspore.ops.composite.base import GradOperation, _Grad

    def watched(operation: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(operation)
        def call(self: Any, *args: Any, **kwargs: Any) -> Any:
            gradient = operation(self, *args, **kwargs)

            @functools.wraps(gradient)
            def reported(*inputs: Any, **named: Any) -> Any:
                try:
                    return gradient(*inputs, **named)
                except Exception as error:
                    message = message_line(f"{type(error).__name__}: {error}")
                    report(Problem(ERROR, message, caller_location(is_user_file)))
                    raise

            return reported

        return call

    for operation in (GradOperation, _Grad):
        operation.__call__ = watched(operation.__call__)
