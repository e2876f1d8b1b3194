"""The rule registry: every rule's code, symbol, and where it is defined.

One explicit table, as ruff's ``codes.rs``: adding a rule adds its line here
(``scripts/new_rule.py`` does), and nothing below the rules needs to import them to know
their names (a suppression comment may name a rule by code or by symbol).
"""

from __future__ import annotations

REGISTRY: dict[str, tuple[str, str, str]] = {
    "MS001": ("syntax-error", "syntax_error", "SyntaxErrorRule"),
    "MS002": ("unknown-rule-in-suppression", "suppression_comments", "UnknownRuleInSuppression"),
    "MS003": ("useless-suppression", "suppression_comments", "UselessSuppression"),
    "MS101": ("third-party-call-in-graph", "third_party_call_in_graph", "ThirdPartyCallInGraph"),
    "MS102": ("custom-class-in-graph", "custom_class_in_graph", "CustomClassInGraph"),
    "MS103": ("python-container-of-cells", "python_container_of_cells", "PythonContainerOfCells"),
    "MS104": ("variable-slice", "variable_slice", "VariableSlice"),
    "MS105": ("dynamic-shape-op", "dynamic_shape_op", "DynamicShapeOp"),
    "MS106": ("tensor-to-host-in-graph", "tensor_to_host_in_graph", "TensorToHostInGraph"),
    "MS107": ("unsupported-syntax", "unsupported_syntax", "UnsupportedSyntax"),
    "MS108": ("parameter-mutation-in-graph", "parameter_mutation_in_graph", "ParameterMutationInGraph"),
    "MS109": ("python-side-effect-in-graph", "python_side_effect_in_graph", "PythonSideEffectInGraph"),
    "MS110": ("branch-local-variable", "branch_local_variable", "BranchLocalVariable"),
    "MS111": ("forbidden-api-in-graph", "forbidden_api_in_graph", "ForbiddenApiInGraph"),
    "MS112": ("concurrency-in-graph", "concurrency_in_graph", "ConcurrencyInGraph"),
    "MS113": ("cell-created-in-graph", "cell_created_in_graph", "CellCreatedInGraph"),
    "MS114": ("branch-shape-mismatch", "branch_shape_mismatch", "BranchShapeMismatch"),
    "MS115": ("unsupported-graph-output", "unsupported_graph_output", "UnsupportedGraphOutput"),
    "MS116": ("ambiguous-tensor-conversion", "ambiguous_tensor_conversion", "AmbiguousTensorConversion"),
    "MS117": ("undefined-name-in-graph", "undefined_name_in_graph", "UndefinedNameInGraph"),
    "MS118": ("cell-without-construct", "cell_without_construct", "CellWithoutConstruct"),
    "MS119": ("unsupported-super-call", "unsupported_super_call", "UnsupportedSuperCall"),
    "MS120": ("unsupported-attribute-in-graph", "unsupported_attribute_in_graph", "UnsupportedAttributeInGraph"),
    "MS121": ("duplicate-parameter-name", "duplicate_parameter_name", "DuplicateParameterName"),
    "MS122": ("augmented-assignment-in-graph", "augmented_assignment_in_graph", "AugmentedAssignmentInGraph"),
    "MS123": ("unsupported-kernel", "unsupported_kernel", "UnsupportedKernel"),
    "MS201": ("torch-api-in-cell", "torch_api_in_cell", "TorchApiInCell"),
    "MS202": ("ms-op-in-data-pipeline", "ms_op_in_data_pipeline", "MsOpInDataPipeline"),
    "MS203": ("amp-level-with-to-float", "amp_level_with_to_float", "AmpLevelWithToFloat"),
    "MS204": ("missing-super-init", "missing_super_init", "MissingSuperInit"),
    "MS205": ("forward-instead-of-construct", "forward_instead_of_construct", "ForwardInsteadOfConstruct"),
    "MS206": ("conv-padding-without-pad-mode", "conv_padding_without_pad_mode", "ConvPaddingWithoutPadMode"),
    "MS207": ("distributed-without-seed", "distributed_without_seed", "DistributedWithoutSeed"),
    "MS208": ("differs-from-pytorch", "differs_from_pytorch", "DiffersFromPytorch"),
    "MS301": ("unknown-mindspore-api", "unknown_mindspore_api", "UnknownMindsporeApi"),
    "MS401": ("graph-break", "graph_break", "GraphBreak"),
    "MS402": ("frozen-by-trace", "frozen_by_trace", "FrozenByTrace"),
    "MS124": ("gradient-input-mismatch", "gradient_input_mismatch", "GradientInputMismatch"),
    "MS125": ("call-argument-mismatch", "call_argument_mismatch", "CallArgumentMismatch"),
}
"""code -> (symbol, module in :mod:`mslint.rules`, class)."""

_CODES = {symbol: code for code, (symbol, _module, _cls) in REGISTRY.items()}


def code_of(name: str) -> str | None:
    """The code of the rule whose symbol or code is ``name``, in any case."""
    upper = name.upper()
    return upper if upper in REGISTRY else _CODES.get(name.lower())
