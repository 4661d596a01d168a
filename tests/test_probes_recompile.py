"""``jaxlint probe recompile``: compile counts per case/step and the argument that changed."""

from __future__ import annotations

import importlib.util
import json

import pytest
from probe_support import EIGHT_DEVICES, SAMPLE, SHARDED, probe_env, run_main, run_module, spec

pytest.importorskip("jax")

from jaxlint.runtime_probes import recompile  # noqa: E402


def _cases(report):
    return report["cases"]


def test_stable_shapes_compile_exactly_once(tmp_path):
    argv = [spec(SAMPLE, "scale"), "--cases", "stable_cases", "--expect-compiles", "1"]
    code, report = run_main(recompile.main, argv, tmp_path)
    assert code == 0, report.get("error")
    assert report["ok"] is True and report["version"] == 1
    assert report["total_compiles"] == 1
    assert [c["compiles"] for c in _cases(report)] == [1, 0, 0]
    assert _cases(report)[0]["by_function"] == {"jit(scale)": 1}
    assert report["recompiling_calls"] == []


def test_three_shapes_compile_three_times_and_name_the_shape(tmp_path):
    code, report = run_main(recompile.main, [spec(SAMPLE, "scale")], tmp_path)  # make_cases
    assert code == 0, report.get("error")
    assert report["total_compiles"] == 3
    cases = _cases(report)
    assert [c["compiles"] for c in cases] == [1, 1, 1]
    assert cases[0]["reason"].startswith("first call")
    for case, size in zip(cases[1:], (4, 5), strict=True):
        (change,) = case["changed"]
        assert change["argument"] == "x" and change["kind"] == "shape"
        assert change["now"] == [size]
        assert any("TRACING CACHE MISS" in m for m in case["explain_cache_misses"])
    assert report["recompiling_calls"] == [1, 2]


def test_expect_compiles_mismatch_exits_1(tmp_path):
    code, report = run_main(
        recompile.main, [spec(SAMPLE, "scale"), "--expect-compiles", "1"], tmp_path
    )
    assert code == 1
    assert report["ok"] is False
    assert report["error"]["class"] == "ExpectationFailed"
    assert report["total_compiles"] == 3 and report["expected_compiles"] == 1


def test_dtype_weak_type_and_pytree_changes_are_named(tmp_path):
    argv = [spec(SAMPLE, "tree_scale"), "--cases", "mixed_cases"]
    code, report = run_main(recompile.main, argv, tmp_path)
    assert code == 0, report.get("error")
    cases = _cases(report)
    assert [c["compiles"] for c in cases] == [1, 0, 1, 1, 1]
    kinds = [[(ch["argument"], ch["kind"]) for ch in c.get("changed", [])] for c in cases]
    assert kinds[2] == [("x", "dtype")]
    assert kinds[3] == [("factor", "weak type")]
    assert kinds[4] == [("x", "pytree structure")]


def test_static_value_change_is_named(tmp_path):
    argv = [spec(SAMPLE, "scale"), "--cases", "static_cases", "--static-argnums", "1"]
    code, report = run_main(recompile.main, argv, tmp_path)
    assert code == 0, report.get("error")
    cases = _cases(report)
    assert [c["compiles"] for c in cases] == [1, 0, 1]
    (change,) = cases[2]["changed"]
    assert change == {
        "argument": "factor",
        "path": "factor",
        "kind": "static value",
        "before": "2",
        "now": "3",
    }


def test_loop_mode_counts_compiles_per_step(tmp_path, monkeypatch):
    # from the fixture's folder, as `jaxlint check sample.py` run there names it (from the
    # repository root the file is under tests/, and check reports nothing in it)
    monkeypatch.chdir(SAMPLE.parent)
    argv = ["--loop", spec(SAMPLE, "train_step"), "--factory", "make_batch", "--steps", "3"]
    code, report = run_main(recompile.main, argv, tmp_path)
    assert code == 0, report.get("error")
    assert [s["compiles"] for s in report["steps"]] == [1, 1, 1]
    assert report["compiles_after_first_step"] == 2
    assert report["steps_that_compiled_after_the_first"] == [1, 2]
    # a new jax.jit each step: of the rules that describe it (never JAX404, which raises),
    # the one jaxlint reports in train_step (JAX402 at line 77; JAX401 is not reported)
    assert report["rules"] == ["JAX402"] and "rules_declared" not in report
    assert report["causes_after_first_step"] == ["new function object"]
    step = report["steps"][1]
    assert step["changed"] == []  # same inputs: the jit itself is new each step
    (cause,) = step["causes"]
    assert cause["from"] == "jax explanation" and cause["rules"] == ["JAX402"]
    assert cause["rules_declared"] == ["JAX401", "JAX402"]
    assert cause["cause"] == "new function object" and step["reason"].startswith("a new function")


def test_a_function_traced_for_the_first_time_later_is_not_blamed_on_a_rule(tmp_path):
    argv = ["--loop", spec(SAMPLE, "step_with_eval"), "--factory", "make_batch", "--steps", "4"]
    code, report = run_main(recompile.main, argv, tmp_path)
    assert code == 0, report.get("error")
    assert [s["compiles"] for s in report["steps"]] == [1, 0, 1, 0]
    (cause,) = report["steps"][2]["causes"]
    assert cause["cause"] == "function traced for the first time" and cause["rules"] == []
    assert report["rules"] == []

    argv = ["--loop", spec(SAMPLE, "stable_step"), "--factory", "make_batch", "--steps", "3"]
    code, report = run_main(recompile.main, [*argv, "--expect-compiles", "1"], tmp_path)
    assert code == 0, report.get("error")
    assert [s["compiles"] for s in report["steps"]] == [1, 0, 0]
    assert "rules" not in report


def test_user_error_in_a_case_exits_3(tmp_path):
    argv = [spec(SAMPLE, "branchy"), "--cases", "branch_cases"]
    code, report = run_main(recompile.main, argv, tmp_path)
    assert code == 3
    assert report["ok"] is False
    # sample.py does not jit branchy: no rule is named, and JAX201 is what check reports
    # at the failing line once it is jitted as the probe did
    error = report["error"]
    assert error["rule"] is None and error["rule_if_jitted"] == "JAX201"
    assert error["phase"] == "case 0"


@pytest.mark.parametrize(
    "argv",
    [
        [],
        [f"{SAMPLE}:scale", "--loop", f"{SAMPLE}:stable_step"],
        ["--loop", f"{SAMPLE}:stable_step", "--cases", "make_cases"],
        [f"{SAMPLE}:scale", "--factory", "make_batch"],
        ["--loop", f"{SAMPLE}:stable_step", "--steps", "0"],
    ],
)
def test_usage_errors(tmp_path, argv):
    code, report = run_main(recompile.main, argv, tmp_path)
    assert code == 2 and report["error"]["class"] == "UsageError"


def test_sharding_change_on_eight_devices():
    proc = run_module(
        "recompile",
        [spec(SHARDED, "total"), "--cases", "sharding_cases", "--format", "json"],
        env=probe_env(XLA_FLAGS=EIGHT_DEVICES),
    )
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["backend"]["device_count"] == 8
    assert [c["compiles"] for c in report["cases"]] == [1, 0, 1]
    (change,) = report["cases"][2]["changed"]
    assert change["argument"] == "x" and change["kind"] == "sharding"
    assert "NamedSharding" in change["now"]


def test_text_output(capsys):
    assert recompile.main([spec(SAMPLE, "scale"), "--format", "text"]) == 0
    text = capsys.readouterr().out
    assert "total compilations: 3" in text
    assert "x shape [3] -> [4]" in text


def test_help(capsys):
    assert recompile.main(["--help"]) == 0
    text = capsys.readouterr().out
    for flag in (
        "--cases",
        "--loop",
        "--steps",
        "--factory",
        "--expect-compiles",
        "--static-argnums",
        "--static-argnames",
        "trusted code only",
        "examples:",
    ):
        assert flag in text


def test_persistent_cache_hits_are_not_counted_as_compiles(tmp_path):
    env = probe_env(
        JAX_COMPILATION_CACHE_DIR=str(tmp_path / "cache"),
        JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS="0",
    )
    runs = []
    for _ in range(2):
        proc = run_module("recompile", [spec(SAMPLE, "scale")], env=env)
        assert proc.returncode == 0, proc.stderr
        assert "persistent compilation cache" not in proc.stderr  # captured, not printed
        runs.append(json.loads(proc.stdout))
    cold, warm = runs
    assert cold["total_compiles"] == 3
    # the backend event still fires on a persistent-cache hit; the hit is subtracted
    assert [(c["backend_compile_events"], c["persistent_cache_hits"]) for c in warm["cases"]] == [
        (1, 1)
    ] * 3
    assert warm["total_compiles"] == 0


def test_keyword_instead_of_position_is_a_pytree_change(tmp_path):
    argv = [spec(SAMPLE, "matmul"), "--cases", "keyword_cases"]
    code, report = run_main(recompile.main, argv, tmp_path)
    assert code == 0, report.get("error")
    first, second = report["cases"]
    assert [first["compiles"], second["compiles"]] == [1, 1]
    assert second["changed"] == [
        {
            "argument": "b",
            "path": "b",
            "kind": "pytree structure",
            "before": "passed by position",
            "now": "passed by keyword",
        }
    ]
    kinds = [(c["cause"], c["from"]) for c in second["causes"]]
    assert kinds == [("pytree structure", "arguments"), ("pytree structure", "jax explanation")]
    assert all(c["rules"] == [] for c in second["causes"])
    assert "function itself" not in second.get("reason", "")


def test_a_precision_context_change_is_named_with_no_rule(tmp_path):
    argv = ["--loop", spec(SAMPLE, "precision_step"), "--factory", "make_square", "--steps", "4"]
    code, report = run_main(recompile.main, argv, tmp_path)
    assert code == 0, report.get("error")
    assert [s["compiles"] for s in report["steps"]] == [1, 1, 0, 0]
    step = report["steps"][1]
    assert step["changed"] == []
    (cause,) = step["causes"]
    assert cause["cause"] == "config context" and cause["rules"] == []
    assert cause["option"] == "jax_default_matmul_precision"
    assert (cause["before"], cause["now"]) == ("default", "highest")
    assert "jax_default_matmul_precision default -> highest" in step["reason"]
    assert report["rules"] == []  # JAX401/402/404 describe none of this
    assert report["causes_after_first_step"] == ["config context"]


def test_static_argument_of_an_already_jitted_function_without_flags(tmp_path):
    argv = [spec(SAMPLE, "scale_static"), "--cases", "static_cases"]
    code, report = run_main(recompile.main, argv, tmp_path)
    assert code == 0, report.get("error")
    assert report["jit"]["wrapped_here"] is False and report["jit"]["static_argnums"] == [1]
    cases = report["cases"]
    assert [c["compiles"] for c in cases] == [1, 0, 1]
    # the static value is shown as such, not as a traced int32[]{weak}
    assert cases[0]["arguments"] == {"x": "float32[3]", "factor": "static 2"}
    (change,) = cases[2]["changed"]
    assert (change["kind"], change["before"], change["now"]) == ("static value", "2", "3")
    assert [c["cause"] for c in cases[2]["causes"]] == ["static value"]


def test_a_ragged_last_batch_is_shape_drift_with_no_rule(tmp_path):
    argv = ["--loop", spec(SAMPLE, "stable_step"), "--factory", "make_ragged_batch"]
    code, report = run_main(recompile.main, [*argv, "--steps", "4"], tmp_path)
    assert code == 0, report.get("error")
    assert [s["compiles"] for s in report["steps"]] == [1, 0, 0, 1]
    last = report["steps"][3]
    (change,) = last["changed"]
    assert change["kind"] == "shape" and (change["before"], change["now"]) == ([32, 8], [20, 8])
    assert [c["cause"] for c in last["causes"]] == ["shape"]
    assert report["rules"] == [] and report["causes_after_first_step"] == ["shape"]


def test_plot_compilations_per_case(tmp_path, monkeypatch, capsys):
    import sys

    svg = tmp_path / "compiles.svg"
    argv = [spec(SAMPLE, "scale"), "--plot", str(svg)]
    if importlib.util.find_spec("matplotlib") is not None:
        code, report = run_main(recompile.main, argv, tmp_path)
        assert code == 0 and report["plot"]["written"] is True
        assert "<svg" in svg.read_text(encoding="utf-8")
        svg.unlink()
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    assert recompile.main([*argv, "--format", "text"]) == 2
    out = capsys.readouterr().out
    assert "PlotUnavailable" in out
    assert "case   0 | " in out and "(first call)" in out and "1 (shape)" in out
    assert not svg.exists()
