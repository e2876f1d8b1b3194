"""The semantic model on its own: qualified names, Cell classes, graph scope, odd but valid code."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from mslint.engine import check_files
from mslint.model import walk
from mslint.model.abstract import AbstractSequence, Kind
from mslint.model.module import ModuleInfo
from mslint.model.project import ClassRef, Project, qualified_name
from mslint.model.scope import entry_points, graph_functions
from mslint.model.walk import descendants, statements
from mslint.settings import Settings


def project_of(write, source: str, name: str = "mod.py") -> Project:
    path: Path = write(name, source)
    project = Project()
    project.add(ModuleInfo.parse(path, path.read_text(), checked=True))
    return project


@pytest.mark.parametrize(
    ("imports", "expression", "expected"),
    [
        ("import numpy as np", "np.maximum", "numpy.maximum"),
        ("import numpy", "numpy.linalg.norm", "numpy.linalg.norm"),
        ("from numpy import linalg as la", "la.norm", "numpy.linalg.norm"),
        ("import mindspore.numpy as np", "np.maximum", "mindspore.numpy.maximum"),
        ("import mindspore as ms", "ms.nn.Cell", "mindspore.nn.Cell"),
        ("from mindspore import nn", "nn.Dense", "mindspore.nn.Dense"),
        ("import os.path", "os.path.join", "os.path.join"),
        ("", "len", "builtins.len"),
        ("", "undefined_name", None),
    ],
)
def test_qualified_names(write, imports: str, expression: str, expected: str | None) -> None:
    module = project_of(write, imports + "\n").modules[0]
    assert qualified_name(ast.parse(expression, mode="eval").body, module) == expected


def test_local_variable_shadows_an_import(write) -> None:
    module = project_of(write, "import numpy as np\n").modules[0]
    expression = ast.parse("np.maximum", mode="eval").body
    assert qualified_name(expression, module, frozenset({"np"})) is None


@pytest.mark.parametrize(
    "base",
    ["nn.Cell", "mindspore.nn.Cell", "Cell", "AliasCell", "ms.nn.Cell", "nn.SequentialCell", "nn.TrainOneStepCell"],
)
def test_cell_bases_through_any_import(write, base: str) -> None:
    source = f"""
import mindspore
import mindspore as ms
from mindspore import nn
from mindspore.nn import Cell
from mindspore.nn import Cell as AliasCell

class Net({base}):
    pass
"""
    project = project_of(write, source)
    module = project.modules[0]
    assert project.is_cell(ClassRef(module, module.classes["Net"]))


@pytest.mark.parametrize("base", ["nn.Accuracy", "nn.Metric", "object", "ops.Primitive"])
def test_non_cell_bases(write, base: str) -> None:
    project = project_of(write, f"from mindspore import nn, ops\nclass Net({base}):\n    pass\n")
    module = project.modules[0]
    assert not project.is_cell(ClassRef(module, module.classes["Net"]))


def test_graph_scope_follows_self_calls_and_jit(write) -> None:
    source = """
import mindspore as ms
from mindspore import nn

def helper(x):
    return x

def never_called(x):
    return x

class Net(nn.Cell):
    def construct(self, x):
        return self.step(x)

    def step(self, x):
        return helper(x)

    def train(self, x):
        return x

@ms.jit(capture_mode="ast")
def jitted(x):
    return x

def forward(x):
    return x

grad_fn = ms.value_and_grad(forward)

@ms.jit
def train_step(x):
    return grad_fn(x)
"""
    functions = {f.ref.display_name: f.entry.display_name for f in graph_functions(project_of(write, source))}
    assert functions == {
        "Net.construct": "Net.construct",
        "Net.step": "Net.construct",
        "helper": "Net.construct",
        "jitted": "jitted",
        "train_step": "train_step",
        "forward": "train_step",
    }


ODD_BUT_VALID = [
    "class A(B):\n    pass\nclass B(A):\n    def construct(self, x):\n        return x\n",
    "from mindspore import nn\nclass N(nn.Cell):\n    def construct(self, x):\n        return self.construct(x)\n",
    "from .... import far\nfrom . import near\nfrom .sibling import *\n",
    "import a.b.c as d\nfrom mindspore import nn\nclass N(d.Base, nn.Cell):\n    def construct(self, *a, **k):\n"
    "        return (lambda y: y)(a)\n",
    "from mindspore import nn\ndef f():\n    class Inner(nn.Cell):\n        def construct(self, x):\n"
    "            if (n := x.sum()) > 0:\n                return x[:n]\n            return x\n    return Inner\n",
    "from mindspore import nn\nclass N(nn.Cell):\n    def construct(self, x):\n        match x:\n"
    "            case [a, *rest]:\n                return a\n            case _:\n                return x\n",
    "from mindspore import nn\nclass N(nn.Cell):\n    async def construct(self, x):\n        await x\n"
    "        yield x\n",
]


@pytest.mark.parametrize("source", ODD_BUT_VALID)
def test_odd_but_valid_code_is_analysed(write, source: str) -> None:
    path = write("odd.py", source)
    check_files([path], Settings())


def test_walrus_bound_tensor_makes_a_variable_slice(write) -> None:
    report = check_files([write("odd.py", ODD_BUT_VALID[4])], Settings())
    # graph mode rejects the `:=` itself (the syntax table); its tensor still bounds the slice
    assert [(d.line, d.symbol) for d in report.diagnostics] == [(5, "unsupported-syntax"), (6, "variable-slice")]


def test_kinds_follow_what_project_functions_return(write) -> None:
    source = """
from mindspore import nn, ops

def halve(n):
    return n // 2

class Embed(nn.Cell):
    def construct(self, x):
        batch, channels, height, width = x.shape
        return ops.reshape(x, (batch, channels, -1)), (height, width)

class Net(nn.Cell):  # mslint: inputs=float32[2,3,4,4]
    def __init__(self):
        super().__init__()
        self.embed = Embed()

    def axes(self, x):
        return tuple(range(x.ndim))

    def depth(self, x, n):
        return self.depth(x, n - 1) if n else x

    def construct(self, x):
        y, (height, width) = self.embed(x)
        axes = self.axes(x)
        half = halve(height)
        deep = self.depth(x, 3)
        return y, axes, half, deep
"""
    functions = {f.ref.display_name: f for f in graph_functions(project_of(write, source))}
    values = functions["Net.construct"].name_values
    constants = {name for name, value in values.items() if value.kind is Kind.CONSTANT}
    assert constants == {"self", "height", "width", "axes", "half"}
    returned = functions["Embed.construct"].returned_value
    assert isinstance(returned, AbstractSequence) and returned.items is not None
    tensor, shape = returned.items
    assert tensor.kind is Kind.GRAPH
    assert isinstance(shape, AbstractSequence) and shape.items is not None
    assert [item.kind for item in shape.items] == [Kind.CONSTANT, Kind.CONSTANT]


def test_checked_importers_are_the_modules_importing_a_module_or_one_inside_it(tmp_path: Path) -> None:
    sources = {
        "pkg/__init__.py": "",
        "pkg/sub.py": "",
        "whole.py": "import pkg",
        "inner.py": "from pkg.sub import thing",
        "lookalike.py": "import pkgx.sub",
        "unrelated.py": "import os",
        "beside/pkg/__init__.py": "",
        "beside/pkg/sub.py": "",
        "beside/other.py": "from pkg import sub",
    }
    project = Project()
    for name, source in sources.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source)
        project.add(ModuleInfo.parse(path, source, checked=True))
    by_path = {m.path.relative_to(tmp_path).as_posix(): m for m in project.modules}

    def importers(name: str) -> list[str]:
        return [m.path.relative_to(tmp_path).as_posix() for m in project.checked_importers(by_path[name])]

    assert importers("pkg/__init__.py") == ["whole.py", "inner.py"]
    assert importers("pkg/sub.py") == ["inner.py"]
    assert importers("beside/pkg/sub.py") == ["beside/other.py"], "another project's module of the same name"
    extra = tmp_path / "late.py"
    extra.write_text("import pkg.sub")
    project.add(ModuleInfo.parse(extra, "import pkg.sub", checked=True))
    assert importers("pkg/sub.py") == ["inner.py", "late.py"], "a module added later"


def test_a_loop_target_read_in_its_body_has_the_kind_of_the_loops_iterable(write) -> None:
    source = """
from mindspore import nn, ops

class Net(nn.Cell):
    def construct(self, x):
        for item in ops.split(x, 2):
            x = x + item
        for item in [1, 3]:
            constant = item
        for item in [1, 3]:
            item = x.sum()
            rebound = item
        for item in [1, 3]:
            hidden = [item for item in ops.split(x, 2)]
        return item
"""
    (function,) = graph_functions(project_of(write, source))
    kinds = {name: value.kind for name, value in function.name_values.items()}
    assert kinds["item"] is Kind.GRAPH
    assert kinds["constant"] is Kind.CONSTANT
    assert kinds["rebound"] is Kind.GRAPH
    assert kinds["hidden"] is Kind.GRAPH
    (returned,) = [n for n in ast.walk(function.node) if isinstance(n, ast.Return)]
    assert function.kind(returned.value) is Kind.GRAPH


def test_an_fstring_is_runtime_when_it_formats_a_runtime_value(write) -> None:
    source = """
from mindspore import nn

class Net(nn.Cell):
    def construct(self, x):
        shape_text = f"{x.shape} {len(x)}"
        value_text = f"value {x}"
        nested_text = f"{x.sum():{len(x)}}"
        return x
"""
    (function,) = graph_functions(project_of(write, source))
    kinds = {name: value.kind for name, value in function.name_values.items()}
    assert kinds["shape_text"] is Kind.CONSTANT
    assert kinds["value_text"] is Kind.GRAPH
    assert kinds["nested_text"] is Kind.GRAPH


STATEMENT_NESTING = """
import os
@decorator(lambda x: x)
class A(Base, metaclass=Meta):
    def f(self):
        try:
            import numpy
        except ImportError as error:
            def g():
                yield 1
        else:
            class B: ...
        finally:
            pass
        with open(os.devnull) as stream:
            async def h(): ...
        {branches}
                for i in range(2):
                    while i:
                        break
                else:
                    return lambda: (yield)
""".format(
    # Python 3.9 cannot parse ``match``: the same nesting as an ``if``
    branches="match self.x:\n            case [1, *rest] if rest:\n                x = 1\n            case _:"
    if sys.version_info >= (3, 10)
    else "if self.x:\n                x = 1\n        else:"
)


def test_statements_are_those_of_the_full_walk_in_the_same_order() -> None:
    tree = ast.parse(STATEMENT_NESTING)
    expected = [n for n in ast.walk(tree) if isinstance(n, ast.stmt)]
    found = statements(tree)
    assert sorted(map(id, found)) == sorted(map(id, expected))
    assert found == [n for n in descendants(tree) if isinstance(n, ast.stmt)]  # source order


def test_finding_generators_and_entries_of_a_module_leaves_its_expressions_unwalked(write) -> None:
    """Modules read only to resolve names (a whole library in a one-file run) are not walked
    node by node to find their entries and generators."""
    project = project_of(write, "import mindspore as ms\n\n@ms.jit\ndef f(x):\n    return [x + 1 for _ in x]\n")
    module = project.modules[0]
    assert project.generator_names() == frozenset()
    assert [ref.node.name for ref in entry_points(project, module)] == ["f"]
    assert walk._DESCENDANTS.get(module.tree) is None
    generator = project_of(write, "def g(x):\n    yield x\n\ndef h(x):\n    return x\n", "gen.py")
    assert generator.generator_names() == frozenset({"g"})


def test_a_module_walked_after_its_functions_reuses_their_walks(monkeypatch: pytest.MonkeyPatch) -> None:
    fresh = descendants(ast.parse(STATEMENT_NESTING))
    tree = ast.parse(STATEMENT_NESTING)
    (cls,) = [n for n in tree.body if isinstance(n, ast.ClassDef)]
    method = descendants(cls.body[0])  # a rule walks a method first
    visited: list[type[ast.AST]] = []

    class CountingPlans(dict):  # type: ignore[type-arg]
        def get(self, key: type, default: object = None) -> object:
            if issubclass(key, ast.AST):
                visited.append(key)
            return super().get(key, default)

    monkeypatch.setattr(walk, "_PLANS", CountingPlans(walk._PLANS))
    found = descendants(tree)
    assert [ast.dump(n) for n in found] == [ast.dump(n) for n in fresh]
    assert len(visited) == len(found) - len(method) + 1  # the method itself, to find its walk kept


EVERY_KIND_OF_NODE = """
global g
def f(a, /, b=1, *args, c: int = 2, d=None, **kw):
    nonlocal_name = {**kw, "k": [x async for x in y] if a else {s for s in b}}
    def inner():
        nonlocal nonlocal_name
        return f"{a!r:>{b}}" + b"bytes".decode() % (1,), -a, not b, a < b <= c
    del kw["k"]
    assert a, "message"
    x: int = (yield from g)
    return lambda *p, **q: (await p)[1:2:3], ..., None, (q := 1)
"""
MATCH = """
match point:
    case Point(x=0, y=[1, *rest]) | {"k": 1, **others} if rest:
        pass
    case None | True | "text" as name:
        pass
"""
TYPE_ALIAS = "type Vector[T: int, *Ts, **P] = list[T]\n"


def reference_preorder(node: ast.AST) -> list[ast.AST]:
    singletons = (ast.expr_context, ast.operator, ast.boolop, ast.unaryop, ast.cmpop)
    found = [] if isinstance(node, singletons) else [node]
    for child in ast.iter_child_nodes(node):
        found.extend(reference_preorder(child))
    return found


@pytest.mark.parametrize(
    "source",
    [
        EVERY_KIND_OF_NODE,
        STATEMENT_NESTING,
        pytest.param(MATCH, marks=pytest.mark.skipif(sys.version_info < (3, 10), reason="match: Python 3.10")),
        pytest.param(TYPE_ALIAS, marks=pytest.mark.skipif(sys.version_info < (3, 12), reason="type: Python 3.12")),
    ],
)
def test_descendants_are_every_node_in_source_order_less_the_operator_singletons(source: str) -> None:
    tree = ast.parse(source)
    assert descendants(tree) == reference_preorder(tree)


@pytest.mark.skipif(sys.version_info < (3, 13), reason="ast records its field types from Python 3.13")
def test_the_fields_the_walk_skips_never_hold_a_node() -> None:
    for node_type in vars(ast).values():
        if isinstance(node_type, type) and issubclass(node_type, ast.AST) and node_type._fields:
            walked = walk.child_fields(node_type.__new__(node_type))
            for field in set(node_type._fields) - set(walked) - {"ctx", "op", "ops"}:
                assert "ast." not in str(node_type._field_types[field]), (node_type, field)


NESTED_SCOPES = """\
x = 1


def outer(a):
    b = a

    def inner(c):
        return c

    return inner(b)


class Net:
    def method(self):
        def helper():
            return 2

        return helper()

    y = 3
"""


def test_the_scope_holding_a_line_is_the_innermost_function_around_it() -> None:
    module = ModuleInfo.parse(Path("nested.py"), NESTED_SCOPES, checked=True)
    functions = {n.name: n for n in statements(module.tree) if isinstance(n, ast.FunctionDef)}
    expected = {
        1: module.tree,
        4: functions["outer"],
        5: functions["outer"],
        7: functions["inner"],
        8: functions["inner"],
        10: functions["outer"],
        13: module.tree,  # a class body is no function's
        14: functions["method"],
        16: functions["helper"],
        18: functions["method"],
        20: module.tree,
        99: module.tree,
    }
    for line, scope in expected.items():
        assert module.scopes_holding([line]) == [scope], line
    # each scope once, in the order of the lines first holding it
    assert module.scopes_holding([16, 1, 8, 16, 20, 5]) == [
        functions["helper"],
        module.tree,
        functions["inner"],
        functions["outer"],
    ]
