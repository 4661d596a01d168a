"""``jaxlint probe bench``: fresh inputs per call, synchronised outputs, no numbers on failure."""

from __future__ import annotations

import json
import os
import statistics
import time

import pytest
from probe_support import BENCH, EIGHT_DEVICES, SHARDED, probe_env, run_main, run_module, spec

pytest.importorskip("jax")

from jaxlint.runtime_probes import _bench_call, bench  # noqa: E402
from jaxlint.runtime_probes._common import FIRST_CALL_LABEL  # noqa: E402


def test_donation_never_reuses_an_input(tmp_path, monkeypatch):
    log = tmp_path / "calls.log"
    monkeypatch.setenv("JAXLINT_TEST_PROBE_LOG", str(log))
    argv = [
        spec(BENCH, "update_logged"),
        "--factory",
        "make_counted",
        "--jit",
        "--donate-argnums",
        "0",
        "--warmup",
        "2",
        "--repeat",
        "5",
    ]
    code, report = run_main(bench.main, argv, tmp_path)
    assert code == 0, report.get("error")
    result = report["results"]["target"]
    calls = 1 + 2 + 5
    lines = log.read_text().split()
    factory = [int(v) for k, v in zip(lines[::2], lines[1::2], strict=True) if k == "factory"]
    received = [int(v) for k, v in zip(lines[::2], lines[1::2], strict=True) if k == "call"]
    # the factory ran once per call, and call n received the n-th fresh array
    assert factory == list(range(1, calls + 1))
    assert received == list(range(1, calls + 1))
    assert result["factory_calls"] == calls and result["calls"] == calls
    assert result["donation"] == {
        "calls_that_consumed_donated_inputs": calls,
        "calls_that_did_not": 0,
        "calls_not_checked": 0,
    }
    assert result["calls_reusing_input_objects"] == 0
    assert result["timed_calls"] == 5 and len(result["samples"]) == 5
    assert result["first_call"]["label"] == FIRST_CALL_LABEL
    assert FIRST_CALL_LABEL == "first call (includes tracing/compilation; may hit caches)"
    st = result["stats"]
    assert st["min"] <= st["p10"] <= st["median"] == st["p50"] <= st["p90"] <= st["p99"]
    assert st["p99"] <= st["max"] and st["stdev"] is not None


def test_a_factory_that_reuses_a_donated_array_is_refused(tmp_path):
    argv = [spec(BENCH, "update"), "--factory", "make_cached", "--jit", "--donate-argnums", "0"]
    code, report = run_main(bench.main, argv, tmp_path)
    assert code == 2
    assert report["ok"] is False and report["error"]["class"] == "FactoryContractError"
    assert "results" not in report


def _median_seconds(fn, repeat=7):
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def test_outputs_are_synchronised_inside_each_call(tmp_path, monkeypatch):
    real = _bench_call.synchronise
    seen = []

    def spy(jax, out, *rest):
        arrays = jax.tree_util.tree_leaves(out)
        before = [a.is_ready() for a in arrays]
        n, how = real(jax, out, *rest)
        seen.append((before, [a.is_ready() for a in arrays], n))
        return n, how

    monkeypatch.setattr(_bench_call, "synchronise", spy)
    argv = [spec(BENCH, "two_outputs"), "--factory", "make_matrix", "--jit", "--repeat", "5"]
    code, report = run_main(bench.main, argv, tmp_path)
    assert code == 0, report.get("error")
    result = report["results"]["target"]
    assert len(seen) == result["calls"] == 1 + 2 + 5
    assert all(n == 2 and all(after) for _, after, n in seen)
    assert result["output_arrays_synchronised_per_call"] == 2
    assert result["synchronisation"] == {"output arrays and unconsumed input arrays": 8}
    # CPU dispatch is asynchronous: outputs were still being computed when the call
    # returned, so a timer stopped there would have measured dispatch only
    assert any(not all(before) for before, _, _ in seen)


def test_numbers_come_from_synchronised_outputs(tmp_path):
    import jax
    import jax.numpy as jnp

    a = jnp.ones((700, 700), jnp.float32) / 700.0
    f = jax.jit(lambda m: m @ m @ m)
    jax.block_until_ready(f(a))
    synced = _median_seconds(lambda: jax.block_until_ready(f(a)))
    dispatch_only = _median_seconds(lambda: f(a))
    jax.block_until_ready(f(a))
    if synced < 10 * dispatch_only:
        pytest.skip("dispatch is not clearly asynchronous here: nothing to tell apart")

    argv = [spec(BENCH, "matmul_chain"), "--factory", "make_matrix", "--jit", "--repeat", "7"]
    code, report = run_main(bench.main, argv, tmp_path)
    assert code == 0, report.get("error")
    median = report["results"]["target"]["stats"]["median"]
    # the same work as f: unsynchronised, the median would be about dispatch_only
    assert median > 3 * dispatch_only
    assert median > 0.3 * synced


def test_unsynchronisable_output_gives_no_numbers(tmp_path):
    code, report = run_main(bench.main, [spec(BENCH, "returns_object")], tmp_path)
    assert code == 3
    assert report["ok"] is False
    assert report["error"]["class"] == "UnsynchronisableOutput"
    assert "output['meta']" in report["error"]["message"]
    assert "results" not in report and "ratio" not in report


def test_a_raising_function_gives_no_numbers(tmp_path):
    code, report = run_main(bench.main, [spec(BENCH, "raises"), "--jit"], tmp_path)
    assert code == 3
    assert report["ok"] is False
    error = report["error"]
    assert error["class"] == "ValueError" and error["function"] == "raises"
    assert error["phase"] == "target: first call"
    assert "results" not in report
    assert report["calls_before_failure"] == {"target": 0}


def test_compare_alternates_and_reports_median_ratio(tmp_path):
    argv = [spec(BENCH, "update"), "--jit", "--repeat", "4", "--warmup", "1"]
    argv += ["--compare", spec(BENCH, "update_fused")]
    code, report = run_main(bench.main, argv, tmp_path)
    assert code == 0, report.get("error")
    assert report["settings"]["order"] == "alternating A B A B"
    a, b = report["results"]["target"], report["results"]["compare"]
    assert a["timed_calls"] == b["timed_calls"] == 4
    assert b["factory"] == a["factory"]
    ratio = report["ratio"]["compare_median_over_target_median"]
    assert ratio == pytest.approx(b["stats"]["median"] / a["stats"]["median"])
    assert report["ratio"]["median_of_pair_ratios"] > 0
    interval = report["ratio"]["interval"]
    assert interval["pairs"] == 4 and interval["confidence"] == 0.95
    assert interval["low"] <= interval["high"]
    assert interval["estimate"] == pytest.approx(ratio)
    excludes_one = interval["high"] < 1 or interval["low"] > 1
    assert (interval["verdict"] is not None) is excludes_one


def test_ratio_interval_gives_a_verdict_only_when_it_excludes_one():
    a = [1.0, 1.1, 0.9, 1.05, 0.95, 1.0, 1.02, 0.98]
    slower = bench.ratio_interval(a, [2 * x for x in reversed(a)])
    assert slower["low"] > 1 and slower["verdict"] == "compare is slower than target"
    faster = bench.ratio_interval(a, [x / 2 for x in a])
    assert faster["high"] < 1 and faster["verdict"] == "compare is faster than target"
    same = bench.ratio_interval(a, list(reversed(a)))
    assert same["low"] <= 1 <= same["high"] and same["verdict"] is None
    assert "includes 1" in same["reason"]
    # the same data and seed give the same interval
    assert bench.ratio_interval(a, list(reversed(a))) == same
    assert bench.ratio_interval([1.0], [2.0])["verdict"] is None


def test_environment_comes_from_env_probe(tmp_path):
    code, report = run_main(bench.main, [spec(BENCH, "update"), "--repeat", "2"], tmp_path)
    assert code == 0, report.get("error")
    environment = report["environment"]
    assert (
        environment["default_backend"] == "cpu" and environment["devices"][0]["platform"] == "cpu"
    )
    assert report["results"]["target"]["stats"]["n"] == 2


@pytest.mark.parametrize(
    "argv",
    [
        ["--donate-argnums", "0"],
        ["--repeat", "0"],
        ["--warmup", "-1"],
        ["--compare-factory", "make_inputs"],
    ],
)
def test_usage_errors(tmp_path, argv):
    code, report = run_main(bench.main, [spec(BENCH, "update"), *argv], tmp_path)
    assert code == 2 and report["error"]["class"] == "UsageError"


def test_sharded_inputs_on_eight_devices():
    argv = [spec(SHARDED, "total"), "--factory", "make_sharded_inputs", "--jit", "--repeat", "3"]
    proc = run_module(
        "bench", [*argv, "--donate-argnums", "0"], env=probe_env(XLA_FLAGS=EIGHT_DEVICES)
    )
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["environment"]["device_count"] == 8
    assert report["results"]["target"]["factory_calls"] == 1 + 2 + 3


def test_text_output(capsys):
    assert bench.main([spec(BENCH, "update"), "--jit", "--repeat", "3", "--format", "text"]) == 0
    text = capsys.readouterr().out
    assert FIRST_CALL_LABEL in text and "median" in text and "p90" in text


def test_help(capsys):
    assert bench.main(["--help"]) == 0
    text = capsys.readouterr().out
    for flag in (
        "--factory",
        "--jit",
        "--donate-argnums",
        "--static-argnums",
        "--warmup",
        "--repeat",
        "--compare",
        "--compare-factory",
        "trusted code only",
        "examples:",
    ):
        assert flag in text


def test_compiles_during_timed_calls_make_the_run_invalid(tmp_path):
    argv = [spec(BENCH, "update"), "--factory", "make_growing", "--jit", "--repeat", "3"]
    code, report = run_main(bench.main, argv, tmp_path)
    assert code == 1 and report["ok"] is False
    assert report["error"]["class"] == "InvalidMeasurement"
    assert "results" not in report  # no numbers: they would include compilation
    counts = report["invalid"]["target"]
    assert counts["compiles_during_first_call"] == 1
    assert counts["compiles_during_warmup"] == 2
    assert counts["compiles_during_timed_calls"] == 3
    assert counts["timed_calls_that_compiled"] == [1, 2, 3]

    # asked for: the times are reported, flagged first in warnings
    code, report = run_main(bench.main, [*argv, "--allow-recompiles"], tmp_path)
    assert code == 0, report.get("error")
    result = report["results"]["target"]
    assert result["compiles_during_timed_calls"] == 3
    assert "include compilation" in result["warnings"][0]

    code, report = run_main(bench.main, [spec(BENCH, "update"), "--jit", "--repeat", "3"], tmp_path)
    assert code == 0 and report["results"]["target"]["compiles_during_timed_calls"] == 0


@pytest.mark.parametrize(
    ("factory", "shapes"), [("make_three_shapes", 3), ("make_seven_shapes", 7)]
)
def test_a_shape_cycling_factory_is_refused(tmp_path, factory, shapes):
    # three shapes: the warm-up calls compile the other two, the timed calls none, but the
    # calls time different workloads; seven shapes: the timed calls compile as well
    argv = [spec(BENCH, "update"), "--factory", factory, "--jit", "--repeat", "6"]
    code, report = run_main(bench.main, argv, tmp_path)
    assert code == 1 and report["ok"] is False
    assert report["error"]["class"] == "InvalidMeasurement"
    assert "not equivalent" in report["error"]["message"]
    assert "results" not in report
    counts = report["invalid"]["target"]
    assert counts["compiles_during_first_call"] + counts["compiles_during_warmup"] == 3
    assert (counts["compiles_during_timed_calls"] > 0) is (shapes > 3)
    first = counts["inputs_not_equivalent"][0]
    assert first["call"] == 1 and first["changed"][0]["kind"] == "shape"


def test_a_function_returning_none_is_refused_not_timed(tmp_path):
    # two 1024x1024 matmuls whose results are dropped: timing the call would time dispatch
    argv = [spec(BENCH, "two_matmuls_returns_none"), "--factory", "make_pair", "--repeat", "3"]
    code, report = run_main(bench.main, argv, tmp_path)
    assert code == 3 and report["ok"] is False
    error = report["error"]
    assert error["class"] == "UnsynchronisableOutput"
    assert "returned no array" in error["message"] and "dispatch only" in error["message"]
    assert error["phase"] == "target: first call"
    assert "results" not in report


def test_a_function_returning_none_is_synchronised_through_the_arrays_it_keeps(tmp_path):
    argv = [spec(BENCH, "two_matmuls_stores_state"), "--factory", "make_pair", "--repeat", "3"]
    code, report = run_main(bench.main, argv, tmp_path)
    assert code == 0, report.get("error")
    result = report["results"]["target"]
    # the kept arrays are found after the clock stops (no jax.live_arrays() in the timer);
    # whether each was still computing then depends on the machine: both are honest
    methods = result["synchronisation"]
    assert sum(methods.values()) == 1 + 2 + 3
    assert all(
        m.startswith("effects barrier (no output arrays); arrays the call kept") for m in methods
    )
    assert "kept_arrays" in result


def test_arrays_a_function_keeps_besides_its_outputs_are_waited_on(tmp_path):
    argv = [spec(BENCH, "loss_and_kept_state"), "--factory", "make_pair", "--repeat", "3"]
    code, report = run_main(bench.main, argv, tmp_path)
    assert code == 0, report.get("error")
    methods = report["results"]["target"]["synchronisation"]
    assert sum(methods.values()) == 1 + 2 + 3
    prefix = "output arrays and unconsumed input arrays; arrays the call kept"
    assert all(m.startswith(prefix) for m in methods)


def test_a_host_value_made_from_jax_arrays_is_refused(tmp_path):
    # float() of a JAX result: the probe cannot tell that from work launched and dropped
    code, report = run_main(bench.main, [spec(BENCH, "host_value"), "--repeat", "2"], tmp_path)
    assert code == 3 and report["ok"] is False
    assert report["error"]["class"] == "UnsynchronisableOutput"
    assert "only host values (float)" in report["error"]["message"]
    assert "results" not in report


def test_a_numpy_only_function_is_timed(tmp_path):
    argv = [spec(BENCH, "numpy_host_value"), "--factory", "make_numpy", "--repeat", "2"]
    code, report = run_main(bench.main, argv, tmp_path)
    assert code == 0, report.get("error")
    result = report["results"]["target"]
    # one extra untimed call checked that it runs no JAX code
    assert result["calls"] == 1 + 2 + 2 + 1
    assert result["synchronisation"] == {"effects barrier (no output arrays)": 1 + 2 + 2}


def test_a_jitted_function_returning_none_times_what_xla_runs(tmp_path):
    # under jit the dropped matmuls are dead code: the compiled program computes nothing
    argv = [spec(BENCH, "two_matmuls_returns_none"), "--factory", "make_pair", "--jit"]
    code, report = run_main(bench.main, [*argv, "--repeat", "3"], tmp_path)
    assert code == 0, report.get("error")
    assert report["results"]["target"]["synchronisation"] == {
        "effects barrier (jitted, no output arrays)": 1 + 2 + 3
    }


def test_numpy_inputs_are_put_on_the_device_before_the_clock(tmp_path, monkeypatch):
    real = _bench_call.synchronise
    arg_types = []

    def spy(jax, out, inputs, *rest):
        arg_types.append(sorted({type(a).__name__ for a in inputs}))
        return real(jax, out, inputs, *rest)

    monkeypatch.setattr(_bench_call, "synchronise", spy)
    argv = [spec(BENCH, "update"), "--factory", "make_numpy", "--jit", "--donate-argnums", "0"]
    code, report = run_main(bench.main, [*argv, "--repeat", "3"], tmp_path)
    assert code == 0, report.get("error")
    result = report["results"]["target"]
    assert result["numpy_input_leaves"] == {
        "device_put_before_the_clock": 6,
        "passed_as_they_are": 0,
    }
    assert arg_types == [["ArrayImpl"]] * 6  # the call got device arrays, not np.ndarray
    # donation was checked on the device arrays: every call consumed its input
    assert result["donation"]["calls_that_consumed_donated_inputs"] == 6

    # unjitted: passed as they are, and said so
    code, report = run_main(
        bench.main, [spec(BENCH, "update"), "--factory", "make_numpy", "--repeat", "2"], tmp_path
    )
    assert code == 0, report.get("error")
    result = report["results"]["target"]
    # update(np.ndarray) is NumPy only: one extra untimed call checked that (issue 26)
    assert result["numpy_input_leaves"]["passed_as_they_are"] == 1 + 2 + 2 + 1
    assert any("NumPy input leaves were passed as they are" in w for w in result["warnings"])


def test_reused_input_objects_are_counted(tmp_path):
    argv = [spec(BENCH, "update"), "--factory", "make_shared", "--jit", "--repeat", "3"]
    code, report = run_main(bench.main, argv, tmp_path)
    assert code == 0, report.get("error")
    result = report["results"]["target"]
    assert result["calls_reusing_input_objects"] == result["calls"] - 1


def test_profile_writes_a_trace_with_one_annotation_per_timed_call(tmp_path):
    import gzip

    folder = tmp_path / "prof"
    argv = [spec(BENCH, "update"), "--jit", "--repeat", "3", "--profile", str(folder)]
    code, report = run_main(bench.main, argv, tmp_path)
    assert code == 0, report.get("error")
    profile = report["profile"]
    assert profile["trace_files"] and all(os.path.isfile(f) for f in profile["trace_files"])
    assert any(f.endswith(".xplane.pb") for f in profile["trace_files"])
    perfetto = profile["perfetto_trace"]
    assert perfetto in profile["trace_files"]
    text = gzip.open(perfetto, "rt").read()
    for i in (1, 2, 3):
        assert text.count(f"jaxlint bench target timed call {i}") >= 1
    assert "jaxlint bench target timed call 4" not in text
    assert profile["annotations"]["count"] == 3
    assert os.path.isfile(profile["memory_profile"])
    (peak,) = profile["peak_memory"].values()
    # CPU reports no memory statistics: said so, never a number
    assert peak["peak_bytes_in_use"] is None and "unavailable" in peak


def test_plot_writes_an_svg_of_both_sides(tmp_path):
    pytest.importorskip("matplotlib")
    svg = tmp_path / "times.svg"
    argv = [
        spec(BENCH, "update"),
        "--jit",
        "--repeat",
        "5",
        "--compare",
        spec(BENCH, "update_fused"),
    ]
    code, report = run_main(bench.main, [*argv, "--plot", str(svg)], tmp_path)
    assert code == 0, report.get("error")
    assert report["plot"] == {"file": str(svg), "written": True}
    text = svg.read_text(encoding="utf-8")
    assert "<svg" in text and "update_fused" in text


def test_plot_without_matplotlib_is_a_text_histogram_and_exit_2(tmp_path, monkeypatch, capsys):
    import sys

    monkeypatch.setitem(sys.modules, "matplotlib", None)  # `import matplotlib` fails
    svg = tmp_path / "times.svg"
    argv = [spec(BENCH, "update"), "--jit", "--repeat", "6", "--plot", str(svg), "--format", "text"]
    assert bench.main(argv) == 2
    out = capsys.readouterr().out
    assert "ok: NO" in out and "PlotUnavailable" in out and "jaxlinter[plot]" in out
    assert "histogram of the 6 timed calls" in out
    counts = [int(line.rsplit(" ", 1)[1]) for line in out.splitlines() if " | " in line]
    assert sum(counts) == 6
    assert not svg.exists()


class _StillComputing:
    """A kept array as the probe sees it when its work outlasted the clock."""

    def __init__(self, array):
        self.array = array

    def is_ready(self):
        return False

    def is_deleted(self):
        return self.array.is_deleted()

    def block_until_ready(self):
        return self.array.block_until_ready()


def test_a_time_less_the_probes_scan_is_reported_as_a_lower_bound(tmp_path, monkeypatch):
    """Kept arrays still computing after the clock: the time is the wait's end less the
    probe's scan, which the work may have overlapped. Each timed call's subtracted scan
    is reported with the samples, and a warning says the times are lower bounds."""
    real = _bench_call._created
    monkeypatch.setattr(
        _bench_call, "_created", lambda jax, ids: [_StillComputing(a) for a in real(jax, ids)]
    )
    argv = [spec(BENCH, "two_matmuls_stores_state"), "--factory", "make_pair", "--repeat", "3"]
    code, report = run_main(bench.main, argv, tmp_path)
    assert code == 0, report.get("error")
    result = report["results"]["target"]
    kept = result["kept_arrays"]
    assert kept["calls_waited_for_kept_arrays"] == 1 + 2 + 3
    scans = kept["scan_subtracted_seconds"]
    assert len(scans) == len(result["samples"]) == 3
    assert all(scan > 0 for scan in scans)
    assert max(scans) <= kept["longest_scan_left_out_seconds"]
    assert any("3 of 3 timed call(s)" in w and "lower bound" in w for w in result["warnings"])
