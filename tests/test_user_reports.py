"""Graph-mode failures users reported in public, each rewritten as a small program that builds and
calls its Cell as the report does (no ``# mslint: inputs=``): what mslint reports on each. The
compiler's verdicts, measured on MindSpore 2.10, and the sources are in docs/user-reports.md."""

from __future__ import annotations

from pathlib import Path

import pytest

from mslint.engine import check_files
from mslint.settings import Settings

DATA = Path(__file__).resolve().parent / "data" / "user_reports"

# The rules mslint reports on each program (default settings); the empty ones are misses where
# the program fails to compile (docs/user-reports.md says why), or programs that compile.
VERDICTS: dict[str, frozenset[str]] = {
    "faq_construct_argument_count": frozenset({"call-argument-mismatch"}),
    "faq_duplicate_names_tuple": frozenset({"duplicate-parameter-name"}),
    "faq_duplicate_names_two_instances": frozenset({"duplicate-parameter-name"}),
    "faq_duplicate_names_two_instances_good": frozenset(),
    "faq_grad_sens_tuple": frozenset({"gradient-input-mismatch"}),
    "faq_grad_sens_tuple_good": frozenset(),
    "faq_is_not_string": frozenset(),
    "faq_join_cast_dtype": frozenset({"branch-shape-mismatch"}),
    "faq_join_cast_dtype_good": frozenset(),
    "faq_nested_cell_in_plain_class": frozenset(),
    "faq_nested_cell_in_plain_class_good": frozenset(),
    "faq_nested_jit_method": frozenset(),
    "faq_self_attribute_assign": frozenset({"python-side-effect-in-graph"}),
    "faq_self_attribute_assign_good": frozenset(),
    "faq_sens_dynamic_shape": frozenset({"gradient-input-mismatch"}),
    "faq_sens_dynamic_shape_good": frozenset(),
    "faq_yield": frozenset({"unsupported-syntax"}),
    "issue_dict_output_training": frozenset({"unsupported-graph-output"}),
    "issue_dict_output_training_good": frozenset(),
    "issue_generator_trainable_params": frozenset({"forbidden-api-in-graph"}),
    "issue_generator_trainable_params_good": frozenset(),
    "issue_grad_sens_wrong_dtype": frozenset({"gradient-input-mismatch"}),
    "issue_jit_return_python_types": frozenset({"branch-shape-mismatch"}),
    "issue_jit_return_python_types_good": frozenset(),
    "issue_join_cast_attribute_dtype": frozenset({"branch-shape-mismatch"}),
    "issue_not_multi_element": frozenset({"ambiguous-tensor-conversion"}),
    "issue_not_multi_element_good": frozenset(),
    "issue_not_returned": frozenset({"ambiguous-tensor-conversion"}),
    "issue_numpy_returned": frozenset({"unsupported-graph-output"}),
    "issue_numpy_returned_good": frozenset(),
    "issue_subcell_output_condition": frozenset({"ambiguous-tensor-conversion"}),
    "issue_subcell_output_condition_good": frozenset(),
    "tutorial_classmethod": frozenset({"call-argument-mismatch"}),
    "tutorial_try": frozenset({"unsupported-syntax"}),
    "tutorial_undefined_member": frozenset({"unsupported-attribute-in-graph"}),
    "tutorial_unsupported_builtin": frozenset(),
}


def test_every_program_has_a_verdict() -> None:
    assert sorted(p.stem for p in DATA.glob("*.py")) == sorted(VERDICTS)


@pytest.mark.parametrize("case", sorted(VERDICTS))
def test_mslint_reports_what_the_table_says(case: str) -> None:
    report = check_files([DATA / f"{case}.py"], Settings())
    assert {d.symbol for d in report.diagnostics} == VERDICTS[case]
