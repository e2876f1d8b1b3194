"""The rule catalog: every module in this package defines rules; they are found by discovery."""

from __future__ import annotations

import importlib
import pkgutil
from functools import lru_cache

from mslint.rules.base import Rule


@lru_cache(maxsize=1)
def all_rules() -> tuple[Rule, ...]:
    """One instance of every rule, ordered by code."""
    for info in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{info.name}")
    found = [cls() for cls in _subclasses(Rule) if "code" in vars(cls)]
    return tuple(sorted(found, key=lambda rule: rule.code))


def _subclasses(cls: type[Rule]) -> list[type[Rule]]:
    return [s for c in cls.__subclasses__() for s in (c, *_subclasses(c))]


def rule_named(name: str) -> Rule | None:
    """The rule whose symbol or code is ``name``, in any case (as ``--select`` reads codes)."""
    lowered = name.lower()
    return next((r for r in all_rules() if lowered in (r.symbol, r.code.lower())), None)


def matches(rule: Rule, selector: str) -> bool:
    """Whether a ``--select``/``--ignore`` entry (ALL, a symbol, a code or a code prefix) names the rule."""
    return selector == "ALL" or selector == rule.symbol or rule.code.startswith(selector.upper())


def validate_selectors(selectors: tuple[str, ...]) -> None:
    for selector in selectors:
        if not selector.strip():
            raise ValueError("empty rule selector (it would match every rule)")
        if not any(matches(rule, selector) for rule in all_rules()):
            raise ValueError(f"unknown rule {selector!r} (see `mslint rules`)")
