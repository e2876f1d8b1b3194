"""Measure the call forms of Tensor methods whose graph-mode signature differs from PyNative's.

Graph mode does not call ``Tensor.method``: it resolves ``x.method(...)`` through MindSpore's
parser tables (the C++ overloads of ``mindspore.common._tensor_cpp_method``, falling back to the
functions of ``mindspore.graph._parse.standard_method`` named by
``deprecated/deprecated_tensor_method.py``, else the function of ``standard_method`` of the same
name). The script

1. introspects every public method of ``mindspore.Tensor``: its PyNative signature (Python
   methods) and the ``standard_method`` function graph mode falls back to, and lists those whose
   parameters differ (name, kind or default, past the tensor itself);
2. runs each call form of ``FORMS`` (the forms PyTorch ports write, of the methods whose graph
   form is known to differ, and of each method step 1 lists) in PyNative, and compiled with
   ``ms.jit`` in STRICT (``fullgraph=True``) and LAX, each mode its own function in a generated
   file, and records the result (``float32[2,3,4]``) or the first line of what it raised;
3. writes ``mslint/data/tensor-signatures-<version>.json``, which ``differs-from-pytorch``
   reads. ``--check`` only says whether the file matches the installed MindSpore.

About a minute on two cores.
"""

from __future__ import annotations

import inspect
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from mindspore_table import installed_mindspore, write_or_check

WORKERS = 2

X = {"x": "float32[2,1,4]"}
M = {"x": "float32[2,3]", "m": "bool[2,3]"}
MAT = {"x": "float32[4,4]"}
SCATTER = {"x": "float32[2,3]", "i": "int64[2,1]", "s": "float32[2,1]"}
GATHER = {"x": "float32[2,3]", "i": "int64[2,2]"}
SELECT = {"x": "float32[2,3]", "j": "int64[2]"}
PAIR = {"x": "float32[2,3]", "y": "float32[2,3]"}
INTS = {"x": "int32[2,3]", "y": "int32[2,3]"}
SQUARE = {"x": "float32[2,3,3]"}

FORMS: dict[str, list[tuple[str, dict[str, str]]]] = {
    "expand": [
        ("x.expand(2, 3, 4)", X),
        ("x.expand(-1, 3, -1)", X),
        ("x.expand((2, 3, 4))", X),
        ("x.expand([2, 3, 4])", X),
        ("x.expand(size=(2, 3, 4))", X),
    ],
    "expand_as": [("x.expand_as(y)", {"x": "float32[1,3]", "y": "float32[2,3]"})],
    "view": [("x.view(2, 4)", X), ("x.view(-1)", X), ("x.view((2, 4))", X), ("x.view(-1, 4)", X)],
    "view_as": [("x.view_as(y)", {"x": "float32[2,3]", "y": "float32[3,2]"})],
    "reshape": [
        ("x.reshape(2, 4)", X),
        ("x.reshape(-1)", X),
        ("x.reshape((2, 4))", X),
        ("x.reshape([2, 4])", X),
        ("x.reshape(shape=(2, 4))", X),
    ],
    "repeat": [("x.repeat(2, 1, 1)", X), ("x.repeat((2, 1, 1))", X), ("x.repeat(2)", {"x": "float32[3]"})],
    "tile": [("x.tile(2, 1, 1)", X), ("x.tile((2, 1, 1))", X), ("x.tile(dims=(2, 1, 1))", X)],
    "permute": [("x.permute(2, 0, 1)", X), ("x.permute((2, 0, 1))", X), ("x.permute(dims=(2, 0, 1))", X)],
    "transpose": [("x.transpose(0, 2)", X), ("x.transpose(dim0=0, dim1=2)", X), ("x.transpose((2, 0, 1))", X)],
    "swapaxes": [("x.swapaxes(0, 2)", X)],
    "t": [("x.t()", {"x": "float32[2,3]"})],
    "flatten": [("x.flatten()", X), ("x.flatten(1)", X), ("x.flatten(0, 1)", X), ("x.flatten(start_dim=1)", X)],
    "squeeze": [("x.squeeze()", X), ("x.squeeze(1)", X), ("x.squeeze(dim=1)", X), ("x.squeeze((1,))", X)],
    "unsqueeze": [("x.unsqueeze(0)", X), ("x.unsqueeze(-1)", X), ("x.unsqueeze(dim=0)", X)],
    "size": [("x.size()", X), ("x.size(1)", X)],
    "dim": [("x.dim()", X)],
    "numel": [("x.numel()", X)],
    "nelement": [("x.nelement()", X)],
    "sum": [
        ("x.sum()", X),
        ("x.sum(2)", X),
        ("x.sum(dim=2)", X),
        ("x.sum(2, keepdim=True)", X),
        ("x.sum(dim=2, keepdim=True)", X),
        ("x.sum((1, 2))", X),
        ("x.sum(dim=(1, 2))", X),
        ("x.sum(2, True)", X),
    ],
    "mean": [
        ("x.mean(2)", X),
        ("x.mean(dim=2)", X),
        ("x.mean(-1, keepdim=True)", X),
        ("x.mean(dim=-1, keepdim=True)", X),
        ("x.mean((1, 2))", X),
        ("x.mean(2, True)", X),
    ],
    "max": [
        ("x.max()", X),
        ("x.max(2)", X),
        ("x.max(dim=2)", X),
        ("x.max(2, keepdim=True)", X),
        ("x.max(dim=2, keepdim=True)", X),
        ("x.max(y)", PAIR),
    ],
    "min": [("x.min()", X), ("x.min(2)", X), ("x.min(dim=2)", X), ("x.min(dim=2, keepdim=True)", X)],
    "amax": [("x.amax(2)", X), ("x.amax(2, True)", X), ("x.amax(2, keepdims=True)", X)],
    "amin": [("x.amin(2)", X), ("x.amin(2, True)", X), ("x.amin(2, keepdims=True)", X)],
    "argmax": [("x.argmax()", X), ("x.argmax(2)", X), ("x.argmax(dim=2)", X), ("x.argmax(dim=2, keepdim=True)", X)],
    "argmin": [("x.argmin(dim=2)", X)],
    "prod": [("x.prod(2)", X), ("x.prod(dim=2)", X), ("x.prod(2, keepdim=True)", X)],
    "all": [("x.all()", X), ("x.all(2)", X), ("x.all(dim=2)", X)],
    "any": [("x.any()", X), ("x.any(2)", X), ("x.any(dim=2)", X)],
    "std": [
        ("x.std()", X),
        ("x.std(2)", X),
        ("x.std(dim=2)", X),
        ("x.std(dim=2, keepdim=True)", X),
        ("x.std(2, keepdim=True)", X),
        ("x.std(dim=2, unbiased=False)", X),
    ],
    "var": [
        ("x.var()", X),
        ("x.var(2)", X),
        ("x.var(dim=2)", X),
        ("x.var(dim=2, keepdim=True)", X),
        ("x.var(dim=2, unbiased=False)", X),
    ],
    "norm": [("x.norm()", X), ("x.norm(dim=-1)", X), ("x.norm(p=2, dim=-1, keepdim=True)", X)],
    "softmax": [("x.softmax(-1)", X), ("x.softmax(dim=-1)", X), ("x.softmax(axis=-1)", X)],
    "cumsum": [("x.cumsum(2)", X), ("x.cumsum(dim=2)", X)],
    "topk": [("x.topk(2)", X), ("x.topk(2, dim=-1)", X), ("x.topk(2, -1)", X)],
    "sort": [("x.sort()", X), ("x.sort(dim=-1)", X), ("x.sort(-1, True)", X), ("x.sort(descending=True)", X)],
    "argsort": [("x.argsort(dim=-1)", X), ("x.argsort(-1)", X)],
    "flip": [("x.flip(0)", X), ("x.flip((0,))", X), ("x.flip(dims=(0,))", X)],
    "roll": [("x.roll(1, 2)", X), ("x.roll(1, dims=2)", X), ("x.roll(shifts=1, dims=2)", X)],
    "narrow": [("x.narrow(2, 0, 2)", X), ("x.narrow(dim=2, start=0, length=2)", X)],
    "unbind": [("x.unbind(0)", X), ("x.unbind(dim=0)", X)],
    "split": [
        ("x.split(2)", MAT),
        ("x.split(2, 1)", MAT),
        ("x.split(2, dim=1)", MAT),
        ("x.split([1, 3], dim=1)", MAT),
        ("x.split((1, 3), 1)", MAT),
    ],
    "chunk": [("x.chunk(2)", MAT), ("x.chunk(2, 1)", MAT), ("x.chunk(2, dim=1)", MAT)],
    "type": [("x.type(ms.float16)", X), ("x.type(dtype=ms.float16)", X)],
    "type_as": [("x.type_as(y)", {"x": "float32[2,3]", "y": "int32[2,3]"})],
    "to": [("x.to(ms.float16)", X), ("x.to(dtype=ms.float16)", X)],
    "astype": [("x.astype(ms.float16)", X)],
    "float": [("x.float()", {"x": "int32[2,3]"})],
    "half": [("x.half()", X)],
    "double": [("x.double()", X)],
    "long": [("x.long()", X)],
    "int": [("x.int()", X)],
    "bool": [("x.bool()", X)],
    "byte": [("x.byte()", X)],
    "bfloat16": [("x.bfloat16()", X)],
    "contiguous": [("x.contiguous()", X)],
    "is_contiguous": [("x.is_contiguous()", X)],
    "clone": [("x.clone()", X)],
    "masked_fill": [
        ("x.masked_fill(m, 0.0)", M),
        ("x.masked_fill(m, 0)", M),
        ("x.masked_fill(m, -1e9)", M),
        ("x.masked_fill(mask=m, value=0.0)", M),
    ],
    "masked_select": [("x.masked_select(m)", M)],
    "where": [("x.where(m, y)", {**PAIR, "m": "bool[2,3]"})],
    "scatter": [
        ("x.scatter(1, i, s)", SCATTER),
        ("x.scatter(dim=1, index=i, src=s)", SCATTER),
        ("x.scatter(1, i, 0.0)", SCATTER),
        ("x.scatter(dim=1, index=i, value=0.0)", SCATTER),
    ],
    "scatter_add": [("x.scatter_add(1, i, s)", SCATTER), ("x.scatter_add(dim=1, index=i, src=s)", SCATTER)],
    "gather": [("x.gather(1, i)", GATHER), ("x.gather(dim=1, index=i)", GATHER), ("x.gather(i, 1)", GATHER)],
    "index_select": [
        ("x.index_select(1, j)", SELECT),
        ("x.index_select(dim=1, index=j)", SELECT),
        ("x.index_select(0, j)", SELECT),
    ],
    "new_zeros": [("x.new_zeros((2, 3))", X), ("x.new_zeros(2, 3)", X), ("x.new_zeros(size=(2, 3))", X)],
    "new_ones": [("x.new_ones((2, 3))", X), ("x.new_ones(2, 3)", X)],
    "new_full": [("x.new_full((2, 3), 1.0)", X)],
    "new_empty": [("x.new_empty((2, 3))", X)],
    "clamp": [("x.clamp(0, 1)", X), ("x.clamp(min=0)", X), ("x.clamp(max=1.0)", X), ("x.clamp(min=0.0, max=1.0)", X)],
    "clip": [("x.clip(0, 1)", X), ("x.clip(min=0)", X)],
    "pow": [("x.pow(2)", X), ("x.pow(exponent=2)", X)],
    "add": [("x.add(y)", PAIR), ("x.add(y, alpha=2)", PAIR), ("x.add(1.0)", PAIR), ("x.add(other=y)", PAIR)],
    "sub": [("x.sub(y)", PAIR), ("x.sub(y, alpha=2)", PAIR)],
    "mul": [("x.mul(y)", PAIR), ("x.mul(2.0)", PAIR), ("x.mul(other=y)", PAIR)],
    "multiply": [("x.multiply(y)", PAIR), ("x.multiply(value=y)", PAIR), ("x.multiply(other=y)", PAIR)],
    "div": [("x.div(y)", PAIR), ("x.div(y, rounding_mode='floor')", PAIR), ("x.div(other=y)", PAIR)],
    "matmul": [("x.matmul(y)", {"x": "float32[2,3]", "y": "float32[3,2]"})],
    "bmm": [("x.bmm(y)", {"x": "float32[2,2,3]", "y": "float32[2,3,2]"})],
    "eq": [("x.eq(y)", PAIR), ("x.eq(0.0)", PAIR)],
    "equal": [("x.equal(y)", PAIR), ("x.equal(other=y)", PAIR), ("x.equal(y=y)", PAIR)],
    "float_power": [("x.float_power(2)", X), ("x.float_power(other=2)", X), ("x.float_power(exponent=2)", X)],
    "bitwise_left_shift": [("x.bitwise_left_shift(y)", INTS), ("x.bitwise_left_shift(other=y)", INTS)],
    "bitwise_right_shift": [("x.bitwise_right_shift(y)", INTS), ("x.bitwise_right_shift(other=y)", INTS)],
    "renorm": [("x.renorm(2, 0, 1.0)", X), ("x.renorm(p=2, axis=0, maxnorm=1.0)", X)],
    "diagonal_scatter": [
        ("x.diagonal_scatter(y)", {"x": "float32[3,3]", "y": "float32[3]"}),
        ("x.diagonal_scatter(y, 0)", {"x": "float32[3,3]", "y": "float32[3]"}),
    ],
    "reverse_sequence": [
        ("x.reverse_sequence(j)", {"x": "float32[2,3]", "j": "int64[2]"}),
        ("x.reverse_sequence(j, 1)", {"x": "float32[2,3]", "j": "int64[2]"}),
        ("x.reverse_sequence(j, seq_dim=1)", {"x": "float32[2,3]", "j": "int64[2]"}),
    ],
    "diagonal": [("x.diagonal()", SQUARE), ("x.diagonal(0, 1, 2)", SQUARE), ("x.diagonal(dim1=1, dim2=2)", SQUARE)],
    "tril": [("x.tril()", SQUARE), ("x.tril(1)", SQUARE), ("x.tril(diagonal=1)", SQUARE)],
    "triu": [("x.triu()", SQUARE), ("x.triu(diagonal=1)", SQUARE)],
    "repeat_interleave": [("x.repeat_interleave(2)", X), ("x.repeat_interleave(2, dim=0)", X)],
    "broadcast_to": [("x.broadcast_to((2, 3, 4))", X), ("x.broadcast_to(2, 3, 4)", X)],
    "fill_": [("x.fill_(0.0)", X)],
    "zero_": [("x.zero_()", X)],
    "abs": [("x.abs()", X)],
    "exp": [("x.exp()", X)],
    "sqrt": [("x.sqrt()", X)],
    "sigmoid": [("x.sigmoid()", X)],
    "tanh": [("x.tanh()", X)],
    "item": [("x.item()", {"x": "float32[1]"})],
    "tolist": [("x.tolist()", X)],
}
"""Per method, the call forms to run, each with its inputs (``float32[2,1,4]``). A form's call
reads its inputs by name; ``ms`` is ``mindspore``."""


def introspected() -> tuple[list[str], dict[str, dict[str, str]]]:
    """The public methods of ``mindspore.Tensor``, and those whose PyNative signature (a Python
    method's) differs from the one of the ``standard_method`` function graph mode falls back to,
    with both signatures."""
    import mindspore as ms
    from mindspore.common._tensor_cpp_method import tensor_cpp_methods
    from mindspore.graph._parse import standard_method
    from mindspore.graph._parse.deprecated.deprecated_tensor_method import deprecated_tensor_method_map

    methods, differing = [], {}
    for name in sorted(dir(ms.Tensor)):
        if name.startswith("_") or isinstance(inspect.getattr_static(ms.Tensor, name), property):
            continue
        if not callable(getattr(ms.Tensor, name)):
            continue
        methods.append(name)
        if name in tensor_cpp_methods:
            continue  # the same C++ overloads in both modes
        graph = getattr(standard_method, deprecated_tensor_method_map.get(name) or name, None)
        if not callable(graph):
            continue  # graph mode resolves it elsewhere (a C++ table): no Python signature to compare
        try:
            pynative, fallback = inspect.signature(getattr(ms.Tensor, name)), inspect.signature(graph)
        except (TypeError, ValueError):
            continue  # no Python signature, or no graph function of that name
        if _parameters(pynative) != _parameters(fallback):
            differing[name] = {"pynative": f"{name}{pynative}", "graph": f"{name}{fallback}"}
    return methods, differing


def _parameters(signature: inspect.Signature) -> list[tuple[str, Any, str]]:
    return [(p.name, p.kind, repr(p.default)) for p in list(signature.parameters.values())[1:]]


WORKER = """\
import hashlib, json, sys
import numpy as np
import mindspore as ms
ms.set_context(mode=ms.PYNATIVE_MODE)
sys.path.insert(0, sys.argv[1])
import cases

def first_line(error):
    # a C++ error opens with a frame of dashes around a heading (`- Kernel select failed:`)
    lines = [line.strip() for line in str(error).splitlines() if line.strip().strip("-")]
    lines = [line for line in lines if not (line.startswith("- ") and line.endswith(":"))]
    line = lines[0] if lines else ""
    if len(line) > 1 and line[0] == line[-1] == "'":  # graph mode quotes the message
        line = line[1:-1]
    return f"{type(error).__name__}: {line}"

def tensor(spec):
    dtype, shape = spec.rstrip("]").split("[")
    shape = tuple(int(n) for n in shape.split(","))
    count = int(np.prod(shape))
    if dtype == "bool":
        values = np.arange(count) % 2 == 0
    elif dtype.startswith("int"):
        values = np.zeros(count)  # valid indices, lengths and shift amounts
    else:
        values = np.arange(count) % 4 + 1.0
    return ms.Tensor(values.reshape(shape).astype(dtype))

def described(value):
    if isinstance(value, ms.Tensor):
        digest = hashlib.sha256(value.asnumpy().tobytes()).hexdigest()[:8]  # tells equal values apart
        return f"{str(value.dtype).lower()}[{','.join(map(str, value.shape))}] {digest}"
    if isinstance(value, (tuple, list)):
        return f"{type(value).__name__}({', '.join(described(v) for v in value)})"
    return f"{type(value).__name__} {value!r}"

with open(f"{sys.argv[1]}/jobs-{sys.argv[2]}.json", encoding="utf-8") as jobs:
    share = json.load(jobs)
for index, inputs in share:
    values = [tensor(spec) for spec in inputs]
    outcome = {}
    for mode in ("pynative", "strict", "lax"):
        function = getattr(cases, f"{mode}_{index}")
        if mode != "pynative":
            function = ms.jit(function, fullgraph=mode == "strict")
        try:
            outcome[mode] = {"result": described(function(*values))}
        except Exception as error:
            outcome[mode] = {"error": first_line(error)}
    print(json.dumps([index, outcome]), flush=True)
"""


def measure(forms: list[tuple[str, dict[str, str]]]) -> list[dict[str, Any]]:
    """Each form's outcome in PyNative, STRICT and LAX, run by worker processes that read their
    share of the forms from a file and print an outcome per line."""
    with tempfile.TemporaryDirectory(prefix="mslint-signatures-") as name:
        folder = Path(name)
        sources = [
            f"def {mode}_{index}({', '.join(inputs)}):\n    return {call}\n\n\n"
            for index, (call, inputs) in enumerate(forms)
            for mode in ("pynative", "strict", "lax")
        ]
        (folder / "cases.py").write_text("import mindspore as ms\n\n\n" + "".join(sources), encoding="utf-8")
        (folder / "worker.py").write_text(WORKER, encoding="utf-8")
        workers = []
        for number in range(WORKERS):
            share = [[i, list(inputs.values())] for i, (_, inputs) in enumerate(forms) if i % WORKERS == number]
            (folder / f"jobs-{number}.json").write_text(json.dumps(share), encoding="utf-8")
            with open(folder / f"outcomes-{number}.jsonl", "w", encoding="utf-8") as output:
                command = [sys.executable, str(folder / "worker.py"), name, str(number)]
                workers.append(subprocess.Popen(command, stdout=output, stderr=subprocess.DEVNULL, cwd=name))
        for worker in workers:
            worker.wait(timeout=600)
        outcomes: dict[int, dict[str, Any]] = {}
        for number in range(WORKERS):
            for line in (folder / f"outcomes-{number}.jsonl").read_text(encoding="utf-8").splitlines():
                if line.startswith("["):
                    index, outcome = json.loads(line)
                    outcomes[index] = outcome
    missing = [i for i in range(len(forms)) if i not in outcomes]
    if missing:
        raise SystemExit(f"no outcome for {len(missing)} forms (a worker died at {forms[missing[0]][0]})")
    return [{"call": call, "inputs": inputs, **outcomes[i]} for i, (call, inputs) in enumerate(forms)]


GRAPH = ("strict", "lax")

NO_KERNEL = ("Unsupported op [", "The kernel ", "is not supported on this device", "support Ascend only")
"""How MindSpore says, in either mode, that the CPU has no kernel for an operator: the call
compiled (or was accepted), so what it does on a device that has one is not measured here."""


def _no_kernel(error: str) -> bool:
    return any(words in error for words in NO_KERNEL)


def main() -> int:
    version = installed_mindspore("generate_tensor_signature_table.py")
    if version is None:
        return 2
    import mindspore as ms

    start = time.monotonic()
    methods, differing = introspected()
    unknown = sorted(set(FORMS) - {name for name in dir(ms.Tensor) if not name.startswith("_")})
    if unknown:
        raise SystemExit(f"FORMS names methods mindspore.Tensor lacks: {', '.join(unknown)}")
    unmeasured = sorted(set(differing) - set(FORMS))
    forms = [form for name in sorted(FORMS) for form in FORMS[name]]
    rows = measure(forms)
    measured: dict[str, list[dict[str, Any]]] = {}
    for name in sorted(FORMS):
        measured[name] = [row for row in rows if row["call"].startswith(f"x.{name}(")]
    for row in rows:
        row["fails_in_graph"] = all("error" in row[mode] and not _no_kernel(row[mode]["error"]) for mode in GRAPH)
    fails = [r for r in rows if r["fails_in_graph"]]
    differences = [r for r in fails if "result" in r["pynative"]]
    table = {
        "mindspore": version,
        "source": (
            "scripts/generate_tensor_signature_table.py: each call form run on MindSpore in PyNative and "
            "compiled with ms.jit in STRICT (fullgraph=True) and LAX; each mode's `result` (dtype, shape and a digest "
            "of the values, or a Python value) or `error` (the first line of what it raised); "
            "`fails_in_graph`: an error in STRICT and in LAX other than a missing CPU kernel"
        ),
        "tensor_methods": len(methods),
        "introspected_differences": differing,
        "not_measured": unmeasured,
        "methods": measured,
    }
    text = json.dumps(table, indent=1, ensure_ascii=False) + "\n"
    summary = (
        f"{len(methods)} methods introspected ({len(differing)} with differing signatures), {len(forms)} forms "
        f"of {len(FORMS)} methods measured in {time.monotonic() - start:.0f} s: {len(fails)} fail in graph mode, "
        f"{len(differences)} of them run in PyNative"
    )
    return write_or_check(f"tensor-signatures-{version}.json", text, summary)


if __name__ == "__main__":
    sys.exit(main())
