"""``jaxlint probe syncs``: count the host's reads of device arrays, per line, in one call.

The function is called once, as it is, on inputs from its factory (or ``--args``,
annotations, a call site); while it runs, every read of a ``jax.Array`` by the host
(``float(x)``, ``x.item()``, ``np.asarray(x)``, ``print(x)``, ``jax.device_get``, an
f-string...) is counted on the lines of the function's file that were on the stack, with
the number of times each line ran (``_host_reads``). A read waits for the computation
that produces the array: a blocking sync. With ``--line N`` (JAX102's verify line: the
conversion's line) the report says whether every run of that line read a device array:
one sync per iteration of the loop it is in. Nothing is timed against anything: the
counts are the result; the seconds spent in the reads, and whether the array was still
being computed when read, are reported as measured.
"""

from __future__ import annotations

import argparse
import inspect
import linecache
import os
import sys
import time
from collections.abc import Sequence
from typing import Any

from jaxlint.runtime_probes._common import (
    EXIT_ERROR,
    EXIT_OK,
    EXIT_USER_CODE,
    Report,
    count,
    error_text,
    fail,
    fmt_seconds,
    import_jax,
    init_backend,
    make_parser,
    run_probe,
    status_line,
)
from jaxlint.runtime_probes._errors import describe_exception, static_rules_at
from jaxlint.runtime_probes._host_reads import HostReads, Unavailable, unavailable_reason
from jaxlint.runtime_probes._inputs import add_args_flag, input_factory, inputs_text
from jaxlint.runtime_probes._monitor import CompileMonitor
from jaxlint.runtime_probes._targets import Loader, call_factory

SUMMARY = "Count the host's reads of device arrays (blocking syncs), per line, in one call."
DETAILS = """\
The function is called once, as it is (not jitted), on inputs from the factory (or
--args, annotations, a call site). While it runs, each read of a jax.Array by the host
(float(x), int(x), bool(x), x.item(), x.tolist(), np.asarray(x), np.array(x), print(x),
str(x), an f-string, jax.device_get(x)) is counted, with the lines of the function's
file on the stack when it happened (the conversion's line and the lines that called the
function doing it), and each of those lines' runs is counted too. A read waits until
the array is computed: a blocking sync of the host with the device.

The report lists, for each line of the file with a read: how many times it ran, in how
many of those runs it read a device array, the reads (distinct arrays per run), how many
of the arrays were still being computed when read (the host waited for the device), and
the time spent in the reads. With --line N, that line's counts, and whether every run of
it read a device array ("sync_every_run"): a loop that converts a step's result on every
iteration syncs once per step. A line that ran fewer than two times shows no loop.

The counts need Python 3.12 or newer (sys.monitoring and the buffer protocol door of
jax.Array); elsewhere the probe says so (SyncsUnavailable, exit 2). The transfer guard
cannot be used for this: it sees nothing on the CPU backend."""
EXAMPLES = """\
  jaxlint probe syncs train.py:train --line 32 --format text
  jaxlint probe syncs train.py:train --args "f32[16], f32[60,32,16]"
  jaxlint probe syncs train.py:fit --factory make_run --line 40 --rule JAX102
  python -m jaxlint.runtime_probes.syncs train.py:train --line 32"""

MIN_RUNS = 2
"""A line that ran fewer times is not in a loop on these inputs: no per-step claim holds."""


def sync_rules() -> list[str]:
    """The rules that declare a read on every run of their line (``Rule.confirmed_by``)."""
    from jaxlint.rules import all_rules
    from jaxlint.rules.base import HostSyncEveryRun

    return [r.code for r in all_rules() if HostSyncEveryRun() in r.confirmed_by]


def build_parser() -> argparse.ArgumentParser:
    parser = make_parser("syncs", SUMMARY, DETAILS, EXAMPLES)
    parser.add_argument(
        "target", help="the function: path/to/file.py:FUNCTION or package.module:FUNCTION"
    )
    parser.add_argument(
        "--factory",
        metavar="NAME|FILE.py:FUNC",
        help="input factory returning (args, kwargs): a name in the target's module or a full"
        " spec (default: make_inputs)",
    )
    add_args_flag(parser)
    parser.add_argument(
        "--line",
        type=count(1),
        metavar="N",
        help="the line of the function's file to judge (a conversion in a loop): whether every"
        " run of it read a device array",
    )
    return parser


def _source_file(target: Any) -> str | None:
    try:
        return inspect.getsourcefile(inspect.unwrap(target.obj))
    except (TypeError, ValueError):
        return target.file


def _verdict(entry: dict[str, Any]) -> tuple[bool, str]:
    line, runs, read = entry["line"], entry["runs"], entry["runs_with_host_read"]
    if runs < MIN_RUNS:
        return False, (
            f"line {line} ran {runs} time(s) in the call: no loop on these inputs, so no"
            " per-iteration sync to count"
        )
    if read == runs:
        pending = entry["reads_of_pending_arrays"]
        return True, (
            f"every one of the {runs} runs of line {line} read a device array to the host:"
            f" a blocking sync per run ({entry['host_reads']} read(s); {pending} of an array"
            " still being computed)"
        )
    if read == 0:
        return False, f"none of the {runs} runs of line {line} read a device array to the host"
    return False, f"{read} of the {runs} runs of line {line} read a device array to the host"


def run(args: argparse.Namespace, report: Report) -> int:
    jax = import_jax()
    devices = init_backend(jax)
    report["backend"] = {"default_backend": jax.default_backend(), "device_count": len(devices)}
    why = unavailable_reason(jax)
    if why is not None:
        fail(EXIT_ERROR, "SyncsUnavailable", why)
    loader = Loader()
    target = loader.load(args.target)
    factory, inputs_from = input_factory(loader, target, args.factory, args.args)
    report["target"] = args.target
    report["factory"] = factory.spec
    report["inputs_from"] = inputs_from
    file = _source_file(target)
    if not file or not os.path.isfile(file):
        fail(EXIT_ERROR, "TargetNotFound", f"no source file for {args.target}: no lines to count")
    report["file"] = os.path.abspath(file)
    if args.line is not None:
        total = len(linecache.getlines(file))
        if args.line > total:
            fail(EXIT_ERROR, "UsageError", f"--line {args.line}: {file} has {total} lines")
    inputs, kwargs = call_factory(factory)
    jax.block_until_ready((inputs, kwargs))  # the inputs' own work is not the call's
    counter = HostReads(jax, file)
    error = None
    start = time.perf_counter()
    try:
        with CompileMonitor(jax) as monitor, counter:
            mark = monitor.mark()
            try:
                jax.block_until_ready(target.obj(*inputs, **kwargs))
            except Exception as exc:
                error = describe_exception(exc, phase="running your code")
            window = monitor.since(mark)
    except Unavailable as exc:
        fail(EXIT_ERROR, "SyncsUnavailable", str(exc))
    seconds = time.perf_counter() - start
    report["call"] = {
        "seconds": seconds,
        "label": "one call, as it is: includes tracing and compilation, and the counting",
        "compiles": window.compiles,
    }
    entries = [
        counts.report(line, linecache.getline(file, line).strip())
        for line, counts in sorted(counter.lines.items())
        if counts.reads or line == args.line
    ]
    report["lines"] = entries
    report["reads_elsewhere"] = counter.reads_elsewhere
    if args.line is not None:
        entry = next((e for e in entries if e["line"] == args.line), None)
        if entry is None:
            entry = {
                "line": args.line,
                "code": linecache.getline(file, args.line).strip(),
                "runs": 0,
                "runs_with_host_read": 0,
                "host_reads": 0,
                "reads_of_pending_arrays": 0,
                "seconds_in_reads": 0.0,
            }
        every, why = _verdict(entry)
        report["line"] = {**entry, "sync_every_run": every, "verdict": why}
        if every and error is None:
            reported = static_rules_at(file, args.line)
            report["rules"] = [code for code in sync_rules() if code in reported]
            if not report["rules"] and sync_rules():
                report["rules_note"] = (
                    f"{', '.join(sync_rules())} declare(s) a sync on every run, but `jaxlint"
                    f" check` reports none of them at line {args.line}"
                )
    if error is not None:
        report["error"] = error
        report["error"]["hint"] = "the counts are those up to the error"
        return EXIT_USER_CODE
    return EXIT_OK


def render_text(report: Report) -> str:
    lines = [f"jaxlint probe syncs {report.get('target', '')}".rstrip(), status_line(report)]
    lines.extend(inputs_text(report.get("inputs_from")))
    call = report.get("call")
    if call:
        lines.append(
            f"one call: {fmt_seconds(call.get('seconds'))} (includes compilation and the counting),"
            f" {call['compiles']} compilation(s)"
        )
    entries = report.get("lines") or []
    if entries:
        lines.append("host reads of device arrays, by line of " + os.path.basename(report["file"]))
    for e in entries:
        lines.append(
            f"  line {e['line']}: ran {e['runs']}, read in {e['runs_with_host_read']} run(s):"
            f" {e['host_reads']} read(s), {e['reads_of_pending_arrays']} still computing,"
            f" {fmt_seconds(e.get('seconds_in_reads'))} in reads    {e['code']}"
        )
    if call and not entries:
        lines.append("no host read of a device array in the file's lines")
    if report.get("reads_elsewhere"):
        lines.append(f"  reads with no line of the file on the stack: {report['reads_elsewhere']}")
    line = report.get("line")
    if line:
        lines.append(f"line {line['line']}: {line['verdict']}")
    if report.get("error"):
        lines.extend(error_text(report["error"]))
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    return run_probe("syncs", build_parser(), run, render_text, argv)


if __name__ == "__main__":
    from jaxlint.runtime_probes._supervise import run_command

    sys.exit(run_command("syncs", None, main))
