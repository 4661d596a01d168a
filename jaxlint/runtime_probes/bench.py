"""``jaxlint probe bench``: honest timing of a function on fresh, equivalent inputs.

The rules it keeps:

* the factory builds fresh inputs for EVERY call (first, warm-up and timed), so a
  donated argument is never reused; an input array that an earlier call consumed
  is refused;
* preparing the inputs (NumPy leaves ``device_put`` for a jitted function), and
  synchronising them, happens outside the timer;
* inside the timer: the call and the synchronisation of what it returned (every
  output array and every input array it did not consume; ``jax.effects_barrier()``
  when there is none), nothing else; arrays the call created and kept are found after
  the clock stops, and one still computing extends the time to its end
  (``_bench_call``);
* a result with no device array from an unjitted function that runs JAX code, and a
  cached result (the previous call's arrays again, a ``functools`` cache hit), are
  refused (exit 3): the time would be dispatch or a lookup;
* every call's inputs must be equivalent to the first call's (same pytree, avals,
  shardings and static values), and no XLA compilation may happen during the timed
  calls: otherwise the measurement is invalid (``ok: false``, exit 1) unless
  ``--allow-recompiles``;
* the first call is reported on its own, labelled "first call (includes
  tracing/compilation; may hit caches)", never as compile time;
* if anything fails, the report has ``"ok": false`` and no timing numbers.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import random
import statistics
import sys
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from jaxlint.runtime_probes._bench_call import (  # noqa: F401 (the probe's API)
    Unsynchronisable,
    array_leaves,
    array_leaves_safe,
    call_once,
    synchronise,
)
from jaxlint.runtime_probes._common import (
    EXIT_ERROR,
    EXIT_EXPECTATION,
    EXIT_OK,
    FIRST_CALL_LABEL,
    ProbeFailure,
    Report,
    add_jit_flags,
    count,
    error_text,
    fail,
    fmt_seconds,
    import_jax,
    init_backend,
    make_parser,
    run_probe,
    status_line,
    usage_error,
)
from jaxlint.runtime_probes._inputs import add_args_flag, input_factory, inputs_text
from jaxlint.runtime_probes._monitor import CompileMonitor
from jaxlint.runtime_probes._plot import bench_figure, text_histogram, write_plot
from jaxlint.runtime_probes._targets import (
    Inputs,
    Loader,
    Target,
    call_factory,
    effective_jit,
    is_jitted,
    known_list,
    parameter_names,
    static_keys,
)
from jaxlint.runtime_probes._trees import Signature, diff_signatures, signature
from jaxlint.runtime_probes.env import backend_summary, versions_report

SUMMARY = "Time a function honestly: fresh inputs per call, synchronised outputs."
DETAILS = """\
Every call (the first, each warm-up and each timed call) gets fresh inputs from the
factory, which returns (args, kwargs). Preparing the inputs (NumPy leaves are
jax.device_put when the function is jitted) and waiting for them is outside the timer;
the call and the synchronisation of what it produced are inside it (time.perf_counter):
jax.block_until_ready on every array in its output and on every input array it did not
consume (jax.effects_barrier() when it returns none); nothing else is inside the timer.
After the clock stops, the arrays the call created and kept (jax.live_arrays()) are
checked: one still being computed is waited for and the call's time runs to its end.
An unjitted function whose result holds no device array and that keeps none is
checked once on an extra untimed call: if it runs JAX code, it is refused (exit 3),
the time would be dispatch only (return the arrays, not float(x)). A result that is
the previous call's arrays again, or a functools cache hit, is refused (exit 3).
Outputs may also hold NumPy arrays and Python numbers (already on the
host); any other leaf is an error.

Every call's inputs must be equivalent to the first call's (pytree, shapes, dtypes,
weak types, shardings, static values), and no XLA compilation may happen during the
timed calls: otherwise the run is invalid ("ok": false, exit 1) unless you pass
--allow-recompiles. Compilations during the first call and the warm-up are reported.

The first call is reported on its own as "first call (includes tracing/compilation; may
hit caches)": it is not compile time. Then --warmup untimed calls, then --repeat timed
calls, summarised as min, mean, stdev (sample) and the percentiles p10, p50 (the
median), p90 and p99 (linear interpolation). With --compare, the second function is
timed in alternation (A B A B ...) on inputs from its own factory (default: the same
one); the report gives the ratio of medians with a bootstrap confidence interval over
the interleaved pairs, and a verdict only when the interval excludes 1.

With --donate-argnums, an input array that an earlier call consumed is refused (the
factory must build new arrays each call), and the report says whether each call really
consumed its donated inputs. If any call raises or returns an output that cannot be
synchronised, the report has "ok": false and no timing numbers (exit 3). This measures
one workload on one machine: for a training loop that carries state forward, time
that loop separately."""
EXAMPLES = """\
  jaxlint probe bench step.py:update --jit --repeat 50 --format text
  jaxlint probe bench step.py:update --jit --donate-argnums 0 --factory make_state
  jaxlint probe bench ops.py:attention --jit --compare ops.py:attention_fused
  jaxlint probe bench ops.py:loss --jit --static-argnums 2 --warmup 5 --output bench.json
  python -m jaxlint.runtime_probes.bench step.py:update --jit --repeat 20"""

#: Bootstrap of the A/B ratio: resamples, confidence level and the seed (reproducible).
BOOTSTRAP_RESAMPLES = 2000
CONFIDENCE = 0.95
BOOTSTRAP_SEED = 0


def build_parser() -> argparse.ArgumentParser:
    parser = make_parser("bench", SUMMARY, DETAILS, EXAMPLES)
    parser.add_argument(
        "target", help="the function: path/to/file.py:FUNCTION or package.module:FUNCTION"
    )
    parser.add_argument(
        "--factory",
        metavar="NAME|FILE.py:FUNC",
        help="input factory returning (args, kwargs), called before every call: a name in the"
        " target's module or a full spec (default: make_inputs)",
    )
    parser.add_argument(
        "--jit",
        action="store_true",
        help="wrap the function(s) in jax.jit (needed for --static-argnums, --static-argnames"
        " and --donate-argnums); without it the function is called as it is",
    )
    add_args_flag(parser)
    add_jit_flags(parser)
    parser.add_argument(
        "--warmup",
        type=count(0),
        default=2,
        metavar="N",
        help="untimed calls after the first call (default 2)",
    )
    parser.add_argument(
        "--repeat", type=count(1), default=20, metavar="N", help="timed calls (default 20)"
    )
    parser.add_argument(
        "--compare",
        metavar="FILE.py:FUNC",
        help="a second function, timed in alternation with the target (A B A B ...)",
    )
    parser.add_argument(
        "--compare-factory",
        metavar="NAME|FILE.py:FUNC",
        help="input factory for --compare (default: the target's factory)",
    )
    parser.add_argument(
        "--plot",
        metavar="FILE.svg",
        help="draw the distribution of the timed calls (both sides of an A/B) to FILE.svg;"
        " needs matplotlib (the plot extra); without it --format text shows a text histogram"
        " and the probe exits 2",
    )
    parser.add_argument(
        "--profile",
        metavar="DIR",
        help="write a jax.profiler trace of the timed calls to DIR (one TraceAnnotation per"
        " call; open it in Perfetto or TensorBoard), the device memory profile"
        " (memory.prof) and the peak memory where the backend reports it",
    )
    parser.add_argument(
        "--allow-recompiles",
        action="store_true",
        help="report the times even when the timed calls compiled or the factory's inputs"
        " were not equivalent (they are then flagged in warnings); default: the run is"
        " invalid (exit 1)",
    )
    return parser


# -- one function under test -----------------------------------------------------------------


@dataclass
class Subject:
    label: str
    spec: str
    factory: Target
    fn: Callable[..., Any]
    jitted: bool
    donate_argnums: list[int]
    params: list[str] | None
    static_argnums: list[int]
    static_argnames: list[str]
    first_call: float | None = None
    samples: list[float] = field(default_factory=list)
    factory_calls: int = 0
    calls: int = 0
    donated_consumed: int = 0
    donated_not_consumed: int = 0
    donation_not_checked: int = 0
    reused_input_objects: int = 0
    numpy_leaves_put: int = 0
    numpy_leaves_passed: int = 0
    output_arrays: int = 0
    sync: dict[str, int] = field(default_factory=dict)
    compiles_first_call: int = 0
    compiles_warmup: int = 0
    compiles_timed: int = 0
    timed_calls_that_compiled: list[int] = field(default_factory=list)
    not_equivalent: list[dict[str, Any]] = field(default_factory=list)
    first_signature: Signature | None = None
    warnings: list[str] = field(default_factory=list)
    warning_rules: list[dict[str, Any]] = field(default_factory=list)
    keeps_arrays: bool = False
    kept_pending_calls: int = 0
    kept_check_gap: float = 0.0
    kept_check_gap_ratio: float = 0.0
    kept_scan_left_out: float = 0.0
    # the scan subtracted from the last call's time (None: nothing subtracted), and per
    # timed call, aligned with samples
    last_scan_subtracted: float | None = None
    scan_subtracted: list[float | None] = field(default_factory=list)
    host_only_checked: bool | None = None
    previous_outputs: list[Any] = field(default_factory=list)
    _previous: dict[int, weakref.ref[Any]] = field(default_factory=dict)

    def _static(self, n_args: int) -> set[int | str]:
        return static_keys(n_args, self.params, self.static_argnums, self.static_argnames)

    def _put_numpy(self, jax: ModuleType, inputs: Inputs) -> Inputs:
        """NumPy leaves of traced arguments go to the device now, outside the timer: a
        jitted function would transfer them inside it. An unjitted function gets them as
        they are (it may use NumPy semantics); they are counted."""
        import numpy as np

        args, kwargs = inputs
        static = self._static(len(args))
        count = 0

        def put(leaf: Any) -> Any:
            nonlocal count
            if isinstance(leaf, (np.ndarray, np.generic)):
                count += 1
                return jax.device_put(leaf) if self.jitted else leaf
            return leaf

        new_args = tuple(
            a if i in static else jax.tree_util.tree_map(put, a) for i, a in enumerate(args)
        )
        new_kwargs = {
            k: v if k in static else jax.tree_util.tree_map(put, v) for k, v in kwargs.items()
        }
        if self.jitted:
            self.numpy_leaves_put += count
        else:
            self.numpy_leaves_passed += count
        return new_args, new_kwargs

    def prepare(self, jax: ModuleType, phase: str, call_index: int) -> Inputs:
        inputs = call_factory(self.factory)
        self.factory_calls += 1
        leaves = array_leaves_safe(jax, inputs)
        for leaf in leaves:
            if leaf.is_deleted():
                fail(
                    EXIT_ERROR,
                    "FactoryContractError",
                    f"{self.factory.name}() returned an array that an earlier call consumed"
                    f" (donated or deleted) for the {phase}: the factory must build fresh"
                    " inputs on every call",
                )
        if any(self._previous.get(id(leaf), _dead)() is leaf for leaf in leaves):
            self.reused_input_objects += 1
        # weak references: the previous inputs are not kept alive (they may be large)
        self._previous = {id(leaf): weakref.ref(leaf) for leaf in leaves}
        inputs = self._put_numpy(jax, inputs)
        self._check_equivalent(jax, inputs, phase, call_index)
        jax.block_until_ready(inputs)  # transfers finish outside the timer
        return inputs

    def _check_equivalent(self, jax: ModuleType, inputs: Inputs, phase: str, index: int) -> None:
        args, kwargs = inputs
        sig = signature(jax, args, kwargs, self.params, self._static(len(args)))
        if self.first_signature is None:
            self.first_signature = sig
            return
        changes = diff_signatures(self.first_signature, sig)
        if changes:
            self.not_equivalent.append({"call": index, "phase": phase, "changed": changes})

    def donated(self, jax: ModuleType, inputs: Inputs) -> list[Any]:
        args = inputs[0]
        picked = [args[i] for i in self.donate_argnums if -len(args) <= i < len(args)]
        return [a for a in jax.tree_util.tree_leaves(picked) if isinstance(a, jax.Array)]


def _dead() -> None:
    return None


# -- --profile -------------------------------------------------------------------------------


def start_profile(jax: ModuleType, directory: str) -> bool:
    try:
        os.makedirs(directory, exist_ok=True)
    except OSError as exc:
        fail(EXIT_ERROR, "OutputError", f"cannot create {directory}: {exc.strerror or exc}")
    try:
        jax.profiler.start_trace(directory, create_perfetto_trace=True)
    except Exception as exc:  # e.g. a trace already running in this process
        fail(
            EXIT_ERROR,
            "ProfilerError",
            f"jax.profiler.start_trace({directory!r}) raised {type(exc).__name__}: {exc}",
        )
    return True


def _files_under(directory: str) -> list[str]:
    found = []
    for root, _, files in os.walk(directory):
        found += [os.path.join(root, f) for f in files]
    return sorted(found)


def finish_profile(jax: ModuleType, directory: str, subjects: list[Subject]) -> dict[str, Any]:
    """Stop the trace, save the device memory profile, read the peak memory: each part
    says what it wrote or why it is unavailable (never a number that was not measured)."""
    before = set(_files_under(directory))
    out: dict[str, Any] = {"directory": os.path.abspath(directory)}
    try:
        jax.profiler.stop_trace()
    except Exception as exc:
        out["trace_error"] = f"{type(exc).__name__}: {exc}"
    trace_files = [f for f in _files_under(directory) if f not in before]
    out["trace_files"] = trace_files
    out["perfetto_trace"] = next(
        (f for f in trace_files if f.endswith("perfetto_trace.json.gz")), None
    )
    out["annotations"] = {
        "name": "jaxlint bench {target|compare} timed call {N}",
        "count": sum(len(x.samples) for x in subjects),
    }
    out["note"] = "the timed calls ran under the profiler: their times include its overhead"
    out["open_with"] = (
        "https://ui.perfetto.dev (open perfetto_trace.json.gz), or"
        f" `tensorboard --logdir {os.path.abspath(directory)}` (Profile tab)"
    )
    memory = os.path.join(directory, "memory.prof")
    try:
        jax.profiler.save_device_memory_profile(memory)
        out["memory_profile"] = os.path.abspath(memory)
        out["memory_profile_viewer"] = f"pprof --web {os.path.abspath(memory)}"
    except Exception as exc:
        out["memory_profile"] = None
        out["memory_profile_error"] = f"{type(exc).__name__}: {exc}"
    peaks: dict[str, Any] = {}
    for device in jax.local_devices():
        try:
            stats = device.memory_stats()
        except Exception as exc:
            stats, why = None, f"memory_stats() raised {type(exc).__name__}"
        else:
            why = "memory_stats() returned None on this backend"
        if stats and "peak_bytes_in_use" in stats:
            peaks[str(device)] = {"peak_bytes_in_use": stats["peak_bytes_in_use"]}
        else:
            peaks[str(device)] = {
                "peak_bytes_in_use": None,
                "unavailable": why if not stats else "memory_stats() has no peak_bytes_in_use",
            }
    out["peak_memory"] = peaks
    if "trace_error" in out or not trace_files:
        fail(
            EXIT_ERROR,
            "ProfilerError",
            "the profiler wrote no trace file"
            + (f": {out['trace_error']}" if "trace_error" in out else ""),
        )
    return out


# -- statistics ------------------------------------------------------------------------------


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """Linear interpolation between closest ranks (NumPy's default)."""
    pos = (len(sorted_values) - 1) * q
    lo, hi = math.floor(pos), math.ceil(pos)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


def stats(samples: Sequence[float]) -> dict[str, Any]:
    ordered = sorted(samples)
    return {
        "n": len(ordered),
        "min": ordered[0],
        "median": statistics.median(ordered),
        "mean": statistics.fmean(ordered),
        "stdev": statistics.stdev(ordered) if len(ordered) > 1 else None,
        "p10": percentile(ordered, 0.1),
        "p50": percentile(ordered, 0.5),
        "p90": percentile(ordered, 0.9),
        "p99": percentile(ordered, 0.99),
        "max": ordered[-1],
    }


def ratio_interval(
    a: Sequence[float],
    b: Sequence[float],
    *,
    resamples: int = BOOTSTRAP_RESAMPLES,
    confidence: float = CONFIDENCE,
    seed: int = BOOTSTRAP_SEED,
) -> dict[str, Any]:
    """median(B) / median(A) with a percentile-bootstrap interval over the (A, B) pairs.

    The pairs are the interleaved timed calls (A then B); each resample draws pairs with
    replacement, so a slow moment of the machine hits both sides of a pair. A verdict is
    given only when the interval excludes 1.
    """
    pairs = [(x, y) for x, y in zip(a, b, strict=True)]
    out: dict[str, Any] = {
        "ratio": "median(compare) / median(target)",
        "pairs": len(pairs),
        "confidence": confidence,
        "resamples": resamples,
        "seed": seed,
    }
    ma = statistics.median(a)
    if ma <= 0 or len(pairs) < 2:
        out.update(
            estimate=None,
            low=None,
            high=None,
            verdict=None,
            reason="needs at least 2 pairs and a positive target median",
        )
        return out
    rng = random.Random(seed)
    n = len(pairs)
    ratios = []
    for _ in range(resamples):
        drawn = [pairs[rng.randrange(n)] for _ in range(n)]
        da = statistics.median(x for x, _ in drawn)
        db = statistics.median(y for _, y in drawn)
        if da > 0:
            ratios.append(db / da)
    ratios.sort()
    tail = (1 - confidence) / 2
    low, high = percentile(ratios, tail), percentile(ratios, 1 - tail)
    estimate = statistics.median(b) / ma
    if high < 1:
        verdict = "compare is faster than target"
    elif low > 1:
        verdict = "compare is slower than target"
    else:
        verdict = None
    out.update(estimate=estimate, low=low, high=high, verdict=verdict)
    if verdict is None:
        out["reason"] = f"the {confidence:.0%} interval includes 1: no difference shown"
    return out


# -- the probe -------------------------------------------------------------------------------


def _subject(
    jax: ModuleType,
    loader: Loader,
    label: str,
    spec: str,
    factory_spec: str | None,
    args: argparse.Namespace,
    default_factory: Target | None = None,
) -> tuple[Subject, dict[str, Any], dict[str, Any]]:
    target = loader.load(spec, role=label)
    if factory_spec is None and default_factory is not None:
        factory, inputs_from = default_factory, {"source": "the target's inputs"}
    else:
        factory, inputs_from = input_factory(
            loader, target, factory_spec, args.args if label == "target" else None
        )
    fn: Callable[..., Any] = target.obj
    jit_info: dict[str, Any] = {"wrapped_here": False}
    if args.jit:
        fn, jit_info = effective_jit(
            jax,
            target.obj,
            static_argnums=args.static_argnums,
            static_argnames=args.static_argnames,
            donate_argnums=args.donate_argnums,
        )
    elif is_jitted(fn):
        _, jit_info = effective_jit(
            jax, fn, static_argnums=[], static_argnames=[], donate_argnums=[]
        )
    subject = Subject(
        label,
        spec,
        factory,
        fn,
        jitted=is_jitted(fn),
        donate_argnums=known_list(jit_info.get("donate_argnums")),
        params=parameter_names(target.obj),
        static_argnums=known_list(jit_info.get("static_argnums")),
        static_argnames=known_list(jit_info.get("static_argnames")),
    )
    return subject, jit_info, inputs_from


def _subject_report(s: Subject, allow: bool) -> dict[str, Any]:
    out: dict[str, Any] = {
        "function": s.spec,
        "factory": s.factory.spec,
        "first_call": {"label": FIRST_CALL_LABEL, "seconds": s.first_call},
        "timed_calls": len(s.samples),
        "stats": stats(s.samples),
        "samples": s.samples,
        "calls": s.calls,
        "factory_calls": s.factory_calls,
        "output_arrays_synchronised_per_call": s.output_arrays,
        "synchronisation": dict(s.sync),
        "calls_reusing_input_objects": s.reused_input_objects,
        "numpy_input_leaves": {
            "device_put_before_the_clock": s.numpy_leaves_put,
            "passed_as_they_are": s.numpy_leaves_passed,
        },
        **_compile_counts(s),
        "warnings": list(s.warnings),
        "warning_rules": s.warning_rules,
    }
    flagged = []
    if s.compiles_timed and allow:
        flagged.append(
            f"{s.compiles_timed} XLA compilation(s) happened during the timed calls: the inputs'"
            " shapes, dtypes, shardings or static values change between calls, so these times"
            " include compilation"
        )
    if s.not_equivalent and allow:
        flagged.append(
            f"{len(s.not_equivalent)} call(s) got inputs that differ from the first call's"
            " (see inputs_not_equivalent): these times are of different workloads"
        )
    if s.numpy_leaves_passed:
        flagged.append(
            f"{s.numpy_leaves_passed} NumPy input leaves were passed as they are (the function"
            " is not jitted): any host-to-device transfer they cause is inside the timer"
        )
    lower_bounds = sum(1 for scan in s.scan_subtracted if scan is not None)
    if lower_bounds:
        flagged.append(
            f"{lower_bounds} of {len(s.samples)} timed call(s) kept arrays that were still"
            " computing when checked after the clock: each such time is the end of the wait"
            " for them less the probe's scan (kept_arrays.scan_subtracted_seconds), a lower"
            " bound: the work may have run during the scan, so the call took between the"
            " time and the time plus its scan"
        )
    out["warnings"] = flagged + out["warnings"]
    if s.keeps_arrays:
        out["kept_arrays"] = {
            "calls_waited_for_kept_arrays": s.kept_pending_calls,
            "longest_scan_left_out_seconds": s.kept_scan_left_out,
            "latest_check_after_the_clock_seconds": s.kept_check_gap,
            "latest_check_after_the_clock_ratio": s.kept_check_gap_ratio,
            "note": "arrays the call created and kept besides its outputs, checked after the"
            " clock: still computing, waited for (the time runs to the end of the wait, less"
            " the probe's scan for them, measured each call: a lower bound, see"
            " scan_subtracted_seconds);"
            " already computed, the time stands (work done after the clock stopped could be"
            " missed by at most the check's delay)",
        }
        if lower_bounds:
            # per timed call, aligned with samples: the scan subtracted (null: none)
            out["kept_arrays"]["scan_subtracted_seconds"] = list(s.scan_subtracted)
    if s.donate_argnums:
        out["donation"] = {
            "calls_that_consumed_donated_inputs": s.donated_consumed,
            "calls_that_did_not": s.donated_not_consumed,
            "calls_not_checked": s.donation_not_checked,
        }
    return out


def _compile_counts(s: Subject) -> dict[str, Any]:
    return {
        "compiles_during_first_call": s.compiles_first_call,
        "compiles_during_warmup": s.compiles_warmup,
        "compiles_during_timed_calls": s.compiles_timed,
        "timed_calls_that_compiled": s.timed_calls_that_compiled,
        "inputs_not_equivalent": s.not_equivalent,
    }


def _invalid_reasons(subjects: list[Subject]) -> list[str]:
    reasons = []
    for s in subjects:
        if s.not_equivalent:
            first = s.not_equivalent[0]
            change = first["changed"][0]
            reasons.append(
                f"{s.label}: {len(s.not_equivalent)} call(s) got inputs that are not equivalent"
                f" to the first call's (first: {first['phase']}, {change['path']}"
                f" {change['kind']} {change['before']} -> {change['now']})"
            )
        if s.compiles_timed:
            reasons.append(
                f"{s.label}: {s.compiles_timed} XLA compilation(s) during"
                f" {len(s.timed_calls_that_compiled)} of {len(s.samples)} timed calls"
            )
    return reasons


def run(args: argparse.Namespace, report: Report) -> int:
    if args.repeat < 1:
        usage_error("--repeat must be at least 1")
    if args.warmup < 0:
        usage_error("--warmup cannot be negative")
    if not args.jit and (args.static_argnums or args.static_argnames or args.donate_argnums):
        usage_error("--static-argnums, --static-argnames and --donate-argnums need --jit")
    if args.compare_factory and not args.compare:
        usage_error("--compare-factory needs --compare")
    jax = import_jax()
    devices = init_backend(jax)
    versions = versions_report()
    report["environment"] = {
        "jax": versions["jax"],
        "jaxlib": versions["jaxlib"],
        "python": versions["python"],
        **backend_summary(jax, devices),
    }
    report["settings"] = {
        "jit": args.jit,
        "static_argnums": args.static_argnums,
        "static_argnames": args.static_argnames,
        "donate_argnums": args.donate_argnums,
        "warmup": args.warmup,
        "repeat": args.repeat,
        "allow_recompiles": args.allow_recompiles,
        "timer": "time.perf_counter",
        "inputs": "fresh from the factory for every call, NumPy leaves device_put (jitted),"
        " prepared and synchronised untimed; equivalent to the first call's",
        "synchronisation": "inside the timer: the call, then jax.block_until_ready on every"
        " output array and unconsumed input array (jax.effects_barrier() with no output"
        " array); after it, arrays the call kept that were still computing are waited for"
        " and the call's time runs to the end of that wait",
        "order": "alternating A B A B" if args.compare else "A only",
    }
    loader = Loader()
    a, a_jit, a_from = _subject(jax, loader, "target", args.target, args.factory, args)
    subjects = [a]
    report["jit"] = {"target": a_jit}
    report["inputs_from"] = {"target": a_from}
    if args.compare:
        b, b_jit, b_from = _subject(
            jax, loader, "compare", args.compare, args.compare_factory, args, a.factory
        )
        subjects.append(b)
        report["jit"]["compare"] = b_jit
        report["inputs_from"]["compare"] = b_from
    report["target"] = args.target
    report["compare"] = args.compare
    try:
        with CompileMonitor(jax) as monitor:  # JAX records nothing on a cached call
            for s in subjects:
                s.first_call, s.compiles_first_call = call_once(jax, s, "first call", monitor, 0)
            for i in range(args.warmup):
                for s in subjects:
                    _, compiles = call_once(jax, s, f"warm-up call {i + 1}", monitor, 1 + i)
                    s.compiles_warmup += compiles
            profiling = start_profile(jax, args.profile) if args.profile else False
            try:
                for i in range(args.repeat):
                    for s in subjects:
                        seconds, compiles = call_once(
                            jax, s, f"timed call {i + 1}", monitor, 1 + args.warmup + i, profiling
                        )
                        s.samples.append(seconds)
                        s.scan_subtracted.append(s.last_scan_subtracted)
                        s.compiles_timed += compiles
                        if compiles:
                            s.timed_calls_that_compiled.append(i + 1)
            except BaseException:
                if profiling:
                    with contextlib.suppress(Exception):
                        jax.profiler.stop_trace()
                raise
            if profiling:
                report["profile"] = finish_profile(jax, args.profile, subjects)
    except ProbeFailure:
        report["calls_before_failure"] = {s.label: s.calls for s in subjects}
        raise  # no numbers: the failure is the result
    reasons = _invalid_reasons(subjects)
    if reasons and not args.allow_recompiles:
        # no numbers: they would be times of compilations or of different workloads
        report["invalid"] = {s.label: _compile_counts(s) for s in subjects}
        report["error"] = {
            "class": "InvalidMeasurement",
            "message": reasons[0],
            "reasons": reasons,
            "hint": "make the factory return inputs of one shape, dtype, sharding and static"
            " value (time each shape as its own run), or pass --allow-recompiles to see the"
            " times anyway",
        }
        return EXIT_EXPECTATION
    report["results"] = {s.label: _subject_report(s, args.allow_recompiles) for s in subjects}
    if args.compare:
        ma, mb = (
            report["results"]["target"]["stats"]["median"],
            report["results"]["compare"]["stats"]["median"],
        )
        pairs = [sb / sa for sa, sb in zip(a.samples, subjects[1].samples, strict=True) if sa > 0]
        report["ratio"] = {
            "compare_median_over_target_median": mb / ma if ma > 0 else None,
            "median_of_pair_ratios": statistics.median(pairs) if pairs else None,
            "interval": ratio_interval(a.samples, subjects[1].samples),
        }
    if args.plot:
        report["plot"] = write_plot(
            args.plot,
            bench_figure(
                {s.label: s.samples for s in subjects}, {s.label: s.spec for s in subjects}
            ),
        )
        if not report["plot"]["written"]:
            report["error"] = {
                "class": "PlotUnavailable",
                "message": f"--plot {args.plot} was not written: {report['plot']['reason']}",
                "hint": report["plot"].get("hint", ""),
            }
            return EXIT_ERROR
    return EXIT_OK


def render_text(report: Report) -> str:
    lines = [f"jaxlint probe bench {report.get('target', '')}".rstrip(), status_line(report)]
    env = report.get("environment")
    if env:
        kinds = sorted({d["device_kind"] for d in env["devices"]})
        lines.append(
            f"jax {env['jax']} / jaxlib {env['jaxlib']}, backend {env['default_backend']},"
            f" {env['device_count']} device(s): {', '.join(kinds)}"
        )
    settings = report.get("settings")
    if settings:
        lines.append(
            f"jit {settings['jit']}, donate {settings['donate_argnums'] or '-'}, warm-up"
            f" {settings['warmup']}, timed calls {settings['repeat']}, {settings['order']};"
            " fresh inputs per call, outputs synchronised inside the timer"
        )
    for label, info in (report.get("inputs_from") or {}).items():
        lines.extend(f"{label} {line}" for line in inputs_text(info))
    for label, r in (report.get("results") or {}).items():
        st = r["stats"]
        lines.append(f"{label}: {r['function']}")
        lines.append(f"  {r['first_call']['label']}: {fmt_seconds(r['first_call']['seconds'])}")
        lines.append(
            f"  timed ({st['n']}): min {fmt_seconds(st['min'])}, p10 {fmt_seconds(st['p10'])},"
            f" median {fmt_seconds(st['median'])}, p90 {fmt_seconds(st['p90'])},"
            f" p99 {fmt_seconds(st['p99'])}, mean {fmt_seconds(st['mean'])},"
            f" stdev {fmt_seconds(st['stdev'])}"
        )
        lines.append(
            f"  factory calls: {r['factory_calls']}; compilations: first call"
            f" {r['compiles_during_first_call']}, warm-up {r['compiles_during_warmup']},"
            f" timed {r['compiles_during_timed_calls']}"
        )
        lines.append(
            "  synchronised on: " + "; ".join(f"{k} ({v})" for k, v in r["synchronisation"].items())
        )
        if "donation" in r:
            d = r["donation"]
            checked = d["calls_that_consumed_donated_inputs"] + d["calls_that_did_not"]
            if checked:
                lines.append(
                    f"  donated inputs consumed in {d['calls_that_consumed_donated_inputs']} of"
                    f" {checked} calls checked"
                )
            if d["calls_not_checked"]:
                lines.append(
                    f"  donation not checked in {d['calls_not_checked']} calls (no donated array)"
                )
        for w in r["warnings"]:
            lines.append(f"  warning: {w}")
    plot = report.get("plot")
    if plot and plot["written"]:
        lines.append(f"plot: {plot['file']}")
    elif plot:
        for label, r in (report.get("results") or {}).items():
            lines.append(f"{label}: histogram of the {r['timed_calls']} timed calls")
            lines.extend(text_histogram(r["samples"]))
    profile = report.get("profile")
    if profile:
        lines.append(
            f"profile: {profile['directory']} ({profile['annotations']['count']} annotated calls)"
        )
        lines.extend(f"  trace: {f}" for f in profile["trace_files"])
        if profile.get("memory_profile"):
            lines.append(f"  device memory profile: {profile['memory_profile']}")
        for device, peak in profile["peak_memory"].items():
            value = peak["peak_bytes_in_use"]
            lines.append(
                f"  peak memory {device}: "
                + (
                    f"{value} bytes"
                    if value is not None
                    else f"unavailable ({peak['unavailable']})"
                )
            )
        lines.append(f"  open with: {profile['open_with']}")
    ratio = report.get("ratio")
    if ratio and ratio.get("compare_median_over_target_median") is not None:
        lines.append(
            f"compare/target: ratio of medians {ratio['compare_median_over_target_median']:.3f},"
            f" median of pair ratios {ratio['median_of_pair_ratios']:.3f}"
        )
        ci = ratio.get("interval") or {}
        if ci.get("low") is not None:
            lines.append(
                f"  {ci['confidence']:.0%} bootstrap interval of the ratio ({ci['pairs']} pairs):"
                f" [{ci['low']:.3f}, {ci['high']:.3f}]: {ci['verdict'] or ci.get('reason')}"
            )
    invalid = report.get("invalid")
    if invalid:
        lines.append("no timings: the measurement is invalid")
        for label, counts in invalid.items():
            lines.append(
                f"  {label}: compilations first call {counts['compiles_during_first_call']},"
                f" warm-up {counts['compiles_during_warmup']}, timed"
                f" {counts['compiles_during_timed_calls']}; calls with inputs not equivalent:"
                f" {len(counts['inputs_not_equivalent'])}"
            )
    elif report.get("error") and not report.get("results"):
        lines.append("no timings: the run did not complete")
    if report.get("error"):
        lines.extend(error_text(report["error"]))
        for reason in report["error"].get("reasons", [])[1:]:
            lines.append(f"  also: {reason}")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    return run_probe("bench", build_parser(), run, render_text, argv)


if __name__ == "__main__":
    from jaxlint.runtime_probes._supervise import run_command

    sys.exit(run_command("bench", None, main))
