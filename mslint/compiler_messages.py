"""Which mslint rules predict each compiler message the project has measured, per release, shipped
as ``mslint/data/messages-<release>.json`` (written by ``scripts/generate_message_table.py``).

An error is known by its message, normalised so that the same message from another program
matches: the line that says what failed (:func:`message_line`), without
the exception's type, paths, addresses, numbers and the note
``(raised building Net)`` and the names of graphs. The user's own names (``name 'x' is not defined``,
``self.cache``) still differ from program to program: a message that matches no entry as it is
matches one whose quoted names, ``self.`` attributes and Parameter names (``@graph:param_0.conv1.weight``)
are replaced, the same way, by ``?``.
Evidence with no message of its own (a fallback, a dynamic shape, ...) is known by its kind.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from mslint.mindspore_tables import DATA, nearest_release, parse_release, releases_with

KEY_LENGTH = 160
"""Normalised messages are compared on this many characters: the syntax table keeps 240 of the raw line."""

_EXCEPTION_TYPE = re.compile(r"^[A-Za-z_][\w.]*(?:Error|Exception|Warning): ")
_RAISED_BUILDING = re.compile(r"\s*\(raised building [\w.]+\)$")
_PATH = re.compile(r"(?<![\w.])/[^\s'\",:)]+")
_LOCATION = re.compile(r"(?<=In file )[^\s,:]+(?=:\d)")
"""The file of a location the message ends with, a relative path too (``In file net.py:7, 8~20``)."""
_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")
_GRAPH = re.compile(r"@[\w.]+")
"""A graph's name in the IR (``@bad_Net_construct_12``): the user's module and class."""
_NUMBER = re.compile(r"\d+")
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")
_SELF_ATTRIBUTE = re.compile(r"\bself\.\w+")
_PARAMETER = re.compile(r":param_[\w.]+")
"""A Parameter's name in a graph (``@?:param_0.conv1.weight``): the user's attribute path."""
_PARAMETER_VALUE = re.compile(r"Parameter \(name=[^,]*, shape=\([^)]*\)[^)]*\)")
"""A Parameter as a message prints it (``Parameter (name=w, shape=(N,), dtype=FloatN, requires_grad=True)``)."""
_STRICT_ATTRIBUTE = re.compile(r"(?<=cannot get attributes )\w+")
"""The attribute STRICT names unquoted (``cannot get attributes abcd or the Tensor[FloatN] object ...``)."""
_MISSING_KERNEL = re.compile(r"Unsupported op \[(\w+)\] on (\w+)|The kernel (\w+) unregistered")
"""How a compiled graph's first run says that the device has no kernel for one of its operators
(kernel selection happens when the graph first runs)."""
_KERNEL_NAME = re.compile(r"(?<=Unsupported op \[)\w+(?=\])|(?<=The kernel )\w+(?= unregistered)")
_ENCLOSING_QUOTES = re.compile(r"^(['\"])(?=[^'\"]*\s)(.*)\1$")
"""A message printed as a quoted string (``'Can not convert Tensor ...'``), which another program prints bare;
not a message that starts with a quoted name (``'Tensor' object has no attribute 'abcd'``)."""


def normalise(message: str) -> str:
    """The key of a compiler message: see the module's documentation."""
    text = message.strip()
    first = message_line(text)
    first = _EXCEPTION_TYPE.sub("", _RAISED_BUILDING.sub("", first))
    first = _NUMBER.sub("N", _GRAPH.sub("@?", _ADDRESS.sub("0x?", _LOCATION.sub("PATH", _PATH.sub("PATH", first)))))
    return first[:KEY_LENGTH].rstrip()


def without_names(key: str) -> str:
    """A normalised message without its enclosing quotes, with the user's names (quoted words,
    ``self.`` attributes, Parameter names in a graph, Parameters, the attribute STRICT names) and
    the kernel a device lacks replaced, and cut before a quoted name that the key's length cut
    off: the same message about a longer name is cut elsewhere."""
    bare = _ENCLOSING_QUOTES.sub(r"\2", key)
    named = _PARAMETER_VALUE.sub("Parameter (?)", _STRICT_ATTRIBUTE.sub("?", bare))
    named = _PARAMETER.sub(":param_?", _SELF_ATTRIBUTE.sub("self.?", _QUOTED.sub("?", named)))
    named = _KERNEL_NAME.sub("?", named)  # each operator the device lacks is the same message
    return re.split("['\"]", named, maxsplit=1)[0].rstrip()


@dataclass(frozen=True)
class MessageTable:
    release: str
    messages: dict[str, list[str]]
    """Normalised message -> the symbols of the rules whose confirmed findings produced it."""
    kinds: dict[str, list[str]]
    """Evidence kind without a message of its own (``fallback``, ...) -> the rules it confirmed."""
    loose: dict[str, list[str]] = field(default_factory=dict)
    """The messages again, keyed by :func:`without_names`."""

    def __post_init__(self) -> None:
        for key, rules in self.messages.items():
            merged = self.loose.setdefault(without_names(key), [])
            merged.extend(rule for rule in rules if rule not in merged)

    def rules_for(self, kind: str, message: str) -> tuple[tuple[str, ...], bool]:
        """The rules that predict a problem, and whether its message (or kind) was measured."""
        if kind in self.kinds:
            return tuple(self.kinds[kind]), True
        key = normalise(message)
        if key in self.messages:
            return tuple(self.messages[key]), True
        bare = without_names(key)
        exact = self.loose.get(bare)
        # the same message about names of other lengths is cut at other places: each of them counts
        alike = [rules for k, rules in self.loose.items() if k != bare and _same_start(k, bare)]
        if exact is None and not alike:
            return (), False
        return tuple(dict.fromkeys(rule for rules in [exact or [], *alike] for rule in rules)), True


def _same_start(first: str, second: str) -> bool:
    """Whether one loose key starts the other, both long enough to name a message."""
    shorter, longer = sorted((first, second), key=len)
    return len(shorter) >= _SAME_START_LENGTH and longer.startswith(shorter)


_SAME_START_LENGTH = 100
"""Characters two cut keys must share: the first words of a message name what it is about."""


def message_releases() -> tuple[str, ...]:
    return releases_with("messages")


@cache
def message_table(release: str | None = None) -> MessageTable:
    """The table measured on ``release``, or on the nearest measured release (the newest by default)."""
    releases = message_releases()
    chosen = releases[-1] if release is None else nearest_release(releases, parse_release(release))
    data: dict[str, Any] = json.loads((DATA / f"messages-{chosen}.json").read_text(encoding="utf-8"))
    messages = {key: list(entry["rules"]) for key, entry in data["messages"].items()}
    return MessageTable(chosen, messages, {kind: list(entry["rules"]) for kind, entry in data["kinds"].items()})


PYTHON_EXCEPTION = re.compile(r"^([A-Za-z_][\w.]*(?:Error|Exception)): ?(.*)$")
_SECTION_TITLE = re.compile(r"^- [^:]+:")
"""A section's title in a MindSpore message (``- Kernel select failed:``), between rules of dashes."""
_FRAMEWORK_SECTION = re.compile(r"^- .*(?:\(For framework developers\)|Traceback of)")
"""The title of a section after the message: the stacks and the traceback of the construct code."""
TRACEBACK = "Traceback (most recent call last):"


def missing_kernel(message: str) -> str | None:
    """The kernel a message says the device has none of (``ArgMinExt`` of ``Unsupported op
    [ArgMinExt] on CPU``); None for any other message."""
    found = _MISSING_KERNEL.search(message)
    return None if found is None else found.group(1) or found.group(3)


def message_line(text: str) -> str:
    """The line of a MindSpore message that says what failed, with its exception's type when it
    starts with one: a message may open with a rule of dashes and a section title (``RuntimeError:``,
    ``----``, ``- Kernel select failed:``, ``----``, ``Unsupported op [Format] on CPU, ...``). The
    sections for framework developers (call stacks) that follow are not read; a message with no
    such line is its first line as it is, or nothing when that is a rule of dashes."""
    lines = [line.strip() for line in text.strip().splitlines()]
    if not lines:
        return ""
    head = PYTHON_EXCEPTION.match(lines[0])
    if head is not None and not has_words(head.group(2)):
        found = informative_line(lines[1:])
        return f"{head.group(1)}: {found}" if found else lines[0]
    return informative_line(lines) or (lines[0] if has_words(lines[0]) else "")


def informative_line(lines: list[str]) -> str:
    """The first line of ``lines`` with words that is no section title, before the sections for
    framework developers; empty when there is none."""
    for line in lines:
        stripped = line.strip()
        if _FRAMEWORK_SECTION.match(stripped) or stripped == TRACEBACK:
            break
        if has_words(stripped) and not _SECTION_TITLE.match(stripped):
            return stripped
    return ""


def has_words(text: str) -> bool:
    return any(character.isalnum() for character in text)
