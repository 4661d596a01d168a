"""The registry holds exactly the rules the issues define, each with examples and docs."""

from __future__ import annotations

from pathlib import Path

import pytest

from jaxlint.rules import all_rules, find_rule

EXPECTED = {
    "JAX101": "host-conversion-of-tracer",
    "JAX102": "host-sync-in-loop",
    "JAX103": "print-in-traced",
    "JAX104": "side-effect-in-traced",
    "JAX105": "unsynchronized-timing",
    "JAX201": "python-branch-on-tracer",
    "JAX202": "python-loop-over-tracer",
    "JAX203": "traced-shape",
    "JAX204": "large-unrolled-loop",
    "JAX301": "prng-key-reuse",
    "JAX302": "legacy-prng-key",
    "JAX303": "host-rng-in-traced",
    "JAX304": "constant-key-in-loop",
    "JAX305": "global-prng-key",
    "JAX306": "prng-key-reuse-contract",
    "JAX401": "jit-in-loop",
    "JAX402": "jit-of-fresh-callable",
    "JAX403": "jit-method-self",
    "JAX404": "unhashable-static-arg",
    "JAX405": "donated-buffer-reuse",
    "JAX406": "jit-bound-method-state",
    "JAX501": "pmap",
    "JAX502": "legacy-mesh-context",
    "JAX503": "pjit",
    "JAX504": "experimental-shard-map",
    "JAX505": "legacy-sharding-api",
    "JAX601": "in-place-update",
    "JAX602": "empty-not-zeros",
    "JAX603": "float64-without-x64",
    "JAX604": "discarded-index-update",
    "JAX701": "deprecated-api",
    "JAX702": "removed-api",
    "JAX703": "inert-config-call",
    "JAX704": "private-api",
}
DOCS = Path(__file__).resolve().parent.parent / "docs" / "rules"


def test_registry_matches_the_issues() -> None:
    assert {r.code: r.name for r in all_rules()} == EXPECTED


@pytest.mark.parametrize(("code", "name"), sorted(EXPECTED.items()))
def test_each_rule_is_findable_documented_and_exemplified(code: str, name: str) -> None:
    rule = find_rule(code)
    assert rule is not None and find_rule(name) is rule
    assert rule.VALID and rule.INVALID
    page = (DOCS / f"{code}.md").read_text(encoding="utf-8")
    assert f"# {name} ({code})" in page
