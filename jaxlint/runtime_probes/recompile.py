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
import re
import sys
import time
from collections.abc import Sequence
from types import ModuleType
from typing import Any

from jaxlint.runtime_probes._common import (
    EXIT_ERROR,
    EXIT_EXPECTATION,
    EXIT_OK,
    EXIT_USER_CODE,
    Report,
    add_jit_flags,
    count,
    error_text,
    fmt_seconds,
    import_jax,
    init_backend,
    make_parser,
    run_probe,
    status_line,
    usage_error,
)
from jaxlint.runtime_probes._errors import describe_exception, reported_in_probe_scopes
from jaxlint.runtime_probes._inputs import add_args_flag, input_factory, inputs_text
from jaxlint.runtime_probes._inputs import cases_factory as cases_factory_for
from jaxlint.runtime_probes._monitor import BACKEND_COMPILE, CompileMonitor, ExplainCapture, Window
from jaxlint.runtime_probes._plot import recompile_figure, text_bars, write_plot
from jaxlint.runtime_probes._targets import (
    Inputs,
    Loader,
    call_cases,
    call_factory,
    effective_jit,
    is_jitted,
    jit_settings,
    known_list,
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
a function that is already jitted is used as is when neither is given, and its own
static arguments are read from it) and called on each (args, kwargs) returned by the
cases factory (--cases, default {DEFAULT_CASES} in the target's module), in order. Each
call's outputs are synchronised.

Loop mode (--loop FILE.py:STEP --steps K): your step function is called K times as it is
(not wrapped), each time with fresh inputs from --factory (default make_inputs): the
runtime side of rules JAX401/JAX402 (a new jit or function object every step).

Compilations are counted from jax.monitoring events
(/jax/core/compile/backend_compile_duration minus /jax/compilation_cache/cache_hits),
only while the call runs, and broken down by function name (jit(f)). For every call that
compiled after the first, the report names its causes: from the arguments, compared with
the closest earlier call (shape, dtype, weak type, static value, sharding, pytree
structure, including an argument passed by keyword instead of by position), and from
JAX's own explanation (jax_explain_cache_misses, turned on while the probe runs, kept
verbatim): a function object JAX never saw, a config context such as
jax_default_matmul_precision or jax_enable_x64, a different input pytree or types. A
cause names a rule only when that rule describes it (a new function object: JAX401,
JAX402); shape drift, such as a ragged last batch, names none."""
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
    add_args_flag(parser)
    add_jit_flags(parser, donate=False)
    parser.add_argument(
        "--loop",
        metavar="FILE.py:STEP",
        help="loop mode: call this step function --steps times with fresh inputs, unwrapped",
    )
    parser.add_argument(
        "--steps",
        type=count(1),
        default=5,
        metavar="K",
        help="loop mode: number of steps (default 5)",
    )
    parser.add_argument(
        "--factory",
        metavar="NAME|FILE.py:FUNC",
        help="loop mode: input factory returning (args, kwargs), called once per step"
        " (default: make_inputs in the step's module)",
    )
    parser.add_argument(
        "--plot",
        metavar="FILE.svg",
        help="draw the compilations per case or step, coloured by cause, to FILE.svg; needs"
        " matplotlib (the plot extra); without it --format text shows text bars and the probe"
        " exits 2",
    )
    parser.add_argument(
        "--expect-compiles",
        type=count(0),
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


_CONTEXT_LINE = re.compile(r"^\s*\* (\S+) differs: now (.*) and before (.*)$")
_TYPE_LINE = re.compile(r"^\s*\* at (.+?), now (.*) and before (.*)$")
_PYTREE_LINE = re.compile(r"^\s*\* at input path (.*)$")

#: causes that a rule describes, by the rule's own declaration (``loop_rules``) only
NEW_FUNCTION = "new function object"
FIRST_USE = "function traced for the first time"


def explained_causes(
    messages: list[str], definitions: set[str] | None = None
) -> list[dict[str, Any]]:
    """What JAX's ``jax_explain_cache_misses`` log says caused each tracing-cache miss.

    The categories are those of ``jax._src.interpreters.partial_eval.explain`` and
    ``diff_tracing_cache_keys`` (jax 0.12.0.1): a function never seen before, a tracing
    context (config option) that differs, a different input pytree, different input
    types, different debug info, or no explanation.

    A function JAX never saw is a *new function object* when a function defined at the
    same place was seen earlier in this run (``definitions``, updated here): a jit of a
    lambda or closure re-created on every call. Otherwise it is one traced for the first
    time (a function the step calls only now), which no rule describes.
    """
    if definitions is None:
        definitions = set()
    causes: list[dict[str, Any]] = []
    for message in messages:
        if not message.startswith("TRACING CACHE MISS"):
            continue
        lines = message.splitlines()
        where = lines[0].removeprefix("TRACING CACHE MISS at ").rstrip(":")
        function = next(
            (ln.strip().removeprefix("for ") for ln in lines[1:] if ln.strip().startswith("for ")),
            None,
        )
        if "never seen function:" in message:
            described = lines[2].strip() if len(lines) > 2 else where
            defined = described.partition(" defined at ")[2] or described
            kind = NEW_FUNCTION if defined in definitions else FIRST_USE
            definitions.add(defined)
            causes.append({"cause": kind, "at": where, "function": described})
        elif "Tracing context doesn't match" in message:
            for line in lines:
                m = _CONTEXT_LINE.match(line)
                if m:
                    causes.append(
                        {
                            "cause": "config context",
                            "option": m.group(1),
                            "before": m.group(3),
                            "now": m.group(2),
                            "at": where,
                            "function": function,
                        }
                    )
        elif "different input pytree:" in message:
            details = [m.group(1) for ln in lines if (m := _PYTREE_LINE.match(ln))]
            causes.append(
                {"cause": "pytree structure", "details": details, "at": where, "function": function}
            )
        elif "different input types:" in message:
            for line in lines:
                m = _TYPE_LINE.match(line)
                if m:
                    causes.append(
                        {
                            "cause": "input types",
                            "argument": m.group(1),
                            "before": m.group(3),
                            "now": m.group(2),
                            "at": where,
                            "function": function,
                        }
                    )
        elif "Debug info doesn't match" in message:
            causes.append({"cause": "debug info", "at": where, "function": function})
        else:  # "cache miss explanation unavailable": e.g. a static argument's value
            causes.append({"cause": "unexplained by JAX", "at": where, "function": function})
    return causes


def _causes(changes: list[dict[str, Any]], explained: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One entry per distinct cause, from the arguments and from JAX's explanation, each
    with the rules that describe it (only a new function object per call has rules)."""
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for change in changes:
        kind = change["kind"]
        if kind not in seen:
            seen.add(kind)
            out.append({"cause": kind, "from": "arguments", "rules": []})
    for item in explained:
        kind = item["cause"]
        if kind == "input types" and seen & {"shape", "dtype", "weak type", "sharding"}:
            continue  # the argument comparison already names it, more precisely
        if kind == "unexplained by JAX" and "static value" in seen:
            continue  # JAX's explanation does not show static values; the arguments do
        key = f"jax: {kind} {item.get('option') or ''}"
        if key in seen:
            continue
        seen.add(key)
        entry = {"from": "jax explanation", **item}
        if kind == NEW_FUNCTION:  # the rules that declare it and that check reports here
            reported = reported_in_probe_scopes()
            entry["rules"] = [code for code in loop_rules() if code in reported]
            entry["rules_declared"] = loop_rules()
        else:
            entry["rules"] = []
        out.append(entry)
    return out


def _reason(causes: list[dict[str, Any]]) -> str | None:
    kinds = [c["cause"] for c in causes]
    if not kinds:
        return (
            "no argument differs and JAX gave no explanation (a cache was cleared, or the"
            " compilation happened without a new trace); see explain_cache_misses"
        )
    parts = []
    for c in causes:
        if c["cause"] == NEW_FUNCTION:
            parts.append(
                "a new function object: JAX never saw this one, but saw another defined at the"
                " same place on an earlier call (a jax.jit of a lambda, closure or partial"
                " re-created on every call)"
            )
        elif c["cause"] == FIRST_USE:
            parts.append(f"a function traced for the first time: {c['function']}")
        elif c["cause"] == "config context":
            parts.append(
                f"a config context changed: {c['option']} {c['before']} -> {c['now']}"
                " (a `with jax.X(...)` around the call, or jax.config.update)"
            )
    return "; ".join(parts) or None


def _attach_changes(
    entry: dict[str, Any],
    history: list[Signature],
    sig: Signature,
    label: str,
    definitions: set[str],
) -> None:
    explained = explained_causes(entry["explain_cache_misses"], definitions)
    if entry["backend_compile_events"] == 0 and entry["traces"] == 0:
        return
    if not history:
        entry["reason"] = "first call: nothing was compiled before"
        return
    index, changes = closest_changes(history, sig)
    entry[f"compared_with_{label}"] = index
    entry["changed"] = changes
    entry["causes"] = _causes(changes, explained)
    reason = _reason(entry["causes"])
    if reason:
        entry["reason"] = reason


def run_cases(jax: ModuleType, args: argparse.Namespace, report: Report) -> int:
    loader = Loader()
    target = loader.load(args.target)
    cases_factory, inputs_from = cases_factory_for(
        loader, target, args.cases, args.args, DEFAULT_CASES
    )
    report["mode"] = "cases"
    report["target"] = args.target
    report["cases_factory"] = cases_factory.spec
    report["inputs_from"] = inputs_from
    cases = call_cases(cases_factory)
    fn, jit_info = effective_jit(
        jax,
        target.obj,
        static_argnums=args.static_argnums,
        static_argnames=args.static_argnames,
        donate_argnums=[],
    )
    report["jit"] = {k: v for k, v in jit_info.items() if not k.startswith("donate")}
    static_argnums = known_list(jit_info["static_argnums"])
    static_argnames = known_list(jit_info["static_argnames"])
    params = parameter_names(target.obj)
    entries: list[dict[str, Any]] = []
    report["cases"] = entries
    history: list[Signature] = []
    definitions: set[str] = set()  # where the functions JAX traced were defined
    with CompileMonitor(jax) as monitor, ExplainCapture(jax) as explain:
        for index, inputs in enumerate(cases):
            static = static_keys(len(inputs[0]), params, static_argnums, static_argnames)
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
            _attach_changes(entry, history, sig, "case", definitions)
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
    factory, inputs_from = input_factory(loader, step, args.factory, args.args)
    report["mode"] = "loop"
    report["step_function"] = args.loop
    report["factory"] = factory.spec
    report["inputs_from"] = inputs_from
    report["steps_requested"] = args.steps
    params = parameter_names(step.obj)
    own = jit_settings(step.obj) if is_jitted(step.obj) else None  # a jitted step's statics
    entries: list[dict[str, Any]] = []
    report["steps"] = entries
    history: list[Signature] = []
    definitions: set[str] = set()  # where the functions JAX traced were defined
    with CompileMonitor(jax) as monitor, ExplainCapture(jax) as explain:
        for index in range(args.steps):
            inputs = call_factory(factory)  # outside the counting window
            jax.block_until_ready(inputs)
            static = (
                static_keys(len(inputs[0]), params, own["static_argnums"], own["static_argnames"])
                if own
                else set()
            )
            sig = signature(jax, inputs[0], inputs[1], params, static)
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
            _attach_changes(entry, history, sig, "step", definitions)
            entries.append(entry)
            history.append(sig)
    later = [e["step"] for e in entries[1:] if e["compiles"] > 0]
    report["compiles_first_step"] = entries[0]["compiles"] if entries else 0
    report["compiles_after_first_step"] = sum(e["compiles"] for e in entries[1:])
    report["steps_that_compiled_after_the_first"] = later
    if later:
        # only the rules that describe a cause found (a new jit or function object per
        # step: JAX401, JAX402); shape drift, such as a ragged last batch, has none
        found = {
            code
            for e in entries[1:]
            for c in e.get("causes", [])
            for code in c.get("rules_declared", c["rules"])
        }
        candidates = [code for code in loop_rules() if code in found]
        # never a rule that check does not report in the code the probe ran
        reported = reported_in_probe_scopes()
        report["rules"] = [code for code in candidates if code in reported]
        if candidates and not report["rules"]:
            report["rules_declared"] = candidates
            report["rules_note"] = (
                f"{', '.join(candidates)} declare(s) this recompilation, but `jaxlint check`"
                " reports none of them in the function the probe ran"
            )
        report["causes_after_first_step"] = sorted(
            {c["cause"] for e in entries[1:] for c in e.get("causes", [])}
        )
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
    code = _run(args, report)
    label = "case" if report.get("mode") == "cases" else "step"
    entries = report.get("cases" if label == "case" else "steps")
    if args.plot and entries:
        report["plot"] = write_plot(args.plot, recompile_figure(entries, label))
        if not report["plot"]["written"] and code == EXIT_OK:
            report["error"] = {
                "class": "PlotUnavailable",
                "message": f"--plot {args.plot} was not written: {report['plot']['reason']}",
                "hint": report["plot"].get("hint", ""),
            }
            return EXIT_ERROR
    return code


def _run(args: argparse.Namespace, report: Report) -> int:
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
    lines.extend(inputs_text(report.get("inputs_from")))
    entries = report.get("cases") if report.get("mode") == "cases" else report.get("steps")
    label = "case" if report.get("mode") == "cases" else "step"
    for e in entries or []:
        args_text = ", ".join(f"{k}: {v}" for k, v in e["arguments"].items())
        by_fn = ", ".join(f"{k} x{v}" for k, v in e["by_function"].items())
        lines.append(
            f"{label} {e[label]}: {e['compiles']} compile(s)"
            f"{' (' + by_fn + ')' if by_fn else ''}, {fmt_seconds(e.get('seconds'))}; {args_text}"
        )
        if e.get("reason"):
            lines.append(f"  {e['reason']}")
        for c in e.get("causes", []):
            rules = f" (rules: {', '.join(c['rules'])})" if c["rules"] else " (no rule)"
            lines.append(f"  cause: {c['cause']}, from the {c['from']}{rules}")
        for c in e.get("changed", []):
            lines.append(
                f"  changed vs {label} {e.get('compared_with_' + label)}: {c['path']} {c['kind']}"
                f" {c['before']} -> {c['now']}"
            )
        for msg in e.get("explain_cache_misses", []):
            lines.extend("  | " + line for line in msg.splitlines())
    plot = report.get("plot")
    if plot and plot["written"]:
        lines.append(f"plot: {plot['file']}")
    elif plot:
        lines.append(f"compilations per {label}, by cause:")
        lines.extend(text_bars(entries or [], label))
    if "total_compiles" in report:
        lines.append(f"total compilations: {report['total_compiles']}")
    if report.get("expected_compiles") is not None:
        lines.append(f"expected: {report['expected_compiles']}")
    if "dispatch_cache_entries" in report:
        lines.append(
            f"dispatch cache entries: {report['dispatch_cache_entries']} (may exceed compilations)"
        )
    if "rules" in report:
        lines.append(
            "recompiles after the first step; causes: "
            + ", ".join(report.get("causes_after_first_step", []))
            + "; rules that describe them: "
            + (", ".join(report["rules"]) or "none")
        )
    if report.get("error"):
        lines.extend(error_text(report["error"]))
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    return run_probe("recompile", build_parser(), run, render_text, argv)


if __name__ == "__main__":
    from jaxlint.runtime_probes._supervise import run_command

    sys.exit(run_command("recompile", None, main))
