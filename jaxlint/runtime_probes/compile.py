"""``jaxlint probe compile``: eval_shape, jaxpr, StableHLO lowering and XLA compilation.

Each stage is reported separately with its time and what JAX recorded during it
(``jax.monitoring``: traces, lowerings, backend compiles). The function is traced,
lowered and compiled but never executed; the factory and the target's module run.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
import warnings
from collections import Counter
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

from jaxlint.runtime_probes._common import (
    EXIT_ERROR,
    EXIT_OK,
    EXIT_USER_CODE,
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
)
from jaxlint.runtime_probes._errors import describe_exception, warning_rules
from jaxlint.runtime_probes._inputs import add_args_flag, input_factory, inputs_text
from jaxlint.runtime_probes._monitor import CompileMonitor
from jaxlint.runtime_probes._targets import (
    Loader,
    call_factory,
    effective_jit,
    is_jitted,
    known_list,
    parameter_names,
    static_keys,
)
from jaxlint.runtime_probes._trees import describe_args, describe_tree

STAGES = ("eval_shape", "jaxpr", "lowering", "compilation")

SUMMARY = "Trace, lower and compile a function; report each stage separately, with its time."
DETAILS = """\
The target is wrapped in jax.jit (with --static-argnums/--static-argnames/--donate-argnums;
a function that is already jitted is used as is when none is given) and called on the
inputs from the factory, which returns (args, kwargs); static arguments take their
values from it, and the other arguments may be jax.ShapeDtypeStruct, since nothing is
executed. Stages, in order:
  eval_shape   output shapes, dtypes and weak types (this is the first trace)
  jaxpr        equation count and primitive histogram (from JAX's trace cache);
               --dump FILE writes the jaxpr text
  lowering     StableHLO text (Lowered.as_text()); its op histogram
  compilation  optimised HLO (Compiled.as_text()), cost_analysis() flops/bytes and
               memory_analysis() argument/output/temp/generated-code bytes where the
               backend provides them
--out DIR writes jaxpr.txt, stablehlo.mlir and compiled_hlo.txt. A stage that raises
stops the probe (exit 3); the error names its JAX class, your file and line, and the
jaxlint rule that predicts it (JAX201 for TracerBoolConversionError, JAX101 for
TracerArrayConversionError, JAX203 for a traced shape, ...)."""
EXAMPLES = """\
  jaxlint probe compile model.py:loss                     # factory make_inputs in model.py
  jaxlint probe compile model.py:loss --factory small_batch --format text
  jaxlint probe compile model.py:step --static-argnums 1 --dump jaxpr.txt --out ir/
  jaxlint probe compile mypkg.layers:attention --factory mypkg.layers:make_inputs
  python -m jaxlint.runtime_probes.compile model.py:loss --donate-argnums 0"""


def build_parser() -> argparse.ArgumentParser:
    parser = make_parser("compile", SUMMARY, DETAILS, EXAMPLES)
    parser.add_argument(
        "target", help="the function: path/to/file.py:FUNCTION or package.module:FUNCTION"
    )
    parser.add_argument(
        "--factory",
        metavar="NAME|FILE.py:FUNC",
        help="input factory returning (args, kwargs): a name in the target's module or a full"
        " target spec (default: make_inputs in the target's module; without one, inputs come"
        " from the parameters' annotations or a call site in the file)",
    )
    add_args_flag(parser)
    add_jit_flags(parser)
    parser.add_argument("--dump", metavar="FILE", help="write the jaxpr text to FILE")
    parser.add_argument(
        "--out",
        metavar="DIR",
        help="write jaxpr.txt, stablehlo.mlir (lowered) and compiled_hlo.txt (optimised) to DIR",
    )
    return parser


# -- stage details ---------------------------------------------------------------------------


def _sub_jaxprs(value: Any) -> list[Any]:
    if isinstance(value, (tuple, list)):
        return [j for v in value for j in _sub_jaxprs(v)]
    if hasattr(value, "eqns"):
        return [value]
    inner = getattr(value, "jaxpr", None)
    if inner is not None and hasattr(inner, "eqns"):
        return [inner]
    return []


def primitive_counts(jaxpr: Any) -> tuple[Counter[str], Counter[str]]:
    """Top-level and total (including nested jaxprs: cond branches, scan bodies...) counts."""
    top: Counter[str] = Counter()
    total: Counter[str] = Counter()
    core = getattr(jaxpr, "jaxpr", jaxpr)
    for eqn in core.eqns:
        top[eqn.primitive.name] += 1
    stack = [core]
    while stack:
        current = stack.pop()
        for eqn in current.eqns:
            total[eqn.primitive.name] += 1
            for value in eqn.params.values():
                stack.extend(_sub_jaxprs(value))
    return top, total


_OP_RE = re.compile(r"\b((?:stablehlo|chlo|sdy)\.[a-z_0-9]+)\b")


def op_counts(text: str) -> dict[str, int]:
    counts: Counter[str] = Counter()
    for line in text.splitlines():
        stripped = line.strip()
        match = _OP_RE.search(stripped)
        if match and (
            "=" in stripped.split(match.group(1))[0] or stripped.startswith(match.group(1))
        ):
            counts[match.group(1)] += 1
    return dict(counts.most_common())


_COST_KEYS = {
    "flops": "flops",
    "bytes accessed": "bytes_accessed",
    "transcendentals": "transcendentals",
}
_MEMORY_KEYS = (
    ("argument_size_in_bytes", "argument_bytes"),
    ("output_size_in_bytes", "output_bytes"),
    ("temp_size_in_bytes", "temp_bytes"),
    ("generated_code_size_in_bytes", "generated_code_bytes"),
    ("alias_size_in_bytes", "alias_bytes"),
    ("peak_memory_in_bytes", "peak_bytes"),
    ("host_argument_size_in_bytes", "host_argument_bytes"),
    ("host_output_size_in_bytes", "host_output_bytes"),
    ("host_temp_size_in_bytes", "host_temp_bytes"),
    ("host_generated_code_size_in_bytes", "host_generated_code_bytes"),
)


LOOP_CAVEAT = (
    "the program has {n} loop(s) (HLO while: lax.scan, lax.fori_loop, lax.while_loop): XLA's"
    " cost analysis counts a loop body once, not once per iteration, so these numbers are"
    " low by the trip counts"
)


def cost_report(compiled: Any, hlo: str | None = None) -> dict[str, Any]:
    """``Compiled.cost_analysis()``: the numbers of the program one device runs (an SPMD
    partition: a matmul sharded over 8 devices shows 1/8 of its flops), labelled with the
    number of devices, and a caveat when the program has loops (bodies counted once)."""
    try:
        raw = compiled.cost_analysis()
    except Exception as exc:
        return {"available": False, "reason": f"{type(exc).__name__}: {exc}"}
    if isinstance(raw, (list, tuple)):  # before jax 0.4.38: a list with one dict
        raw = raw[0] if raw else None
    if not raw:
        return {"available": False, "reason": "the backend returned no cost analysis"}
    out: dict[str, Any] = {"available": True, "scope": "per device"}
    out["devices"] = program_devices(compiled)
    for key, name in _COST_KEYS.items():
        out[name] = float(raw[key]) if key in raw else None
    out["raw"] = {str(k): float(v) for k, v in raw.items() if isinstance(v, (int, float))}
    loops = hlo_loops(hlo) if hlo is not None else None
    out["loops"] = loops
    if loops:
        out["caveat"] = LOOP_CAVEAT.format(n=loops)
    elif loops is None:
        out["caveat"] = "the optimised HLO could not be read: loops, if any, are counted once"
    return out


def program_devices(compiled: Any) -> int | None:
    """How many devices the compiled program runs on (the largest device set of its
    input and output shardings), or None when JAX does not say."""
    sizes = []
    for attr in ("input_shardings", "output_shardings"):
        try:
            leaves = _flatten(getattr(compiled, attr))
        except Exception:
            continue
        for leaf in leaves:
            try:
                sizes.append(len(leaf.device_set))
            except Exception:
                continue
    return max(sizes) if sizes else None


def hlo_loops(hlo: str) -> int:
    """The ``while`` instructions of the optimised HLO (scan and fori_loop lower to them)."""
    count = 0
    for line in hlo.splitlines():
        match = _HLO_OP_RE.match(line)
        if match and match.group(1) == "while":
            count += 1
    return count


def memory_report(compiled: Any) -> dict[str, Any]:
    try:
        stats = compiled.memory_analysis()
    except Exception as exc:
        return {"available": False, "reason": f"{type(exc).__name__}: {exc}"}
    if stats is None:
        return {"available": False, "reason": "the backend returned no memory analysis"}
    # the compiled program is one SPMD partition: its sizes are those of one device
    out: dict[str, Any] = {"available": True, "scope": "per device"}
    for attr, name in _MEMORY_KEYS:
        value = getattr(stats, attr, None)
        if isinstance(value, int):
            out[name] = value
    return out


COLLECTIVES = ("all-reduce", "all-gather", "reduce-scatter", "all-to-all", "collective-permute")
# `%name = SHAPE opcode(operands), attributes`; a tuple shape has spaces, so the opcode is
# the first lower-case word followed by "(" after a space
_HLO_OP_RE = re.compile(r"^\s*(?:ROOT\s+)?%[\w.\-]+\s*=\s*.*?\s([a-z][a-z0-9\-]*)\(")
_FUSION_KIND_RE = re.compile(r"\bkind=(k\w+)")


def hlo_counts(hlo: str) -> dict[str, Any]:
    """Collectives and fusions in the optimised HLO text (``Compiled.as_text()``).

    An asynchronous collective (``all-reduce-start`` ... ``all-reduce-done``) counts
    once, as its ``-start``. Fusions are counted as ``fusion`` instructions, by kind.
    """
    collectives = dict.fromkeys(COLLECTIVES, 0)
    fusions = 0
    kinds: Counter[str] = Counter()
    for line in hlo.splitlines():
        match = _HLO_OP_RE.match(line)
        if not match:
            continue
        op = match.group(1)
        base = op.removesuffix("-start")
        if base in collectives and not op.endswith("-done"):
            collectives[base] += 1
        elif op == "fusion":
            fusions += 1
            kind = _FUSION_KIND_RE.search(line)
            kinds[kind.group(1) if kind else "?"] += 1
    return {
        "collectives": collectives,
        "collectives_total": sum(collectives.values()),
        "fusions": fusions,
        "fusion_kinds": dict(kinds.most_common()),
    }


def shardings_report(compiled: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, attr in (("input", "input_shardings"), ("output", "output_shardings")):
        try:
            value = getattr(compiled, attr)
        except Exception as exc:
            out[name] = {"available": False, "reason": f"{type(exc).__name__}: {exc}"}
            continue
        out[name] = [str(leaf) for leaf in _flatten(value)]
    return out


def _flatten(value: Any) -> list[Any]:
    if isinstance(value, (list, tuple)):
        return [leaf for v in value for leaf in _flatten(v)]
    if isinstance(value, dict):
        return [leaf for v in value.values() for leaf in _flatten(v)]
    return [value]


def _write(path: str, text: str) -> str:
    try:
        folder = os.path.dirname(os.path.abspath(path))
        os.makedirs(folder, exist_ok=True)
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
    except OSError as exc:
        fail(EXIT_ERROR, "OutputError", f"cannot write {path}: {exc.strerror or exc}")
    return path


# -- the probe -------------------------------------------------------------------------------


class _StageFailed(Exception):
    pass


def run(args: argparse.Namespace, report: Report) -> int:
    jax = import_jax()
    devices = init_backend(jax)
    report["backend"] = {"default_backend": jax.default_backend(), "device_count": len(devices)}
    loader = Loader()
    target = loader.load(args.target)
    factory, inputs_from = input_factory(loader, target, args.factory, args.args, abstract=True)
    report["target"] = args.target
    report["factory"] = factory.spec
    report["inputs_from"] = inputs_from
    inputs, kwargs = call_factory(factory)
    static_argnums, static_argnames = list(args.static_argnums), list(args.static_argnames)
    auto = _python_constants(target.obj, inputs, kwargs, inputs_from, args)
    if auto is not None:
        static_argnums, static_argnames = auto["argnums"], auto["argnames"]
        report["static_from_inputs"] = auto
    fn, jit_info = effective_jit(
        jax,
        target.obj,
        static_argnums=static_argnums,
        static_argnames=static_argnames,
        donate_argnums=args.donate_argnums,
    )
    report["jit"] = jit_info
    params = parameter_names(target.obj)
    static = static_keys(
        len(inputs),
        params,
        known_list(jit_info["static_argnums"]),
        known_list(jit_info["static_argnames"]),
    )
    report["arguments"] = describe_args(jax, inputs, kwargs, params, static)
    stages: dict[str, Any] = {name: {"ok": False, "skipped": True} for name in STAGES}
    report["stages"] = stages
    if args.out:
        try:
            os.makedirs(args.out, exist_ok=True)
        except OSError as exc:
            fail(EXIT_ERROR, "OutputError", f"cannot create {args.out}: {exc.strerror or exc}")

    with CompileMonitor(jax) as monitor:

        def stage(name: str, work: Callable[[], Any]) -> Any:
            mark = monitor.mark()
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                start = time.perf_counter()
                try:
                    result = work()
                    failure = None
                except Exception as exc:
                    result, failure = None, exc
                seconds = time.perf_counter() - start
            stages[name] = {
                "ok": failure is None,
                "seconds": seconds,
                "jax_events": monitor.since(mark).summary(),
                "warnings": sorted({str(w.message).splitlines()[0] for w in caught}),
                "warning_rules": warning_rules(caught),
            }
            if failure is not None:
                report["error"] = describe_exception(failure, phase=name)
                raise _StageFailed from failure
            return result

        try:
            out = stage("eval_shape", lambda: fn.eval_shape(*inputs, **kwargs))
            stages["eval_shape"]["outputs"] = describe_tree(jax, out, "out")
            traced = stage("jaxpr", lambda: fn.trace(*inputs, **kwargs))
            _jaxpr_details(traced, stages["jaxpr"], args)
            lowered = stage("lowering", traced.lower)
            text = lowered.as_text()
            info = stages["lowering"]
            info.update(dialect="stablehlo", chars=len(text), lines=text.count("\n") + 1)
            info["ops"] = op_counts(text)
            info["donated_leaves"] = _donated_leaves(jax, lowered)
            info["file"] = (
                _write(os.path.join(args.out, "stablehlo.mlir"), text) if args.out else None
            )
            compiled = stage("compilation", lowered.compile)
            _compiled_details(compiled, stages["compilation"], args)
        except _StageFailed:
            return EXIT_USER_CODE
    report["time_split"] = time_split(stages)
    return EXIT_OK


def time_split(stages: dict[str, Any]) -> dict[str, Any]:
    """Trace / lower / compile: each stage's wall time and what JAX recorded for it."""
    trace, lower, comp = stages["eval_shape"], stages["lowering"], stages["compilation"]
    events = comp["jax_events"]
    hits = events["persistent_cache_hits"]
    return {
        "trace_seconds": trace["seconds"],
        "jax_trace_seconds": trace["jax_events"]["trace_seconds"],
        "lower_seconds": lower["seconds"],
        "jax_lower_seconds": lower["jax_events"]["lowering_seconds"],
        "compile_seconds": comp["seconds"],
        "jax_backend_compile_seconds": events["backend_compile_seconds"],
        "persistent_cache_hits": hits,
        "compiled_or_loaded": "loaded from the persistent compilation cache"
        if hits
        else "compiled by XLA",
    }


def _donated_leaves(jax: ModuleType, lowered: Any) -> int | None:
    """How many argument leaves the lowered computation donates (``ArgInfo.donated``)."""
    try:
        leaves = jax.tree_util.tree_leaves(lowered.args_info)
    except Exception:
        return None
    return sum(1 for a in leaves if getattr(a, "donated", False))


def _python_constants(
    fn: Any, inputs: tuple, kwargs: dict, inputs_from: dict, args: argparse.Namespace
) -> dict[str, Any] | None:
    """For a function the code does not jit, given Python ``int``/``bool``/``str`` values
    by a call site, annotations or ``--args`` (and no static flag): those arguments,
    marked static. The code passes them to a plain function as constants; traced, they
    would fail where the code does not (``jnp.zeros(n)``)."""
    if is_jitted(fn) or args.static_argnums or args.static_argnames:
        return None
    if inputs_from.get("source") not in ("call site", "annotations", "--args"):
        return None

    def constant(value: Any) -> bool:
        return isinstance(value, (bool, int, str))

    argnums = [i for i, value in enumerate(inputs) if constant(value)]
    argnames = [name for name, value in kwargs.items() if constant(value)]
    if not argnums and not argnames:
        return None
    return {
        "argnums": argnums,
        "argnames": argnames,
        "why": "the code does not jit this function, so it gets these Python values as"
        " constants; the probe marks them static (pass --static-argnums/--static-argnames"
        " to choose otherwise)",
    }


def _jaxpr_details(traced: Any, info: dict[str, Any], args: argparse.Namespace) -> None:
    jaxpr = traced.jaxpr
    top, total = primitive_counts(jaxpr)
    info["equations"] = sum(top.values())
    info["equations_including_nested"] = sum(total.values())
    info["primitives"] = dict(top.most_common())
    info["primitives_including_nested"] = dict(total.most_common())
    text = str(jaxpr)
    info["dump"] = _write(args.dump, text) if args.dump else None
    info["file"] = _write(os.path.join(args.out, "jaxpr.txt"), text) if args.out else None


def _compiled_details(compiled: Any, info: dict[str, Any], args: argparse.Namespace) -> None:
    try:
        hlo = compiled.as_text()
    except Exception as exc:
        hlo = None
        info["hlo_error"] = f"{type(exc).__name__}: {exc}"
    if hlo is not None:
        info["hlo_chars"] = len(hlo)
        info["hlo_counts"] = hlo_counts(hlo)
        info["file"] = _write(os.path.join(args.out, "compiled_hlo.txt"), hlo) if args.out else None
    info["shardings"] = shardings_report(compiled)
    info["cost_analysis"] = cost_report(compiled, hlo)
    info["memory_analysis"] = memory_report(compiled)


# -- text ------------------------------------------------------------------------------------


def _leaf_text(leaf: dict[str, Any]) -> str:
    if leaf.get("static"):
        return f"static {leaf.get('value')}"
    text = leaf.get("aval") or leaf.get("repr") or leaf.get("type", "?")
    if leaf.get("weak_type"):
        text += " (weak type)"
    if leaf.get("sharding") and "SingleDeviceSharding" not in leaf["sharding"]:
        text += f" sharding {leaf['sharding']}"
    return text


def render_text(report: Report) -> str:
    lines = [f"jaxlint probe compile {report.get('target', '')}".rstrip(), status_line(report)]
    backend = report.get("backend")
    if backend:
        lines.append(f"backend: {backend['default_backend']} ({backend['device_count']} devices)")
    lines.extend(inputs_text(report.get("inputs_from")))
    if report.get("arguments") is not None:
        lines.append("arguments:")
        lines.extend(f"  {a['path']}: {_leaf_text(a)}" for a in report["arguments"])
    stages = report.get("stages") or {}
    for name in STAGES:
        info = stages.get(name)
        if info is None:
            continue
        if info.get("skipped"):
            lines.append(f"{name}: skipped (an earlier stage failed)")
            continue
        cached = name == "jaxpr" and info.get("jax_events", {}).get("traces") == 0
        note = ", from JAX's trace cache" if cached else ""
        head = f"{name} ({fmt_seconds(info.get('seconds'))}{note})"
        if not info.get("ok"):
            lines.append(f"{head}: FAILED")
            continue
        lines.extend(_stage_text(name, head, info))
        lines.extend(f"  warning: {w}" for w in info.get("warnings", []))
    split = report.get("time_split")
    if split:
        lines.append(
            f"time: trace {fmt_seconds(split['trace_seconds'])}, lower"
            f" {fmt_seconds(split['lower_seconds'])}, compile"
            f" {fmt_seconds(split['compile_seconds'])} ({split['compiled_or_loaded']})"
        )
    if report.get("error"):
        lines.extend(error_text(report["error"]))
    return "\n".join(lines) + "\n"


def _stage_text(name: str, head: str, info: dict[str, Any]) -> list[str]:
    if name == "eval_shape":
        return [f"{head}: outputs"] + [f"  {o['path']}: {_leaf_text(o)}" for o in info["outputs"]]
    if name == "jaxpr":
        prims = ", ".join(f"{k} {v}" for k, v in info["primitives_including_nested"].items())
        out = [
            f"{head}: {info['equations']} equations ({info['equations_including_nested']}"
            f" including nested); primitives: {prims or 'none'}"
        ]
        for key in ("dump", "file"):
            if info.get(key):
                out.append(f"  jaxpr written to {info[key]}")
        return out
    if name == "lowering":
        ops = ", ".join(f"{k} {v}" for k, v in list(info["ops"].items())[:12])
        out = [f"{head}: StableHLO, {info['lines']} lines; ops: {ops or 'none'}"]
        if info.get("file"):
            out.append(f"  StableHLO written to {info['file']}")
        return out
    cost = info.get("cost_analysis", {})
    mem = info.get("memory_analysis", {})
    out = [f"{head}:"]
    if cost.get("available"):
        devices = cost.get("devices")
        scope = f"per device, {devices} device(s)" if devices else "per device"
        out.append(
            f"  cost analysis ({scope}): flops {cost.get('flops')}, bytes accessed"
            f" {cost.get('bytes_accessed')}, transcendentals {cost.get('transcendentals')}"
        )
        if cost.get("caveat"):
            out.append(f"    caveat: {cost['caveat']}")
    else:
        out.append(f"  cost analysis: not available ({cost.get('reason')})")
    if mem.get("available"):
        fields = ", ".join(
            f"{k.replace('_bytes', '')} {v} B"
            for k, v in mem.items()
            if k not in ("available", "scope")
        )
        out.append(f"  memory analysis (per device): {fields}")
    else:
        out.append(f"  memory analysis: not available ({mem.get('reason')})")
    counts = info.get("hlo_counts")
    if counts:
        coll = ", ".join(f"{k} {v}" for k, v in counts["collectives"].items() if v) or "none"
        out.append(f"  optimised HLO: {counts['fusions']} fusions; collectives: {coll}")
    if info.get("file"):
        out.append(f"  compiled HLO written to {info['file']}")
    return out


def main(argv: Sequence[str] | None = None) -> int:
    return run_probe("compile", build_parser(), run, render_text, argv)


if __name__ == "__main__":
    from jaxlint.runtime_probes._supervise import run_command

    sys.exit(run_command("compile", None, main))
