"""A parameter that every instance the program builds gives a MindSpore class (``norm_layer=nn.LayerNorm``,
a ``functools.partial`` of it, or what a parent's or a factory's own parameter passes): its calls are
checked as calls of that class (unknown-mindspore-api), and only where every instance gives the same."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from mslint.engine import check_files
from mslint.settings import Settings

Write = Callable[[str, str], Path]

_BLOCK = """
from functools import partial

from mindspore import nn


class Block(nn.Cell):
    def __init__(self, dim, norm_layer=nn.LayerNorm):
        super().__init__()
        self.norm = norm_layer(dim)

    def construct(self, x):
        return self.norm(x)
"""


def findings(path: Path) -> list[tuple[int, str, str]]:
    report = check_files([path], Settings(select=("unknown-mindspore-api",), mindspore_version="2.10"))
    return sorted((d.line, d.severity.name.lower(), d.message.split(":")[0]) for d in report.diagnostics)


def test_the_default_a_partial_and_what_the_parent_passes_are_checked_as_the_class(write: Write) -> None:
    path = write(
        "net.py",
        _BLOCK
        + """

class Head(nn.Cell):
    def __init__(self, dim, norm_layer=partial(nn.LayerNorm, epsilon=1e-6)):
        super().__init__()
        self.norm = norm_layer(dim)


class Net(nn.Cell):
    def __init__(self, width=192, norm_layer=partial(nn.LayerNorm, epsilon=1e-6)):
        super().__init__()
        self.block = Block(width, norm_layer=norm_layer)
        self.head = Head(width)


Net()
""",
    )
    holds = "`norm_layer` holds `mindspore.nn.LayerNorm` in every instance the program builds"
    assert findings(path) == [(9, "error", holds), (18, "error", holds)]


def test_a_factory_that_spreads_its_keywords_passes_the_default_where_no_call_names_it(write: Write) -> None:
    factory = "\n\ndef block(**kwargs):\n    return Block(192, **kwargs)\n\n\n"
    assert [line for line, _, _ in findings(write("plain.py", _BLOCK + factory + "block()\n"))] == [9]
    assert findings(write("named.py", _BLOCK + factory + "block(norm_layer=nn.BatchNorm1d)\n")) == []


def test_nothing_where_an_instance_gives_another_value_or_the_call_does_not_run(write: Write) -> None:
    other = write("other.py", _BLOCK + "\n\nBlock(8)\nBlock(8, norm_layer=nn.BatchNorm1d)\n")
    unknown = write("unknown.py", _BLOCK + "\n\ndef build(layer):\n    return Block(8, norm_layer=layer)\n")
    never_built = write("never_built.py", _BLOCK)
    tested = write(
        "tested.py",
        _BLOCK.replace(
            "self.norm = norm_layer(dim)",
            "self.norm = norm_layer(dim) if isinstance(norm_layer, nn.LayerNorm) else nn.Identity()",
        )
        + "\n\nBlock(8)\n",
    )
    untaken = write(
        "untaken.py",
        _BLOCK.replace("norm_layer=nn.LayerNorm)", "norm_layer=nn.LayerNorm, qk_norm=False)").replace(
            "self.norm = norm_layer(dim)", "self.norm = norm_layer(dim) if qk_norm else nn.Identity()"
        )
        + "\n\nBlock(8)\n",
    )
    rebound = write(
        "rebound.py",
        _BLOCK.replace(
            "self.norm = norm_layer(dim)",
            "norm_layer = norm_layer or nn.BatchNorm1d\n        self.norm = norm_layer(dim)",
        )
        + "\n\nBlock(8)\n",
    )
    for path in (other, unknown, never_built, tested, untaken, rebound):
        assert findings(path) == [], path.name


def test_a_tuple_is_what_the_class_takes(write: Write) -> None:
    path = write("good.py", _BLOCK.replace("norm_layer(dim)", "norm_layer((dim,))") + "\n\nBlock(8)\n")
    assert findings(path) == []
