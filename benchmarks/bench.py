#!/usr/bin/env python3
"""Compare jaxlint's speed with a bare libcst parse, flake8 and ruff on the same files.

    python benchmarks/bench.py                      # flax + optax + equinox (downloaded)
    python benchmarks/bench.py --projects flax      # a chosen subset
    python benchmarks/bench.py --paths some/dir     # your own files
    python benchmarks/bench.py --repeat 3           # best of 3 for each tool

The real code comes from PyPI sdists cached outside the repository by
scripts/fetch_corpus.py. Each tool runs in its own process on the same file
list; the table reports wall time (best of --repeat), lines per second, peak
memory (max RSS of the process) and each time as a ratio to the bare parse,
because shared machines are noisy and ratios travel better than seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
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


def python_files(roots: list[Path]) -> list[Path]:
    files = []
    for root in roots:
        files.extend(sorted(p for p in root.rglob("*.py") if p.is_file()))
    return files


def run_timed(cmd: list[str], repeat: int) -> tuple[float, float, int]:
    """Best wall time (s), the peak RSS of that run's process (MiB), and the exit code."""
    best = float("inf")
    best_rss = 0.0
    code = 0
    for _ in range(repeat):
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        elapsed = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        code = proc.returncode
        if elapsed < best:
            best = elapsed
            best_rss = usage.ru_maxrss / 1024.0  # KiB on Linux
    return best, best_rss, code


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--projects", nargs="*", default=["flax", "optax", "equinox"])
    parser.add_argument("--paths", nargs="*", help="benchmark these folders instead")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the table as JSON")
    args = parser.parse_args(argv)

    if args.paths:
        roots = [Path(p) for p in args.paths]
    else:
        roots = [fetch(name, PINNED[name], cache_dir()) for name in args.projects]
    files = python_files(roots)
    lines = sum(p.read_bytes().count(b"\n") for p in files)
    bindir = Path(sys.executable).parent
    with tempfile.NamedTemporaryFile("w", delete=False, suffix=".lst") as fh:
        fh.write("\0".join(str(p) for p in files))
        file_list = fh.name
    # jaxlint and flake8 read the file list from the command line (xargs-style)
    str_files = [str(p) for p in files]
    jaxlint = [sys.executable, "-m", "jaxlint", "check", "--no-cache", "--exit-zero"]
    tools: list[tuple[str, list[str]]] = [
        ("libcst parse (bare)", [sys.executable, "-c", PARSE_SNIPPET, file_list]),
        ("jaxlint check --no-cache", [*jaxlint, *str_files]),
    ]
    flake8 = shutil.which("flake8", path=str(bindir)) or shutil.which("flake8")
    if flake8:
        tools.append(
            ("flake8 (default plugins, -j1)", [flake8, "-j", "1", "--exit-zero", *str_files])
        )
        tools.append(
            (
                "flake8 --select JAX (jaxlint plugin, -j1)",
                [flake8, "-j", "1", "--select", "JAX", "--exit-zero", *str_files],
            )
        )
    ruff = shutil.which("ruff", path=str(bindir)) or shutil.which("ruff")
    if ruff:
        tools.append(
            ("ruff check (defaults)", [ruff, "check", "--no-cache", "--exit-zero", *str_files])
        )

    rows = []
    for label, cmd in tools:
        seconds, rss, code = run_timed(cmd, args.repeat)
        rows.append({"tool": label, "seconds": seconds, "peak_mib": rss, "exit": code})
    os.unlink(file_list)
    base = rows[0]["seconds"]
    for row in rows:
        row["ratio_to_parse"] = row["seconds"] / base if base else float("nan")
        row["lines_per_s"] = lines / row["seconds"] if row["seconds"] else float("nan")

    meta = {
        "files": len(files),
        "lines": lines,
        "python": sys.version.split()[0],
        "cpus": os.cpu_count(),
        "roots": [str(r) for r in roots],
    }
    if args.json:
        print(json.dumps({"meta": meta, "rows": rows}, indent=2))
        return 0
    print(
        f"{meta['files']} files, {meta['lines']} lines, Python {meta['python']}, "
        f"{meta['cpus']} CPUs, best of {args.repeat}"
    )
    print(f"{'tool':<44} {'seconds':>8} {'x parse':>8} {'lines/s':>10} {'peak MiB':>9}")
    for row in rows:
        print(
            f"{row['tool']:<44} {row['seconds']:>8.2f} {row['ratio_to_parse']:>8.2f}"
            f" {row['lines_per_s']:>10.0f} {row['peak_mib']:>9.0f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
