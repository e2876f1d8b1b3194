"""Values known from how the code is called: an entry's parameters are tensors, Python constants
or unknown, and a finding that rests on an unknown is a warning at most that says so."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Callable

import pytest

from mslint.engine import check_files
from mslint.model.call_sites import EntryEvidence, input_specs
from mslint.model.module import ModuleInfo
from mslint.model.project import ClassRef, FunctionRef, Project
from mslint.settings import Settings

Write = Callable[[str, str], Path]

STEPS = """
import numpy as np
from mindspore import nn, ops, Tensor
import mindspore as ms


class Steps(nn.Cell):
    def construct(self, x, n):
        for _ in range(n):
            x = x * 2
        return x
"""
RANGE_LINE = 8
STEPS_IN_A_TOP_CELL = (
    STEPS
    + """

class Top(nn.Cell):
    def __init__(self):
        super().__init__()
        self.steps = Steps()

    def construct(self, x, n):
        return self.steps(x, n)
"""
)


def _range_findings(write: Write, script: str) -> list[tuple[str, str]]:
    path = write("net.py", STEPS + script)
    return [
        (str(d.severity), d.message)
        for d in check_files([path], Settings()).diagnostics
        if d.line == RANGE_LINE and d.symbol == "unsupported-syntax"
    ]


@pytest.mark.parametrize(
    "script",
    [
        "net = Steps()\nnet(Tensor(np.ones(2)), 3)\n",
        "def main(steps=3):\n    net = Steps()\n    net(Tensor(np.ones(2)), n=4)\n",
        "def resnet():\n    return Steps()\n\n\nnet = resnet()\nnet(Tensor(np.ones(2)), 2)\n",
        "Steps()(Tensor(np.ones(2)), (2 + 1) * 2)\n",
        "x, n = Tensor(np.ones(2)), 3\nnet = Steps()\nnet(x, n)\n",
        # Python's own numbers, and a shape element: a Python int, whatever holds the shape
        "import random\n\nnet = Steps()\nnet(Tensor(np.ones(2)), random.randint(1, 4))\n",
        "net = Steps()\n\n\ndef train(loader):\n    for batch in loader:\n        net(batch, batch.shape[1])\n",
        # an item a helper returns, unpacked: a list of counts (`list(...).count(...)`)
        "def pad(batch):\n    return Tensor(np.ones(2)), [list(b).count(0) for b in batch]\n\n\n"
        "x, counts = pad([[0, 1]])\nSteps()(x, counts[0])\n",
        # Python's arithmetic of them
        "lengths = [len(b) for b in [[1, 2], [3]]]\nSteps()(Tensor(np.ones(2)), max(lengths) - 1)\n",
        # a module constant a function reads
        "STEPS_N = 3\nnet = Steps()\n\n\ndef forward(x):\n    return net(x, STEPS_N)\n\n\n"
        "forward(Tensor(np.ones(2)))\n",
    ],
    ids=[
        "positional",
        "keyword",
        "factory",
        "direct",
        "unpacked",
        "random",
        "shape-element",
        "returned-list",
        "python-arithmetic",
        "module-constant-in-a-function",
    ],
)
def test_a_python_number_passed_to_construct_is_a_graph_constant(write: Write, script: str) -> None:
    assert _range_findings(write, script) == []


@pytest.mark.parametrize(
    "script",
    [
        "net = Steps()\nnet(Tensor(np.ones(2)), Tensor(3, ms.int32))\n",
        "net = Steps()\nfor x, n in dataset.create_tuple_iterator():\n    net(x, n)\n",
        "net = Steps()\nmodel = ms.Model(net)\n",
        "net = Steps()\nnet(Tensor(np.ones(2)), 3)\nnet(Tensor(np.ones(2)), np.array(3))\n",
        "x, n = Tensor(np.ones(2)), Tensor(3, ms.int32)\nnet = Steps()\nnet(x, n)\n",
        "net = Steps()\n\n\ndef train(dataset):\n    ms.Model(net).train(1, dataset)\n",
        "net = Steps()\n\n\ndef train(dataset):\n    for x, n in dataset.create_tuple_iterator():\n        net(x, n)\n",
        "def pad(batch):\n    return Tensor(np.ones(2)), Tensor(3, ms.int32)\n\n\nx, n = pad(None)\nSteps()(x, n)\n",
    ],
    ids=[
        "tensor",
        "dataset",
        "training-wrapper",
        "one-site-of-two",
        "unpacked",
        "wrapper-in-a-function",
        "loop-in-a-function",
        "returned-and-unpacked",
    ],
)
def test_a_tensor_passed_to_construct_keeps_the_error(write: Write, script: str) -> None:
    found = _range_findings(write, script)
    assert [severity for severity, _ in found] == ["error"]
    assert "only if" not in found[0][1]


@pytest.mark.parametrize(
    "script",
    ["", "import sys\nnet = Steps()\nnet(*sys.argv)\n", "net = Steps()\nnet(Tensor(np.ones(2)), args.steps)\n"],
    ids=["no-call-site", "spread", "argparse"],
)
def test_a_finding_that_rests_on_an_unknown_is_a_warning_that_says_so(write: Write, script: str) -> None:
    found = _range_findings(write, script)
    assert [severity for severity, _ in found] == ["warning"]
    assert "only if `n` is a tensor, which no call of `Steps.construct` shows" in found[0][1]


@pytest.mark.parametrize("calls", [("3", "args.steps"), ("args.steps", "3")], ids=["constant-first", "unknown-first"])
def test_what_the_calls_give_does_not_depend_on_their_order(write: Write, calls: tuple[str, str]) -> None:
    # the sites of a program come in an order of their own (their set's hashes): a value no call
    # shows joins with the others wherever it comes, and with the parameter's default
    defaulted = STEPS.replace("def construct(self, x, n):", "def construct(self, x, n=3):")
    script = "net = Steps()\n" + "".join(f"net(Tensor(np.ones(2)), {given})\n" for given in calls)
    path = write("net.py", defaulted + script)
    found = [
        str(d.severity)
        for d in check_files([path], Settings()).diagnostics
        if d.line == RANGE_LINE and d.symbol == "unsupported-syntax"
    ]
    assert found == ["warning"]


LENGTHS = """
import numpy as np
from mindspore import nn, Tensor
import mindspore as ms


class Encoder(nn.Cell):
    def construct(self, x, lengths):
        n = Tensor(lengths).astype(ms.int32)
        return x * n.sum()


def pad_to_batch(batch):
    inputs = Tensor(np.ones((2, 5), np.float32))
    lengths = [list(t.asnumpy()).count(1.0) for t in inputs]
    return inputs, lengths


encoder = Encoder()
"""


@pytest.mark.parametrize(
    ("script", "found"),
    [
        ("x, lengths = pad_to_batch(None)\nencoder(x, lengths)\n", []),
        ("x, lengths = pad_to_batch(None)\nencoder(x, [x.shape[1]])\n", []),
        ("", ["warning"]),
    ],
    ids=["a-helpers-list", "a-list-of-a-shape-element", "no-call"],
)
def test_a_list_of_python_numbers_passed_to_construct_is_a_graph_constant(
    write: Write, script: str, found: list[str]
) -> None:
    """`Tensor(lengths)` of a constant list compiles at every syntax level (measured on 2.10); where
    no call shows what `lengths` holds, the finding stays a warning that says so."""
    path = write("net.py", LENGTHS + script)
    diagnostics = check_files([path], Settings()).diagnostics
    assert [str(d.severity) for d in diagnostics if d.symbol == "tensor-to-host-in-graph"] == found


OP_OUTPUT = """
from mindspore import mint, nn, ops


class Net(nn.Cell):
    def __init__(self, fn):
        super().__init__()
        self.dense = nn.Dense(3, 3)
        self.fn = fn

    def construct(self, x):
        return {receiver}.{call}
"""


@pytest.mark.parametrize(
    ("receiver", "call", "severity"),
    [
        ("ops.sigmoid(x)", "clip(xmin=0.0)", "error"),
        ("mint.abs(x)", "repeat(2, axis=0)", "error"),
        ("self.dense(x)", "repeat(2, axis=0)", "error"),
        ("ops.cat((x, x))", "clip(xmin=0.0)", "error"),
        # what a callable the program hands the Cell returns may be anything
        ("self.fn(x)", "repeat(2, axis=0)", "warning"),
    ],
)
def test_a_tensor_method_keyword_on_an_op_output_is_an_error_whatever_its_input(
    write: Write, receiver: str, call: str, severity: str
) -> None:
    """An op's output is a tensor even where ``x`` is a Python number (MindSpore 2.10 then fails on
    the op itself, on the same line: ``Failed calling Sigmoid with "input=Float32"``), so a keyword
    the Tensor method lacks fails whatever ``x`` is: no value of the unknown makes the line compile."""
    path = write("net.py", OP_OUTPUT.format(receiver=receiver, call=call))
    found = [d for d in check_files([path], Settings()).diagnostics if d.symbol == "unknown-mindspore-api"]
    assert [(d.line, str(d.severity)) for d in found] == [(11, severity)], [d.message for d in found]
    assert ("only if" in found[0].message) is (severity == "warning")


def test_the_note_names_the_input_a_local_unknown_comes_from(write: Write) -> None:
    path = write(
        "net.py",
        """
from mindspore import nn


class Captions(nn.Cell):
    def construct(self, x, caption_lengths):
        lengths = caption_lengths
        steps = lengths + 1
        for _ in range(steps):
            x = x * 2
        return x
""",
    )
    found = [d for d in check_files([path], Settings()).diagnostics if d.symbol == "unsupported-syntax"]
    assert [d.line for d in found] == [8], [d.message for d in found]
    assert "only if `caption_lengths` is a tensor, which no call of `Captions.construct` shows" in found[0].message


def test_the_entrys_own_use_of_a_tensor_attribute_shows_a_tensor(write: Write) -> None:
    source = STEPS.replace("        for _ in range(n):", "        m = n.shape\n        for _ in range(n):")
    path = write("net.py", source)
    found = [d for d in check_files([path], Settings()).diagnostics if d.symbol == "unsupported-syntax"]
    assert [(d.line, str(d.severity)) for d in found] == [(RANGE_LINE + 1, "error")]


def test_input_specs_show_tensors(write: Write) -> None:
    source = STEPS.replace("class Steps(nn.Cell):", "class Steps(nn.Cell):  # mslint: inputs=float32[2], int32[]")
    path = write("net.py", source)
    found = [
        str(d.severity)
        for d in check_files([path], Settings()).diagnostics
        if d.line == RANGE_LINE and d.symbol == "unsupported-syntax"
    ]
    assert found == ["error"]


def test_a_sub_cell_gets_the_kinds_its_caller_knows(write: Write) -> None:
    """The top Cell is called with a tensor and a number; its sub-Cell's parameters follow."""
    source = STEPS_IN_A_TOP_CELL + "\n\ntop = Top()\ntop(Tensor(np.ones(2)), 3)\n"
    path = write("net.py", source)
    assert [d for d in check_files([path], Settings()).diagnostics if d.line == RANGE_LINE] == []


def test_width_multipliers_and_numpy_on_constants_from_call_sites_are_quiet(write: Write) -> None:
    """The false errors and warnings of the zoos: `x[:, :int(c * width_mult)]`, `np.round(T / dt)`."""
    source = """
import numpy as np
from mindspore import nn, Tensor


class Slim(nn.Cell):
    def construct(self, x, width_mult, t, dt):
        steps = int(np.round(t / dt))
        return x[:, : int(4 * width_mult)] * steps


net = Slim()
net(Tensor(np.ones((2, 8))), 0.5, 1.0, 0.1)
"""
    path = write("net.py", source)
    assert check_files([path], Settings()).diagnostics == []


def test_an_unknown_passed_to_a_sub_cell_stays_unknown_there(write: Write) -> None:
    """Nothing shows what the top Cell is given: its sub-Cell's `range(n)` rests on that."""
    source = STEPS_IN_A_TOP_CELL
    path = write("net.py", source)
    found = [d for d in check_files([path], Settings()).diagnostics if d.line == RANGE_LINE]
    assert [str(d.severity) for d in found] == ["warning"]
    assert "only if `n` is a tensor, which no call of `Top.construct` shows" in found[0].message


TUTORIAL = """
net = Steps()
optimizer = nn.SGD(net.trainable_params(), 0.01)


def forward_fn(data, n):
    return net(data, n).sum()


grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters)


{decorator}def train_step(data, n):
    loss, grads = grad_fn(data, n)
    optimizer(grads)
    return loss


def train():
    for _ in range(2):
        train_step(Tensor(np.ones((2, 4), np.float32)), {steps})
"""
CLOSURE = """
def train():
    net = Steps()
    optimizer = nn.SGD(net.trainable_params(), 0.01)

    def forward_fn(data, n):
        return net(data, n).sum()

    grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters)
    x = Tensor(np.ones((2, 4), np.float32))
    for _ in range(2):
        grad_fn(x, {steps})
"""
CELL_GRAD = """
net = Steps()
grad_fn = ms.value_and_grad(net, None, net.trainable_params())


def train():
    return grad_fn(Tensor(np.ones((2, 4), np.float32)), {steps})
"""
JIT_OF_THE_CELL = """
compiled = ms.jit(Steps())


def run():
    return compiled(Tensor(np.ones((2, 4), np.float32)), {steps})
"""
RETURNED_STEP = """
net = Steps()
optimizer = nn.SGD(net.trainable_params(), 0.01)


def forward_fn(data, n):
    return net(data, n).sum()


def make_grad_fn():
    return ms.value_and_grad(forward_fn, None, optimizer.parameters)


def make_train_step():
    grad_fn = make_grad_fn()

    def train_step(data, n):
        loss, grads = grad_fn(data, n)
        optimizer(grads)
        return loss

    return train_step


def train():
    step = make_train_step()
    step(Tensor(np.ones((2, 4), np.float32)), {steps})
"""
JIT_STEP_OF_THE_CELL = """
net = Steps()
grad_fn = ms.value_and_grad(net, None, net.trainable_params())


@ms.jit
def train_step(data, n):
    loss, grads = grad_fn(data, n)
    return loss


def train():
    for _ in range(2):
        train_step(Tensor(np.ones((2, 4), np.float32)), {steps})
"""
JIT_STEP_CALLING_THE_CELL = """
net = Steps()


@ms.jit
def eval_step(data, n):
    return net(data, n)


def evaluate():
    eval_step(Tensor(np.ones((2, 4), np.float32)), {steps})
"""
GLOBAL_OF_A_SETUP_FUNCTION = """
def setup():
    global grad_fn
    grad_fn = ms.value_and_grad(Steps())


def train_step(data, n):
    return grad_fn(data, n)


def train():
    setup()
    train_step(Tensor(np.ones((2, 4), np.float32)), {steps})
"""
GRAD_OPERATION_OF_THE_CELL = """
net = Steps()
grad_fn = ops.GradOperation()(net)


def train_step(data, n):
    return grad_fn(data, n)


def train():
    train_step(Tensor(np.ones((2, 4), np.float32)), {steps})
"""
INLINE_VALUE_AND_GRAD = """
def train():
    net = Steps()
    for _ in range(2):
        ms.value_and_grad(net)(Tensor(np.ones((2, 4), np.float32)), {steps})
"""
WRAPPED_SCRIPTS = {
    "tutorial": TUTORIAL.replace("{decorator}", ""),
    "jit-train-step": TUTORIAL.replace("{decorator}", "@ms.jit\n"),
    "jit-step-of-the-cell": JIT_STEP_OF_THE_CELL,
    "jit-step-calling-the-cell": JIT_STEP_CALLING_THE_CELL,
    "global-of-a-setup-function": GLOBAL_OF_A_SETUP_FUNCTION,
    "global-of-a-setup-function-jit-step": GLOBAL_OF_A_SETUP_FUNCTION.replace("def train_", "@ms.jit\ndef train_", 1),
    "grad-operation-of-the-cell": GRAD_OPERATION_OF_THE_CELL,
    "inline-value-and-grad": INLINE_VALUE_AND_GRAD,
    "closure": CLOSURE,
    "cell-value-and-grad": CELL_GRAD,
    "jit-of-the-cell": JIT_OF_THE_CELL,
    "returned": RETURNED_STEP,
}


@pytest.mark.parametrize("script", WRAPPED_SCRIPTS.values(), ids=WRAPPED_SCRIPTS.keys())
def test_a_training_wrapper_in_another_function_passes_its_callers_arguments(write: Write, script: str) -> None:
    """`grad_fn(data, n)` in `train_step` runs `forward_fn(data, n)`, which calls the module's `net`:
    `net` is given what `train()` passes `train_step` (MindSpore 2.10 compiles the number and fails
    on the tensor, STRICT: rules/unsupported-syntax/{good,bad}_training_wrappers.py)."""
    assert _range_findings(write, script.replace("{steps}", "3")) == []
    found = _range_findings(write, script.replace("{steps}", "Tensor(3, ms.int32)"))
    assert [severity for severity, _ in found] == ["error"]


def test_a_gradient_taking_a_sens_is_not_followed(write: Write) -> None:
    """`GradOperation(sens_param=True)(net)(data, n, sens)` calls `net(data, n)`: its last argument is
    the sens, so the gradient's calls do not bind the Cell's parameters one by one."""
    script = GRAD_OPERATION_OF_THE_CELL.replace("GradOperation()", "GradOperation(sens_param=True)")
    script = script.replace("grad_fn(data, n)", "grad_fn(data, n, data)").replace("{steps}", "3")
    assert [severity for severity, _ in _range_findings(write, script)] == ["warning"]


@pytest.mark.parametrize(
    "handed_on",
    [
        "steps = [grad_fn]\n",
        "model = ms.Model(grad_fn)\n",
        "grad_fn = None\n",
        "def step_maker():\n    return grad_fn\n\n\nsteps = [step_maker()]\n",
    ],
    ids=["in-a-list", "to-a-library", "bound-again", "returned-into-a-list"],
)
def test_a_wrapper_handed_on_or_bound_again_says_nothing(write: Write, handed_on: str) -> None:
    script = TUTORIAL.replace("{decorator}", "").replace("{steps}", "3") + handed_on
    found = _range_findings(write, script)
    assert [severity for severity, _ in found] == ["warning"]


NUMPY_ON_INPUT = """
import numpy as np
from mindspore import nn, Tensor


class Block(nn.Cell):
    def construct(self, x):
        return np.tanh(x)

"""


def _numpy_messages(write: Write, script: str) -> list[str]:
    path = write("model.py", NUMPY_ON_INPUT + script)
    return [d.message for d in check_files([path], Settings()).diagnostics if d.symbol == "third-party-call-in-graph"]


@pytest.mark.parametrize(
    ("script", "instance"),
    [
        (
            "def make_block():\n    return Block()\n\n\nmake_block()(Tensor(np.ones((2, 197, 192), np.float32)))\n",
            " (reached from Block.construct, as built by make_block() at model.py:10, called with float32[2,197,192])",
        ),
        (
            "net = Block()\nnet(Tensor(np.ones((2, 4), np.float32)))\nnet(Tensor(np.ones((3, 4), np.float32)))\n",
            " (reached from Block.construct, as built at model.py:9)",
        ),
        (
            "Block()(Tensor(np.ones((2, 4), np.float32)))\nBlock()(Tensor(np.ones((2, 4), np.float32)))\n",
            " (reached from Block.construct, called with float32[2,4])",
        ),
        (
            "Block()(*inputs)\n",
            "; only if `x` is a tensor, which no call of `Block.construct` shows"
            " (reached from Block.construct, as built at model.py:9)",
        ),
    ],
    ids=["by-a-factory", "two-shapes", "two-instances", "spread"],
)
def test_a_finding_names_the_instance_the_program_builds_and_calls(write: Write, script: str, instance: str) -> None:
    """The building call where there is one only, the inputs where every call gives the same."""
    assert _numpy_messages(write, script) == [
        f"`numpy.tanh` is called on a graph value; the graph compiler cannot run it on tensors{instance}"
    ]


def test_a_function_that_returns_itself_is_not_followed(write: Write) -> None:
    """Following what a function returns to its callers stops at a cycle: the value is unknown."""
    script = """
def outer():
    net = Steps()

    def step(data, n):
        net(data, n)
        return step

    return step


outer()(Tensor(np.ones(2)), 3)(Tensor(np.ones(2)), 3)
"""
    assert [severity for severity, _ in _range_findings(write, script)] == ["warning"]


_DETECTOR = """
from mindspore import Model, nn


class Detector(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 4)

    def construct(self, images, targets=None):
        out = self.dense(images)
        for target in targets:
            out = out + target.get_field("labels")
        return out

"""


@pytest.mark.parametrize(
    "script, flagged",
    [
        # Model passes every column: `targets` is a tensor, and so is each item of it.
        ("def train(data):\n    Model(Detector()).train(1, data)\n", True),
        ("def train(data, loss):\n    Model(nn.WithLossCell(Detector(), loss)).train(1, data)\n", False),
        # MaskTextSpotter's train.py: `net` rebound to the wrapper before Model sees it.
        (
            "def train(data, loss, opt):\n    net = Detector()\n"
            "    net = nn.TrainOneStepCell(nn.WithLossCell(net, loss), opt)\n    Model(net).train(1, data)\n",
            False,
        ),
    ],
)
def test_with_loss_cell_gives_its_network_the_first_column_alone(write: Write, script: str, flagged: bool) -> None:
    # MindSpore 2.10's WithLossCell.construct calls `self._backbone(data)`: an optional input
    # after it keeps its default (measured: rules/unknown-mindspore-api/good_wrapped_optional_inputs.py).
    path = write("net.py", _DETECTOR + script)
    report = check_files([path], Settings(select=("unknown-mindspore-api",)))
    assert [(d.line, str(d.severity)) for d in report.diagnostics] == ([(12, "error")] if flagged else [])


_MODAL = """
from mindspore import Parameter, nn, ops


class Learner(nn.Cell):
    def __init__(self):
        super().__init__()
        self.prefix = Parameter(ops.ones((1, 2, 4)), requires_grad=False)

    def construct(self, label, modal=0):
        if modal == 1:
            return self.prefix.expand(label.shape[0], -1, -1)
        return label


class Model(nn.Cell):
    def __init__(self):
        super().__init__()
        self.learner = Learner()

    def construct(self, label, modal=0):
        return self.learner(label, modal=modal)
"""


@pytest.mark.parametrize(("calls", "flagged"), [("", True), ("Model()(label)\n", False), ("Model()(label, 1)\n", True)])
def test_a_default_is_the_value_only_where_the_calls_shown_leave_it(write: Write, calls: str, flagged: bool) -> None:
    """`modal=0` with no call shown does not fold `if modal == 1` (ecnu-modelzoo's ms_cclnet, whose
    scripts call the model with modal=1 and 2): the branch is compiled for the callers that pass 1."""
    path = write("model.py", _MODAL + calls)
    found = [d.line for d in check_files([path], Settings(select=("differs-from-pytorch",))).diagnostics]
    expand = next(n for n, line in enumerate(path.read_text().splitlines(), 1) if ".expand(" in line)
    assert found == ([expand] if flagged else [])


_PASSED = """

class Halves(nn.Cell):
    def construct(self, x, n):
        return x / n


def evaluate(model, n):
    return model(Tensor(np.ones((2, 4), np.float32)), n)


def run(network, n=5):
    return evaluate(model=network, n=n)


evaluate(Steps(), 3)
run(Halves())
"""


def _evidence(path: Path) -> tuple[EntryEvidence, dict[str, FunctionRef]]:
    """The call-site evidence of a one-module project, with each Cell's ``construct`` by class name."""
    module = ModuleInfo.parse(path, path.read_text(), checked=True)
    project = Project()
    project.add(module)
    constructs = {
        cls.name: FunctionRef(module, method, ClassRef(module, cls))
        for cls in module.tree.body
        if isinstance(cls, ast.ClassDef)
        for method in cls.body
        if isinstance(method, ast.FunctionDef) and method.name == "construct"
    }
    return EntryEvidence(project, list(constructs.values())), constructs


def test_an_instance_passed_to_a_function_is_called_where_the_function_calls_it(write: Write) -> None:
    """`model(x, n)` in `evaluate` calls each Cell passed to it, with what the call that passed it
    gives `n`: 3 for Steps; for Halves, `run`'s default 5, passed on by keyword one helper deeper."""
    evidence, constructs = _evidence(write("net.py", STEPS + _PASSED))
    steps, halves = constructs["Steps"], constructs["Halves"]
    assert input_specs(evidence.parameter_values(steps), ["x", "n"]) == "float32[2,4], 3"
    assert input_specs(evidence.parameter_values(halves), ["x", "n"]) == "float32[2,4], 5"
    assert evidence.instance(steps) == "as built at net.py:26, called with float32[2,4], 3"


@pytest.mark.parametrize(
    "helpers",
    [
        "def evaluate(model, n):\n    model = wrap(model)\n    return model(Tensor(np.ones(2)), n)\n",  # rebound
        "def evaluate(model, n):\n    return deeper(model, n)\n\n\ndef deeper(model, n):\n"
        "    return deepest(model, n)\n\n\ndef deepest(model, n):\n    return model(Tensor(np.ones(2)), n)\n",
    ],
    ids=["rebound", "three-functions-deep"],
)
def test_a_passed_instance_is_not_followed_where_the_parameter_may_hold_another(write: Write, helpers: str) -> None:
    found = _range_findings(write, helpers + "\n\nevaluate(Steps(), Tensor(3, ms.int32))\n")
    assert [severity for severity, _ in found] == ["warning"]


def test_a_finding_names_the_instance_passed_through_a_function(write: Write) -> None:
    script = "def evaluate(model, n):\n    return model(Tensor(np.ones(2)), n)\n\n\ndef main():\n"
    script += "    net = Steps()\n    evaluate(net, Tensor(3, ms.int32))\n"
    assert _range_findings(write, script) == [
        (
            "error",
            "`range` of a tensor: MindSpore rejects it at every syntax level (it needs a Python int)"
            " (reached from Steps.construct, as built by main() at net.py:16, called with float64[2], int32[])",
        )
    ]


def test_a_closure_calls_the_instance_passed_to_the_function_around_it(write: Write) -> None:
    """`forward` in `train(model, ...)` calls `model` with what `grad_fn`'s call gives it."""
    script = "def train(model):\n    def forward(data, n):\n        return model(data, n)\n\n"
    script += "    grad_fn = ms.value_and_grad(forward)\n    grad_fn(Tensor(np.ones(2)), Tensor(3, ms.int32))\n\n\n"
    script += "train(Steps())\n"
    assert [severity for severity, _ in _range_findings(write, script)] == ["error"]


_KEPT = """

class Trainer:
    def __init__(self, network):
        self.network = network

    def evaluate(self, n):
        return self.network(Tensor(np.ones((2, 4), np.float32)), n)


class Evaluator:
    def run(self, model, n=5):
        return model(Tensor(np.ones((2, 4), np.float32)), n)


class Halves(nn.Cell):
    def construct(self, x, n):
        return x / n


trainer = Trainer(Steps())
trainer.evaluate(3)
Evaluator().run(Halves())
"""


def test_an_instance_kept_by_an_object_or_passed_to_a_method_is_called_where_the_method_calls_it(
    write: Write,
) -> None:
    """`self.network(x, n)` in `Trainer.evaluate` calls the Steps its `__init__` keeps, with what
    `trainer.evaluate(3)` gives `n`; `Evaluator().run(Halves())` leaves `n` its default 5."""
    evidence, constructs = _evidence(write("net.py", STEPS + _KEPT))
    assert input_specs(evidence.parameter_values(constructs["Steps"]), ["x", "n"]) == "float32[2,4], 3"
    assert input_specs(evidence.parameter_values(constructs["Halves"]), ["x", "n"]) == "float32[2,4], 5"


@pytest.mark.parametrize(
    "change",
    [
        ("        self.network = network\n", "        self.network = network\n        self.network = wrap(network)\n"),
        ("class Trainer:\n", "class Trainer(nn.Cell):\n"),
    ],
    ids=["kept-attribute-bound-again", "a-cell-keeps-it"],
)
def test_a_kept_instance_is_not_followed_where_the_attribute_may_hold_another(
    write: Write, change: tuple[str, str]
) -> None:
    evidence, constructs = _evidence(write("net.py", STEPS + _KEPT.replace(*change)))
    assert not evidence.called_from_python(constructs["Steps"])


_TRAINED = """

class Scaled(nn.Cell):
    def construct(self, x, scale=2):
        return x * scale


def train(dataset):
    net = Scaled()
    loss_net = nn.WithLossCell(net, nn.MSELoss())
    train_net = nn.TrainOneStepCell(loss_net, nn.SGD(net.trainable_params()))
    stepped = nn.TrainOneStepCell(Steps(), nn.SGD(net.trainable_params()))
    for _ in range(3):
        train_net(Tensor(np.ones((2, 4), np.float32)), Tensor(np.ones((2, 4), np.float32)))
        stepped(Tensor(np.ones((2, 4), np.float32)), 3)
    {handed_on}
"""


@pytest.mark.parametrize(
    ("handed_on", "scaled", "steps"),
    [("", "float32[2,4], 2", "float32[2,4], 3"), ("Model(train_net).train(1, dataset)", None, "float32[2,4], 3")],
    ids=["only-called", "handed-to-model"],
)
def test_a_training_cell_called_by_name_calls_its_network(
    write: Write, handed_on: str, scaled: str | None, steps: str
) -> None:
    """`TrainOneStepCell(network, opt)(*inputs)` calls `network(*inputs)`, and `WithLossCell(net,
    loss)(data, label)` calls `net(data)` (MindSpore 2.10's `construct`s): a name bound to them and
    only called gives the network what its calls pass (`scale` keeps its default); handed to `Model`
    as well, the network also gets the dataset's columns, of no known shape."""
    script = STEPS.replace("from mindspore import", "from mindspore import Model,") + _TRAINED
    evidence, constructs = _evidence(write("net.py", script.replace("{handed_on}", handed_on)))
    assert input_specs(evidence.parameter_values(constructs["Scaled"]), ["x", "scale"]) == scaled
    assert input_specs(evidence.parameter_values(constructs["Steps"]), ["x", "n"]) == steps


_GRADIENT_OF_THE_LOSS = """

class Scaled(nn.Cell):
    def construct(self, x, scale=2):
        return x * scale


def train():
    net = Scaled()
    data = Tensor(np.ones((2, 4), np.float32))
    {gradient}
"""


@pytest.mark.parametrize(
    ("gradient", "scaled"),
    [
        (
            "grad_fn = ops.GradOperation(get_by_list=True)(nn.WithLossCell(net, nn.MSELoss()), net.trainable_params())"
            "\n    grad_fn(data, data)",
            "float32[2,4], 2",
        ),
        ("grad_fn = ops.grad(nn.WithLossCell(net, nn.MSELoss()))\n    grad_fn(data, data)", "float32[2,4], 2"),
        (
            "loss_net = nn.WithLossCell(net, nn.MSELoss())\n"
            "    grad_fn = ms.value_and_grad(loss_net, None, net.trainable_params())\n    grad_fn(data, data)",
            "float32[2,4], 2",
        ),
        ("ops.GradOperation()(nn.WithLossCell(net, nn.MSELoss()))(data, data)", "float32[2,4], 2"),
        (
            "nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params()))(data, data)",
            "float32[2,4], 2",
        ),
        (
            "grad_fn = ops.GradOperation(sens_param=True)(nn.WithLossCell(net, nn.MSELoss()))\n"
            "    grad_fn(data, data, data)",
            None,
        ),
        ("grad_fn = ms.value_and_grad(nn.WithLossCell(net, nn.MSELoss()))\n    steps = [grad_fn]", None),
    ],
    ids=[
        "grad-operation",
        "grad",
        "value-and-grad-of-a-name",
        "called-where-made",
        "train-step-called-where-made",
        "sens",
        "handed-on",
    ],
)
def test_a_gradient_of_a_loss_cell_calls_its_network(write: Write, gradient: str, scaled: str | None) -> None:
    """`GradOperation(get_by_list=True)(WithLossCell(net, loss), params)(data, label)` runs
    `WithLossCell(net, loss)(data, label)`, which calls `net(data)` (MindSpore 2.10 compiles `net`
    with `data`'s shape: rules/ambiguous-tensor-conversion/bad_call_sites.py); so do `grad`,
    `value_and_grad` and the gradient called where it is made. One taking a `sens`, or handed on,
    gives the network tensors of no known shape."""
    evidence, constructs = _evidence(write("net.py", STEPS + _GRADIENT_OF_THE_LOSS.replace("{gradient}", gradient)))
    assert input_specs(evidence.parameter_values(constructs["Scaled"]), ["x", "scale"]) == scaled


_CAST = """

class Scaled(nn.Cell):
    def construct(self, x, n):
        return x * n


{built}
net(Tensor(np.ones((2, 4), np.float32)), Tensor(np.ones((2, 4), np.int32)))
"""


@pytest.mark.parametrize(
    ("built", "specs"),
    [
        ("net = Scaled()", "float32[2,4], int32[2,4]"),
        ("net = Scaled()\nnet.to_float(ms.float16)", "float16[2,4], int32[2,4]"),
        ("net = Scaled().to_float(ms.float16)", "float16[2,4], int32[2,4]"),
        ("net = Scaled()\nnet.to_float(ms.float16)\nnet.to_float(ms.bfloat16)", None),
    ],
    ids=["plain", "cast", "built-cast", "two-casts"],
)
def test_a_cell_cast_by_to_float_gets_its_float32_inputs_in_that_dtype(
    write: Write, built: str, specs: str | None
) -> None:
    """Measured on 2.10: a Cell cast by `to_float(ms.float16)` and called on float32 and int32
    tensors sees float16 and int32 (rules/branch-shape-mismatch/{bad,good}_to_float.py); where
    the casts disagree, the inputs' dtype is not known (no spec)."""
    evidence, constructs = _evidence(write("net.py", STEPS + _CAST.replace("{built}", built)))
    assert input_specs(evidence.parameter_values(constructs["Scaled"]), ["x", "n"]) == specs


STEPS_BY_ARGS = STEPS.replace(
    "    def construct(self, x, n):\n        for _ in range(n):",
    "    def construct(self, x, *n):\n        for _ in range(n[0]):",
)


@pytest.mark.parametrize(
    ("script", "expected"),
    [
        ("net = Steps()\nnet(Tensor(np.ones(2)), 3)\n", []),
        ("net = Steps()\nnet(Tensor(np.ones(2)), 3, Tensor(1, ms.int32))\n", []),
        ("net = Steps()\nnet(Tensor(np.ones(2)), 3)\nnet(Tensor(np.ones(2)), 2)\n", []),
        ("net = Steps()\nnet(Tensor(np.ones(2)), Tensor(3, ms.int32))\n", ["error"]),
        ("", ["warning"]),  # no call site
    ],
    ids=["constant", "constant-then-tensor", "two-sites", "tensor", "no-call-site"],
)
def test_constants_passed_through_constructs_star_args(write: Write, script: str, expected: list[str]) -> None:
    path = write("net.py", STEPS_BY_ARGS + script)
    found = check_files([path], Settings()).diagnostics
    assert [str(d.severity) for d in found if d.line == RANGE_LINE and d.symbol == "unsupported-syntax"] == expected


FRAMES = """
import copy
from decimal import Decimal

import numpy as np
import pandas as pd
import polars
import cv2
from mindspore import nn, Tensor


class Frames(nn.Cell):
    def construct(self, x):
        return x.select(["a"]).to_numpy()


def load(path):
    import polars as pl
    return pl.read_csv(path)
"""

FRAMES_HANDED_ON = """
import mindspore


def split():
    frame = polars.DataFrame({"a": [1]}).filter(polars.col("a") > 0)
    return frame, load("b.csv")


train, val = split()
net = Frames()


def forward_fn(data):
    return net(data)


grad_fn = mindspore.value_and_grad(forward_fn, None, [])


def train_step(data):
    grad_fn(data)
    net(val)


train_step(train)
"""

NESTED_STEP = """
def main(val):
    model = Frames()

    def step():
        model(val)

    step()
"""


@pytest.mark.parametrize(
    ("script", "reported"),
    [
        ('Frames()(load("a.csv"))\n', False),
        ('Frames()(polars.read_csv("a.csv"))\n', False),
        ('def main():\n    frame = pd.DataFrame({"a": [1]})\n    Frames()(frame)\n', False),
        ('frame = polars.DataFrame({"a": [1]}).filter(polars.col("a") > 0)\nFrames()(frame)\n', False),
        ('Frames()(Decimal("2"))\n', False),
        ('Frames()(copy.deepcopy(load("a.csv")))\n', False),
        # as a training script hands it on: an item of a project function's tuple, a name of the
        # module a function reads, a parameter every call (through value_and_grad) fills
        (FRAMES_HANDED_ON, False),
        (FRAMES_HANDED_ON.replace('load("b.csv")', "np.ones(2)"), True),
        # a function nested in another reads the enclosing function's `val`, not the module's
        (FRAMES_HANDED_ON + NESTED_STEP, True),
        ('net = Frames()\nnet(load("a.csv"))\nnet(Tensor(np.ones(2)))\n', True),
        ('Frames()(cv2.imread("a.png"))\n', True),  # an array
        ("Frames()(copy.deepcopy(Tensor(np.ones(2))))\n", True),
        ("Frames()(Tensor(np.ones(2)))\n", True),
        ("", True),
    ],
)
def test_what_every_call_fills_with_another_librarys_object_is_no_tensor(
    write: Write, script: str, reported: bool
) -> None:
    path = write("net.py", FRAMES + script)
    messages = [d.message for d in check_files([path], Settings()).diagnostics if d.symbol == "unknown-mindspore-api"]
    assert bool(messages) == reported, messages


ROWS = """
import polars
from mindspore import nn


class Rows(nn.Cell):
    def construct(self, frame):
        total = 0
        for i in range(frame.height):
            total += i
        return frame.select(["a"]).to_numpy(), total


Rows()(polars.read_csv("a.csv"))
"""


def test_a_finding_on_another_librarys_object_says_what_every_call_passes(write: Write) -> None:
    path = write("net.py", ROWS)
    found = [(str(d.severity), d.message) for d in check_files([path], Settings()).diagnostics]
    clause = "only if `frame` is a tensor: every call of `Rows.construct` passes the result of polars.read_csv"
    assert [(severity, clause in message) for severity, message in found] == [("warning", True)], found
