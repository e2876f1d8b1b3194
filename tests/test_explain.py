"""``mslint explain`` on what MindSpore wrote while compiling bad examples of rules/, and the
message table it reads."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from mslint import explain as explain_module
from mslint.compiler_messages import MessageTable, message_table, normalise, without_names
from mslint.explain import NO_RULE, REPORTED, explain, read_problems
from mslint.rules import rule_named
from mslint.verify.compiler_output import Problem
from tests.examples import REPO, RULES_DIR, compile_entries

SCRIPTS = REPO / "scripts"
sys.path.insert(0, str(SCRIPTS))

from generate_message_table import example_messages, syntax_table_messages  # noqa: E402

Run = Callable[..., tuple[int, str, str]]

_USER_PROGRAMS = """
import json
import os
import sys
from pathlib import Path

import mindspore as ms
from mslint.model.inputs import parse_input_specs
from mslint.verify.probe import load_module, make_inputs

for log, folder, path, name, inputs, level in json.loads(sys.argv[1]):
    pid = os.fork()
    if pid:
        os.waitpid(pid, 0)
        continue
    os.chdir(folder)
    os.dup2(os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC), 2)
    try:
        ms.set_context(mode=ms.GRAPH_MODE, jit_syntax_level=ms.STRICT if level == "strict" else ms.LAX)
        entry = getattr(load_module(Path(path)), name)
        entry().compile(*make_inputs(parse_input_specs(inputs), concrete=False))
    except BaseException:
        sys.excepthook(*sys.exc_info())  # as Python writes an uncaught exception, its suggestions included
    sys.stderr.flush()
    os._exit(0)
"""
"""Users' scripts, each building one entry of an example and compiling it, as a training script
would: each in a process of its own, forked from one that has imported MindSpore (an import is
about 1.9 CPU-s, the most of each compile), with its stderr, MindSpore's C++ log included, written
to its log and its working folder the one its ``analyze_fail.ir`` lands under."""


def compile_logs(compiles: dict[str, tuple[Path, str, str, Path]]) -> dict[str, Path]:
    """What MindSpore writes to stderr compiling each ``(example, entry, level, folder)`` with the
    fallback dump on, saved as ``folder/stderr.log``; its ``analyze_fail.ir``, if any, lands under ``folder``."""
    jobs = []
    for example, entry, level, folder in compiles.values():
        inputs = next(e.inputs for e in compile_entries(example) if e.name == entry)
        jobs.append([str(folder / "stderr.log"), str(folder), str(example), entry, inputs, level])
    environment = {**os.environ, "MS_DEV_FALLBACK_DUMP_NODE": "1", "PYTHONPATH": str(REPO)}
    command = [sys.executable, "-c", _USER_PROGRAMS, json.dumps(jobs)]
    subprocess.run(command, capture_output=True, env=environment, timeout=300 * len(jobs), check=True)
    return {name: folder / "stderr.log" for name, (_, _, _, folder) in compiles.items()}


# Under pytest -n, every test here in one worker: the module fixture below (real compile logs, made with
# MindSpore) would be made again in each worker that runs a test of the module.
pytestmark = pytest.mark.xdist_group("test_explain")


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Real outputs of compiles: an unsupported statement, ``range`` of a tensor (with its
    analyze_fail.ir), numpy in construct (the fallback dump), a Cell that fails while it is built
    (a Python traceback without ``In file`` lines), an error the C++ log locates before the
    traceback (``.cuda()``), an error on the loop over a plain list of Cells, a fallback on the
    call of a helper, and a good example (no problem)."""
    folder = tmp_path_factory.mktemp("explain")
    copy = folder / "unsupported_syntax_bad.py"
    good = RULES_DIR / "unsupported-syntax" / "good.py"
    shutil.copy(RULES_DIR / "unsupported-syntax" / "bad.py", copy)
    compiles = {
        "try": (copy, "TryInConstruct", "lax"),
        "range": (RULES_DIR / "unsupported-syntax" / "bad.py", "RangeOfTensor", "strict"),
        "numpy": (RULES_DIR / "third-party-call-in-graph" / "bad.py", "NumpyOnInput", "lax"),
        "built": (RULES_DIR / "missing-super-init" / "bad.py", "SubCell", "strict"),
        "cuda": (RULES_DIR / "torch-api-in-cell" / "bad.py", "MovesToGpu", "lax"),
        "list": (RULES_DIR / "python-container-of-cells" / "bad.py", "ListOfCells", "lax"),
        "helper": (RULES_DIR / "tensor-to-host-in-graph" / "bad.py", "HelperCopiesToHost", "lax"),
        "good": (good, compile_entries(good)[0].name, "strict"),
    }
    for name in compiles:
        (folder / name).mkdir()
    saved = compile_logs({name: (*job, folder / name) for name, job in compiles.items()})
    saved["analyze_fail"] = next((folder / "range").rglob("analyze_fail.ir"))
    saved["copy"] = copy
    return saved


def _line_of(path: Path, text: str) -> int:
    return next(n for n, line in enumerate(path.read_text().splitlines(), start=1) if text in line)


@pytest.mark.mindspore
def test_an_error_of_a_traceback_is_explained_by_the_rule_that_reports_it(logs: dict[str, Path], run: Run) -> None:
    code, out, _ = run("explain", str(logs["try"]))
    line = _line_of(logs["copy"], "try:  # expect")
    assert code == 0, out
    assert f"unsupported_syntax_bad.py:{line}: error: RuntimeError: Unsupported statement 'Try'." in out
    assert "  rule: MS107 unsupported-syntax" in out
    assert f"  mslint check: reports it (MS107 at line {line})" in out
    assert "  hint: " in out


@pytest.mark.mindspore
def test_json_output_and_stdin(logs: dict[str, Path]) -> None:
    text = logs["numpy"].read_text()
    command = [sys.executable, "-m", "mslint", "explain", "-", "--format", "json"]
    result = subprocess.run(command, input=text, capture_output=True, text=True, cwd=REPO, timeout=120)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    example = RULES_DIR / "third-party-call-in-graph" / "bad.py"
    (problem,) = report["problems"]
    assert problem["kind"] == "fallback"
    assert (problem["path"], problem["line"]) == (str(example), _line_of(example, "np.maximum(x, 0)"))
    assert problem["status"] == REPORTED
    assert [r["code"] for r in problem["rules"]] == ["MS101"]
    assert problem["rules"][0]["page"].endswith("third-party-call-in-graph.md")
    assert "ops.maximum" in problem["hint"]  # the hint names a MindSpore op that compiles


@pytest.mark.mindspore
def test_analyze_fail_ir_and_the_log_name_the_same_problem(logs: dict[str, Path], run: Run) -> None:
    example = RULES_DIR / "unsupported-syntax" / "bad.py"
    line = _line_of(example, "for i in range(n):")
    for source in ("range", "analyze_fail"):
        problems = read_problems(logs[source].read_text())
        assert [(p.kind, p.locations) for p in problems] == [("error", ((str(example), line),))], source
        (explanation,) = explain(problems, message_table())
        assert (explanation.status, explanation.rules) == (REPORTED, ("unsupported-syntax",))


@pytest.mark.mindspore
def test_a_cell_failing_while_built_is_located_on_the_users_frame(logs: dict[str, Path]) -> None:
    example = RULES_DIR / "missing-super-init" / "bad.py"
    (explanation,) = explain(read_problems(logs["built"].read_text()), message_table())
    assert explanation.location == (str(example), _line_of(example, "self.dense = nn.Dense(4, 4)"))
    assert (explanation.status, explanation.rules) == (REPORTED, ("missing-super-init",))


@pytest.mark.mindspore
def test_an_error_the_cpp_log_locates_before_the_traceback_is_one_problem_on_that_line(
    logs: dict[str, Path],
) -> None:
    example = RULES_DIR / "torch-api-in-cell" / "bad.py"
    (explanation,) = explain(read_problems(logs["cuda"].read_text()), message_table())
    assert explanation.problem.message == "AttributeError: 'Tensor' object has no attribute 'cuda'"
    assert explanation.location == (str(example), _line_of(example, "x.cuda()"))
    assert (explanation.status, explanation.rules) == (REPORTED, ("torch-api-in-cell",))


@pytest.mark.mindspore
def test_a_cause_mslint_reports_away_from_the_compilers_line(logs: dict[str, Path]) -> None:
    """The compiler names the loop over the list (its finding is on the list, in ``__init__``)
    and the call of a helper (its finding is in the helper)."""
    for name, symbol, cause in (
        ("list", "python-container-of-cells", "self.layers = [nn.Dense(4, 4), nn.Dense(4, 4)]"),
        ("helper", "tensor-to-host-in-graph", "return ms.Tensor(logits.asnumpy())"),
    ):
        explanations = explain(read_problems(logs[name].read_text()), message_table())
        assert explanations, name
        for explanation in explanations:
            assert (explanation.status, explanation.rules) == (REPORTED, (symbol,)), name
            example = Path(explanation.findings[0].path)
            assert [d.line for d in explanation.findings] == [_line_of(example, cause)], name


@pytest.mark.mindspore
def test_a_log_of_two_compiles_keeps_the_fallback_dump_apart_from_the_next_error(logs: dict[str, Path]) -> None:
    text = logs["numpy"].read_text() + logs["try"].read_text()
    numpy_example = RULES_DIR / "third-party-call-in-graph" / "bad.py"
    found = sorted((p.kind, p.locations[-1]) for p in read_problems(text))
    assert found == [
        ("error", (str(logs["copy"]), _line_of(logs["copy"], "try:  # expect"))),
        ("fallback", (str(numpy_example), _line_of(numpy_example, "np.maximum(x, 0)"))),
    ]


@pytest.mark.mindspore
def test_a_line_mslint_no_longer_reports_is_not_reported(logs: dict[str, Path], run: Run) -> None:
    copy = logs["copy"]
    line = _line_of(copy, "try:  # expect")
    original = copy.read_text()
    lines = original.splitlines()
    lines[line - 1] += "  # mslint: disable=unsupported-syntax"
    copy.write_text("\n".join(lines) + "\n")
    try:
        code, out, _ = run("explain", str(logs["try"]))
    finally:
        copy.write_text(original)
    assert code == 1
    assert "  rule: MS107 unsupported-syntax" in out
    assert "  mslint check: does not report it" in out


@pytest.mark.mindspore
def test_a_message_no_rule_predicts_is_shown_with_the_compilers_words(logs: dict[str, Path]) -> None:
    problems = read_problems(logs["try"].read_text())
    empty = MessageTable("2.10.0", {}, {})
    (explanation,) = explain(problems, empty)
    assert (explanation.status, explanation.rules, explanation.measured) == (REPORTED, ("unsupported-syntax",), False)
    outside = [p for p in problems if p.kind == "error"]
    unlocated = [type(p)(p.kind, p.message, ()) for p in outside]
    (alone,) = explain(unlocated, empty)
    assert (alone.status, alone.location) == (NO_RULE, None)
    assert "Unsupported statement 'Try'" in explain_module.render_text([alone])
    assert "rule: none (a message mslint has not measured)" in explain_module.render_text([alone])


@pytest.mark.mindspore
def test_an_output_without_problems(logs: dict[str, Path], run: Run) -> None:
    code, out, _ = run("explain", str(logs["good"]))
    assert (code, out) == (0, "no compiler problem in the user's files found in this output\n")
    code, out, _ = run("explain", str(logs["good"]), "--format", "json")
    assert code == 0 and json.loads(out)["problems"] == []


def test_a_missing_file_is_one_line_and_exit_2(tmp_path: Path, run: Run) -> None:
    code, out, err = run("explain", str(tmp_path / "absent.log"))
    assert (code, out) == (2, "")
    assert err.startswith(f"mslint: error: {tmp_path / 'absent.log'}: cannot read") and err.count("\n") == 1


def test_a_folder_is_one_line_and_exit_2(tmp_path: Path, run: Run) -> None:
    code, _, err = run("explain", str(tmp_path))
    assert code == 2 and err.startswith(f"mslint: error: {tmp_path}: cannot read") and err.count("\n") == 1


def test_stdin_in_another_encoding_is_read() -> None:
    command = [sys.executable, "-m", "mslint", "explain", "-"]
    environment = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    latin1 = "compil\xe9 sans erreur\n".encode("latin-1")
    result = subprocess.run(command, input=latin1, capture_output=True, cwd=REPO, env=environment, timeout=120)
    assert (result.returncode, result.stderr) == (0, b""), result.stderr
    assert result.stdout == b"no compiler problem in the user's files found in this output\n"


def test_an_internal_error_exits_2(tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(text: str) -> list[object]:
        raise RuntimeError("boom")

    monkeypatch.setattr(explain_module, "read_problems", broken)
    log = tmp_path / "out.log"
    log.write_text("nothing\n")
    code, _, err = run("explain", str(log))
    assert code == 2 and "internal error: RuntimeError: boom" in err


def test_messages_of_other_programs_match() -> None:
    first = "TypeError: For 'make_range', the 0th input should be a int scalar but got AbstractTensor(value_ptr: 0x5f)"
    second = "For 'make_range', the 1th input should be a int scalar but got AbstractTensor(value_ptr: 0x7a)"
    assert normalise(first) == normalise(second)
    assert normalise("KeyError: a (raised building Net)") == normalise("KeyError: a (raised building Other)")
    assert without_names(normalise("NameError: name 'x' is not defined")) == without_names(
        normalise("NameError: name 'total' is not defined")
    )
    table = message_table()
    rules, measured = table.rules_for("error", "NameError: name 'a_name_of_mine' is not defined")
    assert measured and "unsupported-syntax" in rules


def test_the_shipped_table_has_every_message_of_the_syntax_table() -> None:
    """The syntax-table half of the generator needs no compile: it is re-made here."""
    shipped = message_table()
    for key, entry in syntax_table_messages(shipped.release).items():
        assert key in shipped.messages, key
        assert set(shipped.messages[key]) >= entry["rules"], key


def test_every_key_of_the_shipped_table_is_a_normalised_message() -> None:
    """A change to the normalisation without regenerating the table would leave keys no log matches."""
    table = message_table()
    assert [key for key in table.messages if normalise(key) != key] == []


@pytest.mark.mindspore
def test_the_shipped_table_has_what_the_compiler_says_of_an_example() -> None:
    """The examples' half of the generator compiles; one small example is re-measured here."""
    shipped = message_table()
    messages, kinds = example_messages([RULES_DIR / "forward-instead-of-construct" / "bad.py"])
    assert messages, "the example's findings are confirmed by compile errors"
    for key, entry in messages.items():
        assert set(shipped.messages.get(key, [])) >= entry["rules"], key
    for kind, entry in kinds.items():
        assert set(shipped.kinds.get(kind, [])) >= entry["rules"], kind


DOTTED_DUPLICATE = (
    "RuntimeError: The parameter @__main___Net_construct_4:param_0.conv1.weight , its name '0.conv1.weight' "
    "already exists. Please set a unique name for the parameter."
)
"""MindSpore 2.10's message for a plain list of SequentialCells whose blocks own ``conv1`` (the
program of :func:`test_the_dotted_duplicate_parameter_of_a_real_compile_is_explained`)."""


@pytest.mark.parametrize(
    "message",
    [
        DOTTED_DUPLICATE,
        "RuntimeError: The parameter @bad_ListOfCells_construct_7:param_weight , its name 'weight' already exists. "
        "Please set a unique name for the parameter.",
    ],
)
def test_every_form_of_the_duplicate_parameter_message_names_the_list_of_cells(message: str) -> None:
    """Among others: module-level Parameters of one name give the message too (duplicate-parameter-name);
    explain names the rule that reports the line."""
    rules, measured = message_table("2.10.0").rules_for("error", message)
    assert measured and "python-container-of-cells" in rules


_DOTTED_PROGRAM = """\
import numpy as np
import mindspore as ms
from mindspore import nn


class Block(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 3, 3)

    def construct(self, x):
        return self.conv1(x)


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.blocks = [nn.SequentialCell([Block()]), nn.SequentialCell([Block()])]

    def construct(self, x):
        for block in self.blocks:
            x = block(x)
        return x


ms.set_context(mode=ms.GRAPH_MODE)
Net()(ms.Tensor(np.ones((1, 3, 8, 8), np.float32)))
"""


@pytest.mark.mindspore
def test_the_dotted_duplicate_parameter_of_a_real_compile_is_explained(tmp_path: Path, run: Run) -> None:
    program = tmp_path / "net.py"
    program.write_text(_DOTTED_PROGRAM)
    result = subprocess.run([sys.executable, str(program)], capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert "its name '0.conv1.weight' already exists" in result.stderr
    log = tmp_path / "run.log"
    log.write_text(result.stderr)
    code, out, _ = run("explain", str(log))
    assert code == 0, out
    assert "  rule: MS103 python-container-of-cells" in out
    assert "  mslint check: reports it (MS103 at line 18)" in out


def test_a_hint_from_the_rules_documentation_is_printed_whole(tmp_path: Path) -> None:
    """Without a finding of its own, the hint is the rule's "Use instead" section, whose code
    block a first paragraph would cut (unsupported-syntax's starts with one)."""
    problem = Problem("error", "RuntimeError: Unsupported statement 'Try'.", ())
    (explanation,) = explain([problem], message_table("2.10.0"))
    section = rule_named("unsupported-syntax").section("Use instead")
    assert section.startswith("```python") and section.count("```") % 2 == 0
    assert explanation.hint == section
    text = explain_module.render_text([explanation])
    block = text.split("  hint:\n")[1].split("\n  mslint check:")[0]
    assert block == "\n".join(f"    {line}".rstrip() for line in section.splitlines())


def test_a_message_about_a_longer_name_matches_the_one_measured() -> None:
    """The key keeps a message's first characters: a longer class name pushes the cut elsewhere."""
    template = (
        "RuntimeError: Failed to compile in GRAPH_MODE because the class 'mindspore.common.initializer.{0}' is "
        "not supported in 'construct' or function with @jit decorator. Try to use the class "
        "'mindspore.common.initializer.{0}' externally such as initialized in the method '__init__' before assigning."
    )
    table = message_table()
    assert normalise(template.format("One")) in table.messages
    assert table.rules_for("error", template.format("TruncatedNormal")) == (("forbidden-api-in-graph",), True)
    assert table.rules_for("error", "RuntimeError: Failed to compile in GRAPH_MODE because") == ((), False)


ISSUE_31_MESSAGES = [
    (
        "TypeError: Cannot join the return values of different branches, perhaps you need to make them equal.",
        "branch-shape-mismatch",
    ),
    ("AttributeError: 'Tensor' object has no attribute 'abcd'", "unknown-mindspore-api"),
    (
        "AttributeError: In JIT strict mode, cannot get attributes abcd or the Tensor[Float32] object has no "
        "attribute: 'abcd'. You can use os.environ['MS_DEV_JIT_SYNTAX_LEVEL'] = '2' to enable the JIT lax mode "
        "to support the current syntax.",
        "unknown-mindspore-api",
    ),
    (
        "RuntimeError: In graph mode, only attribute and name of class members can be assigned. But got Subscript.",
        "unsupported-attribute-in-graph",
    ),
    (
        "ValueError: Only tensor which shape is () or (1,) can be converted to bool, but got tensor shape is (2, 3)",
        "ambiguous-tensor-conversion",
    ),
    (
        "ValueError: 'Can not convert Tensor with more than one element to Scalar, while the data's shape is : (2, 3)'",
        "ambiguous-tensor-conversion",
    ),
    (
        "RuntimeError: Function in output is not supported. Please check your code. In file /tmp/sp/out.py:7, 8~20",
        "unsupported-graph-output",
    ),
    (
        "RuntimeError: Function in output is not supported. Please check your code. In file net.py:7, 8~20",
        "unsupported-graph-output",
    ),
    (
        "ValueError: The value Parameter (name=w, shape=(3,), dtype=Float32, requires_grad=True) , its name 'w' "
        "already exists. Please set a unique name for the parameter.",
        "duplicate-parameter-name",
    ),
    ("NameError: The name 'a' is not defined, or not supported in graph mode.", "undefined-name-in-graph"),
]
"""The messages issue 31 quotes, as MindSpore 2.10 (CPU) prints them for the issue's cases (compiled one
per process: `x.abcd()` in LAX and in STRICT, `self.cells[0].x = x`, `if x:` and `int(x)` on a (2, 3)
tensor, a function returned by the top graph, a ParameterTuple of two Parameters named 'w', `x * a`);
the shape and name of a Parameter, the attribute, the file of a location are the program's own."""


@pytest.mark.parametrize(("message", "symbol"), ISSUE_31_MESSAGES)
def test_each_message_of_issue_31_is_explained_by_its_rule(message: str, symbol: str) -> None:
    (explanation,) = explain([Problem("error", message, ())], message_table("2.10.0"))
    assert explanation.measured and symbol in explanation.rules, explanation.rules
