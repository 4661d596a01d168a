"""The rule registry: one module per rule family."""

from __future__ import annotations

import functools

from jaxlint.rules import (
    api_drift,
    array_semantics,
    compilation,
    control_flow,
    host_device,
    prng,
    sharding,
)
from jaxlint.rules.base import Invalid, Option, Rule, Valid

FAMILY_MODULES = (
    host_device,
    control_flow,
    prng,
    compilation,
    sharding,
    array_semantics,
    api_drift,
)


@functools.cache
def all_rules() -> tuple[type[Rule], ...]:
    """Every rule class, sorted by code."""
    found: dict[str, type[Rule]] = {}
    for module in FAMILY_MODULES:
        for obj in vars(module).values():
            if isinstance(obj, type) and issubclass(obj, Rule) and obj is not Rule:
                if obj.__module__ != module.__name__:
                    continue
                if obj.code in found and found[obj.code] is not obj:
                    raise RuntimeError(f"duplicate rule code {obj.code}")
                found[obj.code] = obj
    return tuple(sorted(found.values(), key=lambda r: r.code))


def find_rule(code_or_name: str) -> type[Rule] | None:
    for rule in all_rules():
        if code_or_name in (rule.code, rule.name):
            return rule
    return None


__all__ = ["Invalid", "Option", "Rule", "Valid", "all_rules", "find_rule"]
