"""Watch the gradients a script calls from Python: ``GradOperation(...)(net)(x, sens)``,
``ms.grad(net, ...)(x)``.

Such a gradient is compiled (in GRAPH_MODE) or run (in PyNative) when the function the gradient
operation returns is called, from the user's line, outside any entry mslint compiles. Each
returned function is wrapped: what it raises is reported on the user's line that called it, as
the compile error it is, and raised again. Only the Python calls are wrapped: graph code that
uses a gradient operation is compiled from the operation itself, not from its ``__call__``.

MindSpore's classes stay as they are. Bytecode capture (``jit(capture_mode="bytecode")``) finds
the gradient functions it must recognise by the ``after_grad`` code nested in
``GradOperation.__call__`` and ``_Grad.__call__`` (``_get_after_grad_code`` in
``mindspore/graph/_pijit/pijit_func_white_list.py``), and does not start when neither has it.
So the names a script reaches the operations by are bound to subclasses instead:
``ops.GradOperation`` and ``ops.composite.GradOperation``, and the ``_Grad`` that ``ms.grad``,
``ops.grad`` and ``value_and_grad`` build their operation from.
"""

from __future__ import annotations

import functools
from typing import Any

from mslint.compiler_messages import message_line
from mslint.verify.compiler_output import ERROR, Problem
from mslint.verify.runtime.callers import IsUserFile, Report, caller_location


def install(report: Report, is_user_file: IsUserFile) -> None:
    import mindspore.ops
    import mindspore.ops.composite
    from mindspore.ops.function.grad import grad_func

    watched = functools.partial(_watched, report=report, is_user_file=is_user_file)
    for module in (mindspore.ops, mindspore.ops.composite):
        module.GradOperation = watched(module.GradOperation)
    grad_func._Grad = watched(grad_func._Grad)


def _watched(operation: type, report: Report, is_user_file: IsUserFile) -> type:
    """``operation`` whose ``__call__`` returns the gradient function wrapped to report its failures."""

    def __call__(self: Any, *args: Any, **kwargs: Any) -> Any:
        gradient = operation.__call__(self, *args, **kwargs)

        @functools.wraps(gradient)
        def reported(*inputs: Any, **named: Any) -> Any:
            try:
                return gradient(*inputs, **named)
            except Exception as error:
                message = message_line(f"{type(error).__name__}: {error}")
                report(Problem(ERROR, message, caller_location(is_user_file)))
                raise

        return reported

    names = {"__call__": __call__, "__module__": operation.__module__, "__qualname__": operation.__qualname__}
    return type(operation.__name__, (operation,), names)
