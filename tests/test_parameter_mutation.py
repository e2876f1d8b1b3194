"""parameter-mutation-in-graph: `requires_grad` set on a Parameter is an error; on what an
operator or a Cell returns (a tensor, which MindSpore compiles it on) a warning."""

from __future__ import annotations

from mslint.engine import check_files
from mslint.settings import Settings
from tests.examples import RULES_DIR


def test_requires_grad_is_an_error_only_on_parameters() -> None:
    path = RULES_DIR / "parameter-mutation-in-graph" / "bad.py"
    report = check_files([path], Settings(select=("parameter-mutation-in-graph",)))
    severities = {d.line: str(d.severity) for d in report.diagnostics if "requires_grad" in d.message}
    assert severities == {
        29: "error",  # self.w
        40: "error",  # w = self.w
        50: "warning",  # ops.ones(...)
        59: "warning",  # an input of construct
        82: "warning",  # a Cell's output
        84: "warning",  # an item unpacked from ops.split
        86: "warning",  # an item of ops.split's result
    }
