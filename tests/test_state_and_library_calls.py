"""python-side-effect-in-graph and third-party-call-in-graph on the forms the differential tester
found missed: dicts updated with keywords, `globals()`, and the objects
`operator.itemgetter` makes; and the knowledge both rules read from the syntax table."""

from __future__ import annotations

from pathlib import Path

from mslint.diagnostics import Severity
from mslint.engine import check_files
from mslint.release import Release
from mslint.rules.python_side_effect_in_graph import _OBJECT_METHOD_ROW, _mutation_verdicts, _row_verdict
from mslint.rules.third_party_call_in_graph import graph_native_functions
from mslint.settings import Settings

HEAD = """\
import functools
import operator
from mindspore import nn, ops

CACHE = {"a": 1}


def make_scaler(k):
    def scale(v):
        return v * k
    return scale


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.cache = {"a": 1}

    def construct(self, x):
"""


def findings(tmp_path: Path, body: str, symbol: str) -> dict[str, Severity]:
    """The flagged lines of ``construct``'s body, by text, with their severity."""
    path = tmp_path / "net.py"
    lines = [f"        {line}" for line in body.strip().splitlines()]
    path.write_text(HEAD + "\n".join(lines) + "\n        return x\n")
    report = check_files([path], Settings())
    source = path.read_text().splitlines()
    return {source[d.line - 1].strip(): d.severity for d in report.diagnostics if d.symbol == symbol}


def test_dicts_updated_with_keywords_are_rejected_and_given_a_dict_are_not(tmp_path: Path) -> None:
    body = """
d = {}
d.update(a=x)
e = {}
e.update({"a": x})
CACHE.update(b=x)
CACHE.update({"b": x})
self.cache.update(b=x)
self.cache.update({"b": x})
"""
    assert findings(tmp_path, body, "python-side-effect-in-graph") == {
        "d.update(a=x)": Severity.ERROR,
        "CACHE.update(b=x)": Severity.ERROR,
        "self.cache.update(b=x)": Severity.ERROR,
        'CACHE.update({"b": x})': Severity.WARNING,
        'self.cache.update({"b": x})': Severity.WARNING,
    }


def test_dict_attribute_methods_follow_the_table(tmp_path: Path) -> None:
    body = """
self.cache.pop("a")
self.cache.setdefault("b", 2)
self.cache.clear()
parts = [x]
parts.append(x)
parts.pop()
"""
    assert findings(tmp_path, body, "python-side-effect-in-graph") == {
        'self.cache.pop("a")': Severity.WARNING,  # STRICT rejects it: an error in STRICT
        'self.cache.setdefault("b", 2)': Severity.WARNING,
        "self.cache.clear()": Severity.WARNING,
    }


def test_globals_in_graph_code(tmp_path: Path) -> None:
    body = """
n = len(globals())
m = len(locals())
"""
    assert findings(tmp_path, body, "python-side-effect-in-graph") == {
        "n = len(globals())": Severity.WARNING,
        "m = len(locals())": Severity.WARNING,
    }


def test_objects_a_library_function_makes_are_followed(tmp_path: Path) -> None:
    body = """
a = operator.itemgetter(0)((x, x * 2))
get = operator.itemgetter(1)
b = get((x, x))
c = functools.partial(ops.add, x)(x)
d = make_scaler(3)(x)
k = operator.itemgetter(1)((1, 2))
e = operator.add(x, x)
"""
    assert set(findings(tmp_path, body, "third-party-call-in-graph")) == {
        "a = operator.itemgetter(0)((x, x * 2))",
        "b = get((x, x))",
    }


def test_the_rules_read_the_syntax_table() -> None:
    native = graph_native_functions(Release("2.10.0"))
    assert {"functools.partial", "operator.add", "operator.getitem"} <= native  # rows that STRICT compiles
    assert not {"copy.copy", "math.sqrt", "functools.reduce"} & native  # rows that STRICT rejects
    verdicts = _mutation_verdicts(Release("2.10.0"))
    assert verdicts["local-dict", "update"] == verdicts["global-dict", "update"] == "rejected"
    assert verdicts["self-list", "remove"] == "strict-rejected"
    assert verdicts["self-list", "append"] == "dropped"
    assert ("local-list", "append") not in verdicts


OBJECTS = """\
import abc
import argparse
import mindspore as ms
from mindspore import Parameter, Tensor, nn


class Box:
    def __init__(self):
        self.n = 1
        self.items = [1]
        self.p = Parameter(Tensor(1.0), name="p")

    def bump(self):
        self.n += 1

    def double(self):
        return self.n * 2

    def add_item(self):
        self.items.append(1)

    def set_p(self, x):
        self.p = x

    def step(self):
        self.bump()

    @staticmethod
    def fresh(box):
        box.n = 0


@ms.jit_class
class JitBox:
    def __init__(self):
        self.n = 1

    def bump(self):
        self.n += 1


class AbstractBox(abc.ABC):
    def __init__(self):
        self.n = 1

    def bump(self):
        self.n += 1


class NamespaceBox(argparse.Namespace):
    def bump(self):
        self.n = 1


BOX = Box()


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.box = Box()
        self.jit_box = JitBox()
        self.abstract_box = AbstractBox()
        self.namespace_box = NamespaceBox()

    def construct(self, x):
        self.box.bump()
        BOX.bump()
        local = Box()
        local.bump()
        self.jit_box.bump()
        self.box.double()
        self.box.add_item()
        self.box.set_p(x)
        self.box.fresh(self.box)
        self.abstract_box.bump()
        self.box.step()
        self.namespace_box.bump()
        return x
"""


def test_methods_that_assign_their_objects_attributes(tmp_path: Path) -> None:
    path = tmp_path / "net.py"
    path.write_text(OBJECTS)
    report = check_files([path], Settings())
    source = path.read_text().splitlines()
    flagged = {
        source[d.line - 1].strip(): d.severity
        for d in report.diagnostics
        if d.symbol == "python-side-effect-in-graph" and "assigns `self." in d.message
    }
    # STRICT rejects each (measured on 2.10): the rule's severity, a warning at the default LAX;
    # `self.bump()` in `step` is where the compiler stops for `self.box.step()`. Not flagged: a
    # method that only reads, one that assigns a Parameter or changes a list (the list rule's),
    # a static method, and a class with a third-party base (`argparse.Namespace`).
    assert flagged == {
        "self.box.bump()": Severity.WARNING,
        "BOX.bump()": Severity.WARNING,
        "local.bump()": Severity.WARNING,
        "self.jit_box.bump()": Severity.WARNING,
        "self.abstract_box.bump()": Severity.WARNING,
        "self.bump()": Severity.WARNING,
    }
    strict = check_files([path], Settings(syntax_level="strict"))
    assert {d.severity for d in strict.diagnostics if "assigns `self." in d.message} == {Severity.ERROR}


def test_the_object_method_row_is_read_from_the_table() -> None:
    assert _row_verdict(Release("2.10.0").syntax, _OBJECT_METHOD_ROW) == "strict-rejected"
