"""The rule catalog: one instance of each rule the registry (:mod:`mslint.rule_codes`) names."""

from __future__ import annotations

import importlib
from functools import lru_cache

from mslint.rule_codes import REGISTRY
from mslint.rules.base import Rule


@lru_cache(maxsize=1)
def all_rules() -> tuple[Rule, ...]:
    """One instance of every rule, ordered by code."""
    found = [
        getattr(importlib.import_module(f"{__name__}.{module}"), cls)() for _symbol, module, cls in REGISTRY.values()
    ]
    return tuple(sorted(found, key=lambda rule: rule.code))


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
