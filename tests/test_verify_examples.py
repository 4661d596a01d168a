"""Every verify line of every rule's INVALID examples, run as printed (scripts/verify_examples.py).

One process per rule (the rule's environment, e.g. ``JAX_DEBUG_KEY_REUSE=1``, is set
before JAX is imported); in it each example is checked and each verify line of the
rule's findings is run in-process from the example's folder. Each run must confirm the
rule (the report's ``rule_check``, from ``--rule CODE`` on the verify line) or say
plainly why it cannot, naming the rule; never crash, never name a rule that jaxlint does
not report in the example. docs/probes.md has the table of the counts.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

pytest.importorskip("jax")

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location(
    "verify_examples", ROOT / "scripts/verify_examples.py"
)
assert _spec is not None and _spec.loader is not None
verify_examples = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(verify_examples)

RULES = verify_examples.rules_with_verify_lines()


@pytest.mark.parametrize("code", RULES)
def test_every_verify_line_confirms_or_explains(code):
    results = verify_examples.run_in_child(code)
    ran = [r for r in results if r.get("command")]
    problems = [r for r in results if r["verdict"] not in ("confirmed", "explained")]
    assert problems == [], problems
    for r in ran:
        assert r["command"].endswith(f"--rule {code}"), r
        assert code in r["why"] or r["verdict"] == "confirmed", r  # the why names the rule
        assert r["exit"] in (0, 1, 2, 3), r


def test_the_harness_catches_a_wrong_rule_and_a_missing_check():
    """The verdicts themselves: a report naming a rule the example does not report is
    'wrong rule'; one with no rule_check for the rule is counted as a crash."""
    report = {"probe": "compile", "ok": False, "error": {"class": "TypeError", "rule": "JAX203"}}
    report["rule_check"] = {"rule": "JAX301", "confirmed": False, "why": "JAX301 ..."}
    assert verify_examples.classify("JAX301", {"JAX301"}, 3, report)["verdict"] == "wrong rule"
    assert verify_examples.classify("JAX301", {"JAX301", "JAX203"}, 3, report)["verdict"] == (
        "explained"
    )
    del report["rule_check"]
    assert verify_examples.classify("JAX301", {"JAX301", "JAX203"}, 3, report)["verdict"] == (
        "crash"
    )
    assert verify_examples.classify("JAX301", set(), None, None)["verdict"] == "crash"


def test_jax102_verify_lines_count_a_sync_per_step():
    """JAX102's line is `syncs FILE.py:FUNC --line LINE` (not `bench` of the loop's function,
    which measured times or refused them, and never the sync): on the examples with a
    caller it confirms a read on every run of the conversion; `Trainer.fit` (a method
    nothing builds) is explained by FactoryNotFound, naming JAX102's sign."""
    results = verify_examples.run_in_child("JAX102")
    verdicts = {r["example"]: (r["verdict"], r["command"].split()[2]) for r in results}
    assert verdicts == {
        "invalid_history_append_loss_item.py": ("confirmed", "syncs"),
        "invalid_return_state.py": ("explained", "syncs"),
        "invalid_short_inner_loop_in_long_run.py": ("confirmed", "syncs"),
        # a second jitted call's result read per step; the while test waits for the first
        "invalid_read_of_other_value_than_while_test.py": ("confirmed", "syncs"),
        # the exit test reads a counter; the history's float is a sync of its own
        "invalid_exit_test_reads_only_the_counter.py": ("confirmed", "syncs"),
        # an nnx.jit step updates the model in place: a chain of steps
        "invalid_nnx_step_updates_model_in_place.py": ("confirmed", "syncs"),
    }
    (method,) = [r for r in results if r["example"] == "invalid_return_state.py"]
    assert "FactoryNotFound" in method["why"] and "on every run of the line" in method["why"]
