"""torch-api-in-cell judges MindSpore tensors: a PyTorch tensor's own `.cpu()` is not one of its findings."""

from __future__ import annotations

from pathlib import Path

from mslint.engine import check_files
from mslint.settings import Settings

SOURCE = """\
import torch
from mindspore import Tensor, nn


class Sampler(nn.Cell):
    def construct(self, x):
        points = torch.Tensor(x.asnumpy())
        feature = torch.nn.functional.grid_sample(points, points.unsqueeze(2))[..., 0]
        feature = Tensor(feature.cpu().numpy())
        return x.cpu() + feature + torch.ones(2).cpu().numpy()
"""


def test_cpu_of_a_torch_tensor_is_not_flagged(tmp_path: Path) -> None:
    path = tmp_path / "sampler.py"
    path.write_text(SOURCE)
    report = check_files([path], Settings())
    flagged = {(d.line, d.column) for d in report.diagnostics if d.symbol == "torch-api-in-cell"}
    assert flagged == {(10, 16)}, "only the MindSpore input's `x.cpu()` is flagged"


def test_to_a_device_is_flagged_only_for_names_mindspore_does_not_know(tmp_path: Path) -> None:
    """2.10's `Tensor.to` takes a device: "CPU", "cpu", "Ascend" and "npu" convert (graph mode on
    the CPU backend then rejects the copy, as it rejects `ops.move_to`); "cuda", "GPU" do not."""
    path = tmp_path / "moves.py"
    path.write_text(
        "import mindspore as ms\n"
        "from mindspore import nn\n\n\n"
        "class Moves(nn.Cell):\n"
        "    def construct(self, x, device):\n"
        '        kept = x.to("CPU") + x.to("Ascend") + x.to(device="npu") + x.to(ms.float16) + x.to(device)\n'
        '        return kept + x.to("cuda") + x.to(device="GPU")\n'
    )
    report = check_files([path], Settings())
    flagged = {(d.line, d.column) for d in report.diagnostics if d.symbol == "torch-api-in-cell"}
    assert flagged == {(8, 23), (8, 38)}


def test_habits_outside_graph_code_are_flagged_on_tensors_mindspore_made(tmp_path) -> None:
    """Scripts and ``__init__``: `.detach()` on `ops.ones(...)` fails there too; a parameter, a loop
    variable or a Cell's output says nothing of what the value is."""
    from mslint.engine import check_files
    from mslint.settings import Settings

    path = tmp_path / "train.py"
    path.write_text(
        "import mindspore as ms\n"
        "import mindspore.numpy as mnp\n"
        "from mindspore import ops\n"
        "\n"
        "\n"
        "def main(batch, net):\n"
        "    data = ms.Tensor([1.0, 2.0])\n"
        "    print(data.cpu(), batch.cpu(), net(data).cpu())\n"
        "    steps = mnp.arange(4).size(0)\n"
        "    for item in [data]:\n"
        "        item.detach()\n"
        "    flat = ops.ones((2, 2), ms.float32).reshape(4)\n"
        "    return flat.to('cuda'), steps\n"
    )
    found = [(d.line, d.column) for d in check_files([path], Settings()).diagnostics if d.symbol == "torch-api-in-cell"]
    assert found == [(8, 11), (9, 13), (13, 12)]


HELPERS = """\
import numpy as np
import mindspore as ms


class Pinned:
    def __init__(self, tensor):
        self.array = tensor.asnumpy()

    def detach(self):
        return self.array


def kernel():
    k = np.ones((3, 3), np.float32)
    k = ms.Tensor(k)
    return k / k.sum()


def pinned():
    p = ms.Tensor(np.ones(3, np.float32))
    p = Pinned(p)
    return p


def branched(flag):
    b = ms.Tensor(np.ones(3, np.float32))
    if flag:
        b = Pinned(b)
    return b


k = kernel().cuda()
p = pinned().detach()
b = branched(False).detach()
"""


def test_a_helper_returns_what_the_last_binding_before_its_return_gives(tmp_path: Path) -> None:
    """A name bound again on the way to the ``return`` holds what its last binding gives: the
    array rebound to a tensor is a tensor (its ``.cuda()`` fails), the tensor rebound to an
    object of the project's is that object (its own ``detach()``; main flagged it, and missed the
    ``.cuda()``). A binding in a branch is not followed: the bindings are joined, as before
    (the object is no known value, so the join is the tensor, which ``branched(False)`` returns)."""
    path = tmp_path / "helpers.py"
    path.write_text(HELPERS)
    report = check_files([path], Settings(select=("torch-api-in-cell",)))
    assert {d.line for d in report.diagnostics} == {32, 34}
