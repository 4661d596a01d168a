"""``jaxlint probe recompile``: count XLA compilations per call and name what changed.

Two modes:

* cases: ``recompile FILE.py:FUNC --cases make_cases`` runs every ``(args, kwargs)``
  from the cases factory through ONE ``jax.jit`` of the target;
* loop: ``recompile --loop FILE.py:STEP --steps K`` calls the user's (unjitted) step
  function K times, each with fresh inputs from the factory.

Compilations are counted with JAX's own signal, the ``jax.monitoring`` event
``/jax/core/compile/backend_compile_duration`` (minus persistent-cache hits), in a
window around each call only, so the factory's own eager work is not counted.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from types import ModuleType
from typing import Any

from jaxlint.runtime_probes._common import (
    EXIT_EXPECTATION,
    EXIT_OK,
    EXIT_USER_CODE,
    Report,
    add_jit_flags,
    error_text,
    fmt_seconds,
    import_jax,
    init_backend,
    make_parser,
    run_probe,
    status_line,
    usage_error,
)
from jaxlint.runtime_probes._errors import describe_exception
from jaxlint.runtime_probes._monitor import BACKEND_COMPILE, CompileMonitor, ExplainCapture, Window
from jaxlint.runtime_probes._targets import (
    Inputs,
    Loader,
    call_cases,
    call_factory,
    jit_target,
    parameter_names,
    static_keys,
)
from jaxlint.runtime_probes._trees import Signature, closest_changes, signature, summary

DEFAULT_CASES = "make_cases"


def loop_rules() -> list[str]:
    """The rules that declare a compilation event as what confirms them (``Rule.confirmed_by``)."""
    from jaxlint.rules import all_rules
    from jaxlint.rules.base import Event

    return [r.code for r in all_rules() if Event(BACKEND_COMPILE) in r.confirmed_by]


SUMMARY = "Count XLA compilations per call of a jitted function and name what changed."
DETAILS = f"""\
Cases mode: the target is wrapped ONCE in jax.jit (with --static-argnums/--static-argnames;
a function that is already jitted is used as is when neither is given) and called on each
(args, kwargs) returned by the cases factory (--cases, default {DEFAULT_CASES} in the
target's module), in order. Each call's outputs are synchronised.

Loop mode (--loop FILE.py:STEP --steps K): your step function is called K times as it is
(not wrapped), each time with fresh inputs from --factory (default make_inputs); the
runtime side of rules JAX401/JAX402/JAX404 (recompilation in a training loop).

Compilations are counted from jax.monitoring events
(/jax/core/compile/backend_compile_duration minus /jax/compilation_cache/cache_hits),
only while the call runs, and broken down by function name (jit(f)). For every call that
compiled after the first, the report compares its arguments with the closest earlier
call and names what changed: shape, dtype, weak type, static value, pytree structure or
sharding. JAX's own explanation (jax_explain_cache_misses, turned on while the probe
runs) is included verbatim."""
EXAMPLES = """\
  jaxlint probe recompile model.py:loss --cases make_cases --format text
  jaxlint probe recompile model.py:loss --cases shapes.py:cases --expect-compiles 1
  jaxlint probe recompile model.py:apply --static-argnames train --cases make_cases
  jaxlint probe recompile --loop train.py:train_step --steps 5 --factory make_batch
  python -m jaxlint.runtime_probes.recompile --loop train.py:train_step --steps 10"""


def build_parser() -> argparse.ArgumentParser:
    parser = make_parser("recompile", SUMMARY, DETAILS, EXAMPLES)
    parser.add_argument(
        "target",
        nargs="?",
        help="cases mode: the function, path/to/file.py:FUNCTION or package.module:FUNCTION",
    )
    parser.add_argument(
        "--cases",
        metavar="NAME|FILE.py:FUNC",
        help="cases mode: factory returning a list of (args, kwargs), a name in the target's"
        f" module or a full spec (default: {DEFAULT_CASES})",
    )
    add_jit_flags(parser, donate=False)
    parser.add_argument(
        "--loop",
        metavar="FILE.py:STEP",
        help="loop mode: call this step function --steps times with fresh inputs, unwrapped",
    )
    parser.add_argument(
        "--steps", type=int, default=5, metavar="K", help="loop mode: number of steps (default 5)"
    )
    parser.add_argument(
        "--factory",
        metavar="NAME|FILE.py:FUNC",
        help="loop mode: input factory returning (args, kwargs), called once per step"
        " (default: make_inputs in the step's module)",
    )
    parser.add_argument(
        "--expect-compiles",
        type=int,
        metavar="N",
        help="exit 1 unless the total number of compilations counted is exactly N",
    )
    return parser


# -- running ---------------------------------------------------------------------------------


def _call(jax: ModuleType, fn: Any, inputs: Inputs) -> Any:
    args, kwargs = inputs
    return jax.block_until_ready(fn(*args, **kwargs))


def _entry(window: Window, explain: list[str], seconds: float) -> dict[str, Any]:
    return {
        "compiles": window.compiles,
        "backend_compile_events": window.backend_compiles,
        "persistent_cache_hits": window.cache_hits,
        "by_function": window.by_function(),
        "traces": window.summary()["traces"],
        "seconds": seconds,
        "explain_cache_misses": explain,
    }


def _attach_changes(
    entry: dict[str, Any], history: list[Signature], sig: Signature, label: str
) -> None:
    if entry["backend_compile_events"] == 0 and entry["traces"] == 0:
        return
    if not history:
        entry["reason"] = "first call: nothing was compiled before"
        return
    index, changes = closest_changes(history, sig)
    entry[f"compared_with_{label}"] = index
    entry["changed"] = changes
    if not changes:
        entry["reason"] = (
            "no argument differs from an earlier call: the function itself changed (a new"
            " jax.jit or closure each time, or a cache was cleared); see explain_cache_misses"
        )


def run_cases(jax: ModuleType, args: argparse.Namespace, report: Report) -> int:
    loader = Loader()
    target = loader.load(args.target)
    cases_factory = loader.load_factory(args.cases or DEFAULT_CASES, target, role="cases")
    report["mode"] = "cases"
    report["target"] = args.target
    report["cases_factory"] = cases_factory.spec
    cases = call_cases(cases_factory)
    fn, wrapped = jit_target(
        jax,
        target.obj,
        static_argnums=args.static_argnums,
        static_argnames=args.static_argnames,
        donate_argnums=[],
    )
    report["jit"] = {
        "wrapped_here": wrapped,
        "static_argnums": args.static_argnums,
        "static_argnames": args.static_argnames,
    }
    params = parameter_names(target.obj)
    entries: list[dict[str, Any]] = []
    report["cases"] = entries
    history: list[Signature] = []
    with CompileMonitor(jax) as monitor, ExplainCapture(jax) as explain:
        for index, inputs in enumerate(cases):
            static = static_keys(len(inputs[0]), params, args.static_argnums, args.static_argnames)
            sig = signature(jax, inputs[0], inputs[1], params, static)
            mark, emark = monitor.mark(), explain.mark()
            start = time.perf_counter()
            try:
                _call(jax, fn, inputs)
            except Exception as exc:
                report["error"] = describe_exception(exc, phase=f"case {index}")
                _finish(report, entries)
                return EXIT_USER_CODE
            entry = {"case": index, "arguments": summary(sig)}
            entry.update(
                _entry(monitor.since(mark), explain.since(emark), time.perf_counter() - start)
            )
            _attach_changes(entry, history, sig, "case")
            entries.append(entry)
            history.append(sig)
    cache_size = getattr(fn, "_cache_size", None)
    if callable(cache_size):
        report["dispatch_cache_entries"] = cache_size()
    return _finish(report, entries, args.expect_compiles)


def run_loop(jax: ModuleType, args: argparse.Namespace, report: Report) -> int:
    if args.steps < 1:
        usage_error("--steps must be at least 1")
    loader = Loader()
    step = loader.load(args.loop, role="step function")
    factory = loader.load_factory(args.factory, step)
    report["mode"] = "loop"
    report["step_function"] = args.loop
    report["factory"] = factory.spec
    report["steps_requested"] = args.steps
    params = parameter_names(step.obj)
    entries: list[dict[str, Any]] = []
    report["steps"] = entries
    history: list[Signature] = []
    with CompileMonitor(jax) as monitor, ExplainCapture(jax) as explain:
        for index in range(args.steps):
            inputs = call_factory(factory)  # outside the counting window
            jax.block_until_ready(inputs)
            sig = signature(jax, inputs[0], inputs[1], params, set())
            mark, emark = monitor.mark(), explain.mark()
            start = time.perf_counter()
            try:
                _call(jax, step.obj, inputs)
            except Exception as exc:
                report["error"] = describe_exception(exc, phase=f"step {index}")
                _finish(report, entries)
                return EXIT_USER_CODE
            entry = {"step": index, "arguments": summary(sig)}
            entry.update(
                _entry(monitor.since(mark), explain.since(emark), time.perf_counter() - start)
            )
            _attach_changes(entry, history, sig, "step")
            entries.append(entry)
            history.append(sig)
    later = [e["step"] for e in entries[1:] if e["compiles"] > 0]
    report["compiles_first_step"] = entries[0]["compiles"] if entries else 0
    report["compiles_after_first_step"] = sum(e["compiles"] for e in entries[1:])
    report["steps_that_compiled_after_the_first"] = later
    if later:
        report["rules"] = loop_rules()
    return _finish(report, entries, args.expect_compiles)


def _finish(report: Report, entries: list[dict[str, Any]], expect: int | None = None) -> int:
    total = sum(e["compiles"] for e in entries)
    report["total_compiles"] = total
    report["recompiling_calls"] = [
        e.get("case", e.get("step")) for e in entries[1:] if e["compiles"] > 0
    ]
    if "error" in report:
        return EXIT_USER_CODE
    if expect is not None:
        report["expected_compiles"] = expect
        if total != expect:
            report["error"] = {
                "class": "ExpectationFailed",
                "message": f"expected {expect} compilation(s), counted {total}",
            }
            return EXIT_EXPECTATION
    return EXIT_OK


def run(args: argparse.Namespace, report: Report) -> int:
    if (args.target is None) == (args.loop is None):
        usage_error("give either a target (cases mode) or --loop FILE.py:STEP (loop mode)")
    if args.loop is not None and (args.cases or args.static_argnums or args.static_argnames):
        usage_error("--cases, --static-argnums and --static-argnames belong to cases mode")
    if args.target is not None and args.factory is not None:
        usage_error("--factory belongs to loop mode; cases mode takes --cases")
    jax = import_jax()
    devices = init_backend(jax)
    report["backend"] = {"default_backend": jax.default_backend(), "device_count": len(devices)}
    if args.loop is not None:
        return run_loop(jax, args, report)
    return run_cases(jax, args, report)


# -- text ------------------------------------------------------------------------------------


def render_text(report: Report) -> str:
    what = report.get("target") or report.get("step_function") or ""
    lines = [f"jaxlint probe recompile {what}".rstrip(), status_line(report)]
    entries = report.get("cases") if report.get("mode") == "cases" else report.get("steps")
    label = "case" if report.get("mode") == "cases" else "step"
    for e in entries or []:
        args_text = ", ".join(f"{k}: {v}" for k, v in e["arguments"].items())
        by_fn = ", ".join(f"{k} x{v}" for k, v in e["by_function"].items())
        lines.append(
            f"{label} {e[label]}: {e['compiles']} compile(s)"
            f"{' (' + by_fn + ')' if by_fn else ''}, {fmt_seconds(e['seconds'])}; {args_text}"
        )
        if e.get("reason"):
            lines.append(f"  {e['reason']}")
        for c in e.get("changed", []):
            lines.append(
                f"  changed vs {label} {e.get('compared_with_' + label)}: {c['path']} {c['kind']}"
                f" {c['before']} -> {c['now']}"
            )
        for msg in e.get("explain_cache_misses", []):
            lines.extend("  | " + line for line in msg.splitlines())
    if "total_compiles" in report:
        lines.append(f"total compilations: {report['total_compiles']}")
    if report.get("expected_compiles") is not None:
        lines.append(f"expected: {report['expected_compiles']}")
    if "dispatch_cache_entries" in report:
        lines.append(
            f"dispatch cache entries: {report['dispatch_cache_entries']} (may exceed compilations)"
        )
    if report.get("rules"):
        lines.append(
            "recompiles after the first step; static rules for the causes: "
            + ", ".join(report["rules"])
        )
    if report.get("error"):
        lines.extend(error_text(report["error"]))
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    return run_probe("recompile", build_parser(), run, render_text, argv)


if __name__ == "__main__":
    sys.exit(main())
