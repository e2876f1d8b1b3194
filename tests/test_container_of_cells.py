"""python-container-of-cells on a Cell without `construct`: flagged only where graph code may read the list."""

from __future__ import annotations

from pathlib import Path

from mslint.engine import check_files
from mslint.settings import Settings

SOURCE = """\
from mindspore import nn


class PortedFromTorch(nn.Cell):
    def __init__(self):
        super().__init__()
        self.layers = [nn.Dense(4, 4), nn.Dense(4, 4)]

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


class Candidates(nn.Cell):
    def __init__(self):
        super().__init__()
        self.options = [nn.Dense(4, 4), nn.Dense(4, 2)]
"""


def test_forward_counts_as_construct_and_an_unread_holder_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "cells.py"
    path.write_text(SOURCE)
    report = check_files([path], Settings())
    flagged = {d.line for d in report.diagnostics if d.symbol == "python-container-of-cells"}
    assert flagged == {7}


def test_a_hidden_dropout_has_its_own_message_and_is_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "cells.py"
    path.write_text(
        "from mindspore import nn\n\n\n"
        "class Head(nn.Cell):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.stages = [nn.ReLU(), nn.Dropout(p=0.5)]\n"
        "        self.layers = [nn.Dense(4, 4), nn.Dropout(p=0.5)]\n"
        "        self.activations = [nn.ReLU(), nn.GELU()]\n\n"
        "    def construct(self, x):\n"
        "        for cell in [*self.stages, *self.layers, *self.activations]:\n"
        "            x = cell(x)\n"
        "        return x\n"
    )
    report = check_files([path], Settings())
    found = {(d.line, str(d.severity), d.message) for d in report.diagnostics}
    assert found == {
        (
            7,
            "warning",
            "`self.stages` keeps Cells in a plain list: `set_train` never reaches its dropout, so it never drops",
        ),
        (8, "error", "`self.layers` keeps Cells in a plain list: their parameters are not registered or trained"),
    }


WRAPPERS = """\
from mindspore import nn


class Wrapper(nn.Cell):
    def __init__(self, inner):
        super().__init__()
        self.inner = inner

    def construct(self, x):
        return self.inner(x)


class Act(nn.Cell):
    def __init__(self, name):
        super().__init__()
        self.name = name

    def construct(self, x):
        return x


def make_act(name):
    return Act(name)


class Net(nn.Cell):
    def __init__(self, names):
        super().__init__()
        self.wrapped = [Wrapper(nn.Dense(4, 4)), Wrapper(nn.Dense(4, 4))]
        self.named = [Act("relu"), Act(3)]
        self.given = [make_act(name) for name in names]

    def construct(self, x):
        for cell in [*self.wrapped, *self.named, *self.given]:
            x = cell(x)
        return x
"""


def test_a_cell_that_creates_no_parameters_owns_those_it_is_given(tmp_path: Path) -> None:
    """``Wrapper`` creates none itself: given a Dense it owns one (an error), given literals none
    (nothing), given what mslint cannot follow (a helper's parameter) maybe (a warning that says so)."""
    path = tmp_path / "cells.py"
    path.write_text(WRAPPERS)
    report = check_files([path], Settings())
    found = {(d.line, str(d.severity)) for d in report.diagnostics if d.symbol == "python-container-of-cells"}
    assert found == {(29, "error"), (31, "warning")}
    (warning,) = [d for d in report.diagnostics if d.line == 31]
    assert "mslint could not follow what they are given" in warning.message


GROWN_FACTORIES = """\
from mindspore import nn
from somewhere_unknown import make_body


def body_and_head(dim):
    layers = make_body(dim)
    layers.append(nn.Dense(dim, dim))
    return layers


def dense_list_and_head(dim):
    layers = list(nn.Dense(dim, dim) for _ in range(2))
    layers.append(nn.Dense(dim, dim))
    return layers


class Net(nn.Cell):
    def __init__(self, dim=4):
        super().__init__()
        self.unknown = body_and_head(dim)
        self.listed = dense_list_and_head(dim)

    def construct(self, x):
        return self.unknown(x) + self.listed[0](x)
"""


def test_what_a_factory_appends_to_is_a_list_only_where_its_value_is_one(tmp_path: Path) -> None:
    """``make_body`` cannot be followed: what it returns may be a ``SequentialCell`` (no error);
    ``list(...)`` is a list whatever it is given (an error)."""
    path = tmp_path / "cells.py"
    path.write_text(GROWN_FACTORIES)
    report = check_files([path], Settings())
    assert {d.line for d in report.diagnostics if d.symbol == "python-container-of-cells"} == {21}


STATE_AND_TUPLES = """\
import numpy as np
import mindspore as ms
from mindspore import Parameter, ParameterTuple, Tensor, nn, ops


class Copying(nn.Optimizer):
    def __init__(self, params):
        super().__init__(0.1, params)
        self.start = [Parameter(p.clone(), name=f"start_{i}") for i, p in enumerate(self.parameters)]

    def construct(self, gradients):
        return True


class Products(nn.Cell):
    def __init__(self):
        super().__init__()
        self.param_list = [Parameter(Tensor(np.ones((4, 4)), ms.float32), name=f"p{i}") for i in range(2)]
        self.V = ParameterTuple(self.param_list)
        self.hidden = [Parameter(Tensor(np.ones((4, 4)), ms.float32), name=f"h{i}") for i in range(2)]
        ParameterTuple(self.hidden)

    def construct(self, x):
        return x
"""


def test_an_optimizers_state_and_a_list_kept_in_a_parameter_tuple_are_no_hidden_weights(tmp_path: Path) -> None:
    """An optimizer's Parameters are its state (measured on 2.10: the optimizer compiles, trains and
    updates them itself); `self.V = ParameterTuple(self.param_list)` registers the list's Parameters
    (`trainable_params()` lists them); a `ParameterTuple` nothing keeps registers nothing."""
    path = tmp_path / "state.py"
    path.write_text(STATE_AND_TUPLES)
    report = check_files([path], Settings())
    assert {d.line for d in report.diagnostics if d.symbol == "python-container-of-cells"} == {20}


SHOWN_NUMBERS = """\
import numpy as np
from mindspore import nn


class Scaled(nn.Cell):
    def __init__(self, size, name, flag):
        super().__init__()
        self.scale = size * 2
        self.label = "%s" % name
        self.table = np.array(flag)
        if flag:
            self.bias = -flag

    def construct(self, x):
        return x * self.scale


class Net(nn.Cell):
    def __init__(self, size, name, flag):
        super().__init__()
        self.sized = [Scaled(size, "a", 1), Scaled(size, "b", 2)]
        self.named = [Scaled(2, name, 1)]
        self.flagged = [Scaled(2, "c", flag)]

    def construct(self, x):
        for cell in [*self.sized, *self.named, *self.flagged]:
            x = cell(x)
        return x
"""


def test_an_argument_the_cells_init_computes_with_as_a_number_is_no_cell(tmp_path: Path) -> None:
    """``size * 2`` runs whenever ``Scaled`` is built, and raises for a Cell: the list given only
    that (and literals) hides nothing. ``"%s" % name`` and ``np.array(flag)`` take any object, and
    ``-flag`` runs only under ``if flag``: those lists stay warnings."""
    path = tmp_path / "cells.py"
    path.write_text(SHOWN_NUMBERS)
    report = check_files([path], Settings())
    found = {(d.line, str(d.severity)) for d in report.diagnostics if d.symbol == "python-container-of-cells"}
    assert found == {(22, "warning"), (23, "warning")}
