"""docs/rules/ is generated from the rule classes and must not go stale."""

from __future__ import annotations

from pathlib import Path

from jaxlint.docs_gen import README_BEGIN, expected_pages, readme_rules_table
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


def test_readme_rules_table_is_up_to_date() -> None:
    readme = (DOCS.parent / "README.md").read_text(encoding="utf-8")
    assert readme.count(README_BEGIN) == 1
    assert readme_rules_table() in readme, (
        "README.md's rules table is stale; run `python -m jaxlint.docs_gen --readme README.md`"
    )
    for rule in all_rules():
        assert f"[{rule.code}](docs/rules/{rule.code}.md)" in readme


def test_readme_links_exist() -> None:
    import re

    readme = (DOCS.parent / "README.md").read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", readme):
        if not target.startswith(("http://", "https://")):
            assert (DOCS.parent / target).exists(), target
