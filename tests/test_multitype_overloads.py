"""A ``MultitypeFuncGraph`` overload that no call of the program selects holds nothing; one only a
sparse argument selects holds a warning (mslint.model.multitype_overloads). Measured on 2.10: the
compiler parses the selected overload's body only (rules/unknown-mindspore-api/good_multitype_overloads.py
compiles with `F.control_depend` in the others); a sparse gradient (`nn.EmbeddingLookup(...,
sparse=True)`) selects the `RowTensor` one in GRAPH mode."""

from __future__ import annotations

from pathlib import Path

from mslint.engine import check_files
from mslint.settings import Settings

OPTIMIZER = """\
import mindspore as ms
from mindspore import nn
from mindspore.nn.optim.optimizer import Optimizer
from mindspore.ops import composite as C
from mindspore.ops import functional as F

_opt = C.MultitypeFuncGraph("opt")


@_opt.register("Tensor", "Tensor", "Tensor")
def _dense(lr, gradient, param):
    F.control_depend(lr, param)
    return F.assign(param, param - lr * gradient)


@_opt.register("Tensor", "RowTensor", "Tensor")
def _sparse(lr, gradient, param):
    F.control_depend(lr, param)
    return F.assign(param, param)


@_opt.register("Function", "Tensor", "RowTensor", "Tensor")
def _sparse_with(op, lr, gradient, param):
    F.control_depend(lr, param)
    return op(param)


class SGD(Optimizer):
    def construct(self, gradients):
        return self.hyper_map(F.partial(_opt, self.get_lr()), gradients, self._parameters)
"""


def _found(tmp_path: Path, source: str, **others: str) -> list[tuple[str, int, str]]:
    paths = []
    for name, text in {"optim": source, **others}.items():
        paths.append(tmp_path / f"{name}.py")
        paths[-1].write_text(text, encoding="utf-8")
    report = check_files(paths, Settings(select=("unknown-mindspore-api",)))
    return sorted((Path(d.path).stem, d.line, str(d.severity)) for d in report.diagnostics)


def test_an_overload_no_call_selects_holds_nothing_and_a_sparse_one_a_warning(tmp_path: Path) -> None:
    assert _found(tmp_path, OPTIMIZER) == [("optim", 12, "error"), ("optim", 18, "warning")]


def test_the_sparse_warning_says_what_it_rests_on(tmp_path: Path) -> None:
    path = tmp_path / "optim.py"
    path.write_text(OPTIMIZER, encoding="utf-8")
    report = check_files([path], Settings(select=("unknown-mindspore-api",)))
    sparse = next(d for d in report.diagnostics if d.line == 18)
    assert sparse.message.endswith("; only where the program passes this overload a RowTensor (a sparse gradient)")


def test_a_direct_call_counts_its_arguments(tmp_path: Path) -> None:
    called = OPTIMIZER + "\n\ndef step(op, lr, g, p):\n    return _opt(op, lr, g, p)\n"
    assert _found(tmp_path, called) == [("optim", 12, "error"), ("optim", 18, "warning"), ("optim", 24, "warning")]


def test_a_use_it_cannot_count_keeps_every_overload(tmp_path: Path) -> None:
    kept = OPTIMIZER + "\n\nOPTIMIZERS = [_opt]\n"
    assert _found(tmp_path, kept) == [("optim", 12, "error"), ("optim", 18, "warning"), ("optim", 24, "warning")]


def test_an_overload_another_module_imports_keeps_every_overload(tmp_path: Path) -> None:
    user = "from optim import _opt\n\n\ndef step(*arguments):\n    return _opt(*arguments)\n"
    assert _found(tmp_path, OPTIMIZER, user=user) == [
        ("optim", 12, "error"),
        ("optim", 18, "warning"),
        ("optim", 24, "warning"),
    ]


def test_a_map_the_class_does_not_make_counts_nothing(tmp_path: Path) -> None:
    """``self.apply`` set to a function of the project: how it calls ``_opt`` is not counted."""
    own = OPTIMIZER.replace("class SGD(Optimizer):", "class SGD(Optimizer):\n    apply = None\n").replace(
        "self.hyper_map(", "self.apply("
    )
    assert ("optim", 24, "warning") in _found(tmp_path, own)


def test_the_decorator_of_an_unselected_overload_keeps_its_finding(tmp_path: Path) -> None:
    """The ``register`` call runs at import: a name the release lacks there fails in every mode."""
    decorated = OPTIMIZER.replace(
        '@_opt.register("Function", "Tensor", "RowTensor", "Tensor")',
        '@_opt.register("Function", "Tensor", "RowTensor", "Tensor")\n@F.no_such_decorator',
    )
    assert ("optim", 23, "error") in _found(tmp_path, decorated)


def test_an_overload_called_by_its_own_name_keeps_its_findings(tmp_path: Path) -> None:
    """``register`` gives the function back: called by name, its body runs whatever selects it."""
    called = OPTIMIZER + "\n\ndef apply(op, lr, g, p):\n    return _sparse_with(op, lr, g, p)\n"
    assert ("optim", 24, "error") in _found(tmp_path, called)
