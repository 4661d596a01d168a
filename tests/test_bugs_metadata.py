"""The real-bug corpus's metadata (tests/bugs/bugs.toml, docs/precision/bugs.md): its shape,
without the network or the projects' histories."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

from jaxlint.rules import all_rules

ROOT = Path(__file__).resolve().parent.parent
BUGS = ROOT / "tests" / "bugs" / "bugs.toml"

tomllib = pytest.importorskip("tomllib")


def _load_script():
    spec = importlib.util.spec_from_file_location("bugs_script", ROOT / "scripts" / "bugs.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["bugs_script"] = mod
    spec.loader.exec_module(mod)
    return mod


def _entries() -> list[dict]:
    return tomllib.loads(BUGS.read_text(encoding="utf-8"))["bug"]


TUNING_REPOS = {
    "google/flax",
    "google-deepmind/optax",
    "patrick-kidger/equinox",
    "google-deepmind/dm-haiku",
    "deepmind/dm-haiku",
    "pyro-ppl/numpyro",
    "blackjax-devs/blackjax",
    "patrick-kidger/diffrax",
    "google-deepmind/chex",
    "google/brax",
    "google/orbax",
    "jax-ml/jax",
}
FIELDS = {"repo", "commit", "parent", "path", "lines", "kind", "family", "expected", "why"}
SHA = re.compile(r"^[0-9a-f]{40}$")


def test_counts_meet_the_issue():
    entries = _entries()
    assert len(entries) >= 60
    assert sum(e["kind"] == "semantic" for e in entries) >= 35


def test_every_entry_has_the_fields_and_sane_values():
    codes = {r.code for r in all_rules()}
    families = set(_load_script().FAMILY_PREFIX)
    for i, e in enumerate(_entries(), 1):
        where = f"bug {i} ({e.get('repo')}@{e.get('commit', '')[:8]})"
        assert set(e) == FIELDS, where
        assert e["repo"] in TUNING_REPOS, where
        assert SHA.match(e["commit"]) and SHA.match(e["parent"]), where
        assert e["commit"] != e["parent"], where
        assert e["path"].endswith(".py") and not e["path"].startswith("/"), where
        assert ".." not in Path(e["path"]).parts, where
        assert e["lines"] and all(isinstance(n, int) and n >= 1 for n in e["lines"]), where
        assert e["kind"] in {"semantic", "api_drift"}, where
        assert e["family"] in families, where
        assert set(e["expected"]) <= codes, where
        if not e["expected"]:
            # a real bug of a listed family that no rule documents: the why says so
            assert e["kind"] == "semantic" and "No rule" in e["why"], where
        assert len(e["why"]) >= 40, where


def test_most_semantic_bugs_are_in_some_rules_documented_scope():
    semantic = [e for e in _entries() if e["kind"] == "semantic"]
    assert sum(bool(e["expected"]) for e in semantic) >= 0.8 * len(semantic)


def test_api_drift_expects_drift_or_legacy_codes():
    # API drift is what JAX7xx (and the legacy sharding APIs of JAX5xx) report.
    for e in _entries():
        if e["kind"] == "api_drift":
            assert any(c.startswith(("JAX7", "JAX5")) for c in e["expected"]), e["commit"]


def test_one_entry_per_commit():
    commits = [(e["repo"], e["commit"]) for e in _entries()]
    assert len(commits) == len(set(commits))


def test_no_project_code_in_the_metadata():
    # metadata only: no multi-line code, the `why` is prose of bounded length
    for e in _entries():
        assert "\n" not in e["why"] and len(e["why"]) < 600, e["commit"]


def test_script_loads_the_metadata_it_scores():
    mod = _load_script()
    bugs = mod.load_bugs(BUGS)
    assert len(bugs) == len(_entries())


def test_script_rejects_a_bad_kind(tmp_path):
    mod = _load_script()
    bad = tmp_path / "b.toml"
    bad.write_text(
        '[[bug]]\nrepo = "google/flax"\ncommit = "a"\nparent = "b"\npath = "x.py"\n'
        'lines = [1]\nkind = "style"\nfamily = "prng"\nexpected = ["JAX101"]\nwhy = "w"\n'
    )
    with pytest.raises(mod.MetadataError, match="kind"):
        mod.load_bugs(bad)


def test_scoring_counts_codes_of_the_expected_family():
    mod = _load_script()
    bug = mod.Bug(
        "google/flax", "a" * 40, "b" * 40, "x.py", [3], "semantic", "prng", ["JAX301"], "why"
    )
    outside = mod.Bug(
        "google/flax", "a" * 40, "b" * 40, "x.py", [3], "semantic", "sharding", [], "why"
    )
    v = mod.verdicts(mod.Score(outside, before={"default": ["JAX505"], "all": ["JAX505"]}))
    assert v["before_default_family"] and not v["before_default_expected"]
    s = mod.Score(
        bug,
        before={"default": ["JAX304"], "all": ["JAX301", "JAX304"]},
        after={"default": [], "all": []},
    )
    v = mod.verdicts(s)
    assert v["before_all_expected"] and v["before_all_family"]
    assert not v["before_default_expected"] and v["before_default_family"]
    assert not v["after_all_family"]
