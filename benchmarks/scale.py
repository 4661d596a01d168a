#!/usr/bin/env python3
"""How the project-wide analysis scales with the number of modules.

    python benchmarks/scale.py                      # 500, 1000, 2000, 4000 modules + the corpus
    python benchmarks/scale.py --sizes 500,1000     # chosen sizes
    python benchmarks/scale.py --no-corpus          # the synthetic series only
    python benchmarks/scale.py --jobs 2             # the cached runs with two workers

A synthetic package (written to a temporary folder, removed after) of small modules,
each importing the next (``chain``: a loop waits for the next module's jitted step, a
fact that flows along the imports); and a ``traced`` chain, where each module's jitted
step calls the next module's helper (that fact flows against the imports: see
``TRACED``). For each, one process, no cache: the cold run's wall time, the cost per
module, and the files linted again for what other modules say (from ``--timings``).
Then, with a cache and ``--jobs``: a first run that fills it, and a run right after
with nothing changed (files linted; warm / cold). The real corpus (the ``.py`` files of
flax, optax and equinox, from scripts/fetch_corpus.py, as benchmarks/bench.py runs
them) gets the same row, and the bare libcst parse of its files for the ratio.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHAIN = '''"""Module {i} of a synthetic package: it uses the next module's jitted step."""

import jax
import jax.numpy as jnp

from scalepkg.m{nxt:05d} import step_{nxt:05d}


@jax.jit
def step_{i:05d}(x):
    return jnp.tanh(x) + 1.0


def loop_{i:05d}(x):
    total = 0.0
    for _ in range(10):
        x = step_{nxt:05d}(x)
        total += float(x.sum())
    return total
'''
"""What a module asks of the module it imports (is ``step`` jitted?) flows along the
imports: linted with its imports first, no module needs a second lint."""

TRACED = '''"""Module {i} of a synthetic package: its jitted step calls the next module's helper."""

import jax
import jax.numpy as jnp

from scalepkg.m{nxt:05d} import helper_{nxt:05d}


def helper_{i:05d}(x, n):
    if x.sum() > 0:
        x = jnp.sin(x)
    return x * n


@jax.jit
def step_{i:05d}(x):
    return jnp.tanh(helper_{nxt:05d}(x, 3)) + 1.0
'''
"""Each helper is traced because the previous module's jitted step calls it: that fact
flows against the imports (the caller imports the callee) while the facts about the
callee flow along them, so every module but the first asks a question whose answer
comes from a module linted after it, and is linted twice."""

LAST = '''"""The last module: imports nothing from the package."""

import jax
import jax.numpy as jnp


@jax.jit
def step_{i:05d}(x):
    return jnp.cos(x)


def helper_{i:05d}(x, n):
    return x * n
'''

KINDS = {"chain": CHAIN, "traced": TRACED}


def make_package(folder: Path, size: int, kind: str = "chain") -> Path:
    """``size`` modules under ``folder/scalepkg`` (a project: ``pyproject.toml``)."""
    (folder / "pyproject.toml").write_text('[project]\nname = "scalepkg"\n')
    pkg = folder / "scalepkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    for i in range(size):
        text = LAST.format(i=i) if i == size - 1 else KINDS[kind].format(i=i, nxt=i + 1)
        (pkg / f"m{i:05d}.py").write_text(text)
    return pkg


_COUNTS = re.compile(r"(\d+) file\(s\) linted, (\d+) from the cache")
_AGAIN = re.compile(r"(\d+) linted again for what other modules say")


def run_check(paths: list[str], extra: list[str]) -> tuple[float, float, int, int]:
    """One ``jaxlint check --timings`` run: (wall s, CPU s of it and its workers, files
    linted, files linted again)."""
    cmd = [sys.executable, "-m", "jaxlint", "check", "--timings", "--exit-zero", "-q"]
    env = dict(os.environ)
    env.setdefault("PYTHONPATH", str(ROOT))  # this checkout, unless told otherwise
    with tempfile.TemporaryFile("w+") as err:
        started = time.perf_counter()
        proc = subprocess.Popen(
            [*cmd, *extra, *paths], stdout=subprocess.DEVNULL, stderr=err, env=env
        )
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - started
        err.seek(0)
        stderr = err.read()
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        raise SystemExit(f"jaxlint failed ({code}):\n{stderr[-3000:]}")
    counts = _COUNTS.search(stderr)
    if counts is None:
        raise SystemExit(f"no file counts in --timings:\n{stderr[-3000:]}")
    again = _AGAIN.search(stderr)
    return wall, usage.ru_utime + usage.ru_stime, int(counts[1]), int(again[1]) if again else 0


def measure(label: str, paths: list[str], modules: int, jobs: int, cache: Path) -> str:
    cold, cold_cpu, _, again = run_check(paths, ["--no-cache", "-j", "1"])
    shutil.rmtree(cache, ignore_errors=True)
    jflag = ["-j", str(jobs), "--cache-dir", str(cache)]
    first, _, _, first_again = run_check(paths, jflag)
    warm, warm_cpu, warm_linted, warm_again = run_check(paths, jflag)
    shutil.rmtree(cache, ignore_errors=True)
    return (
        f"| {label} | {modules:,} | {cold:.1f} | {cold_cpu:.1f} | {cold_cpu / modules * 1000:.1f} |"
        f" {again} | {first:.1f} | {first_again} | {warm:.2f} | {warm_cpu:.2f} |"
        f" {warm_linted} + {warm_again} | {warm_cpu / cold_cpu:.3f} |"
    )


def parse_seconds(files: list[Path]) -> tuple[float, float]:
    """A bare ``libcst.parse_module`` of every file, one process (bench.py's baseline):
    (wall s, CPU s)."""
    from bench import PARSE_SNIPPET

    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as listing:
        listing.write("\0".join(str(f) for f in files))
    try:
        started = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-c", PARSE_SNIPPET, listing.name])
        _, _, usage = os.wait4(proc.pid, 0)
        return time.perf_counter() - started, usage.ru_utime + usage.ru_stime
    finally:
        os.unlink(listing.name)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="500,1000,2000,4000")
    parser.add_argument("--traced", default="1000", help="sizes of the traced-helper chain")
    parser.add_argument("--jobs", type=int, default=2, help="workers of the cached runs")
    parser.add_argument("--no-corpus", action="store_true")
    parser.add_argument("--projects", default="flax,optax,equinox")
    args = parser.parse_args(argv)
    print(
        "| project | modules | cold wall s (-j 1, no cache) | cold CPU s | CPU ms / module |"
        f" linted again | first cached run wall s (-j {args.jobs}) | linted again |"
        " run after it wall s | its CPU s | files linted + again | after / cold (CPU) |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    series = [("chain", int(s)) for s in args.sizes.split(",") if s]
    series += [("traced", int(s)) for s in args.traced.split(",") if s]
    with tempfile.TemporaryDirectory(prefix="jaxlint-scale-") as tmp:
        for kind, size in series:
            folder = Path(tmp, f"{kind}{size}")
            folder.mkdir()
            pkg = make_package(folder, size, kind)
            label = f"synthetic {kind} {size}"
            print(measure(label, [str(pkg)], size, args.jobs, Path(tmp, "cache")), flush=True)
            shutil.rmtree(folder)
        if not args.no_corpus:
            sys.path.insert(0, str(ROOT / "benchmarks"))
            sys.path.insert(0, str(ROOT / "scripts"))
            from bench import python_files
            from fetch_corpus import cache_dir

            corpus = cache_dir()
            roots = []
            for name in args.projects.split(","):
                found = [f for f in sorted(corpus.glob(f"{name}-*")) if f.is_dir()]
                if found:
                    roots.append(found[-1])
            if not roots:
                print(f"(no corpus under {corpus}: python scripts/fetch_corpus.py)")
                return 0
            files = python_files(roots)
            label = "+".join(r.name for r in roots)
            row = measure(label, [str(f) for f in files], len(files), args.jobs, Path(tmp, "c"))
            print(row, flush=True)
            parse = parse_seconds(files)
            cold, cold_cpu = float(row.split("|")[3]), float(row.split("|")[4])
            print(
                f"\n{label}: bare libcst parse {parse[0]:.1f} s wall, {parse[1]:.1f} s CPU;"
                f" cold -j 1 / parse: {cold / parse[0]:.2f} (wall), {cold_cpu / parse[1]:.2f} (CPU)"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
