"""``jaxlint check --timings``: time per phase and per rule, summed over files."""

from __future__ import annotations

import time
from pathlib import Path

import libcst as cst
import pytest

import jaxlint.versions
from jaxlint.analysis.names import SemanticModel
from jaxlint.cli import main
from jaxlint.config import Settings
from jaxlint.engine import lint_text
from jaxlint.rules import all_rules
from jaxlint.rules.api_drift import RemovedApi
from jaxlint.timings import Timings

CODE = """\
import jax
import jax.numpy as jnp


@jax.jit
def f(x, key):
    y = jnp.round_(3)
    if x > 0:
        return y
    return jax.random.normal(key, (3,))
"""


@pytest.fixture(autouse=True)
def _pinned(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(jaxlint.versions, "installed_jax_version", lambda: "0.12.0")
    monkeypatch.chdir(tmp_path)


def test_timings_table_on_stderr_and_stdout_unchanged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a.py").write_text(CODE)
    (tmp_path / "b.py").write_text("x = 1\n")
    assert main(["check", "--no-cache", "--output-format", "concise", "a.py", "b.py"]) == 1
    plain_out, plain_err = capsys.readouterr()
    code = main(["check", "--no-cache", "--timings", "--output-format", "concise", "a.py", "b.py"])
    assert code == 1
    out, err = capsys.readouterr()
    assert out == plain_out
    lines = err.splitlines()
    assert lines[0].split() == ["phase", "or", "rule", "seconds", "share", "calls"]
    labels = {line.split("  ")[0] for line in lines[1:]}
    assert {
        "phase: parse: libcst",
        "phase: semantic model (one walk)",
        "phase: positions",
    } <= labels
    assert "rule: JAX702 removed-api" in labels
    assert lines[-1].startswith("2 file(s) linted, 0 from the cache; wall time of the run")
    shares = [float(line.split()[-2].rstrip("%")) for line in lines[1:-2]]
    assert abs(sum(shares) - 100.0) < 1.0


def test_timings_count_cache_hits(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a.py").write_text(CODE)
    main(["check", "a.py"])
    capsys.readouterr()
    main(["check", "--timings", "a.py"])
    err = capsys.readouterr().err
    assert "0 file(s) linted, 1 from the cache" in err
    assert "phase: cache" in err


def test_lint_text_timings_match_untimed_results() -> None:
    settings = Settings(select=("ALL",))
    rules = settings.enabled_rules(all_rules())
    plain = lint_text(CODE, "a.py", settings, rules, want_fixes=True)
    timings = Timings()
    timed = lint_text(CODE, "a.py", settings, rules, want_fixes=True, timings=timings)
    assert [(d.code, d.start, d.fix) for d in timed.diagnostics] == [
        (d.code, d.start, d.fix) for d in plain.diagnostics
    ]
    rule_rows = [label for label in timings.seconds if label.startswith("rule: ")]
    # every rule the file can trigger gets a row (its construction at least); a rule
    # whose required names the file never spells is skipped and costs nothing
    spelled = SemanticModel(cst.parse_module(CODE)).identifiers
    runs = [r for r in rules if r.required_names is None or r.required_names & spelled]
    assert len(rule_rows) == len(runs) < len(rules)
    assert all(seconds >= -1e-3 for seconds in timings.seconds.values())


def test_shared_analyses_are_not_charged_to_the_rule_that_asks_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A rule that triggers the trace analysis is charged its own time only."""
    import jaxlint.engine

    real = jaxlint.engine.TraceAnalysis

    def slow_trace(*args, **kwargs):
        time.sleep(0.2)
        return real(*args, **kwargs)

    monkeypatch.setattr(jaxlint.engine, "TraceAnalysis", slow_trace)
    settings = Settings(select=("ALL",))
    timings = Timings()
    lint_text(CODE, "a.py", settings, settings.enabled_rules(all_rules()), timings=timings)
    assert timings.seconds["phase: trace analysis"] >= 0.2
    rules = {k: v for k, v in timings.seconds.items() if k.startswith("rule: ")}
    assert max(rules.values()) < 0.15


def test_a_crashing_rule_under_timings(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(self, node) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(RemovedApi, "visit_Attribute", boom)
    settings = Settings()
    rules = settings.enabled_rules(all_rules())
    for timings in (None, Timings()):
        result = lint_text(CODE, "a.py", settings, rules, timings=timings)
        assert [e.rule_code for e in result.internal_errors] == ["JAX702"]
        assert "JAX702" not in {d.code for d in result.diagnostics}
        assert result.diagnostics  # the other rules still report (the jitted `if`)


def test_render_and_merge() -> None:
    a, b = Timings(), Timings()
    a.add("phase: x", 1.0)
    b.add("phase: x", 2.0)
    b.add("rule: JAX1 y", 1.0, 10)
    a.files_linted, b.files_from_cache = 1, 2
    a.merge(b)
    text = a.render(wall=1.5, processes=2)
    assert "phase: x" in text and "3.000" in text and "75.0%" in text
    assert "1 file(s) linted, 2 from the cache; seconds summed over 2 worker processes" in text
