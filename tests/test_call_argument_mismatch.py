"""call-argument-mismatch: how arguments bind, and the calls whose callees are not known for certain."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Callable

import pytest

from mslint.diagnostics import Severity
from mslint.engine import check_files
from mslint.model.arity import mismatch
from mslint.settings import Settings

Write = Callable[[str, str], Path]


@pytest.mark.parametrize(
    ("signature", "call", "bound", "reason"),
    [
        ("f(a, b)", "f(1)", False, "leaves out `b`, which has no default"),
        ("f(a, b=2)", "f(1, 2, 3)", False, "passes 3 positional arguments; it takes at most 2"),
        ("f(self, a)", "f(1, 2)", True, "passes 2 positional arguments; it takes 1"),
        ("f(a, *, k)", "f(1)", False, "leaves out `k`, which has no default"),
        ("f(a)", "f(1, k=2)", False, "passes the keyword `k`, which it has no parameter for"),
        ("f(a)", "f(1, a=2)", False, "passes `a` by position and by keyword"),
        ("f(a, *rest)", "f(1, 2, 3)", False, None),
        ("f(a, **options)", "f(1, k=2)", False, None),
        ("f(a, b)", "f(*pair)", False, None),
        ("f(a, b)", "f(b=1, a=2)", False, None),
        ("f(a, *, k=1)", "f(1)", False, None),
    ],
)
def test_arguments_bind_as_python_binds_them(signature: str, call: str, bound: bool, reason: str | None) -> None:
    function = ast.parse(f"def {signature}: pass").body[0]
    expression = ast.parse(call, mode="eval").body
    assert isinstance(function, ast.FunctionDef) and isinstance(expression, ast.Call)
    assert mismatch(expression, function, bound) == reason


def found(write: Write, source: str) -> list[int]:
    path = write("net.py", source)
    report = check_files([path], Settings(select=("call-argument-mismatch",)))
    return [d.line for d in report.diagnostics]


POOL = """
from mindspore import nn, ops


class Identity(nn.Cell):
    def construct(self, x):
        return x


class Pool(nn.Cell):
    def __init__(self, kind):
        super().__init__()
        self.pool = Identity() if kind == "" else ops.ReduceMean(keep_dims=True)

    def construct(self, x):
        return self.pool(x, (2, 3))
"""

OVERRIDDEN = """
from mindspore import nn


class Decoder(nn.Cell):
    def forward_train(self, feat):
        raise NotImplementedError

    def construct(self, feat, targets):
        return self.forward_train(feat, targets)


class AttentionDecoder(Decoder):
    def forward_train(self, feat, targets):
        return feat * targets
"""

PASSED = """
from mindspore import nn


class Backbone(nn.Cell):
    def construct(self, x, modal=0):
        return x


class WithLoss(nn.Cell):
    def __init__(self, backbone):
        super().__init__()
        self.backbone = backbone

    def construct(self, x, adj):
        return self.backbone(x, adj=adj)


net = WithLoss(Backbone())
"""

DECORATED = """
import functools
from mindspore import nn


def logged(function):
    @functools.wraps(function)
    def wrapper(*args):
        return function(*args)
    return wrapper


class Net(nn.Cell):
    @logged
    def helper(self, x):
        return x

    def construct(self, x):
        return self.helper(x, x)
"""

WRAPPED = """
import numpy as np
from mindspore import Tensor, nn


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(3, 1)

    def construct(self, x):
        return self.dense(x)


class CallHook(Net):
    def __call__(self, *args):
        return super().__call__(args[0])


x = Tensor(np.ones((2, 3), np.float32))
net = Net()
train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params()))
train(x, x)
CallHook()(x, x)
"""

REDEFINED = """
from mindspore import nn


class Net(nn.Cell):
    def construct(self, a, b):
        return a + b


Net()(1, 2)


class Net(nn.Cell):
    def construct(self, a):
        return a


Net()(1)
"""


OPTIONAL = """
from mindspore import nn


class Attention(nn.Cell):
    def construct(self, x):
        return x * 2


class Gated(nn.Cell):
    def __init__(self, gated):
        super().__init__()
        self.gated = gated
        self.attention = Attention() if gated else None

    def construct(self, x):
        return self.attention(x, x) if self.gated else x


class Optional(nn.Cell):
    def __init__(self, gated):
        super().__init__()
        if gated:
            self.attention = Attention()
        else:
            self.attention = None

    def construct(self, x):
        if self.attention is not None:
            x = self.attention(x, x)
        return x
"""


@pytest.mark.parametrize(
    ("source", "lines"),
    [
        pytest.param(POOL, [], id="an attribute that may hold a MindSpore primitive"),
        pytest.param(OPTIONAL, [16, 29], id="an attribute that holds a Cell of the project or None"),
        pytest.param(OVERRIDDEN, [], id="a method a subclass overrides"),
        pytest.param(PASSED, [15], id="a Cell every construction passes"),
        pytest.param(DECORATED, [], id="a decorator that may change the signature"),
        pytest.param(WRAPPED, [], id="wrappers and a Cell defining __call__"),
        pytest.param(REDEFINED, [], id="a class a later notebook cell defines again"),
    ],
)
def test_only_callees_known_for_certain_are_judged(write: Write, source: str, lines: list[int]) -> None:
    assert found(write, source) == lines


UNDECIDED = """
from mindspore import nn


class Attention(nn.Cell):
    def construct(self, x):
        return x * 2


class Block(nn.Cell):
    def __init__(self, reattend):
        super().__init__()
        self.reattend = reattend
        self.attention = Attention()

    def construct(self, x):
        if self.reattend:
            return self.attention(x)
        return self.attention(x, x)

"""


def test_a_call_a_constant_condition_mslint_cannot_decide_may_prune_is_a_warning(write: Write) -> None:
    path = write("net.py", UNDECIDED)
    report = check_files([path], Settings(select=("call-argument-mismatch",)))
    assert [(d.line, d.severity) for d in report.diagnostics] == [(18, Severity.WARNING)]
    assert "only where `self.reattend` lets the compiler reach it" in report.diagnostics[0].message


def test_a_cell_or_none_called_under_an_undecided_flag_is_a_warning(write: Write) -> None:
    path = write("net.py", OPTIONAL)
    report = check_files([path], Settings(select=("call-argument-mismatch",)))
    assert [(d.line, d.severity) for d in report.diagnostics] == [(16, Severity.WARNING), (29, Severity.WARNING)]


JIT_CALLS = """
from mindspore import jit, nn


@jit
def add(x, y):
    return x + y


@jit
def scaled(x, scale=2):
    return x * scale


def plain(x, y):
    return x + y


class Net(nn.Cell):
    def construct(self, x):
        pair = (x, x)
        return self.double(*pair)

    def double(self, x):
        return x * 2


def run(x, items):
    pair = (x, x)
    grown = [x]
    grown.append(x)
    add(x)
    add(*pair)
    add(x, x, x)
    scaled(x)
    scaled(x, factor=3)
    plain(x)
    Net()(*pair)
    Net()(*grown)
    Net()(*items)
"""


def test_jit_functions_called_from_python_and_spreads_of_known_tuples_are_counted(write: Write) -> None:
    assert found(write, JIT_CALLS) == [21, 31, 33, 35, 37]
