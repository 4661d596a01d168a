"""Shared by the JAX3xx (PRNG key) rules: small text and position helpers."""

from __future__ import annotations

import libcst as cst

from jaxlint.rules.base import Rule


def line(rule: Rule, node: cst.CSTNode) -> int:
    return rule.ctx.positions[node].start.line
