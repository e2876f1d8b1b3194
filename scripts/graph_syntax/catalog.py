"""The catalog of forms the graph-syntax table measures: every row of ``mslint/data/syntax-*.json``.

Each family is a list of :class:`Form`; ids are ``family.name[/variant]`` and never change meaning
(rules and docs look rows up by id). A body runs with ``x``, a float32 Tensor of shape (2, 3), and
leaves a Tensor in ``y``; whatever the hazard line computes is used afterwards (printed, added to
``y``), since the compiler drops what nothing uses.
"""

from __future__ import annotations

from graph_syntax.forms import Form


def _family(family: str, cases: dict[str, str], setup: str = "", module: str = "") -> list[Form]:
    """Forms ``family.<key>`` from ``{key: body}``, sharing ``module`` lines, and ``setup`` lines where
    the body reads ``self`` (a form with setup is not measured in a ``@jit`` function)."""
    return [
        Form(f"{family}.{key}", family, body, setup if "self" in body else "", module) for key, body in cases.items()
    ]


# Statements of a function body, one row each (several where the operand's kind matters).
_STATEMENTS = {
    "FunctionDef/nested": "def double(v):  # hazard\n    return v * 2\ny = double(x)",
    "AsyncFunctionDef/nested": "async def double(v):  # hazard\n    return v * 2\ny = x",
    "ClassDef/nested": "class Box:  # hazard\n    scale = 2\ny = x * Box.scale",
    "Return/early-tensor-cond": "if x.sum() > 100:\n    return x  # hazard\ny = x * 2",
    "Delete/local": "z = x * 2\ndel z  # hazard\ny = x",
    "Delete/list-item": "items = [x, x]\ndel items[0]  # hazard\ny = items[0]",
    "Assign/tuple-unpack": "a, b = x, x * 2  # hazard\ny = a + b",
    "Assign/starred-unpack": "a, *rest = (x, x, x)  # hazard\ny = a + rest[0]",
    "Assign/chained": "a = b = x * 2  # hazard\ny = a + b",
    "AugAssign/tensor": "y = x\ny += 1  # hazard",
    "AnnAssign/local": "y: Tensor = x * 2",
    "For/range-constant": "y = x\nfor i in range(3):  # hazard\n    y = y + i",
    "For/else": "y = x\nfor i in range(2):  # hazard\n    y = y + i\nelse:\n    y = y * 2",
    "While/constant-cond": "y = x\ni = 0\nwhile i < 3:  # hazard\n    y = y + 1\n    i += 1",
    "While/else": "y = x\ni = 0\nwhile i < 2:  # hazard\n    i += 1\nelse:\n    y = y * 2",
    "If/constant-cond": "if x.shape[0] == 2:  # hazard\n    y = x\nelse:\n    y = -x",
    "With/nested-class": (
        "class Ctx:\n    def __enter__(self):\n        return 2\n    def __exit__(self, *args):\n"
        "        return False\nwith Ctx() as k:  # hazard\n    y = x * k"
    ),
    "Raise/constant-cond": "if x.shape[0] == 3:\n    raise ValueError('bad shape')  # hazard\ny = x",
    "Try/except": "try:  # hazard\n    y = x * 2\nexcept ValueError:\n    y = x",
    "Try/finally": "try:  # hazard\n    y = x * 2\nfinally:\n    pass",
    "Assert/constant": "assert x.shape[0] == 2  # hazard\ny = x",
    "Import/stdlib": "import math  # hazard\ny = x * math.pi",
    "ImportFrom/stdlib": "from math import pi  # hazard\ny = x * pi",
    "Global/read": "global SCALE  # hazard\ny = x * SCALE",
    "Nonlocal/inner": (
        "total = 0\ndef bump():\n    nonlocal total  # hazard\n    total = total + 1\n    return total\ny = x * bump()"
    ),
    "Expr/call": "ops.Print()(x)  # hazard\ny = x",
    "Pass/body": "if x.shape[0] == 2:\n    pass  # hazard\ny = x",
    "Break/tensor-loop": "y = x\nfor i in range(5):\n    if y.sum() > 30:\n        break  # hazard\n    y = y * 2",
    "Continue/tensor-loop": (
        "y = x\nfor i in range(3):\n    if y.sum() > 30:\n        continue  # hazard\n    y = y * 2"
    ),
    "Match/constant": "match x.shape[0]:  # hazard\n    case 2:\n        y = x\n    case _:\n        y = -x",
}

# Expressions, one row each; operators by operand kind where the tensor and the Python case differ.
_EXPRESSIONS = {
    "BoolOp/constant": "flag = x.shape[0] == 2 and x.shape[1] == 3  # hazard\ny = x * flag",
    "NamedExpr/tensor": "y = (z := x * 2) + z",
    "BinOp/tensor-add": "y = x + x",
    "BinOp/tensor-matmul": "y = x @ x.T @ x",
    "BinOp/tensor-floordiv": "y = x // 2",
    "BinOp/tensor-mod": "y = x % 2",
    "BinOp/tensor-pow": "y = x ** 2",
    "BinOp/tensor-bitand": "y = x * ((x > 1) & (x < 4))",
    "BinOp/tensor-lshift": "y = x * (ops.cast(x, ms.int32) << 1)",
    "BinOp/constant-lshift": "y = x * (1 << 2)",
    "UnaryOp/tensor-neg": "y = -x",
    "UnaryOp/tensor-invert": "y = x * ~(x > 2)",
    "UnaryOp/constant-not": "y = x * (not x.shape[0] == 3)",
    "Lambda/local": "scale = lambda v: v * 2  # hazard\ny = scale(x)",
    "IfExp/constant-cond": "y = x if x.shape[0] == 2 else -x",
    "IfExp/tensor-cond": "y = x if x.sum() > 0 else -x",
    "Dict/literal": "d = {'a': x, 'b': x * 2}  # hazard\ny = d['a'] + d['b']",
    "Set/constant": "s = {1, 2, 3}  # hazard\ny = x * len(s)",
    "ListComp/range": "parts = [x * i for i in range(3)]  # hazard\ny = parts[0] + parts[2]",
    "SetComp/constant": "s = {i % 2 for i in range(4)}  # hazard\ny = x * len(s)",
    "DictComp/range": "d = {i: x * i for i in range(3)}  # hazard\ny = d[2]",
    "GeneratorExp/sum": "y = sum(x * i for i in range(3))",
    "Await/in-async": "async def twice(v):\n    return await v  # hazard\ny = x",
    "Yield/local-generator": "def gen():\n    yield x  # hazard\ny = next(gen())",
    "YieldFrom/local-generator": "def gen():\n    yield from (x, x)  # hazard\ny = next(gen())",
    "Compare/chained-constant": "y = x * (0 < x.shape[0] < 3)",
    "Compare/chained-tensor": "y = x * (0 < x.sum() < 100)",
    "Compare/is-none": "z = None\ny = x if z is None else -x",
    "Compare/in-tuple": "y = x * (x.shape[0] in (1, 2))",
    "Compare/tensor-in-list": "items = [x, x]\ny = x * (x in items)",
    "Call/keyword-unpack": "kw = {'axis': 0}\ny = x.sum(**kw) + x",
    "Call/star-unpack": "args = (x, x)\ny = ops.add(*args)",
    "JoinedStr/constant": "tag = f'{x.shape[0]}-rows'  # hazard\nprint(tag)\ny = x",
    "Constant/ellipsis": "y = x[..., 0:2]",
    "Attribute/tensor-shape": "y = x * x.shape[1]",
    "Attribute/tensor-dtype": "y = ops.cast(x, x.dtype)",
    "Subscript/tensor-int": "y = x[0] + x",
    "Subscript/tensor-mask": "y = x[x > 2]",
    "Subscript/tensor-index-tensor": "y = x[ops.cast(x[0, 0:2], ms.int32)]",
    "Starred/tuple": "parts = (*(x, x), x)  # hazard\ny = parts[2]",
    "List/literal": "parts = [x, x * 2]  # hazard\ny = parts[1]",
    "Tuple/literal": "parts = (x, x * 2)  # hazard\ny = parts[1]",
    "Slice/constant": "y = x[:, 1:3:1]",
    "Slice/object": "s = slice(0, 2)  # hazard\ny = x[s]",
}

# Builtins: (applied to the tensor, applied to constants). None where one kind makes no sense.
_BUILTINS: dict[str, tuple[str | None, str | None]] = {
    "abs": ("y = abs(x)", "y = x * abs(-2)"),
    "all": ("y = x * all(x)", "y = x * all((1, 2))"),
    "any": ("y = x * any(x)", "y = x * any((0, 2))"),
    "ascii": ("print(ascii(x))\ny = x", "y = x * (ascii('é') == \"'\\\\xe9'\")"),
    "bin": ("print(bin(x[0, 1]))\ny = x", "y = x * (bin(5) == '0b101')"),
    "bool": ("y = x * bool(x.sum())", "y = x * bool(3)"),
    "bytearray": ("y = x * len(bytearray(x))", "y = x * len(bytearray(3))"),
    "bytes": ("print(bytes(x))\ny = x", "y = x * (bytes(3) is not None)"),
    "callable": ("y = x * callable(x)", "y = x * callable(len)"),
    "chr": ("print(chr(x[0, 1]))\ny = x", "y = x * (chr(65) == 'A')"),
    "complex": ("y = x * complex(x[0, 1]).real", "y = x * complex(1, 2).real"),
    "delattr": (None, "y = x\ndelattr(self, 'extra')  # hazard"),
    "dict": ("d = dict(a=x)  # hazard\ny = d['a']", "d = dict(a=1)  # hazard\ny = x * d['a']"),
    "dir": ("y = x * len(dir(x))", "y = x * len(dir(self))"),
    "divmod": ("q, r = divmod(x, 2)  # hazard\ny = q + r", "q, r = divmod(7, 2)  # hazard\ny = x * q"),
    "enumerate": ("y = x\nfor i, row in enumerate(x):  # hazard\n    y = y + row * i", None),
    "eval": ("y = eval('x * 2')", "y = x * eval('1 + 1')"),
    "exec": ("exec('z = 1')\ny = x", None),
    "filter": ("y = x * len(tuple(filter(None, x)))", "y = x * len(tuple(filter(None, (0, 1, 2))))"),
    "float": ("y = x * float(x[0, 1])", "y = x * float('2.5')"),
    "format": ("print(format(x))\ny = x", "y = x * (format(3.5, '.2f') == '3.50')"),
    "frozenset": ("y = x * len(frozenset(x))", "y = x * len(frozenset((1, 2)))"),
    "getattr": ("y = getattr(x, 'T').T", "y = x * getattr(self, 'scale')"),
    "globals": (None, "y = x * len(globals())"),
    "hasattr": ("y = x * hasattr(x, 'shape')", "y = x * hasattr(self, 'scale')"),
    "hash": ("y = x * (hash(x) != 0)", "y = x * (hash(3) != 0)"),
    "hex": ("print(hex(x[0, 1]))\ny = x", "y = x * (hex(255) == '0xff')"),
    "id": ("y = x * (id(x) != 0)", "y = x * (id(self) != 0)"),
    "int": ("y = x * int(x[0, 1])", "y = x * int('3')"),
    "isinstance": ("y = x * isinstance(x, Tensor)", "y = x * isinstance(3, int)"),
    "issubclass": (None, "y = x * issubclass(bool, int)"),
    "iter": ("y = next(iter(x))", "y = x * next(iter((1, 2)))"),
    "len": ("y = x * len(x)", "y = x * len((1, 2))"),
    "len/string": (None, "y = x * len('abc')"),
    "list": ("rows = list(x)  # hazard\ny = rows[0]", "y = x * len(list(range(3)))"),
    "locals": (None, "y = x * len(locals())"),
    "map": ("y = x * len(tuple(map(ops.abs, x)))", "y = x * sum(map(abs, (-1, 2)))"),
    "max": ("y = max(x, 1)", "y = x * max(2, 3)"),
    "max/tensors": ("y = max(x, x * 2)", None),
    "max/tensor-iterable": ("y = max(x)", None),
    "memoryview": ("y = x * len(memoryview(x))", "y = x * len(memoryview(b'ab'))"),
    "min": ("y = min(x, 1)", "y = x * min(2, 3)"),
    "next": ("y = next(iter(x))", "y = x * next(iter(range(1, 3)))"),
    "object": (None, "o = object()  # hazard\ny = x * (o is not None)"),
    "oct": ("print(oct(x[0, 1]))\ny = x", "y = x * (oct(8) == '0o10')"),
    "open": (None, "with open('/dev/null') as f:  # hazard\n    y = x * len(f.read())"),
    "ord": (None, "y = x * ord('a')"),
    "pow": ("y = pow(x, 2)", "y = x * pow(2, 3)"),
    "print": ("print(x)\ny = x", "print('step')\ny = x"),
    "range": ("y = x\nfor i in range(x[0, 2]):  # hazard\n    y = y + i", "y = x * len(range(3))"),
    "repr": ("print(repr(x))\ny = x", "y = x * (repr(3) == '3')"),
    "reversed": ("y = tuple(reversed(x))[0]", "y = x * tuple(reversed((1, 2)))[0]"),
    "round": ("y = round(x)", "y = x * round(2.6)"),
    "set": ("y = x * len(set(x))", "y = x * len(set((1, 1, 2)))"),
    "setattr": ("setattr(self, 'last', x)\ny = x", "setattr(self, 'scale', 3)\ny = x"),
    "slice": ("y = x[slice(0, x[0, 2])]", "y = x[slice(0, 1)]"),
    "sorted": ("y = sorted(x)[0]", "y = x * sorted((3, 1))[0]"),
    "str": ("print(str(x))\ny = x", "y = x * (str(12) == '12')"),
    "sum": ("y = x * sum(x)", "y = x * sum((1, 2))"),
    "super": (None, "y = x * (super() is not None)"),
    "tuple": ("rows = tuple(x)  # hazard\ny = rows[0]", "y = x * len(tuple(range(3)))"),
    "type": ("y = x * (type(x) is Tensor)", "y = x * (type(3) is int)"),
    "vars": (None, "y = x * len(vars(self))"),
    "zip": ("y = x\nfor a, b in zip(x, x):  # hazard\n    y = y + a * b", "y = x * len(tuple(zip((1, 2), (3, 4))))"),
}
_BUILTIN_SETUP = "self.scale = 2\nself.extra = 1"


def _builtins() -> list[Form]:
    forms = []
    for name, (tensor, constant) in _BUILTINS.items():
        base, _, variant = name.partition("/")
        for kind, body in (("tensor", tensor), ("constant", constant)):
            if body is not None:
                key = f"{base}/{variant or kind}"
                forms += _family("builtin", {key: body}, _BUILTIN_SETUP)
    return forms


# Standard-library modules: module-level constants, calls on constants and calls on tensors.
_STDLIB: dict[str, dict[str, str]] = {
    "math": {
        "pi": "y = x * math.pi",
        "sqrt/constant": "y = x * math.sqrt(4.0)",
        "ceil/shape": "y = x * math.ceil(x.shape[1] / 2)",
        "sqrt/tensor": "y = x * math.sqrt(x[0, 1])",
        "isnan/tensor": "y = x * math.isnan(x[0, 1])",
    },
    "os": {
        "getenv": "y = x * len(os.getenv('HOME', ''))",
        "environ": "y = x * ('PATH' in os.environ)",
        "path.join": "y = x * len(os.path.join('a', 'b'))",
        "getpid": "y = x * (os.getpid() > 0)",
    },
    "random": {
        "random": "y = x * random.random()",
        "randint": "y = x * random.randint(1, 3)",
        "choice": "y = x * random.choice((1, 2))",
        "seed": "random.seed(0)\ny = x",
        "shuffle": "order = [0, 1]\nrandom.shuffle(order)  # hazard\ny = x[order[0]]",
    },
    "time": {
        "time": "y = x * time.time()",
        "perf_counter": "start = time.perf_counter()  # hazard\ny = x * 2\nprint(time.perf_counter() - start)",
        "sleep": "time.sleep(0)\ny = x",
    },
    "functools": {
        "partial/tensor": "add = functools.partial(ops.add, x)  # hazard\ny = add(x)",
        "partial/constant": "scale = functools.partial(ops.mul, 2)  # hazard\ny = scale(x)",
        "reduce/tensors": "y = functools.reduce(ops.add, (x, x, x))",
        "reduce/constant": "y = x * functools.reduce(lambda a, b: a * b, (1, 2, 3))",
        "lru_cache": (
            "@functools.lru_cache(maxsize=None)  # hazard\ndef twice(n):\n    return n * 2\ny = x * twice(3)"
        ),
    },
    "operator": {
        "add/tensor": "y = operator.add(x, x)",
        "mul/constant": "y = x * operator.mul(2, 3)",
        "itemgetter": "y = operator.itemgetter(0)((x, x * 2))",
        "getitem/tensor": "y = operator.getitem(x, 0) + x",
    },
    "itertools": {
        "product": "y = x\nfor i, j in itertools.product(range(2), range(2)):  # hazard\n    y = y + i * j",
        "chain": "parts = tuple(itertools.chain((x,), (x,)))  # hazard\ny = parts[1]",
        "accumulate": "y = x * tuple(itertools.accumulate((1, 2, 3)))[2]",
        "repeat": "y = x * len(tuple(itertools.repeat(1, 3)))",
    },
    "collections": {
        "namedtuple/constant": "y = x * Point(1, 2).b",
        "namedtuple/tensor": "p = Point(x, x * 2)  # hazard\ny = p.b",
        "OrderedDict": "d = collections.OrderedDict(a=x)  # hazard\ny = d['a']",
        "defaultdict": "d = collections.defaultdict(int)  # hazard\nd['a'] += 1\ny = x * d['a']",
        "deque": "q = collections.deque((x, x))  # hazard\ny = q[0]",
        "Counter": "c = collections.Counter('aab')  # hazard\ny = x * c['a']",
    },
    "copy": {
        "copy/tensor": "y = copy.copy(x)",
        "deepcopy/tensor": "y = copy.deepcopy(x)",
        "deepcopy/list": "parts = copy.deepcopy([1, 2])  # hazard\ny = x * parts[1]",
    },
    "re": {
        "match/constant": "y = x * (re.match('a+', 'aa') is not None)",
        "sub/constant": "y = x * len(re.sub('a', 'bb', 'a'))",
        "compile": "pattern = re.compile('a+')  # hazard\ny = x * (pattern.match('aa') is not None)",
    },
    "logging": {
        "info/constant": "logging.info('step')\ny = x",
        "info/tensor": "logging.info('x=%s', x)\ny = x",
        "getLogger": "logging.getLogger(__name__).warning('step')\ny = x",
        "logger.info/fstring": "logger.info(f'x={x}')\ny = x",
    },
    "warnings": {
        "warn/constant": "warnings.warn('deprecated')\ny = x",
        "warn/tensor": "warnings.warn(f'x={x}')\ny = x",
    },
    "threading": {
        "Lock": "lock = threading.Lock()  # hazard\nwith lock:\n    y = x * 2",
        "Thread": "worker = threading.Thread(target=print)  # hazard\nworker.start()\ny = x",
        "get_ident": "y = x * (threading.get_ident() > 0)",
    },
    "dataclasses": {
        "fields": "y = x * len(dataclasses.fields(Pair))",
        "replace": "p = dataclasses.replace(Pair(1, 2), b=3)  # hazard\ny = x * p.b",
        "asdict": "y = x * dataclasses.asdict(Pair(1, 2))['b']",
    },
    "enum": {
        "member.value": "y = x * Mode.TRAIN.value",
        "compare": "y = x if Mode.TRAIN == Mode.TRAIN else -x",
        "lookup": "y = x * Mode(1).value",
    },
    "typing": {
        "cast": "y = typing.cast(Tensor, x)",
        "TYPE_CHECKING": "y = x if not typing.TYPE_CHECKING else -x",
        "annotated-local": "y: typing.Optional[Tensor] = x * 2",
    },
}
_STDLIB_MODULE_LINES = {
    "collections": "import collections\nPoint = collections.namedtuple('Point', ['a', 'b'])",
    "logging": "import logging\nlogger = logging.getLogger(__name__)",
    "dataclasses": ("import dataclasses\n\n@dataclasses.dataclass\nclass Pair:\n    a: int\n    b: int"),
    "enum": "import enum\n\nclass Mode(enum.Enum):\n    TRAIN = 1\n    EVAL = 2",
}


def _stdlib() -> list[Form]:
    forms = []
    for module, cases in _STDLIB.items():
        lines = _STDLIB_MODULE_LINES.get(module, f"import {module}")
        forms += _family("stdlib", {f"{module}.{key}": body for key, body in cases.items()}, module=lines)
    return forms


_NUMPY = {
    "call/tensor": "y = Tensor(np.sin(x.asnumpy()))",
    "call/constant": "y = x + Tensor(np.ones((2, 3), np.float32))",
    "call/shape": "y = x * np.prod(x.shape)",
    "array/tensor": "y = x * np.array(x).sum()",
    "random": "y = x * np.random.rand()",
    "zeros/shape": "y = x + Tensor(np.zeros(x.shape, np.float32))",
    "concatenate/tensors": "y = Tensor(np.concatenate([x.asnumpy(), x.asnumpy()]))[:2]",
    "array/list-of-tensors": "y = Tensor(np.array([x.asnumpy(), x.asnumpy()]).sum(0))",
    "where/tensor": "y = x * Tensor(np.where(x.asnumpy() > 2, 1.0, 0.0).astype(np.float32))",
    "mean/tensor-scalar": "y = x * float(np.mean(x.asnumpy()))",
    "tuple-result/tensor": "q, r = np.divmod(x.asnumpy(), 2)  # hazard\ny = x + Tensor(q)",
    "split/index": "parts = np.split(x.asnumpy(), 3, axis=1)  # hazard\ny = x * Tensor(parts[0])",
    "split/list-of-tensors": "rows = [Tensor(r) for r in np.split(x.asnumpy(), 2)]  # hazard\ny = ops.concat(rows) * x",
    "tolist/index": "vals = x.asnumpy().tolist()  # hazard\ny = x * vals[0][1]",
}

_TENSOR_CONTROL = {
    "if/tensor": "s = x.sum()\nif s:  # hazard\n    y = x\nelse:\n    y = -x",
    "if/tensor-compare": "if x.sum() > 0:  # hazard\n    y = x\nelse:\n    y = -x",
    "if/multi-element": "if x:  # hazard\n    y = x\nelse:\n    y = -x",
    "and/tensors": "y = x * ((x.sum() > 0) and (x.max() < 10))",
    "or/tensors": "y = x * ((x.sum() > 0) or (x.max() < 10))",
    "not/tensor": "y = x * (not x.sum())",
    "bool/tensor-if": "if bool(x.sum() > 0):  # hazard\n    y = x\nelse:\n    y = -x",
    "while/tensor-cond": "y = x\nwhile y.sum() < 100:  # hazard\n    y = y * 2",
    "for/over-tensor": "y = x\nfor row in x:  # hazard\n    y = y + row",
    "for/range-shape": "y = x\nfor i in range(x.shape[0]):  # hazard\n    y = y + x[i]",
    "for/range-tensor": "y = x\nfor i in range(x[0, 2]):  # hazard\n    y = y + i",
    "for/enumerate-tensor": "y = x\nfor i, row in enumerate(x):  # hazard\n    y = y + row * i",
    "for/zip-tensors": "y = x\nfor a, b in zip(x, x * 2):  # hazard\n    y = y + a * b",
    "for/map-tensor": "y = x\nfor row in map(ops.abs, x):  # hazard\n    y = y + row",
    "for/list-of-tensors": "y = x\nfor part in [x, x * 2]:  # hazard\n    y = y + part",
    "in/tensor": "y = x * (2.0 in x)",
}

_FORMAT = {
    "fstring/tensor": "s = f'{x}'  # hazard\nprint(s)\ny = x",
    "fstring/unused": "s = f'{x}'\ny = x",
    "fstring/shape": "print(f'{x.shape}')\ny = x",
    "fstring/spec": "print(f'{x.sum():.2f}')\ny = x",
    "percent/tensor": "print('x=%s' % x)\ny = x",
    "percent/constant": "print('n=%d' % x.shape[0])\ny = x",
    "format-method/tensor": "print('x={}'.format(x))\ny = x",
    "str-concat/tensor": "print('x=' + str(x))\ny = x",
    "print/tensor": "print('x', x)\ny = x",
    "print/tensor-sum": "print(x.sum())\ny = x",
    "ops.Print/tensor": "ops.print_('x', x)\ny = x",
    "logging/tensor": "logging.info('x=%s', x)\ny = x",
    "logging/fstring": "logging.info(f'x={x}')\ny = x",
}

_COMPREHENSIONS = {
    "list/range": "parts = [x * i for i in range(3)]  # hazard\ny = parts[2]",
    "list/over-tensor": "parts = [row * 2 for row in x]  # hazard\ny = parts[0]",
    "list/over-list": "parts = [p * 2 for p in (x, x)]  # hazard\ny = parts[1]",
    "list/if-constant": "parts = [x * i for i in range(4) if i % 2]  # hazard\ny = parts[1]",
    "list/if-tensor": "parts = [row for row in x if row.sum() > 3]  # hazard\ny = parts[0]",
    "list/nested": "parts = [x * i * j for i in range(2) for j in range(2)]  # hazard\ny = parts[3]",
    "list/nested-inner": "grid = [[x * i for i in range(j + 1)] for j in range(2)]  # hazard\ny = grid[1][1]",
    "list/over-cells": "parts = [cell(x) for cell in self.blocks]  # hazard\ny = parts[1]",
    "dict/range": "d = {i: x * i for i in range(3)}  # hazard\ny = d[2]",
    "dict/over-tensor": "d = {i: row for i, row in enumerate(x)}  # hazard\ny = d[0]",
    "dict/nested": "d = {i * 2 + j: x * i * j for i in range(2) for j in range(2)}  # hazard\ny = d[3]",
    "set/constant": "s = {i % 2 for i in range(4)}  # hazard\ny = x * len(s)",
    "generator/sum": "y = sum(x * i for i in range(3))",
    "generator/tuple": "parts = tuple(x * i for i in range(3))  # hazard\ny = parts[2]",
    "generator/any-tensor": "y = x * any(row.sum() > 3 for row in x)",
}
_CELLS_SETUP = "self.blocks = nn.CellList([nn.ReLU(), nn.Tanh()])"

_FUNCTIONS = {
    "lambda/local": "scale = lambda v: v * 2  # hazard\ny = scale(x)",
    "lambda/default-arg": "scale = lambda v, k=3: v * k  # hazard\ny = scale(x)",
    "lambda/captures-local": "k = x * 2\nadd = lambda v: v + k  # hazard\ny = add(x)",
    "lambda/map-captures-local": "k = x * 2\nparts = tuple(map(lambda v: v + k, (x, x)))  # hazard\ny = parts[0]",
    "lambda/attribute": "y = self.scale_fn(x)",
    "lambda/attribute-over-cell": "y = self.act_fn(x)",
    "closure/captures-cell": "def apply(v):\n    return self.act(v)  # hazard\ny = apply(x)",
    "closure/captures-local": "k = x * 2\ndef add(v):\n    return v + k  # hazard\ny = add(x)",
    "closure/factory-attribute": "y = self.scaled(x)",
    "closure/recursive": "def fact(n):\n    return 1 if n <= 1 else n * fact(n - 1)  # hazard\ny = x * fact(3)",
    "closure/default-arg-cell": "def apply(v, act=self.act):\n    return act(v)  # hazard\ny = apply(x)",
}
_FUNCTIONS_SETUP = (
    "self.act = nn.ReLU()\nself.scale_fn = lambda v: v * 2\nself.act_fn = lambda v: self.act(v)\n"
    "self.scaled = make_scaler(3)"
)
_FUNCTIONS_MODULE = "def make_scaler(k):\n    def scale(v):\n        return v * k\n    return scale"

# State that outlives the call: attributes of ``self`` of each kind, globals, closures.
_SELF_STATE: dict[str, tuple[str, dict[str, str]]] = {
    "self-int": (
        "self.n = 1",
        {
            "read": "y = x * self.n",
            "assign": "self.n = 2  # hazard\ny = x * self.n",
            "assign-tensor": "self.n = x.sum()  # hazard\ny = x * self.n",
            "augassign": "self.n += 1  # hazard\ny = x * self.n",
        },
    ),
    "self-list": (
        "self.seen = [1, 2]",
        {
            "read": "y = x * self.seen[1]",
            "assign": "self.seen = [3]  # hazard\ny = x * self.seen[0]",
            "augassign": "self.seen += [3]  # hazard\ny = x * len(self.seen)",
            "subscript-assign": "self.seen[0] = 5  # hazard\ny = x * self.seen[0]",
            "append": "self.seen.append(x)\ny = x",
            "append-constant": "self.seen.append(3)\ny = x * len(self.seen)",
            "extend": "self.seen.extend([x])\ny = x",
            "insert": "self.seen.insert(0, x)\ny = x",
            "pop": "y = x * self.seen.pop()",
            "clear": "self.seen.clear()\ny = x * len(self.seen)",
            "remove": "self.seen.remove(1)\ny = x * len(self.seen)",
        },
    ),
    "self-dict": (
        "self.cache = {'a': 1}",
        {
            "read": "y = x * self.cache['a']",
            "subscript-assign": "self.cache['b'] = x  # hazard\ny = x",
            "subscript-assign-constant": "self.cache['a'] = 2  # hazard\ny = x * self.cache['a']",
            "update": "self.cache.update(b=x)\ny = x",
            "pop": "y = x * self.cache.pop('a')",
            "setdefault": "y = x * self.cache.setdefault('b', 2)",
            "clear": "self.cache.clear()\ny = x * len(self.cache)",
        },
    ),
    "self-object": (
        "self.box = Box()",
        {
            "read": "y = x * self.box.n",
            "assign-attribute": "self.box.n = 2  # hazard\ny = x * self.box.n",
            "assign-attribute-tensor": "self.box.n = x  # hazard\ny = x",
            "method-mutates": "self.box.bump()\ny = x * self.box.n",
        },
    ),
    "self-tensor": (
        "self.t = Tensor(np.ones((2, 3), np.float32))",
        {
            "read": "y = x * self.t",
            "assign": "self.t = x * 2  # hazard\ny = self.t",
            "augassign": "self.t += x  # hazard\ny = self.t",
            "subscript-assign": "self.t[0] = 5  # hazard\ny = x * self.t",
        },
    ),
    "self-parameter": (
        "self.p = ms.Parameter(Tensor(np.ones((2, 3), np.float32)), name='p')",
        {
            "read": "y = x * self.p",
            "assign": "self.p = x * 2  # hazard\ny = x * self.p",
            "ops.assign": "ops.assign(self.p, x)  # hazard\ny = x * self.p",
            "augassign": "self.p += x  # hazard\ny = x * self.p",
            "subscript-assign": "self.p[0] = 5  # hazard\ny = x * self.p",
            "set_data": "self.p.set_data(x)  # hazard\ny = x * self.p",
            "requires_grad": "self.p.requires_grad = False  # hazard\ny = x * self.p",
        },
    ),
    "self-new-attribute": (
        "",
        {
            "assign": "self.fresh = x  # hazard\ny = self.fresh",
            "assign-constant": "self.fresh = 3  # hazard\ny = x * self.fresh",
        },
    ),
}
_STATE_MODULE = (
    "COUNT = 1\nSEEN = [1, 2]\nCACHE = {'a': 1}\nT = Tensor(np.ones((2, 3), np.float32))\n\n"
    "class Box:\n    def __init__(self):\n        self.n = 1\n    def bump(self):\n        self.n += 1\n\n"
    "def make_counter():\n    count = [0]\n    def bump():\n        count[0] += 1\n"
    "        return count[0]\n    return bump\n\n"
    "BUMP = make_counter()"
)
_GLOBAL_STATE = {
    "global-int.read": "y = x * COUNT",
    "global-int.assign": "global COUNT\nCOUNT = 2  # hazard\ny = x * COUNT",
    "global-int.augassign": "global COUNT\nCOUNT += 1  # hazard\ny = x * COUNT",
    "global-list.append": "SEEN.append(x)\ny = x",
    "global-list.subscript-assign": "SEEN[0] = 5  # hazard\ny = x * SEEN[0]",
    "global-dict.subscript-assign": "CACHE['b'] = x  # hazard\ny = x",
    "global-dict.update": "CACHE.update(b=x)\ny = x",
    "global-tensor.read": "y = x * T",
    "global-tensor.assign": "global T\nT = x  # hazard\ny = T",
    "closure-list.mutate": "y = x * BUMP()",
    "local-list.append": "parts = []\nparts.append(x)  # hazard\ny = ops.concat(parts)",
    "local-dict.update": "d = {}\nd.update(a=x)  # hazard\ny = d['a']",
    "nonlocal.augassign": (
        "total = 0\ndef bump():\n    nonlocal total\n    total += 1  # hazard\n    return total\ny = x * bump()"
    ),
}


def _state() -> list[Form]:
    forms = []
    for kind, (setup, cases) in _SELF_STATE.items():
        forms += _family("state", {f"{kind}.{key}": body for key, body in cases.items()}, setup, _STATE_MODULE)
    return forms + _family("state", _GLOBAL_STATE, module=_STATE_MODULE)


_CLASS_MODULE = (
    "import dataclasses\nfrom mindspore import jit_class\n\n"
    "class Plain:\n    def __init__(self, v):\n        self.v = v\n    def twice(self):\n        return self.v * 2\n\n"
    "@dataclasses.dataclass\nclass Data:\n    v: object\n    def twice(self):\n        return self.v * 2\n\n"
    "@jit_class\nclass Jit:\n    def __init__(self, v):\n        self.v = v\n"
    "    def twice(self):\n        return self.v * 2\n\n"
    "class Scale:\n    def __init__(self, k):\n        self.k = k\n"
    "    def __call__(self, v):\n        return v * self.k"
)
_CLASS_SETUP = "self.plain = Plain(2)\nself.data = Data(2)\nself.jit = Jit(2)\nself.scale = Scale(2)"


def _classes() -> list[Form]:
    cases: dict[str, str] = {}
    for kind, cls in (("plain", "Plain"), ("dataclass", "Data"), ("jit_class", "Jit")):
        attribute = cls.lower() if cls != "Data" else "data"
        cases |= {
            f"{kind}.constant": f"o = {cls}(2)  # hazard\ny = x * o.v",
            f"{kind}.tensor": f"o = {cls}(x)  # hazard\ny = o.v",
            f"{kind}.method": f"o = {cls}(x)  # hazard\ny = o.twice()",
            f"{kind}.mutated": f"o = {cls}(2)\no.v = x  # hazard\ny = o.v",
            f"{kind}.attribute-read": f"y = x * self.{attribute}.v",
            f"{kind}.attribute-method": f"y = x * self.{attribute}.twice()",
            f"{kind}.attribute-mutated": f"self.{attribute}.v = 3  # hazard\ny = x * self.{attribute}.v",
        }
    cases |= {
        "callable.constant": "y = Scale(2)(x)",
        "callable.tensor": "y = Scale(x)(x)",
        "callable.attribute": "y = self.scale(x)",
        "callable.attribute-mutated": "self.scale.k = 3  # hazard\ny = self.scale(x)",
        "isinstance.plain": "y = x * isinstance(self.plain, Plain)",
    }
    return _family("class", cases, _CLASS_SETUP, _CLASS_MODULE)


_WITH_MODULE = (
    "import contextlib\nimport threading\nfrom mindspore import jit_class\n\n"
    "class Ctx:\n    def __enter__(self):\n        return 2\n    def __exit__(self, *args):\n        return False\n\n"
    "@jit_class\nclass JitCtx:\n    def __enter__(self):\n        return 2\n    def __exit__(self, *args):\n"
    "        return False\n\n"
    "@contextlib.contextmanager\ndef scope():\n    yield 2"
)
_WITH = {
    "plain-class": "with Ctx() as k:  # hazard\n    y = x * k",
    "plain-attribute": "with self.ctx as k:  # hazard\n    y = x * k",
    "jit_class": "with JitCtx() as k:  # hazard\n    y = x * k",
    "contextmanager": "with scope() as k:  # hazard\n    y = x * k",
    "suppress": "with contextlib.suppress(ValueError):  # hazard\n    y = x * 2",
    "lock": "with threading.Lock():  # hazard\n    y = x * 2",
    "open": "with open('/dev/null') as f:  # hazard\n    y = x * 2",
    "no-grad": "with ms._no_grad():  # hazard\n    y = x * 2",
}

_RAISE = {
    "raise/tensor-cond": "if x.sum() > 100:\n    raise ValueError('too big')  # hazard\ny = x",
    "raise/tensor-cond-fstring": "if x.sum() > 100:\n    raise ValueError(f'too big: {x}')  # hazard\ny = x",
    "raise/in-tensor-loop": "y = x\nwhile y.sum() < 100:\n    y = y * 2\n    if y.sum() > 1000:\n"
    "        raise RuntimeError('diverged')  # hazard",
    "raise/unconditional": "raise ValueError('always')  # hazard\ny = x",
    "assert/tensor": "assert x.sum() > 0  # hazard\ny = x",
    "assert/tensor-message": "assert x.sum() > 0, f'bad {x}'  # hazard\ny = x",
    "assert/in-tensor-branch": "if x.sum() > 0:\n    assert x.max() < 100  # hazard\ny = x",
}

_JOINS = {
    "if/tensor-or-scalar": "if x.sum() > 0:  # hazard\n    y = x\nelse:\n    y = 1.0\ny = x * y",
    "if/tuple-or-tensor": "if x.sum() > 0:  # hazard\n    z = (x, x)\nelse:\n    z = x\ny = x",
    "if/different-shapes": "if x.sum() > 0:  # hazard\n    y = x\nelse:\n    y = x[0]\ny = y * 2",
    "if/different-dtypes": "if x.sum() > 0:  # hazard\n    y = x\nelse:\n    y = ops.cast(x, ms.int32)",
    "if/none-or-tensor": "z = None\nif x.sum() > 0:  # hazard\n    z = x\ny = x if z is None else z",
    "for/shape-grows": "y = x\nfor i in range(3):  # hazard\n    y = ops.concat((y, x))",
    "while/shape-grows": "y = x\nwhile y.sum() < 100:  # hazard\n    y = ops.concat((y, y))",
    "while/scalar-to-tensor": "n = 0\nwhile x.sum() > n:  # hazard\n    n = n + x.max()\ny = x * n",
}

_CONVERSIONS = {
    "Tensor/tensor": "y = Tensor(x)",
    "Tensor/asnumpy": "y = Tensor(x.asnumpy())",
    "Tensor/shape": "y = x * Tensor(x.shape).sum()",
    "Tensor/constant": "y = x + Tensor([1.0, 2.0, 3.0])",
    "tensor-function/tensor": "y = ms.tensor(x)",
    "int/size": "n = int(x[0, 2])  # hazard\ny = x + ops.zeros((2, n)).sum()",
    "int/slice-bound": "y = x[:, : int(x[0, 2])]",
    "float/scalar": "y = x * float(x[0, 1])",
    "item/scalar": "y = x * x[0, 1].item()",
    "item/slice-bound": "y = x[:, : x[0, 2].item()]",
    "int/range": "y = x\nfor i in range(int(x[0, 2])):  # hazard\n    y = y + i",
    "asnumpy": "y = x * x.asnumpy().sum()",
    "tolist": "y = x * len(x.tolist())",
}


def catalog() -> tuple[Form, ...]:
    """Every form of the table, in a stable order; ids are unique."""
    forms = [
        *_family("stmt", _STATEMENTS, module="SCALE = 2"),
        *_family("expr", _EXPRESSIONS),
        *_builtins(),
        *_stdlib(),
        *_family("numpy", _NUMPY),
        *_family("tensor", _TENSOR_CONTROL),
        *_family("format", _FORMAT, module="import logging"),
        *_family("comprehension", _COMPREHENSIONS, _CELLS_SETUP),
        *_family("function", _FUNCTIONS, _FUNCTIONS_SETUP, _FUNCTIONS_MODULE),
        *_state(),
        *_classes(),
        *_family("with", _WITH, "self.ctx = Ctx()", _WITH_MODULE),
        *_family("control", _RAISE),
        *_family("join", _JOINS),
        *_family("convert", _CONVERSIONS),
    ]
    ids = [form.id for form in forms]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise ValueError(f"duplicate form ids: {duplicates}")
    return tuple(forms)
