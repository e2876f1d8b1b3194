"""Readers of compiler output: fallback dumps, IR shapes, error locations, in the user's files only."""

from __future__ import annotations

from pathlib import Path

from mslint.model.inputs import ConstantSpec, TensorSpec, parse_input_specs
from mslint.verify.compiler_output import (
    Problem,
    dynamic_shape_problems,
    error_locations,
    fallback_problems,
    unowned_parameter_problems,
    user_file_filter,
)

FALLBACK_DUMP = """\
[ERROR] PIPELINE(1,python):... CheckInterpretNodeLineInfos] Found unsupported syntax in graph mode:
----------------------------------------
 After Parser Phase (total: 2)
----------------------------------------
# No. 1:
In file {path}:8, 15~25
        return np.maximum(x, 0)
In file {path}:12, 15~25
----------------------------------------
 After Optimizer Phase (total: 1)
----------------------------------------
# No. 1:
Script: __call_func_str__(__input_0__,__input_1__,)

In file {path}:8, 15~31
        return np.maximum(x, 0)
In file /elsewhere/other.py:3, 1~2
"""

IR = """\
subgraph @net() {{
  %0(CNode_8) = PrimFunc_Cast(%para2_n, I64(35))
      : (<Tensor[Int32], ()>, <Int64, NoShape>) -> (<Tensor[Int64], ()>)
      # In file {path}:75~76, 4~20/    def construct(self, x, n):/
      # In file {path}:76, 15~20/        return x[:n]/
  %1(CNode_11) = PrimFunc_StridedSlice(%para1_x, %0)
      : (<Tensor[Float32], (2, 4)>, <Tuple[Int64], TupleShape(NoShape)>) -> (<Tensor[Float32], (-1, 4)>)
      # In file {path}:75~76, 4~20/    def construct(self, x, n):/
      # In file {path}:76, 15~20/        return x[:n]/
  %2(CNode_12) = PyExecute(%1)
      : (<Tensor[Float32], (2, 4)>) -> (<Tensor[Float32], (-2)>)
      # In file {path}:90, 15~20/        return np.abs(x)/
  %3(CNode_13) = Add(%1, %1)
      : (<Tensor[Float32], (-1, 4)>, <Tensor[Float32], (-1, 4)>) -> (<Tensor[Float32], (-1, 4)>)
      # In file {path}:91, 15~20/        return y + y/
  Return(%3)
      : (<Tensor[Float32], (-1, 4)>)
}}
"""


def lines(problems: list[Problem]) -> list[int]:
    return sorted(line for problem in problems for _, line in problem.locations)


def test_only_optimizer_phase_fallbacks_of_user_files_count(tmp_path: Path) -> None:
    path = tmp_path / "net.py"
    path.write_text("")
    problems = fallback_problems(FALLBACK_DUMP.format(path=path), user_file_filter([]), "lax")
    assert lines(problems) == [8]
    assert problems[0].locations == ((str(path.resolve()), 8),) and problems[0].level == "lax"


def test_dynamic_shape_is_where_static_inputs_become_dynamic(tmp_path: Path) -> None:
    path = tmp_path / "net.py"
    path.write_text("")
    problems = dynamic_shape_problems(IR.format(path=path), user_file_filter([]))
    assert lines(problems) == [76]
    assert problems[0].message.startswith("PrimFunc_StridedSlice")


def test_a_dynamic_batch_flowing_through_a_tuple_is_not_a_new_dynamic_shape(tmp_path: Path) -> None:
    path = tmp_path / "net.py"
    path.write_text("")
    node = (
        "  %7(bn_out) = TupleGetItem(%6, I64(0))\n"
        "      : (<Tuple[Tensor[Float32]*2], TupleShape((-1, 64, 112, 112), (64))>, <Int64, NoShape>)"
        " -> (<Tensor[Float32], (-1, 64, 112, 112)>)\n"
        f"      # In file {path}:299, 12~36/        x = self.bn(x)/\n"
    )
    assert dynamic_shape_problems(node, user_file_filter([])) == []


def test_a_dynamic_node_without_location_is_located_where_its_value_is_bound_and_used(tmp_path: Path) -> None:
    path = tmp_path / "net.py"
    path.write_text("class Net:\n    def construct(self, x):\n        rows = mint.where(x > 1)\n        return rows\n")
    graph = (
        "  %1(CNode_7) = PrimFunc_NonZeroExt(%0)\n"
        "      : (<Tensor[Bool], (2, 4)>) -> (<Tuple[Tensor[Int64]*2], TupleShape((-1), (-1))>)\n"
        "      # Fullname with scope: (Default/NonZeroExt-op0)\n"
        "  Return(%1) cnode_attrs: {checkpoint: Bool(1)}\n"
        "      : (<Tuple[Tensor[Int64]*2], TupleShape((-1), (-1))>)\n"
        f"      # In file {path}:4, 8~19/        return rows/\n"
    )
    (problem,) = dynamic_shape_problems(graph, user_file_filter([]))
    assert [line for _, line in problem.locations] == [3, 4], "the binding of `rows`, then its use"
    assert problem.message.startswith("PrimFunc_NonZeroExt")


REF_IR = """\
%para1_x: <Ref[Tensor[Float32]], (2, 3), ref_key=0x5574da52b5f00, is_inplace>
%para2_w: <Ref[Tensor[Float32]], (2, 3), ref_key=w, is_parameter>  :  has_default

subgraph @1_construct_Net_1(%para1_x, %para2_w) {{
  %0(CNode_3) = InplaceAddsExt(%para1_x, I64(1), I64(1), U)
      : (<Ref[Tensor[Float32]], (2, 3), ref_key=0x5574da52b5f00, is_inplace>) -> (<Ref[Tensor[Float32]]>)
      # In file {path}:12, 8~14/        y += 1/
  %1(CNode_4) = Mul(%0, %para2_w)
      : (<Tensor[Float32], (2, 3)>, <Ref[Tensor[Float32]], (2, 3), ref_key=w, is_parameter>) -> (<Tensor[Float32]>)
      # In file {path}:13, 15~25/        return y * self.w/
  Return(%1)
}}
"""


def test_an_input_updated_in_place_is_not_a_parameter_the_cell_does_not_own(tmp_path: Path) -> None:
    path = tmp_path / "net.py"
    path.write_text("")
    problems = unowned_parameter_problems(REF_IR.format(path=path), set(), user_file_filter([]))
    assert [(p.message, lines([p])) for p in problems] == [
        ("the graph uses Parameter 'w', which the Cell does not own (never trained)", [13])
    ]
    assert unowned_parameter_problems(REF_IR.format(path=path), {"w"}, user_file_filter([])) == []


def test_error_locations_in_order(tmp_path: Path) -> None:
    path = tmp_path / "net.py"
    path.write_text("")
    message = "\n".join(
        ["RuntimeError: boom", f"# 0 In file {path}:61~62, 8~20", f"# 1 In file {path}:59, 16~20", "# 2 In file /x:3"]
    )
    assert error_locations(message, user_file_filter([])) == ((str(path), 61), (str(path), 59))


def test_files_under_excluded_roots_are_not_user_files(tmp_path: Path) -> None:
    library = tmp_path / "site-packages" / "mindspore" / "ops.py"
    library.parent.mkdir(parents=True)
    library.write_text("")
    user = tmp_path / "net.py"
    user.write_text("")
    is_user_file = user_file_filter([str(library.parent)])
    assert is_user_file(str(user)) and not is_user_file(str(library)) and not is_user_file(str(tmp_path / "gone.py"))


def test_problems_survive_json(tmp_path: Path) -> None:
    problem = Problem("error", "TypeError: boom", ((str(tmp_path / "net.py"), 3),), "strict")
    assert Problem.from_json(problem.to_json()) == problem


def test_input_specs() -> None:
    assert parse_input_specs("float32[N,3,224,224], int32[None], bool[], 3, 0.5, (2, 'a,b'), None") == [
        TensorSpec("float32", (None, 3, 224, 224)),
        TensorSpec("int32", (None,)),
        TensorSpec("bool", ()),
        ConstantSpec(3),
        ConstantSpec(0.5),
        ConstantSpec((2, "a,b")),
        ConstantSpec(None),
    ]


def test_malformed_input_specs_are_rejected() -> None:
    for text in ("float32", "float32[2,4] int32[2]", "[2,4]", "float32[2], x + 1", "(2, [3])"):
        try:
            parse_input_specs(text)
        except ValueError:
            continue
        raise AssertionError(f"{text!r} was accepted")


def test_a_compile_error_is_named_by_the_line_that_says_what_failed() -> None:
    """MindSpore opens a kernel's failure with a rule of dashes and a section title: the message was
    ``RuntimeError: ----`` (rules/unsupported-syntax/bad_interpreted_builtins.py's `format` in STRICT
    on CPU), which no table can map to a rule; the line that says what failed is read instead."""
    from mslint.compiler_messages import message_line, normalise

    rule = "-" * 52
    text = f"\n{rule}\n- Kernel select failed:\n{rule}\nUnsupported op [Format] on CPU, Please confirm ...\n"
    assert message_line(text) == "Unsupported op [Format] on CPU, Please confirm ..."
    assert message_line("For 'Cell', the method 'construct' is not defined.\nmore") == (
        "For 'Cell', the method 'construct' is not defined."
    )
    assert message_line("") == ""
    assert normalise(f"RuntimeError: {text}") == "Unsupported op [Format] on CPU, Please confirm ..."
