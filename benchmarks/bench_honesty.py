#!/usr/bin/env python3
"""The bench honesty table (docs/probes.md): what ``jaxlint probe bench`` reports
against the true time of the same work, for the cases that used to mislead.

    python benchmarks/bench_honesty.py                  # this checkout's probe
    python benchmarks/bench_honesty.py --jaxlint /work/main --label before

Each case (tests/fixtures/probes/honesty_cases.py) is run with the real command,
``python -m jaxlint.runtime_probes.bench ... --output report.json`` in its own process
(started outside the repository, so ``--jaxlint`` chooses the code). The truth is
measured here: the median of calls of the same work with fresh inputs, each waited for
on every device array it produced (``truth_*``). Three rounds (truth, then the probe)
give three ratios; the table shows the median round. A case passes when the probe's
ratio is within 0.8-1.25, or when the probe refuses it (``ok: false``, exit 3) with the
error the case calls for, where no honest number exists (any other failure, a crash
included, is misleading). Ratios, not seconds, are the point: the machine is shared
and noisy.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "tests" / "fixtures" / "probes" / "honesty_cases.py"
LOW, HIGH = 0.8, 1.25

# (row, function, factory, flags, the error class the probe must refuse it with, or None)
ROWS = [
    ("async dispatch (jitted matmul chain)", "chain", "make_inputs", ["--jit"], None),
    ("pytree output (dict, tuple, list leaves)", "pytree", "make_inputs", ["--jit"], None),
    (
        "donation (--donate-argnums 0)",
        "donated",
        "make_inputs",
        ["--jit", "--donate-argnums", "0"],
        None,
    ),
    ("keeps a metrics array (issue 26.1)", "keeps_metric", "make_inputs", [], None),
    ("keeps state, returns a scalar", "keeps_state", "make_inputs", [], None),
    (
        "host-only result, work dropped (26.2)",
        "drops_work",
        "make_inputs",
        [],
        "UnsynchronisableOutput",
    ),
    ("functools.lru_cache result (26.3)", "cached", "make_count", [], "CachedOutput"),
    ("memoised: same array every call (26.3)", "memoised", "make_inputs", [], "CachedOutput"),
]


def load_cases():
    spec = importlib.util.spec_from_file_location("honesty_cases_truth", CASES)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def truth(jax, cases, name: str, factory: str, calls: int) -> float:
    run, make = getattr(cases, f"truth_{name}"), getattr(cases, factory)
    samples = []
    for i in range(calls + 2):
        args, kwargs = make()
        jax.block_until_ready((args, kwargs))
        start = time.perf_counter()
        run(*args, **kwargs)
        if i >= 2:
            samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def first_call_truth(jax, cases) -> float:
    """A fresh jit of the chain: its first call, synchronised (tracing + compile + run)."""
    fresh = jax.jit(lambda x: cases.chain(x))
    args, _ = cases.make_inputs()
    jax.block_until_ready(args)
    start = time.perf_counter()
    jax.block_until_ready(fresh(*args))
    return time.perf_counter() - start


def probe(jaxlint: Path, name: str, factory: str, flags: list[str], repeat: int) -> dict:
    with tempfile.TemporaryDirectory(prefix="bench-honesty-") as folder:
        out = Path(folder) / "report.json"
        env = {k: v for k, v in os.environ.items() if not k.startswith(("JAX_", "XLA_"))}
        env.update(JAX_PLATFORMS="cpu", PYTHONPATH=str(jaxlint))
        command = [sys.executable, "-m", "jaxlint.runtime_probes.bench", f"{CASES}:{name}"]
        command += ["--factory", factory, "--repeat", str(repeat), *flags, "--output", str(out)]
        proc = subprocess.run(command, env=env, cwd=folder, capture_output=True, timeout=600)
        try:
            report = json.loads(out.read_text())
        except (OSError, ValueError) as exc:  # no report: a failure, never a refusal
            report = {"ok": False, "error": {"class": "NoReport", "message": str(exc)}}
        report["_exit"] = proc.returncode
        return report


def ms(seconds: float | None) -> str:
    return "-" if seconds is None else f"{seconds * 1e3:.2f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jaxlint", type=Path, default=ROOT, help="root of the jaxlint to run")
    parser.add_argument("--label", default="this checkout")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=7, help="timed calls per probe run")
    args = parser.parse_args()
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    import jax

    cases = load_cases()
    print(f"jaxlint: {args.jaxlint} ({args.label}); jax {jax.__version__}, {jax.devices()[0]}")
    print(f"live arrays in each process: {cases.MANY} (HONESTY_LIVE_ARRAYS)")
    print()
    print("| Case | Probe says | Reported median | True median | Ratio | Honest |")
    print("|---|---|---|---|---|---|")
    failures = 0
    first_row = None
    for row, name, factory, flags, refuse in ROWS:
        rounds = []
        for _ in range(args.rounds):
            true = truth(jax, cases, name, factory, args.repeat)
            report = probe(args.jaxlint, name, factory, flags, args.repeat)
            reported = None
            if report.get("ok"):
                reported = report["results"]["target"]["stats"]["median"]
                if name == "chain" and first_row is None:
                    first_row = report["results"]["target"]["first_call"]["seconds"]
            rounds.append((reported / true if reported else None, reported, true, report))
            if not report.get("ok"):
                break  # a refusal is the same every round
        ratios = [r for r, *_ in rounds if r is not None]
        if ratios:
            middle = sorted(rounds, key=lambda r: r[0] or 0)[len(rounds) // 2]
        else:
            middle = rounds[0]
        ratio, reported, true, report = middle
        if report.get("ok"):
            says = "ok"
            honest = LOW <= ratio <= HIGH
        else:
            says = f"refused: {report['error']['class']} (exit {report['_exit']})"
            # only the refusal this case calls for: a crash (InternalError, exit 2) is not
            honest = report["error"]["class"] == refuse and report["_exit"] == 3
        failures += not honest
        shown = f"{ratio:.2f}" if ratio is not None else "-"
        print(
            f"| {row} | {says} | {ms(reported)} | {ms(true)} | {shown} |"
            f" {'yes' if honest else 'NO'} |"
        )
    if first_row is not None:
        first_true = first_call_truth(jax, cases)
        print(
            f"| first call (jitted chain; compile) | reported on its own, labelled |"
            f" {ms(first_row)} | {ms(first_true)} (a fresh jit here, synchronised) |"
            " - | labelled, not given as compile time |"
        )
    print()
    print(f"{failures} case(s) misleading")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
