"""``jaxlint probe source TOPIC``: search the installed JAX (or a checkout) for a topic."""

from __future__ import annotations

import pytest
from probe_support import run_main, run_module

from jaxlint.runtime_probes import source


def test_installed_jax_is_searched_without_importing_it(tmp_path):
    pytest.importorskip("jax")
    code, report = run_main(source.main, ["donate_argnums", "--limit", "3"], tmp_path)
    assert code == 0 and report["ok"] is True
    assert report["searched"]["kind"] == "installed jax package"
    assert report["searched"]["files"] > 100
    assert len(report["results"]) == 3
    best = report["results"][0]
    assert best["file"].startswith("jax/") and best["words_found"] == ["donate_argnums"]
    assert all("donate_argnums" in item["text"].lower() for item in best["lines"])
    # the line numbers are the file's
    lines = open(best["path"], encoding="utf-8").read().splitlines()
    for item in best["lines"]:
        assert lines[item["line"] - 1].strip()[:200] == item["text"]


def test_checkout_with_docs_ranks_the_phrase_first(tmp_path):
    root = tmp_path / "jax"
    (root / "docs").mkdir(parents=True)
    (root / "docs" / "gotchas.md").write_text(
        "# Gotchas\n\nText.\n\nBuffer donation: a donated buffer is deleted.\n", encoding="utf-8"
    )
    (root / "other.py").write_text("x = 1  # donated once\n", encoding="utf-8")
    (root / "unrelated.rst").write_text("nothing here\n", encoding="utf-8")
    argv = ["donated", "buffer", "--jax-root", str(root)]
    code, report = run_main(source.main, argv, tmp_path)
    assert code == 0, report.get("error")
    assert report["searched"] == {"root": str(root), "kind": "checkout (--jax-root)", "files": 3}
    assert [r["file"] for r in report["results"]] == ["docs/gotchas.md", "other.py"]
    assert report["results"][0]["lines"][0]["line"] == 5


def test_no_match_is_exit_1_and_bad_input_exit_2(tmp_path):
    (tmp_path / "a.py").write_text("pass\n", encoding="utf-8")
    code, report = run_main(source.main, ["zebra", "--jax-root", str(tmp_path)], tmp_path)
    assert code == 1 and report["ok"] is False and report["error"]["class"] == "NoMatches"
    code, report = run_main(source.main, ["x1", "--jax-root", str(tmp_path / "no")], tmp_path)
    assert code == 2 and report["error"]["class"] == "UsageError"
    code, report = run_main(source.main, ["!", "--jax-root", str(tmp_path)], tmp_path)
    assert code == 2 and report["error"]["class"] == "UsageError"
    proc = run_module("source", ["x", "--limit", "0", "--jax-root", str(tmp_path)])
    assert proc.returncode == 2 and '"UsageError"' in proc.stdout
