"""scripts/recall.py (the labelled recall corpus) and the corpus itself.

No recall number is asserted here: the numbers are measured and recorded in
docs/precision/recall.md. These tests check the scoring arithmetic and that every case
file is a valid case."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import recall  # noqa: E402

from jaxlint.rules import all_rules  # noqa: E402

CASE_FILES = sorted(recall.CASES.rglob("*.py"))


def test_expect_comments_are_read_from_comments_only():
    text = (
        "x = 1  # expect: JAX101\n"
        "s = '# expect: JAX999'\n"
        "y = 2  # expect: JAX101, JAX103\n"
        "z = 3  # a plain comment\n"
    )
    assert recall.expected_codes(text) == {1: {"JAX101"}, 3: {"JAX101", "JAX103"}}


@pytest.mark.parametrize("comment", ["# expect:", "# expect: jax 101 x", "# expect: JAX101;JAX102"])
def test_a_malformed_expect_comment_is_an_error(comment):
    with pytest.raises(recall.CorpusError):
        recall.expected_codes(f"x = 1  {comment}\n")


def test_scoring_arithmetic():
    corpus = {
        "prng/a.py": {2: {"JAX302"}, 5: {"JAX301", "JAX304"}},
        "compilation/b.py": {},
    }
    found = {
        ("prng/a.py", 2, "JAX302"),  # TP
        ("prng/a.py", 5, "JAX301"),  # TP; JAX304 on line 5 is a FN
        ("prng/a.py", 5, "JAX101"),  # FP: another code on an expecting line
        ("compilation/b.py", 3, "JAX401"),  # FP in a negative case
    }
    s = recall.score(corpus, found)
    assert (s["prng"].tp, s["prng"].fn, s["prng"].fp) == (2, 1, 1)
    assert (s["compilation"].tp, s["compilation"].fn, s["compilation"].fp) == (0, 0, 1)
    assert (s["overall"].tp, s["overall"].fn, s["overall"].fp) == (2, 1, 2)
    assert s["overall"].precision == pytest.approx(0.5)
    assert s["overall"].recall == pytest.approx(2 / 3)
    assert s["sharding"].precision is None and s["sharding"].recall is None
    assert s["overall"].misses == [("prng/a.py", 5, "JAX304")]


def test_the_script_end_to_end_on_a_tiny_corpus(tmp_path, capsys):
    cases = tmp_path / "cases"
    (cases / "prng").mkdir(parents=True)
    (cases / "prng" / "legacy.py").write_text(
        "import jax\n\nkey = jax.random.PRNGKey(0)  # expect: JAX302\nx = 1  # expect: JAX301\n",
        encoding="utf-8",
    )
    (cases / "array_semantics").mkdir()
    (cases / "array_semantics" / "negative.py").write_text(
        "import jax.numpy as jnp\n\nbuf = jnp.empty((3,))\n", encoding="utf-8"
    )
    out = tmp_path / "out.json"
    assert recall.main(["--cases", str(cases), "--json", str(out)]) == 0
    import json

    data = json.loads(out.read_text())
    assert (data["prng"]["tp"], data["prng"]["fn"], data["prng"]["fp"]) == (1, 1, 0)
    # jnp.empty is JAX602 with --select ALL, on a line that expects nothing: a FP
    assert (data["array_semantics"]["tp"], data["array_semantics"]["fp"]) == (0, 1)
    assert data["overall"]["misses"] == [["prng/legacy.py", 4, "JAX301"]]
    assert "| overall | 2 |" in capsys.readouterr().out


def test_a_case_outside_a_family_is_an_error(tmp_path, capsys):
    (tmp_path / "misc").mkdir()
    (tmp_path / "misc" / "a.py").write_text("import jax\n", encoding="utf-8")
    assert recall.main(["--cases", str(tmp_path)]) == 2
    assert "must be in one of" in capsys.readouterr().err


def test_the_corpus_has_every_family():
    families = {p.relative_to(recall.CASES).parts[0] for p in CASE_FILES}
    assert families <= set(recall.FAMILIES)
    assert len(CASE_FILES) >= 50


@pytest.mark.parametrize("path", CASE_FILES, ids=lambda p: p.relative_to(recall.CASES).as_posix())
def test_every_case_parses_and_names_registered_codes(path):
    text = path.read_text(encoding="utf-8")
    ast.parse(text, filename=str(path))
    codes = {rule.code for rule in all_rules()}
    expected = recall.expected_codes(text, path.name)
    for line, line_codes in expected.items():
        assert line_codes <= codes, f"{path.name}:{line}: unknown code(s) {line_codes - codes}"
    assert not path.name.startswith("test_"), "a case named test_* would be collected by pytest"
