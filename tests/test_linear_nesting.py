"""The analysis is linear in the nesting of any expression: counted in Python function calls
made while checking (not seconds), a program nested twice as deep costs about twice as much."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

from mslint.engine import check_files
from mslint.settings import Settings

NESTINGS: dict[str, Callable[[int], str]] = {
    "conditional expressions": lambda n: " else ".join(f"x + {i} if y > {i}" for i in range(n)) + " else x",
    "tensor and/or": lambda n: "(" * n + "x" + "".join(f" {'and' if i % 2 else 'or'} y > {i})" for i in range(n)),
    "arithmetic": lambda n: " + ".join(["x"] * n),
    "calls": lambda n: "ops.relu(" * n + "x" + ")" * n,
    "subscripts": lambda n: "x" + "[0]" * n,
    "attributes": lambda n: "x" + ".T" * n,
    "tuples": lambda n: "(" * n + "x" + ", y)" * n,
    "unary": lambda n: "-" * n + "x",
    "comparisons": lambda n: " < ".join(["x"] * n),
    "lambdas": lambda n: "(lambda v: " * n + "x" + ")(y)" * n,
    "comprehension elements": lambda n: "[" * n + "x" + "".join(f" for v{i} in y]" for i in range(n)),
    "comprehension iterables": lambda n: "[v for v in " * n + "y" + "]" * n,
    "generator expressions": lambda n: "sum(v for v in " * n + "y" + ")" * n,
    "dict comprehensions": lambda n: "{v: " * n + "x" + " for v in y}" * n,
    "keyword arguments": lambda n: "ops.relu(input=" * n + "x" + ")" * n,
    "slices": lambda n: "x[" * n + "0" + ":1]" * n,
    "dicts": lambda n: '{"k": ' * n + "x" + "}" * n,
    "assignment expressions": lambda n: "".join(f"(v{i} := " for i in range(n)) + "x" + ")" * n,
}
DEPTH = 90  # below the parser's 200 nested parentheses, twice over


def calls_to_check(tmp_path: Path, expression: str) -> int:
    path = tmp_path / "net.py"
    path.write_text(
        "from mindspore import nn, ops\n\n\nclass Net(nn.Cell):\n"
        f"    def construct(self, x, y):\n        z = {expression}\n        return z\n",
        encoding="utf-8",
    )
    check_files([path], Settings())  # imports and tables loaded before counting
    count = 0

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        nonlocal count
        count += event == "call"

    sys.setprofile(profile)
    try:
        check_files([path], Settings())
    finally:
        sys.setprofile(None)
    return count


@pytest.mark.parametrize("nesting", NESTINGS, ids=str)
def test_twice_as_deep_costs_about_twice_as_much(nesting: str, tmp_path: Path) -> None:
    write = NESTINGS[nesting]
    shallow = calls_to_check(tmp_path, write(DEPTH // 2))
    deep = calls_to_check(tmp_path, write(DEPTH))
    # Linear: a fixed cost plus one per level (below 2.0); quadratic would be close to 4.
    assert deep / shallow < 2.5, (shallow, deep)
