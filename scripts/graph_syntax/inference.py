"""The forms of the type-inference table: what the compiler's second stage (type and shape
inference) rejects or accepts, class by class (issue 31), each rejected form beside a form of the
same class that compiles. ``scripts/generate_inference_table.py`` measures them into
``mslint/data/inference-<release>.json`` and ``scripts/generate_inference_docs.py`` writes
docs/type-inference.md from that table.

A body runs with ``x``, a float32 Tensor of shape (2, 3), as the catalog's forms do
(:mod:`graph_syntax.forms`); what it leaves in ``y`` is returned, so a body that puts a function
or a dict in ``y`` measures what the graph may return.
"""

from __future__ import annotations

from dataclasses import dataclass

from graph_syntax.forms import Form

POSITIONS = ("construct", "helper", "jit", "branch", "grad")
"""Where the forms are measured: enough to show what depends on the position (a dict returned by
graph code that is not the top graph, a join under a tensor ``if``, a form under ``value_and_grad``)."""

_SCALE_CELL = (
    "class Scale(nn.Cell):\n"
    "    def __init__(self):\n"
    "        super().__init__()\n"
    '        self.w = ms.Parameter(Tensor(np.ones(3, np.float32)), name="w")\n'
    "        self.gain = 2.0\n\n"
    "    def construct(self, v):\n"
    "        return v * self.w * self.gain"
)
_FEATURES_CELL = (
    'class Features(nn.Cell):\n    def construct(self, v):\n        return {"features": v, "scores": v * 2}'
)
_BOX = "class Box:\n    def __init__(self, size):\n        self.size = size"
_MISSPELT_CELL = "class Misspelt(nn.Cell):\n    def contruct(self, v):\n        return v * 2"
_SUPER_CELLS = (
    "class Base(nn.Cell):\n"
    "    def construct(self, v):\n"
    "        return v * 2\n\n\n"
    "class Child(Base):\n"
    "    def construct(self, v):\n"
    "        return super(Child, {target}).construct(v) + 1"
)
_PARAMETER = 'ms.Parameter(Tensor(np.ones(3, np.float32)), name="{name}")'


@dataclass(frozen=True)
class InferenceClass:
    key: str
    title: str
    forms: tuple[Form, ...]


def _forms(family: str, cases: dict[str, str], setup: str = "", module: str = "") -> tuple[Form, ...]:
    """Forms ``family.<key>`` sharing ``module`` lines, and ``setup`` lines where the body reads ``self``."""
    return tuple(
        Form(f"{family}.{key}", family, body, setup if "self" in body else "", module) for key, body in cases.items()
    )


_JOINS = _forms(
    "joins",
    {
        "return/tensor-or-int": "if x.sum() > 0:  # hazard\n    return x\ny = 1",
        "if/tensor-or-float": "if x.sum() > 0:  # hazard\n    z = x\nelse:\n    z = 1.0\ny = x * z",
        "ifexp/string-or-tuple": "s = 'ab' if x.sum() > 0 else (1, 2)  # hazard\ny = x * len(s)",
        "if/none-or-tensor": "z = None\nif x.sum() > 0:  # hazard\n    z = x\ny = x if z is None else z",
        "ifexp/cast-dtype": "y = ops.cast(x, ms.int32) if x.sum() > 0 else x  # hazard",
        "ifexp/astype-dtype": "y = x.astype(ms.float16) if x.sum() > 0 else x  # hazard",
        "ifexp/different-ranks": "y = x if x.sum() > 0 else x[0]  # hazard\ny = y * 2",
        "and/tensors": "y = x.sum() and x  # hazard",
        "while/return": "while x.sum() > 0:  # hazard\n    return x * 2\ny = x",
        "ifexp/two-tensors": "y = x * 2 if x.sum() > 0 else x - 1",
        "ifexp/zero-d-tensor": "y = x if x.sum() > 0 else x.sum()",
        "if/float-or-int": "if x.sum() > 0:\n    s = 1.0\nelse:\n    s = 0\ny = x * s",
    },
)

_ATTRIBUTES = _forms(
    "attributes",
    {
        "tensor/missing-method": "y = x.abcd()  # hazard",
        "cell/never-set": "y = x * self.sclae  # hazard",
        "getattr/missing-constant-name": 'y = x * getattr(self, "temperature")  # hazard',
        "assign/through-item": "self.blocks[0].gain = 3.0  # hazard\ny = self.blocks[0](x)",
        "cell/set-in-init": "y = x * self.scale",
        "getattr/present-constant-name": 'y = x * getattr(self, "scale")',
    },
    setup="self.scale = 2.0\nself.blocks = nn.CellList([Scale(), Scale()])",
    module=_SCALE_CELL,
)

_CONVERSIONS = _forms(
    "conversions",
    {
        "if/multi-element": "if x:  # hazard\n    y = x\nelse:\n    y = -x",
        "not/multi-element": "b = not x  # hazard\ny = x * b",
        "bool/multi-element": "b = bool(x)  # hazard\ny = x * b",
        "int/multi-element": "k = int(x)  # hazard\ny = x * k",
        "float/multi-element": "k = float(x)  # hazard\ny = x * k",
        "or/multi-element": "y = x or -x  # hazard",
        "round/tensor": "k = round(x.sum())  # hazard\ny = x * k",
        "range/tensor-element": "y = x\nfor i in range(x[0, 2]):  # hazard\n    y = y + i",
        "if/one-element": "s = x.sum().reshape((1,))\nif s:  # hazard\n    y = x\nelse:\n    y = -x",
        "if/reduced": "if (x > 0).all():  # hazard\n    y = x\nelse:\n    y = -x",
        "int/zero-d": "y = x * int(x.sum())",
    },
)

_OUTPUTS = _forms(
    "outputs",
    {
        "function": "y = scale  # hazard",
        "lambda": "y = (x, lambda v: v * 2)  # hazard",
        "dict": 'y = {"features": x, "scores": x * 2}  # hazard',
        "numpy-array": "y = (x, np.ones(3))  # hazard",
        "plain-object": "y = (x, self.box)  # hazard",
        "sub-cell-dict": 'out = self.features(x)  # hazard\ny = out["features"] + out["scores"]',
        "plain-object-attribute": "y = x * self.box.size",
    },
    setup="self.box = Box(2)\nself.features = Features()",
    module=f"{_BOX}\n\n\n{_FEATURES_CELL}\n\n\ndef scale(v):\n    return v * 2",
)

_REFUSED_APIS = _forms(
    "refused-apis",
    {
        "sub-cell/trainable_params": "y = x * len(self.encoder.trainable_params())  # hazard",
        "sub-cell/set_train": "self.encoder.set_train(False)  # hazard\ny = self.encoder(x)",
        "module-cell/get_parameters": "y = x * len(SHARED.get_parameters())  # hazard",
        "passed-cell/parameters_dict": "y = x * count(self.encoder)  # hazard",
        "initializer-class": "w = One()  # hazard\ny = x",
        "sub-cell/call": "y = self.encoder(x)",
    },
    setup="self.encoder = Scale()",
    module=(
        f"from mindspore.common.initializer import One\n\n\n{_SCALE_CELL}\n\n\nSHARED = Scale()\n\n\n"
        "def count(cell):\n    return len(cell.parameters_dict())"
    ),
)

_PARAMETER_NAMES = (
    Form(
        "parameter-names.two-attributes",
        "parameter-names",
        "y = x * self.a * self.b  # hazard",
        setup=f"self.a = {_PARAMETER.format(name='w')}\nself.b = {_PARAMETER.format(name='w')}",
    ),
    Form(
        "parameter-names.tuple-of-one-name",
        "parameter-names",
        "y = x * self.ws[0] * self.ws[1]  # hazard",
        setup=f"self.ws = ms.ParameterTuple([{_PARAMETER.format(name='w')} for _ in range(2)])",
    ),
    Form(
        "parameter-names.cell-listed-twice",
        "parameter-names",
        "y = self.blocks[0](x) + self.blocks[1](x)  # hazard",
        setup="block = Scale()\nself.blocks = nn.CellList([block, block])",
        module=_SCALE_CELL,
    ),
    Form(
        "parameter-names.distinct-names",
        "parameter-names",
        "y = x * self.a * self.b",
        setup=f"self.a = {_PARAMETER.format(name='a')}\nself.b = {_PARAMETER.format(name='b')}",
    ),
)

_NAMES_AND_CELLS = (
    Form("names-and-cells.undefined-name", "names-and-cells", "y = x * scale_factor  # hazard"),
    Form(
        "names-and-cells.cell-without-construct",
        "names-and-cells",
        "y = self.block(x)  # hazard",
        setup="self.block = Misspelt()",
        module=_MISSPELT_CELL,
    ),
    Form(
        "names-and-cells.super-of-another-object",
        "names-and-cells",
        "y = self.child(x)  # hazard",
        setup="self.child = Child()",
        module=_SUPER_CELLS.format(target="v"),
    ),
    Form("names-and-cells.module-name", "names-and-cells", "y = x * SCALE", module="SCALE = 2.0"),
    Form(
        "names-and-cells.super-of-self",
        "names-and-cells",
        "y = self.child(x)",
        setup="self.child = Child()",
        module=_SUPER_CELLS.format(target="self"),
    ),
)

_PLAIN_CLASS_METHODS = _forms(
    "plain-class-methods",
    {
        "host-conversion": "y = x * self.stats.mean(x)  # hazard",
        "numpy-on-tensor": "y = self.stats.absolute(x)  # hazard",
        "tensor-operations": "y = self.stats.double(x)",
    },
    setup="self.stats = Stats()",
    module=(
        "class Stats:\n"
        "    def mean(self, v):\n"
        "        return float(v.asnumpy().mean())\n\n"
        "    def absolute(self, v):\n"
        "        return np.abs(v)\n\n"
        "    def double(self, v):\n"
        "        return v * 2"
    ),
)

_DEPRECATED_HELPERS = _forms(
    "deprecated-helpers",
    {
        "ops.soft_shrink": "y = ops.soft_shrink(x)  # hazard",
        "ops.matrix_determinant": "y = x * ops.matrix_determinant(ops.ones((2, 2), ms.float32))  # hazard",
        "ms.pytype_to_dtype": "y = x.astype(ms.pytype_to_dtype(float))  # hazard",
        "ops.softshrink": "y = ops.softshrink(x)",
    },
)

CLASSES = (
    InferenceClass("joins", "Joins: branches and returns that give values of different types", _JOINS),
    InferenceClass("attributes", "Attributes an object does not have", _ATTRIBUTES),
    InferenceClass("conversions", "Conversions of tensors to Python values", _CONVERSIONS),
    InferenceClass("outputs", "What a graph may return", _OUTPUTS),
    InferenceClass("refused-apis", "APIs refused on any object, not only `self`", _REFUSED_APIS),
    InferenceClass("parameter-names", "Parameter names", _PARAMETER_NAMES),
    InferenceClass("names-and-cells", "Names and Cells", _NAMES_AND_CELLS),
    InferenceClass("plain-class-methods", "Methods of plain classes", _PLAIN_CLASS_METHODS),
    InferenceClass("deprecated-helpers", "Deprecated MindSpore helpers that log", _DEPRECATED_HELPERS),
)


def inference_forms() -> tuple[Form, ...]:
    """Every form of the table, class by class; ids are unique."""
    forms = [form for cls in CLASSES for form in cls.forms]
    ids = [form.id for form in forms]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise ValueError(f"duplicate form ids: {duplicates}")
    return tuple(forms)
