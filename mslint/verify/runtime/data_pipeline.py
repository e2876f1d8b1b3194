"""Watch ``Dataset.map`` and ``GeneratorDataset``: MindSpore's own check for network operators
in dataset code.

MindSpore's validators mark the dataset (``operator_mixed``) when a ``map`` function or a
generator source mentions ``mindspore.ops``/``nn``/``numpy``, and refuse a Cell or an operator
given to ``map``. The mark stays on the input dataset, so a later ``map`` of the same dataset
would inherit it: each call is judged with the mark cleared, which is then put back.
"""

from __future__ import annotations

from typing import Any

from mslint.verify.compiler_output import RUNTIME, Problem
from mslint.verify.runtime.callers import IsUserFile, Report, caller_location

_MARK = "operator_mixed"
_REFUSED = "should not contain network computing operator"


def install(report: Report, is_user_file: IsUserFile) -> None:
    from mindspore.dataset import GeneratorDataset
    from mindspore.dataset.engine.datasets import Dataset

    original_map, original_init = Dataset.map, GeneratorDataset.__init__

    def map(self: Any, *args: Any, **kwargs: Any) -> Any:
        inherited = vars(self).pop(_MARK, None)
        try:
            result = original_map(self, *args, **kwargs)
        except ValueError as error:
            if _REFUSED in str(error):
                message = f"ValueError: {' '.join(str(part) for part in error.args)}"
                report(Problem(RUNTIME, message, caller_location(is_user_file)))
            raise
        finally:
            marked = vars(self).get(_MARK) is True
            if inherited is not None:
                setattr(self, _MARK, inherited or marked)
        if marked and not _supported(kwargs):
            message = "MindSpore found network operators in the operations of `map` and runs it with one worker"
            report(Problem(RUNTIME, message, caller_location(is_user_file)))
        return result

    def init(self: Any, *args: Any, **kwargs: Any) -> None:
        original_init(self, *args, **kwargs)
        if vars(self).get(_MARK) is True and not _supported(kwargs):
            message = "MindSpore found network operators in the source of `GeneratorDataset`"
            report(Problem(RUNTIME, message, caller_location(is_user_file)))

    Dataset.map = map
    GeneratorDataset.__init__ = init


def _supported(kwargs: dict[str, Any]) -> bool:
    """The set-up MindSpore documents as supporting network operators in dataset code."""
    from mindspore.dataset import config

    return kwargs.get("python_multiprocessing") is True and config.get_multiprocessing_start_method() == "spawn"
