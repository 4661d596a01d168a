#!/usr/bin/env python3
"""Where the language server's first diagnostics of an opened file go, in one process.

    python benchmarks/lsp_open_profile.py                  # 500 modules, 2,000 lines
    python benchmarks/lsp_open_profile.py --profile 25     # and cProfile's top 25

The project of ``lsp_latency.py --project N`` (a 2,000-line ``big_model.py``, a second
one, N-3 small modules importing it) in a fresh folder, a fresh cache. In one fresh
process, as the server does it (``DocumentLinter``, the server's linter), each step
timed with ``time.perf_counter``:

1. ``imports + engine fingerprint``: the engine, the rules, the project view and the
   cache's fingerprint of the linter (the server does this at ``initialized``);
2. ``open before the index``: ``lint(persist=True, partial=True)`` of ``big_model.py``
   with an empty cache (what the server publishes first);
3. ``index``: ``server.index.index_workspace`` over the project (what the background
   index does, here in this process);
4. ``open after the index``: the same call for ``other_big.py`` (never opened), then
   for ``big_model.py``: answered from the cache.

``--profile N`` profiles step 2 (cProfile adds its own overhead: its times are for
the shares, not the totals). ``--phases`` runs step 2 as the engine call it is (the
project view with the cache's facts only, then ``lint_text``) with the engine's own
phase and rule timers (``jaxlint check --timings``'s), without cProfile's overhead:
``open_before_index_phases_ms``, exclusive milliseconds per phase and rule. Prints JSON.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--project", type=int, default=500, help="modules (default 500)")
    parser.add_argument("--lines", type=int, default=2000, help="file size (default 2000)")
    parser.add_argument("--profile", type=int, default=0, metavar="N", help="cProfile's top N")
    parser.add_argument(
        "--phases", action="store_true", help="step 2 with the engine's phase timers"
    )
    args = parser.parse_args(argv)
    if args.project < 3:
        parser.error("--project must be at least 3")
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from lsp_latency import generate_project, load_average

    folder = Path(tempfile.mkdtemp(prefix="jaxlint-open-profile-"))
    os.environ["JAXLINT_CACHE_DIR"] = str(folder / "cache")
    big = generate_project(folder, args.project, args.lines)
    other = big.parent / "other_big.py"
    load = load_average()
    out: dict[str, object] = {"modules": args.project, "file_lines": args.lines}
    from jaxlint.server.linting import DocumentLinter

    linter = DocumentLinter()
    started = time.perf_counter()
    import jaxlint.cli.project_run  # noqa: F401
    import jaxlint.engine  # noqa: F401
    from jaxlint.cache import engine_fingerprint
    from jaxlint.rules import all_rules

    all_rules()
    engine_fingerprint()
    out["imports_and_engine_fingerprint_ms"] = _ms(started)

    text = big.read_text(encoding="utf-8")
    profile = cProfile.Profile() if args.profile else None
    started = time.perf_counter()
    if profile is not None:
        profile.enable()
    if args.phases:
        findings, phases = _open_with_phases(linter, text, big)
        out["open_before_index_ms"] = _ms(started)
        out["open_before_index_exact"] = False
        out["open_before_index_findings"] = findings
        out["open_before_index_phases_ms"] = phases
    else:
        opened = linter.lint(text, big, big.name, persist=True, partial=True)
        out["open_before_index_ms"] = _ms(started)
        out["open_before_index_exact"] = opened.exact
        out["open_before_index_findings"] = len(opened.diagnostics)
    if profile is not None:
        profile.disable()

    from jaxlint.server.index import index_workspace

    started = time.perf_counter()
    counts = index_workspace([folder], {}, lambda _value: None)
    out["index_ms"] = _ms(started)
    out["index_counts"] = counts

    for name, path in (("other_big", other), ("big_model", big)):
        started = time.perf_counter()
        found = linter.lint(path.read_text(encoding="utf-8"), path, path.name, persist=True)
        out[f"open_after_index_{name}_ms"] = _ms(started)
        out[f"open_after_index_{name}_exact"] = found.exact
    out["load_average_before_after"] = [load, load_average()]
    print(json.dumps(out, indent=2))
    if profile is not None:
        text_out = io.StringIO()
        pstats.Stats(profile, stream=text_out).sort_stats("cumulative").print_stats(args.profile)
        print(text_out.getvalue())
    return 0


def _open_with_phases(linter, text: str, path: Path) -> tuple[int, dict[str, float]]:
    """What ``linter.lint(..., partial=True)`` does on a cache miss (the cache's lookup
    first, then ``lint_with(callers=False, cached_only=True)``), with the engine's
    timers; the project view, the lookup and the sort are timed here."""
    from jaxlint.engine import lint_text
    from jaxlint.gc_pause import gc_paused
    from jaxlint.timings import Timings

    timings = Timings()
    settings = linter.settings_for(path)
    with timings.measure("server: settings and the results cache's lookup"):
        assert linter._disk_get(text, path, path.name, settings) is None  # a fresh cache
        rules = linter.rules_for(settings)
    with timings.measure("server: the project view (the cache's facts only)"):
        facts = linter._project_facts(path, settings, final=False, cached_only=True, own=text)
    with gc_paused():
        found = lint_text(
            text,
            path.name,
            settings,
            rules,
            want_fixes=True,
            path=path,
            project=facts,
            timings=timings,
        )
    with timings.measure("server: sort"):
        sorted(found.diagnostics, key=lambda d: d.sort_key())
    phases = sorted(timings.seconds.items(), key=lambda kv: -kv[1])
    return len(found.diagnostics), {k: round(v * 1000, 1) for k, v in phases}


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 1)


if __name__ == "__main__":
    sys.exit(main())
