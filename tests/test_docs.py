"""docs/rules/ is generated from the rule classes and must not go stale."""

from __future__ import annotations

from pathlib import Path

from jaxlint.docs_gen import expected_pages
from jaxlint.rules import all_rules

DOCS = Path(__file__).resolve().parent.parent / "docs"


def test_rule_pages_are_up_to_date() -> None:
    on_disk = {p.name: p.read_text(encoding="utf-8") for p in (DOCS / "rules").glob("*.md")}
    expected = expected_pages()
    stale = sorted(n for n in expected if on_disk.get(n) != expected[n])
    extra = sorted(set(on_disk) - set(expected))
    assert not stale and not extra, (
        f"docs/rules is stale (stale: {stale}, extra: {extra}); run `make docs`"
    )


def test_every_rule_code_is_documented() -> None:
    index = (DOCS / "rules" / "index.md").read_text(encoding="utf-8")
    for rule in all_rules():
        assert rule.code in index
        assert "jaxlint probe" in (DOCS / "rules" / f"{rule.code}.md").read_text()
