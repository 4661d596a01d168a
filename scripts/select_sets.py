#!/usr/bin/env python3
"""Chosen rules on the projects already read: the held-out sets of ``scripts/heldout.py``
(read once each, so development data now) and the pinned tuning corpus of
``scripts/fetch_corpus.py``.

    python scripts/select_sets.py --select JAX102,JAX401,JAX402
    python scripts/select_sets.py --select JAX401 --sets corpus,fresh-2026-12

For each set, the ``.py`` files of its projects (downloaded once, as those scripts do)
are copied into one folder under ``--out`` (default ``~/.cache/jaxlint-select``, outside
the repository), and ``jaxlint check --no-cache --select CODES --output-format json``
runs on it, so that project-wide facts cross the set's projects as in ``make heldout``.
The findings go to ``<out>/<set>.json``; the script prints the count per set and code.
It reads no new project: only the sets named in ``heldout.SETS`` and the corpus.

Exit status: 0 when every set was checked, 1 when jaxlint failed on one, 2 on a bad
argument.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from fetch_corpus import PINNED, cache_dir, fetch  # noqa: E402
from heldout import SETS, copy_python_files, heldout_dir  # noqa: E402

CORPUS = "corpus"


def sources(name: str) -> list[tuple[str, str, Path]]:
    """``(project, version, cache)`` of each project of the set ``name``."""
    if name == CORPUS:
        return [(p, v, cache_dir()) for p, v in PINNED.items()]
    return [(p, v, heldout_dir()) for p, (v, _) in SETS[name].projects.items()]


def counts(findings: list[dict[str, object]]) -> dict[str, int]:
    """Findings per code, codes in order."""
    found = Counter(str(f["code"]) for f in findings)
    return dict(sorted(found.items()))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--select", required=True, help="comma-separated codes or prefixes")
    parser.add_argument(
        "--sets",
        default=",".join([*SETS, CORPUS]),
        help=f"comma-separated, from: {', '.join([*SETS, CORPUS])}",
    )
    parser.add_argument(
        "--out", type=Path, default=Path.home() / ".cache" / "jaxlint-select", help="work folder"
    )
    parser.add_argument("-j", "--jobs", default="1", help="jaxlint -j (default 1)")
    args = parser.parse_args(argv)
    names = [n for n in args.sets.split(",") if n]
    unknown = [n for n in names if n != CORPUS and n not in SETS]
    if unknown or not names:
        parser.error(f"unknown set(s): {', '.join(unknown) or '(none given)'}")
    out = args.out.resolve()
    if out.is_relative_to(ROOT):
        parser.error("--out must be outside the repository")
    status = 0
    for name in names:
        tree = out / name
        if tree.exists():
            shutil.rmtree(tree)
        for project, version, cache in sources(name):
            src = fetch(project, version, cache)
            copy_python_files(src, tree / src.name)
        run = subprocess.run(
            [sys.executable, "-m", "jaxlint", "check", "--no-cache", "--select", args.select,
             "--output-format", "json", "--exit-zero", "-j", str(args.jobs), "."],
            cwd=tree,
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONWARNINGS": "ignore", "PYTHONPATH": str(ROOT)},
            check=False,
        )  # fmt: skip
        try:
            findings = json.loads(run.stdout) if run.returncode == 0 else None
        except json.JSONDecodeError:
            findings = None
        if findings is None:
            print(f"{name}: jaxlint failed (exit {run.returncode}): {run.stderr[-500:]}")
            status = 1
            continue
        (out / f"{name}.json").write_text(json.dumps(findings, indent=1) + "\n")
        print(f"{name}: {counts(findings)} ({out / f'{name}.json'})")
    return status


if __name__ == "__main__":
    sys.exit(main())
