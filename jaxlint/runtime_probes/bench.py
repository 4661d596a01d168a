"""``jaxlint probe bench``: honest timing of a function on fresh inputs.

The rules it keeps:

* the factory builds fresh inputs for EVERY call (first, warm-up and timed), so a
  donated argument is never reused; an input array that an earlier call consumed
  is refused;
* preparing the inputs, and synchronising them, happens outside the timer;
* synchronising the outputs (``jax.block_until_ready`` on every output array) happens
  inside it; an output leaf that cannot be synchronised is an error, not a number;
* the first call is reported on its own, labelled "first call (includes
  tracing/compilation; may hit caches)", never as compile time;
* if anything fails, the report has ``"ok": false`` and no timing numbers.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
import warnings
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from jaxlint.runtime_probes._common import (
    EXIT_ERROR,
    EXIT_OK,
    EXIT_USER_CODE,
    FIRST_CALL_LABEL,
    ProbeFailure,
    Report,
    add_jit_flags,
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
from jaxlint.runtime_probes._errors import describe_exception
from jaxlint.runtime_probes._monitor import CompileMonitor
from jaxlint.runtime_probes._targets import Inputs, Loader, Target, call_factory, jit_target
from jaxlint.runtime_probes.env import backend_summary, versions_report

SUMMARY = "Time a function honestly: fresh inputs per call, synchronised outputs."
DETAILS = """\
Every call (the first, each warm-up and each timed call) gets fresh inputs from the
factory, which returns (args, kwargs). Preparing the inputs and waiting for them
(jax.block_until_ready) is outside the timer; the call and jax.block_until_ready on every
array in its output are inside it (time.perf_counter). Outputs may also hold NumPy
arrays and Python numbers (already on the host); any other leaf is an error, because
the probe cannot prove the work behind it finished.

The first call is reported on its own as "first call (includes tracing/compilation; may
hit caches)": it is not compile time. Then --warmup untimed calls, then --repeat timed
calls, summarised as min, median, mean, stdev (sample) and p90 (linear interpolation).
With --compare, the second function is timed in alternation (A B A B ...) on inputs
from its own factory (default: the same one) and the ratio of medians is reported.

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
    add_jit_flags(parser)
    parser.add_argument(
        "--warmup",
        type=int,
        default=2,
        metavar="N",
        help="untimed calls after the first call (default 2)",
    )
    parser.add_argument(
        "--repeat", type=int, default=20, metavar="N", help="timed calls (default 20)"
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
    return parser


# -- synchronisation -------------------------------------------------------------------------


class Unsynchronisable(Exception):
    pass


def array_leaves(jax: ModuleType, tree: Any, what: str) -> list[Any]:
    """The jax.Array leaves of ``tree``; raise for a leaf that cannot be waited on."""
    import numpy as np

    arrays = []
    leaves, _ = jax.tree_util.tree_flatten_with_path(tree)
    for path, leaf in leaves:
        if isinstance(leaf, jax.Array):
            arrays.append(leaf)
        elif not isinstance(leaf, (np.ndarray, np.generic, bool, int, float, complex)):
            where = what + jax.tree_util.keystr(path)
            raise Unsynchronisable(
                f"{where} is a {type(leaf).__module__}.{type(leaf).__qualname__}, which"
                " jax.block_until_ready cannot wait on: the time would not include its work"
            )
    return arrays


def synchronise(jax: ModuleType, out: Any) -> int:
    """Block on every output array; return how many were waited on."""
    arrays = array_leaves(jax, out, "output")
    jax.block_until_ready(arrays)
    return len(arrays)


# -- one function under test -----------------------------------------------------------------


@dataclass
class Subject:
    label: str
    spec: str
    factory: Target
    fn: Callable[..., Any]
    donate_argnums: list[int]
    first_call: float | None = None
    samples: list[float] = field(default_factory=list)
    factory_calls: int = 0
    calls: int = 0
    donated_consumed: int = 0
    donated_not_consumed: int = 0
    reused_input_objects: int = 0
    output_arrays: int = 0
    compiles_first_call: int = 0
    compiles_timed: int = 0
    warnings: list[str] = field(default_factory=list)
    _previous: dict[int, weakref.ref[Any]] = field(default_factory=dict)

    def prepare(self, jax: ModuleType, phase: str) -> Inputs:
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
        jax.block_until_ready(inputs)  # transfers finish outside the timer
        return inputs

    def donated(self, jax: ModuleType, inputs: Inputs) -> list[Any]:
        args = inputs[0]
        picked = [args[i] for i in self.donate_argnums if -len(args) <= i < len(args)]
        return [a for a in jax.tree_util.tree_leaves(picked) if isinstance(a, jax.Array)]


def _dead() -> None:
    return None


def array_leaves_safe(jax: ModuleType, tree: Any) -> list[Any]:
    return [leaf for leaf in jax.tree_util.tree_leaves(tree) if isinstance(leaf, jax.Array)]


def call_once(
    jax: ModuleType, subject: Subject, phase: str, monitor: CompileMonitor
) -> tuple[float, int]:
    """Prepare fresh inputs (untimed), then time the call plus output synchronisation.

    Returns the seconds and the number of XLA compilations during the call.
    """
    inputs = subject.prepare(jax, phase)
    args, kwargs = inputs
    donated = subject.donated(jax, inputs)
    mark = monitor.mark()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        start = time.perf_counter()
        try:
            out = subject.fn(*args, **kwargs)
            n_arrays = synchronise(jax, out)
        except Unsynchronisable as exc:
            raise ProbeFailure(
                EXIT_USER_CODE,
                {
                    "class": "UnsynchronisableOutput",
                    "message": str(exc),
                    "phase": f"{subject.label}: {phase}",
                },
            ) from exc
        except Exception as exc:
            raise ProbeFailure(
                EXIT_USER_CODE, describe_exception(exc, phase=f"{subject.label}: {phase}")
            ) from exc
        elapsed = time.perf_counter() - start
    compiles = monitor.since(mark).compiles
    del out
    subject.calls += 1
    subject.output_arrays = n_arrays
    for w in caught:
        text = str(w.message).splitlines()[0]
        if text not in subject.warnings:
            subject.warnings.append(text)
    if donated:
        if all(a.is_deleted() for a in donated):
            subject.donated_consumed += 1
        else:
            subject.donated_not_consumed += 1
    return elapsed, compiles


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
        "p90": percentile(ordered, 0.9),
    }


# -- the probe -------------------------------------------------------------------------------


def _subject(
    jax: ModuleType,
    loader: Loader,
    label: str,
    spec: str,
    factory_spec: str | None,
    args: argparse.Namespace,
    default_factory: Target | None = None,
) -> Subject:
    target = loader.load(spec, role=label)
    if factory_spec is None and default_factory is not None:
        factory = default_factory
    else:
        factory = loader.load_factory(factory_spec, target)
    fn: Callable[..., Any] = target.obj
    if args.jit:
        fn, _ = jit_target(
            jax,
            target.obj,
            static_argnums=args.static_argnums,
            static_argnames=args.static_argnames,
            donate_argnums=args.donate_argnums,
        )
    return Subject(label, spec, factory, fn, list(args.donate_argnums))


def _subject_report(s: Subject) -> dict[str, Any]:
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
        "calls_reusing_input_objects": s.reused_input_objects,
        "compiles_during_first_call": s.compiles_first_call,
        "compiles_during_timed_calls": s.compiles_timed,
        "warnings": s.warnings,
    }
    if s.compiles_timed:
        out["warnings"] = [
            f"{s.compiles_timed} XLA compilation(s) happened during the timed calls: the inputs'"
            " shapes, dtypes, shardings or static values change between calls, so these times"
            " include compilation",
            *s.warnings,
        ]
    if s.donate_argnums:
        out["donation"] = {
            "calls_that_consumed_donated_inputs": s.donated_consumed,
            "calls_that_did_not": s.donated_not_consumed,
        }
    return out


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
        "timer": "time.perf_counter",
        "inputs": "fresh from the factory for every call, prepared and synchronised untimed",
        "synchronisation": "jax.block_until_ready on every output array, inside the timer",
        "order": "alternating A B A B" if args.compare else "A only",
    }
    loader = Loader()
    a = _subject(jax, loader, "target", args.target, args.factory, args)
    subjects = [a]
    if args.compare:
        b = _subject(jax, loader, "compare", args.compare, args.compare_factory, args, a.factory)
        subjects.append(b)
    report["target"] = args.target
    report["compare"] = args.compare
    try:
        with CompileMonitor(jax) as monitor:  # JAX records nothing on a cached call
            for s in subjects:
                s.first_call, s.compiles_first_call = call_once(jax, s, "first call", monitor)
            for i in range(args.warmup):
                for s in subjects:
                    call_once(jax, s, f"warm-up call {i + 1}", monitor)
            for i in range(args.repeat):
                for s in subjects:
                    seconds, compiles = call_once(jax, s, f"timed call {i + 1}", monitor)
                    s.samples.append(seconds)
                    s.compiles_timed += compiles
    except ProbeFailure:
        report["calls_before_failure"] = {s.label: s.calls for s in subjects}
        raise  # no numbers: the failure is the result
    report["results"] = {s.label: _subject_report(s) for s in subjects}
    if args.compare:
        ma, mb = (
            report["results"]["target"]["stats"]["median"],
            report["results"]["compare"]["stats"]["median"],
        )
        pairs = [sb / sa for sa, sb in zip(a.samples, subjects[1].samples, strict=True) if sa > 0]
        report["ratio"] = {
            "compare_median_over_target_median": mb / ma if ma > 0 else None,
            "median_of_pair_ratios": statistics.median(pairs) if pairs else None,
        }
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
    for label, r in (report.get("results") or {}).items():
        st = r["stats"]
        lines.append(f"{label}: {r['function']}")
        lines.append(f"  {r['first_call']['label']}: {fmt_seconds(r['first_call']['seconds'])}")
        lines.append(
            f"  timed ({st['n']}): min {fmt_seconds(st['min'])}, median {fmt_seconds(st['median'])},"
            f" mean {fmt_seconds(st['mean'])}, stdev {fmt_seconds(st['stdev'])},"
            f" p90 {fmt_seconds(st['p90'])}"
        )
        lines.append(f"  factory calls: {r['factory_calls']}")
        if "donation" in r:
            d = r["donation"]
            lines.append(
                f"  donated inputs consumed in {d['calls_that_consumed_donated_inputs']} of"
                f" {r['calls']} calls"
            )
        for w in r["warnings"]:
            lines.append(f"  warning: {w}")
    ratio = report.get("ratio")
    if ratio and ratio.get("compare_median_over_target_median") is not None:
        lines.append(
            f"compare/target: ratio of medians {ratio['compare_median_over_target_median']:.3f},"
            f" median of pair ratios {ratio['median_of_pair_ratios']:.3f}"
        )
    if report.get("error"):
        lines.append("no timings: the run did not complete")
        lines.extend(error_text(report["error"]))
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    return run_probe("bench", build_parser(), run, render_text, argv)


if __name__ == "__main__":
    sys.exit(main())
