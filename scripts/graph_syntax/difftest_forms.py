"""Forms the differential tester adds to the table's catalog: one or two of each kind of outcome
(rejected, interpreted, frozen, dynamic shape, clean), among them data-dependent shapes, Cells
and Parameters in graph code, which the catalog does not measure."""

from __future__ import annotations

from graph_syntax.forms import Form

_PARAMETER = 'self.w = ms.Parameter(Tensor(np.ones(3, np.float32)), name="w")'
_BOX = "class Box:\n    def __init__(self, v):\n        self.v = v"
_SCALE = (
    "@ms.jit_class\nclass Scale:\n    def __init__(self):\n        self.k = 2.0\n\n"
    "    def apply(self, v):\n        return v * self.k"
)

DIFFTEST_FORMS = (
    Form("stmt.try", "stmt", "try:  # hazard\n    y = x + 1\nexcept Exception:\n    y = x"),
    Form("stmt.del", "stmt", "z = x + 1\ndel z  # hazard\ny = x"),
    Form("stmt.assert/shape", "stmt", "assert x.shape[0] == 2\ny = x"),
    Form("stmt.raise/tensor-branch", "stmt", "if x.sum() > 100:\n    raise ValueError('big')  # hazard\ny = x"),
    Form("stmt.while/tensor", "stmt", "y = x\nwhile y.sum() < 100:  # hazard\n    y = y * 2"),
    Form("stmt.for/tensor", "stmt", "y = x\nfor row in x:  # hazard\n    y = y + row"),
    Form(
        "stmt.for/local-list", "stmt", "outs = []\nfor i in range(2):\n    outs.append(x * i)\ny = ops.stack(outs)[0]"
    ),
    Form("expr.lambda", "expr", "f = lambda v: v * 2\ny = f(x)"),
    Form("expr.dictcomp", "expr", "d = {k: x * k for k in range(2)}\ny = d[1]"),
    Form("expr.isinstance", "expr", "y = x * 2 if isinstance(x, Tensor) else x"),
    Form("builtin.print/tensor", "builtin", "print(x)\ny = x"),
    Form("format.percent/tensor", "format", 's = "%s" % x\ny = x'),
    Form("format.format/tensor", "format", 's = "{}".format(x)\ny = x'),
    Form("host.asnumpy", "host", "y = Tensor(x.asnumpy())"),
    Form("host.tolist", "host", "v = x.tolist()  # hazard\ny = x"),
    Form("host.item", "host", "y = x * x[0, 0].item()"),
    Form("dynamic.unique", "dynamic", "y = ops.unique(x)[0]"),
    Form("dynamic.masked-select", "dynamic", "y = ops.masked_select(x, x > 1)"),
    Form("dynamic.bool-index", "dynamic", "y = x[x > 1]"),
    Form("dynamic.slice/tensor-bound", "dynamic", "n = (x > 1).sum()\ny = x[:n]  # hazard"),
    Form("cell.dense-in-graph", "cell", "y = nn.Dense(3, 3)(x)"),
    Form("cell.relu-in-graph", "cell", "y = nn.ReLU()(x)"),
    Form("param.set-data", "param", "self.w.set_data(x[0])  # hazard\ny = x", setup=_PARAMETER),
    Form("param.assign", "param", "self.w = x[0]  # hazard\ny = x + self.w", setup=_PARAMETER),
    Form("state.self-int.augassign", "state", "self.count += 1  # hazard\ny = x", setup="self.count = 0"),
    Form("state.global-list.append", "state", "_LOG.append(x)  # hazard\ny = x", module="_LOG = []"),
    Form("stdlib.time.time", "stdlib", "y = x + time.time() % 1", module="import time"),
    Form("stdlib.logging.info", "stdlib", 'logging.info("step")  # hazard\ny = x', module="import logging"),
    Form("stdlib.math.pi", "stdlib", "y = x * math.pi", module="import math"),
    Form("numpy.constant", "numpy", "y = x + Tensor(np.ones((2, 3), np.float32))"),
    Form("class.custom", "class", "b = Box(x)  # hazard\ny = b.v", module=_BOX),
    Form("class.jit-class", "class", "y = Scale().apply(x)", module=_SCALE),
    Form("ops.relu", "ops", "y = ops.relu(x)"),
    Form("ops.concat", "ops", "y = ops.concat([x, x], axis=0)[:2]"),
    Form("ops.mean-shape", "ops", "y = x.mean(axis=0, keep_dims=True) + x * x.shape[0]"),
)

ARGUMENT_FORMS = (
    Form("arg.range/int", "arg", "y = x\nfor i in range(n):  # hazard\n    y = y + i", argument="3"),
    Form(
        "arg.range/tensor", "arg", "y = x\nfor i in range(n):  # hazard\n    y = y + i", argument="Tensor(3, ms.int32)"
    ),
    Form("arg.slice/int", "arg", "y = x[:, :n]  # hazard", argument="2"),
    Form("arg.slice/tensor", "arg", "y = x[:, :n]  # hazard", argument="Tensor(2, ms.int32)"),
    Form("arg.numpy/int", "arg", "y = x * float(np.sqrt(n))  # hazard", argument="4"),
    Form("arg.numpy/float", "arg", "y = x * float(np.round(n / 0.5))  # hazard", argument="1.5"),
    Form("arg.reshape/tuple", "arg", "y = ops.reshape(x, n)  # hazard", argument="(3, 2)"),
    Form("arg.shape-item/tuple", "arg", "y = x * n[0]  # hazard", argument="(2, 3)"),
    Form("arg.if/int", "arg", "y = x * 2 if n > 2 else x  # hazard", argument="3"),
    Form("arg.join/int", "arg", "y = x if x.sum() > 0 else n  # hazard", argument="3"),
    Form("arg.tensor", "arg", "y = x * n  # hazard", argument="Tensor(2.0, ms.float32)"),
)
"""Forms whose body reads a second argument of the entry, given as a Python number, a tuple or
a tensor: MindSpore compiles a Python scalar or tuple as a constant, a tensor as an input."""

JOIN_AND_CONVERSION_FORMS = (
    Form("join.ifexp/tensor-or-int", "join", "y = x if x.sum() > 0 else 0  # hazard"),
    Form("join.ifexp/cast", "join", "y = ops.cast(x, ms.int32) if x.sum() > 0 else x  # hazard"),
    Form("join.ifexp/tuple-or-tensor", "join", "t = (x, x) if x.sum() > 0 else x  # hazard\ny = x"),
    Form("join.ifexp/two-tensors", "join", "y = x * 2 if x.sum() > 0 else x - 1"),
    Form("join.if/float-or-int", "join", "if x.sum() > 0:  # hazard\n    s = 1.0\nelse:\n    s = 0\ny = x * s"),
    Form("convert.if/input", "convert", "if x > 0:  # hazard\n    y = x\nelse:\n    y = -x"),
    Form("convert.bool/input", "convert", "b = bool(x)  # hazard\ny = x"),
    Form("convert.int/input", "convert", "k = int(x * 2)  # hazard\ny = x"),
    Form("convert.not/created", "convert", "z = ops.ones((2, 2), ms.float32)\nb = not z  # hazard\ny = x"),
    Form("convert.if/reduced", "convert", "if (x > 0).all():\n    y = x\nelse:\n    y = -x"),
    Form("convert.int/sum", "convert", "y = x * int(x.sum())"),
)
"""Joins and conversions the compiler's type inference rejects or accepts: a tensor against a
number, a tuple, another dtype; a tensor of more than one element made a Python bool or int."""
