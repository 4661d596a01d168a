"""Issue 26: ``jaxlint probe bench`` never misleads.

Each case runs a real function on CPU JAX (tests/fixtures/probes/honesty_cases.py).
Either the probe refuses it (``ok: false``, with the reason), or its median agrees
with an independent measurement made here: the median of calls of the same work with
fresh inputs, each waited for on every device array it produced (``truth_*``). The
only timing assertion is that ratio, within 0.8-1.25; the work per call (10-40 ms) is
large beside timer and scheduling noise, and the comparison is made in five rounds
(truth, then probe) and the median of their ratios is checked, so that a change of load
on the machine hits both sides of a round.
"""

from __future__ import annotations

import importlib.util
import statistics
import time
from types import ModuleType

import pytest
from probe_support import FIXTURES, run_main, spec

jax = pytest.importorskip("jax")

from jaxlint.runtime_probes import bench  # noqa: E402

CASES = FIXTURES / "honesty_cases.py"
LOW, HIGH = 0.8, 1.25


@pytest.fixture(scope="module")
def cases() -> ModuleType:
    module_spec = importlib.util.spec_from_file_location("honesty_cases_truth", CASES)
    assert module_spec is not None and module_spec.loader is not None
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    return module


def _truth(cases: ModuleType, name: str, factory: str, calls: int) -> list[float]:
    truth = getattr(cases, f"truth_{name}")
    make = getattr(cases, factory)
    samples = []
    for i in range(calls + 2):
        args, kwargs = make()
        jax.block_until_ready((args, kwargs))
        start = time.perf_counter()
        truth(*args, **kwargs)
        elapsed = time.perf_counter() - start
        if i >= 2:  # two warm-up calls (compilation, caches)
            samples.append(elapsed)
    return samples


def _bench(tmp_path, name: str, factory: str, *flags: str) -> tuple[int, dict]:
    argv = [spec(CASES, name), "--factory", factory, "--repeat", "7", *flags]
    return run_main(bench.main, argv, tmp_path)


def _ratio(cases, tmp_path, name, factory="make_inputs", *flags) -> tuple[float, dict]:
    """The median over five rounds of (probe's median / truth's median), each round
    measuring the truth just before the probe: a change of the machine's load (other
    processes on a shared machine) then hits both sides of a round."""
    ratios, report = [], {}
    for _ in range(5):
        truth = statistics.median(_truth(cases, name, factory, 7))
        code, report = _bench(tmp_path, name, factory, *flags)
        assert code == 0, report.get("error")
        assert report["ok"] is True
        ratios.append(report["results"]["target"]["stats"]["median"] / truth)
    return statistics.median(ratios), report


@pytest.mark.parametrize(
    ("name", "flags"),
    [
        ("chain", ("--jit",)),  # async dispatch: outputs waited for inside the clock
        ("pytree", ("--jit",)),  # every leaf of a nested output
        ("donated", ("--jit", "--donate-argnums", "0")),  # fresh inputs, consumed each call
    ],
)
def test_reported_median_agrees_with_synchronised_calls(cases, tmp_path, name, flags) -> None:
    ratio, report = _ratio(cases, tmp_path, name, "make_inputs", *flags)
    assert LOW <= ratio <= HIGH, ratio
    result = report["results"]["target"]
    assert result["compiles_during_timed_calls"] == 0
    assert result["first_call"]["seconds"] is not None


def test_a_function_keeping_a_metrics_array_is_not_charged_for_live_arrays(cases, tmp_path) -> None:
    """Item 1: the old probe scanned jax.live_arrays() inside the clock for a function
    that keeps arrays; with many live arrays its time was several times the work's."""
    ratio, report = _ratio(cases, tmp_path, "keeps_metric")
    assert LOW <= ratio <= HIGH, ratio
    assert report["results"]["target"]["kept_arrays"]["calls_waited_for_kept_arrays"] >= 0


def test_a_function_keeping_state_gets_honest_per_call_times(cases, tmp_path) -> None:
    ratio, report = _ratio(cases, tmp_path, "keeps_state")
    assert LOW <= ratio <= HIGH, ratio
    assert "kept_arrays" in report["results"]["target"]


def test_a_host_only_result_after_dropped_device_work_is_refused(tmp_path) -> None:
    """Item 2: the old probe timed dispatch (about 1% of the work) and said ok."""
    code, report = _bench(tmp_path, "drops_work", "make_inputs")
    assert code == 3 and report["ok"] is False
    error = report["error"]
    assert error["class"] == "UnsynchronisableOutput"
    assert "only host values (int)" in error["message"] and "dispatch only" in error["message"]
    assert "results" not in report


@pytest.mark.parametrize(
    ("name", "factory", "words"),
    [
        ("cached", "make_count", "functools cache"),  # lru_cache: a hit after the first call
        ("memoised", "make_inputs", "same output array objects"),  # the same array returned
    ],
)
def test_a_cached_result_is_refused(tmp_path, name, factory, words) -> None:
    """Item 3: the old probe timed the cache lookup (a microsecond) and said ok."""
    code, report = _bench(tmp_path, name, factory)
    assert code == 3 and report["ok"] is False
    assert report["error"]["class"] == "CachedOutput"
    assert words in report["error"]["message"]
    assert "results" not in report
