"""Issue 26: ``jaxlint probe bench`` never misleads.

Each case runs a real function on CPU JAX (tests/fixtures/probes/honesty_cases.py).
Either the probe refuses it (``ok: false``, with the reason), or its median agrees
with an independent measurement made here: the median of calls of the same work with
fresh inputs, each waited for on every device array it produced (``truth_*``). The
only timing assertion is that ratio, within 0.8-1.25, the median of five rounds, each
measuring the truth just before and just after the probe. The probe runs as the real
command in its own process, and so does the truth: with both in the test process
(the fixture module imported again for each run, its live arrays each time), the
ratios drifted to 0.78-1.5 from run to run; measured from fresh processes they held.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import uuid

import pytest
from probe_support import FIXTURES, probe_env, spec

jax = pytest.importorskip("jax")

CASES = FIXTURES / "honesty_cases.py"
# The ratio tests compare two timings: the team's rule is no timed assertion in the
# default suite (a loaded CI machine makes them flaky), so they run with `make honesty`
# (JAXLINT_TIMING_TESTS=1), and the refusals, which time nothing, run everywhere.
timing = pytest.mark.skipif(
    os.environ.get("JAXLINT_TIMING_TESTS") != "1",
    reason="a timing comparison: run with `make honesty` (JAXLINT_TIMING_TESTS=1)",
)
LOW, HIGH = 0.8, 1.25
# as many live arrays as the honesty table: in fresh processes, 10,000 were too few for
# the old probe's in-clock scan to leave the 0.8-1.25 band (30,000: 2.2x and 1.5x)
LIVE_ARRAYS = "30000"


TRUTH = """
import json, sys, time
import importlib.util
import jax
spec = importlib.util.spec_from_file_location("honesty_cases_truth", sys.argv[1])
cases = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cases)
run, make = getattr(cases, "truth_" + sys.argv[2]), getattr(cases, sys.argv[3])
samples = []
for i in range(int(sys.argv[4]) + 2):
    args, kwargs = make()
    jax.block_until_ready((args, kwargs))
    start = time.perf_counter()
    run(*args, **kwargs)
    elapsed = time.perf_counter() - start
    if i >= 2:  # two warm-up calls (compilation, caches)
        samples.append(elapsed)
print(json.dumps(samples))
"""


def _truth(tmp_path, name: str, factory: str, calls: int) -> list[float]:
    """The same work, each call waited for on every array it produced, in a fresh
    process like the probe's (measured in this test process, it read up to 25% slower
    than in a fresh one: this process holds much more)."""
    proc = subprocess.run(
        [sys.executable, "-c", TRUTH, str(CASES), name, factory, str(calls)],
        capture_output=True,
        text=True,
        env=probe_env(HONESTY_LIVE_ARRAYS=LIVE_ARRAYS),
        cwd=tmp_path,
        timeout=300,
        check=True,
    )
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _bench(tmp_path, name: str, factory: str, *flags: str) -> tuple[int, dict]:
    """The real command in its own process, as a user runs it (in this process the
    fixture module, imported again for each run, would pile up live arrays)."""
    out = tmp_path / f"report-{uuid.uuid4().hex}.json"
    argv = [spec(CASES, name), "--factory", factory, "--repeat", "7", *flags]
    proc = subprocess.run(
        [sys.executable, "-m", "jaxlint.runtime_probes.bench", *argv, "--output", str(out)],
        capture_output=True,
        text=True,
        env=probe_env(HONESTY_LIVE_ARRAYS=LIVE_ARRAYS),
        cwd=tmp_path,
        timeout=300,
        check=False,
    )
    return proc.returncode, json.loads(out.read_text(encoding="utf-8"))


def _ratio(tmp_path, name, factory="make_inputs", *flags) -> tuple[float, dict]:
    """The median over five rounds of (probe's median / truth's median), each round
    measuring the truth just before and just after the probe: a change of the machine's
    load (other processes on a shared 2-core machine slow a call down for seconds at a
    time) then hits both sides of a round."""
    ratios, report = [], {}
    for _ in range(5):
        before = _truth(tmp_path, name, factory, 5)
        code, report = _bench(tmp_path, name, factory, *flags)
        after = _truth(tmp_path, name, factory, 5)
        assert code == 0, report.get("error")
        assert report["ok"] is True
        truth = statistics.median(before + after)  # the probe's run sits between the two
        ratios.append(report["results"]["target"]["stats"]["median"] / truth)
    return statistics.median(ratios), report


@timing
@pytest.mark.parametrize(
    ("name", "flags"),
    [
        ("chain", ("--jit",)),  # async dispatch: outputs waited for inside the clock
        ("pytree", ("--jit",)),  # every leaf of a nested output
        ("donated", ("--jit", "--donate-argnums", "0")),  # fresh inputs, consumed each call
    ],
)
def test_reported_median_agrees_with_synchronised_calls(tmp_path, name, flags) -> None:
    ratio, report = _ratio(tmp_path, name, "make_inputs", *flags)
    assert LOW <= ratio <= HIGH, ratio
    result = report["results"]["target"]
    assert result["compiles_during_timed_calls"] == 0
    assert result["first_call"]["seconds"] is not None


@timing
def test_a_function_keeping_a_metrics_array_is_not_charged_for_live_arrays(tmp_path) -> None:
    """Item 1: the old probe scanned jax.live_arrays() inside the clock for a function
    that keeps arrays; with many live arrays its time was several times the work's."""
    ratio, report = _ratio(tmp_path, "keeps_metric")
    assert LOW <= ratio <= HIGH, ratio
    assert report["results"]["target"]["kept_arrays"]["calls_waited_for_kept_arrays"] >= 0


@timing
def test_a_function_keeping_state_gets_honest_per_call_times(tmp_path) -> None:
    ratio, report = _ratio(tmp_path, "keeps_state")
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
