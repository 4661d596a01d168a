#!/usr/bin/env python3
"""Compare jaxlint's speed with a bare libcst parse, flake8 and ruff on the same files.

    python benchmarks/bench.py                      # flax + optax + equinox (downloaded)
    python benchmarks/bench.py --projects flax      # a chosen subset
    python benchmarks/bench.py --paths some/dir     # your own files
    python benchmarks/bench.py --repeat 3           # best of 3 for each tool
    python benchmarks/bench.py --quick              # jaxlint and the parse only (no flake8)

The real code comes from PyPI sdists cached outside the repository by
scripts/fetch_corpus.py. Each tool runs in its own process on the same file
list. The table reports wall time (best of --repeat), CPU time (user + system,
the process and its workers), lines per second, peak memory (the largest RSS of
any one process of the run, from wait4) and each time as a ratio to the bare
parse, because shared machines are noisy and ratios travel better than seconds.
Repeats run round-robin (every tool once, then again), so a burst of load from
elsewhere hits all tools alike.

Then come the issue's targets as measured ratios, and the time per phase and
per rule from ``jaxlint check --timings`` (one more cold run, one process).
"""

from __future__ import annotations

import argparse
import compileall
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from fetch_corpus import PINNED, cache_dir, fetch  # noqa: E402

PARSE_SNIPPET = """
import sys, libcst
for path in open(sys.argv[1]).read().split("\\0"):
    if path:
        try:
            libcst.parse_module(open(path, encoding="utf-8", errors="replace").read())
        except Exception:
            pass
"""

FLAKE8_WITHOUT_JAXLINT = """
import importlib.metadata as md, sys
real = md.distributions
def distributions(**kwargs):
    return [d for d in real(**kwargs) if (d.metadata["Name"] or "").lower() != "jaxlint"]
md.distributions = distributions
from flake8.main.cli import main
sys.exit(main())
"""
"""flake8 with the plugins it ships with (pyflakes, pycodestyle, mccabe): the installed
jaxlint plugin is hidden, since flake8 runs every installed plugin whatever --select says."""

TARGETS = (
    ("cold, 1 process <= 1.5x the bare parse", "cold1_vs_parse", 1.5),
    ("cold, all cores <= 0.9x the bare parse", "coldN_vs_parse", 0.9),
    ("warm (cache) <= 5% of cold, 1 process", "warm_vs_cold1", 0.05),
    ("warm after touching one module <= 10% of cold", "touched_vs_cold1", 0.10),
    ("peak memory < 1024 MiB per process", "peak_mib", 1024.0),
)


@dataclass
class Tool:
    key: str
    label: str
    cmd: list[str]
    before: list[str] | None = None
    """A command run (untimed) before each timed run, e.g. filling the cache."""
    touch: Path | None = None
    """A file given one more comment line after ``before`` (restored after the run): the
    run then re-checks it and whatever used what its module says."""
    runs: list[tuple[float, float, float, int]] = field(default_factory=list)
    """(wall s, cpu s, peak MiB, exit code) per repeat."""

    def best(self) -> tuple[float, float, float, int]:
        return min(self.runs, key=lambda r: r[0])


def most_imported(files: list[Path]) -> Path | None:
    """The module whose name the most other files spell in an import line (a central
    module: touching it is the worst case for re-checking its importers)."""
    import re

    texts = {}
    for path in files:
        try:
            texts[path] = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
    counts: dict[str, int] = {}
    for text in texts.values():
        for line in re.findall(r"^\s*(?:from|import)\s+([\w.]+)", text, re.MULTILINE):
            last = line.rsplit(".", 1)[-1]
            counts[last] = counts.get(last, 0) + 1
    best = None
    for path in texts:
        name = path.stem if path.stem != "__init__" else path.parent.name
        if best is None or counts.get(name, 0) > counts.get(best[0], 0):
            best = (name, path)
    return best[1] if best is not None else None


def python_files(roots: list[Path]) -> list[Path]:
    files = []
    for root in roots:
        files.extend(sorted(p for p in root.rglob("*.py") if p.is_file()))
    return files


def run_timed(cmd: list[str], env: dict[str, str] | None = None) -> tuple[float, float, float, int]:
    """Wall time (s), CPU time (user + system of the process and its waited-for
    children, s), the peak RSS of any one of them (MiB), and the exit code."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    cpu = usage.ru_utime + usage.ru_stime
    return elapsed, cpu, usage.ru_maxrss / 1024.0, proc.returncode  # ru_maxrss: KiB on Linux


def compile_jaxlint() -> Path | None:
    """Write the bytecode of the jaxlint package that ``python -m jaxlint`` runs.

    An installed jaxlint has it (pip compiles what it installs, as it did for libcst,
    which the bare parse imports); a checkout run with ``PYTHONDONTWRITEBYTECODE=1`` set
    (as some shells and containers do) has none and would compile every module it
    imports, in every timed process: about 0.2 s of CPU per run, measured. Python still
    reads bytecode that exists when that variable is set."""
    spec = importlib.util.find_spec("jaxlint")
    if spec is None or spec.origin is None:
        return None
    package = Path(spec.origin).parent
    compileall.compile_dir(str(package), quiet=1)
    return package


def available_cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def timings_table(cmd: list[str], top: int) -> str:
    """The ``--timings`` table of one cold single-process run, cut to ``top`` rows."""
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    lines = proc.stderr.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith("phase or rule")), None)
    if start is None:
        return "(no --timings table: " + (proc.stderr.strip().splitlines() or ["?"])[-1] + ")"
    table = lines[start:]
    body = [line for line in table[1:] if line.startswith(("phase:", "rule:"))]
    rest = [line for line in table[1:] if not line.startswith(("phase:", "rule:"))]
    shown = body[:top]
    if len(body) > top:
        shown.append(f"... {len(body) - top} more rows")
    return "\n".join([table[0], *shown, *rest])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--projects", nargs="*", default=["flax", "optax", "equinox"])
    parser.add_argument("--paths", nargs="*", help="benchmark these folders instead")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=0, help="processes for -j (0: all cores)")
    parser.add_argument("--quick", action="store_true", help="skip flake8, its plugin and ruff")
    parser.add_argument("--no-timings", action="store_true", help="skip the --timings run")
    parser.add_argument("--top", type=int, default=25, help="rows of the --timings table")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args(argv)

    if args.paths:
        roots = [Path(p) for p in args.paths]
    else:
        roots = [fetch(name, PINNED[name], cache_dir()) for name in args.projects]
    files = python_files(roots)
    lines = sum(p.read_bytes().count(b"\n") for p in files)
    jobs = args.jobs or available_cores()
    bindir = Path(sys.executable).parent
    compiled = compile_jaxlint()
    work = Path(tempfile.mkdtemp(prefix="jaxlint-bench-"))
    file_list = work / "files.lst"
    file_list.write_text("\0".join(str(p) for p in files))
    cache = work / "cache"
    # jaxlint and flake8 read the file list from the command line (xargs-style)
    str_files = [str(p) for p in files]
    jaxlint = [sys.executable, "-m", "jaxlint", "check", "--exit-zero"]
    tools = [
        Tool(
            "parse",
            "libcst parse (bare, 1 process)",
            [sys.executable, "-c", PARSE_SNIPPET, str(file_list)],
        ),
        Tool(
            "cold1",
            "jaxlint cold (--no-cache -j 1)",
            [*jaxlint, "--no-cache", "-j", "1", *str_files],
        ),
        Tool(
            "coldN",
            f"jaxlint cold (--no-cache -j {jobs})",
            [*jaxlint, "--no-cache", "-j", str(jobs), *str_files],
        ),
        Tool(
            "warm",
            f"jaxlint warm (cache, -j {jobs})",
            [*jaxlint, "--cache-dir", str(cache), "-j", str(jobs), *str_files],
            before=[*jaxlint, "--cache-dir", str(cache), "-j", str(jobs), *str_files],
        ),
        Tool(
            "touched",
            f"jaxlint warm, one module touched (cache, -j {jobs})",
            [*jaxlint, "--cache-dir", str(cache), "-j", str(jobs), *str_files],
            before=[*jaxlint, "--cache-dir", str(cache), "-j", str(jobs), *str_files],
            touch=most_imported(files),
        ),
    ]
    if not args.quick:
        if shutil.which("flake8", path=str(bindir)) or shutil.which("flake8"):
            tools.append(
                Tool(
                    "flake8",
                    "flake8 (pyflakes, pycodestyle, mccabe; -j 1)",
                    [
                        sys.executable,
                        "-c",
                        FLAKE8_WITHOUT_JAXLINT,
                        "-j",
                        "1",
                        "--exit-zero",
                        *str_files,
                    ],
                )
            )
            tools.append(
                Tool(
                    "flake8_jax",
                    "flake8 --select JAX (jaxlint plugin, -j 1)",
                    [
                        sys.executable,
                        "-m",
                        "flake8",
                        "-j",
                        "1",
                        "--select",
                        "JAX",
                        "--exit-zero",
                        *str_files,
                    ],
                )
            )
        ruff = shutil.which("ruff", path=str(bindir)) or shutil.which("ruff")
        if ruff:
            tools.append(
                Tool(
                    "ruff",
                    "ruff check (defaults)",
                    [ruff, "check", "--no-cache", "--exit-zero", *str_files],
                )
            )

    try:
        for _ in range(args.repeat):
            for tool in tools:
                if tool.before is not None:
                    shutil.rmtree(cache, ignore_errors=True)
                    subprocess.run(tool.before, capture_output=True, check=False)
                original = tool.touch.read_bytes() if tool.touch is not None else None
                try:
                    if tool.touch is not None and original is not None:
                        tool.touch.write_bytes(original + b"\n# touched by the benchmark\n")
                    tool.runs.append(run_timed(tool.cmd))
                finally:
                    if tool.touch is not None and original is not None:
                        tool.touch.write_bytes(original)
        table = ""
        if not args.no_timings:
            table = timings_table(
                [*jaxlint, "--no-cache", "-j", "1", "--timings", *str_files], args.top
            )
    finally:
        shutil.rmtree(work, ignore_errors=True)

    best = {t.key: t.best() for t in tools}
    base_wall, base_cpu = best["parse"][0], best["parse"][1]
    rows = []
    for tool in tools:
        wall, cpu, rss, code = best[tool.key]
        rows.append(
            {
                "key": tool.key,
                "tool": tool.label,
                "seconds": wall,
                "cpu_seconds": cpu,
                "ratio_to_parse": wall / base_wall if base_wall else float("nan"),
                "cpu_ratio_to_parse": cpu / base_cpu if base_cpu else float("nan"),
                "lines_per_s": lines / wall if wall else float("nan"),
                "peak_mib": rss,
                "exit": code,
                "all_runs_seconds": [r[0] for r in tool.runs],
            }
        )
    measured = {
        "cold1_vs_parse": best["cold1"][0] / base_wall,
        "cold1_cpu_vs_parse_cpu": best["cold1"][1] / base_cpu,
        "coldN_vs_parse": best["coldN"][0] / base_wall,
        "warm_vs_cold1": best["warm"][0] / best["cold1"][0],
        "touched_vs_cold1": best["touched"][0] / best["cold1"][0],
        "peak_mib": max(best[k][2] for k in ("cold1", "coldN", "warm", "touched")),
    }
    meta = {
        "files": len(files),
        "lines": lines,
        "python": sys.version.split()[0],
        "cpus": os.cpu_count(),
        "jobs": jobs,
        "repeat": args.repeat,
        "load_average": list(os.getloadavg()),
        "roots": [str(r) for r in roots],
        "touched": str(next((t.touch for t in tools if t.touch is not None), None)),
        "bytecode_compiled": str(compiled) if compiled is not None else None,
    }
    if args.json:
        print(
            json.dumps(
                {"meta": meta, "rows": rows, "targets": measured, "timings": table}, indent=2
            )
        )
        return 0
    load = ", ".join(f"{x:.1f}" for x in meta["load_average"])
    print(
        f"{meta['files']} files, {meta['lines']} lines, Python {meta['python']}, "
        f"{meta['cpus']} CPUs, best of {args.repeat}, load average after the runs {load}"
    )
    print(f"touched module: {meta['touched']}")
    if compiled is not None:
        print(f"jaxlint's bytecode compiled before the runs (as installed): {compiled}")
    header = (
        f"{'tool':<46} {'wall s':>7} {'x parse':>7} {'cpu s':>7} {'cpu x':>6}"
        f" {'lines/s':>9} {'peak MiB':>8}"
    )
    print(header)
    for row in rows:
        print(
            f"{row['tool']:<46} {row['seconds']:>7.2f} {row['ratio_to_parse']:>7.2f}"
            f" {row['cpu_seconds']:>7.2f} {row['cpu_ratio_to_parse']:>6.2f}"
            f" {row['lines_per_s']:>9.0f} {row['peak_mib']:>8.0f}"
        )
    print()
    print("targets (measured ratio, wall time unless said)")
    for label, key, limit in TARGETS:
        value = measured[key]
        verdict = "met" if value <= limit else "MISSED"
        shown = f"{value:.0f} MiB" if key == "peak_mib" else f"{value:.3f}"
        print(f"  {label:<44} {shown:>10}  {verdict}")
    print(
        f"  {'(cold, 1 process: CPU time / parse CPU time)':<44} {measured['cold1_cpu_vs_parse_cpu']:>10.3f}"
    )
    if table:
        print()
        print(f"jaxlint check --no-cache -j 1 --timings (top {args.top} rows)")
        print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
