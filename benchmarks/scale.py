#!/usr/bin/env python3
"""How the project-wide analysis scales with the number of modules.

    python benchmarks/scale.py                      # 500, 1000, 2000, 4000 modules + the corpus
    python benchmarks/scale.py --sizes 500,1000     # chosen sizes
    python benchmarks/scale.py --no-corpus          # the synthetic series only
    python benchmarks/scale.py --jobs 2             # the cached runs with two workers

A synthetic package (written to a temporary folder, removed after) of small modules,
each importing the next: module ``i`` jits a step that calls a helper of module
``i + 1``, so every module asks its neighbour what its helper is and tells it that the
helper is traced. For each size, one process, no cache: the cold run's wall time, the
cost per module, and the files linted again for what other modules say (from
``--timings``). Then, with a cache and ``--jobs``: a first run that fills it, and a run
right after with nothing changed (files linted; warm / cold). The real corpus (flax,
optax, equinox, from scripts/fetch_corpus.py) gets the same rows.
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


def run_check(paths: list[str], extra: list[str]) -> tuple[float, int, int, int]:
    """One ``jaxlint check --timings`` run: (wall seconds, linted, from cache, again)."""
    cmd = [sys.executable, "-m", "jaxlint", "check", "--timings", "--exit-zero", "-q"]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    started = time.perf_counter()
    proc = subprocess.run(
        [*cmd, *extra, *paths], capture_output=True, text=True, env=env, check=False
    )
    wall = time.perf_counter() - started
    if proc.returncode not in (0, 1):
        raise SystemExit(f"jaxlint failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    counts = _COUNTS.search(proc.stderr)
    if counts is None:
        raise SystemExit(f"no file counts in --timings:\n{proc.stderr[-3000:]}")
    again = _AGAIN.search(proc.stderr)
    return wall, int(counts[1]), int(counts[2]), int(again[1]) if again else 0


def measure(label: str, paths: list[str], modules: int, jobs: int, cache: Path) -> str:
    cold, linted, _, again = run_check(paths, ["--no-cache", "-j", "1"])
    shutil.rmtree(cache, ignore_errors=True)
    jflag = ["-j", str(jobs), "--cache-dir", str(cache)]
    first, _, _, first_again = run_check(paths, jflag)
    warm, warm_linted, hits, warm_again = run_check(paths, jflag)
    shutil.rmtree(cache, ignore_errors=True)
    return (
        f"| {label} | {modules:,} | {cold:.1f} | {cold / modules * 1000:.1f} | {again} |"
        f" {first:.1f} | {first_again} | {warm:.2f} | {warm_linted} | {warm / cold:.3f} |"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="500,1000,2000,4000")
    parser.add_argument("--jobs", type=int, default=2, help="workers of the cached runs")
    parser.add_argument("--no-corpus", action="store_true")
    parser.add_argument("--projects", default="flax,optax,equinox")
    args = parser.parse_args(argv)
    print(
        "| project | modules | cold s (-j 1, no cache) | ms / module | linted again |"
        f" first cached run s (-j {args.jobs}) | linted again | run after it s |"
        " files linted | after / cold |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory(prefix="jaxlint-scale-") as tmp:
        for size in (int(s) for s in args.sizes.split(",") if s):
            folder = Path(tmp, f"n{size}")
            folder.mkdir()
            pkg = make_package(folder, size)
            row = measure(f"synthetic {size}", [str(pkg)], size, args.jobs, Path(tmp, "cache"))
            print(row, flush=True)
            shutil.rmtree(folder)
        if not args.no_corpus:
            sys.path.insert(0, str(ROOT / "scripts"))
            from fetch_corpus import cache_dir

            corpus = cache_dir()
            roots = []
            for name in args.projects.split(","):
                found = sorted(corpus.glob(f"{name}-*"))
                found = [f for f in found if f.is_dir()]
                if found:
                    roots.append(str(found[-1]))
            if roots:
                files = sum(1 for r in roots for _ in Path(r).rglob("*.py"))
                label = "+".join(Path(r).name for r in roots)
                print(measure(label, roots, files, args.jobs, Path(tmp, "cache")), flush=True)
            else:
                print(f"(no corpus under {corpus}: python scripts/fetch_corpus.py)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
