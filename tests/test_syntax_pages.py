"""The examples of MindSpore's static-graph syntax pages, each rewritten as a small program that
builds and calls its Cell or ``@jit`` function as the page does: what mslint reports on each. The
compiler's verdicts, measured on MindSpore 2.10, and the pages are in docs/syntax-pages.md."""

from __future__ import annotations

from pathlib import Path

import pytest

from mslint.engine import check_files
from mslint.settings import Settings

DATA = Path(__file__).resolve().parent / "data" / "syntax_pages"

# The rules mslint reports on each program (default settings). The ``good_`` programs are those
# the pages say work; the empty sets elsewhere are misses or programs 2.10 accepts
# (docs/syntax-pages.md says which).
VERDICTS: dict[str, frozenset[str]] = {
    "builtins_getattr_no_default": frozenset({"unknown-mindspore-api"}),
    "builtins_round_tensor_digits": frozenset({"unknown-mindspore-api"}),
    "expert_jit_class_on_cell": frozenset(),
    "expert_jit_class_without_call": frozenset(),
    "good_assert_passes": frozenset(),
    "good_builtins_on_tensors": frozenset(),
    "good_cell_positional_construct": frozenset(),
    "good_continue": frozenset(),
    "good_defined_member": frozenset(),
    "good_dict_comprehension": frozenset({"unsupported-graph-output"}),
    "good_dict_input": frozenset(),
    "good_dict_methods": frozenset(),
    "good_for_over_tuple": frozenset(),
    "good_generator_expression": frozenset(),
    "good_getattr_default": frozenset(),
    "good_if_on_scalar_tensor": frozenset(),
    "good_jit_calls_function": frozenset(),
    "good_jit_class_in_cell": frozenset(),
    "good_jit_class_with_call": frozenset(),
    "good_len_and_shape": frozenset(),
    "good_list_comprehension": frozenset(),
    "good_list_index_assign": frozenset(),
    "good_list_input": frozenset(),
    "good_list_methods": frozenset(),
    "good_nested_function": frozenset(),
    "good_parameter_assign": frozenset(),
    "good_pass_statement": frozenset(),
    "good_primitive_positional_argument": frozenset(),
    "good_print": frozenset(),
    "good_raise_constant": frozenset(),
    "good_return_none": frozenset(),
    "good_round_tensor": frozenset(),
    "good_single_element_and": frozenset(),
    "good_tensor_in_construct": frozenset(),
    "good_tuple_concat": frozenset(),
    "good_tuple_of_cells_tensor_index": frozenset(),
    "good_while_break": frozenset(),
    "good_with_jit_class": frozenset(),
    "lax_asnumpy_add": frozenset({"tensor-to-host-in-graph"}),
    "lax_global_dict_setitem": frozenset({"python-side-effect-in-graph"}),
    "lax_global_object_setattr": frozenset(),
    "lax_grad_through_dict": frozenset(),
    "lax_isinstance_numpy": frozenset({"tensor-to-host-in-graph"}),
    "lax_jit_class_attribute_set": frozenset({"custom-class-in-graph"}),
    "lax_jit_returns_dict": frozenset({"unsupported-graph-output"}),
    "lax_numpy_arrays_returned": frozenset(),
    "lax_numpy_attribute_set": frozenset(),
    "lax_numpy_control_flow": frozenset(),
    "lax_numpy_setitem": frozenset(),
    "lax_plain_class_method": frozenset(),
    "lax_self_attribute_new": frozenset({"python-side-effect-in-graph"}),
    "lax_self_attribute_set": frozenset({"python-side-effect-in-graph"}),
    "lax_tensor_from_numpy": frozenset(),
    "lax_tuple_in_tuple": frozenset(),
    "operators_and_multi_element": frozenset({"ambiguous-tensor-conversion"}),
    "statements_assert_on_tensor": frozenset(),
    "statements_for_else": frozenset({"unsupported-syntax"}),
    "statements_nested_dict_comprehension": frozenset({"unsupported-graph-output", "unsupported-syntax"}),
    "statements_nested_list_comprehension": frozenset({"unsupported-syntax"}),
    "statements_raise_on_tensor": frozenset(),
    "statements_tensor_default_argument": frozenset(),
    "support_attribute_changed_outside": frozenset(),
    "support_cell_keyword_construct": frozenset(),
    "support_classmethod": frozenset({"call-argument-mismatch"}),
    "support_primitive_keyword_argument": frozenset(),
    "support_set_literal": frozenset({"unsupported-syntax"}),
    "support_try": frozenset({"unsupported-syntax"}),
    "support_undefined_member": frozenset({"unsupported-attribute-in-graph"}),
}


def test_every_program_has_a_verdict() -> None:
    assert sorted(p.stem for p in DATA.glob("*.py")) == sorted(VERDICTS)


@pytest.mark.parametrize("case", sorted(VERDICTS))
def test_mslint_reports_what_the_table_says(case: str) -> None:
    report = check_files([DATA / f"{case}.py"], Settings())
    assert {d.symbol for d in report.diagnostics} == VERDICTS[case]
