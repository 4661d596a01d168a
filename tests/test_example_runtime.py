"""Runtime truth for the embedded examples: run them on CPU JAX.

An ``Invalid(..., raises="X")`` example must raise ``X`` when executed, and its
fixed version (all fixes, unsafe included) must run without error; a
``Valid(..., runs=True)`` example must run without error. Each program runs in a
fresh interpreter so that JAX state never leaks between examples.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from jaxlint.config import Settings
from jaxlint.engine import lint_text
from jaxlint.fixers import fix_text
from jaxlint.rules import all_rules
from jaxlint.rules.base import Invalid, Rule, Valid
from jaxlint.versions import NEWEST_KNOWN_JAX, parse_version

pytest.importorskip("jax")

RUNNER = textwrap.dedent(
    """
    import json, sys
    import jax
    defaults = {k: jax.config.values[k] for k in ("jax_enable_x64", "jax_debug_key_reuse")
                if k in jax.config.values}
    results = {}
    for path in sys.argv[1:]:
        src = open(path).read()
        try:
            exec(compile(src, path, "exec"), {"__name__": "__main__"})
        except BaseException as exc:
            results[path] = {"ok": False, "error": type(exc).__name__,
                             "mro": [c.__name__ for c in type(exc).__mro__],
                             "message": (str(exc).splitlines() or [""])[0]}
        else:
            results[path] = {"ok": True}
        for k, v in defaults.items():  # undo what an example switched on
            jax.config.update(k, v)
        jax.clear_caches()
    print("RESULTS " + json.dumps(results))
    """
)

ENV = {**os.environ, "JAX_PLATFORMS": "cpu"}


def _run_batch(directory: Path, programs: dict[str, str]) -> dict[str, dict]:
    """Run programs one after another in one fresh interpreter; name -> outcome."""
    paths = {}
    for name, code in programs.items():
        path = directory / f"{name}.py"
        path.write_text(code)
        paths[str(path)] = name
    if not paths:
        return {}
    proc = subprocess.run(
        [sys.executable, "-c", RUNNER, *paths],
        capture_output=True,
        text=True,
        env=ENV,
        timeout=600,
    )
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULTS ")]
    assert lines, f"runner printed nothing\n{proc.stderr[-3000:]}"
    raw = json.loads(lines[-1][len("RESULTS ") :])
    return {paths[p]: r for p, r in raw.items()}


def _settings(example: Valid | Invalid, rule: type[Rule]) -> Settings:
    return Settings(target_jax=parse_version(example.target_jax or NEWEST_KNOWN_JAX))


def _cases(kind: str):
    for rule in all_rules():
        for i, ex in enumerate(getattr(rule, kind)):
            if (kind == "INVALID" and ex.raises) or (kind == "VALID" and ex.runs):
                yield pytest.param(rule, ex, id=f"{rule.code}-{kind.lower()}-{i}")


def _fixed(rule: type[Rule], example: Invalid) -> str:
    settings = _settings(example, rule)

    def lint(text: str):
        return lint_text(text, example.filename, settings, [rule], want_fixes=True).diagnostics

    return fix_text(example.code, lint, unsafe=True).text


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    """Every runnable example, run once: one interpreter per rule."""
    results: dict[str, dict] = {}
    for rule in all_rules():
        programs: dict[str, str] = {}
        for i, ex in enumerate(rule.INVALID):
            if ex.raises:
                programs[f"{rule.code}_invalid_{i}"] = ex.code
                fixed = _fixed(rule, ex)
                if ex.fixed_runs and fixed != ex.code:
                    programs[f"{rule.code}_invalid_{i}_fixed"] = fixed
        for i, ex in enumerate(rule.VALID):
            if ex.runs:
                programs[f"{rule.code}_valid_{i}"] = ex.code
        directory = tmp_path_factory.mktemp(rule.code)
        results.update(_run_batch(directory, programs))
    return results


@pytest.mark.parametrize(("rule", "example"), list(_cases("INVALID")))
def test_invalid_example_raises_and_fix_runs(
    rule: type[Rule], example: Invalid, outcomes: dict[str, dict]
) -> None:
    i = rule.INVALID.index(example)
    original = outcomes[f"{rule.code}_invalid_{i}"]
    assert not original["ok"], f"{rule.code}: expected {example.raises}, but it ran"
    assert example.raises in original["mro"], (
        f"{rule.code}: expected {example.raises}, got {original['error']}: {original['message']}"
    )
    fixed = outcomes.get(f"{rule.code}_invalid_{i}_fixed")
    if fixed is not None:  # the example has a fix: the fixed program must run
        assert fixed["ok"], f"{rule.code}: the fixed program fails: {fixed}"


@pytest.mark.parametrize(("rule", "example"), list(_cases("VALID")))
def test_valid_example_runs(rule: type[Rule], example: Valid, outcomes: dict[str, dict]) -> None:
    i = rule.VALID.index(example)
    out = outcomes[f"{rule.code}_valid_{i}"]
    assert out["ok"], f"{rule.code}: VALID example fails at runtime: {out}"
