"""The background index: the workspace linted as ``jaxlint check`` lints it, into the cache.

When the client says ``initialized``, the server hands its workspace folders to a
second worker process (``worker.py``, at a lower CPU priority) that runs this. It is
``jaxlint check`` over each folder with the server's settings, one process, with
fixes materialised (the server's cache key): the files found as ``check`` finds them
(excludes, ``.gitignore``, ``max-file-size``), those the cache already answers taken
from it, the others linted in dependency order (``cli/project_run.dependency_order``:
the modules a file imports first), then the end-of-run sweeps
(``cli/project_order.recheck``) until every file's answers about other modules hold.
What stays is the cache: every module's summary and every file's result at the
fixpoint, which is what the server's own lookups then find (opening a file, the
check that what a result asked of other modules still has the same answers).

Nothing here publishes: the server hears the index's progress and its end, and then
looks again at the documents it has open. Notebooks are left out (the server lints
them itself, without the cache, and no module imports them). A file outside any
project (no ``JAXLINT_CACHE_DIR`` either: ``linting.cache_folder``, as for the
server's own lookups) is not indexed: there would be nowhere to keep the
result.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

PROGRESS_EVERY = 0.25
"""Seconds between two progress reports."""


def index_workspace(
    roots: Iterable[Path], overrides: dict[str, Any], progress: Callable[[Any], None]
) -> dict[str, Any]:
    """Lint every file under ``roots`` into its project's cache; returns the counts.

    ``progress`` gets ``{"done": n, "total": m}`` now and then (files linted of those
    the cache did not answer)."""
    from jaxlint.cache import Cache, NotACacheError
    from jaxlint.cli import project_order, project_run
    from jaxlint.cli.checking import (
        RunState,
        check_task,
        take_from_cache,
        tasks_for,
    )
    from jaxlint.config import ConfigError, ConfigResolver
    from jaxlint.discovery import discover
    from jaxlint.notebook import is_notebook
    from jaxlint.server.linting import cache_folder

    started = time.perf_counter()
    resolver = ConfigResolver(overrides=overrides)
    args = _check_args()
    found = discover([str(r) for r in roots], resolver)
    groups: dict[Path, list[Path]] = {}
    skipped = 0
    for path in found.files:
        if is_notebook(path):
            continue
        try:
            settings = resolver.for_path(path)
        except ConfigError:  # the server shows it when such a file is opened
            skipped += 1
            continue
        folder = cache_folder(settings, path)
        if folder is None:
            skipped += 1  # outside any project: the server keeps no cache for it either
            continue
        groups.setdefault(folder, []).append(path)
    counts = {"files": 0, "from_cache": 0, "linted": 0, "skipped": skipped}
    plans = []
    for folder, files in groups.items():
        try:
            cache = Cache.open(folder)
        except NotACacheError:
            cache = None
        if cache is None:
            counts["skipped"] += len(files)
            continue
        plans.append((cache, files))
    for cache, files in plans:
        state = RunState()
        project_run.begin(cache, files, resolver.for_path(files[0]))
        try:
            tasks = take_from_cache(tasks_for(files, False), resolver, args, state, False, cache)
            counts["files"] += len(files)
            counts["from_cache"] += state.cache_hits
            reported = time.perf_counter()
            progress({"done": 0, "total": len(tasks)})
            for done, paths in enumerate(project_run.dependency_order(tasks), 1):
                try:
                    check_task(paths, resolver, args, state, False, cache, lookup=False)
                except ConfigError:
                    pass  # the server shows it when such a file is opened
                _drop_findings(state)
                counts["linted"] += 1
                now = time.perf_counter()
                if now - reported >= PROGRESS_EVERY:
                    reported = now
                    progress({"done": done, "total": len(tasks)})
            _drop_findings(state)
            project_order.recheck(resolver, args, state, False, cache, jobs=1)
        finally:
            project_run.end()
    counts["seconds"] = round(time.perf_counter() - started, 3)
    return counts


def refresh_files(paths: Iterable[Path], overrides: dict[str, Any]) -> dict[str, Any]:
    """The index's entries of files changed on disk outside the editor
    (``workspace/didChangeWatchedFiles``): each file that ``check`` would find (its
    excludes, ``.gitignore``, ``max-file-size``; not a notebook) is looked up in its
    project's cache and linted into it when the cache does not answer, as the index
    lints it, with the project as it is on disk. A deleted file has nothing to lint.
    The files that import one of them are not linted here: their entries are checked
    when they are next read (what each asked of other modules must still have the same
    answers), and the server looks again at the open ones. Returns the counts."""
    from jaxlint.config import ConfigError, ConfigResolver
    from jaxlint.discovery import _drop_gitignored, discover
    from jaxlint.notebook import is_notebook
    from jaxlint.server.linting import DocumentLinter, cache_folder
    from jaxlint.source import DecodeError, SourceError, read_source

    resolver = ConfigResolver(overrides=overrides)
    linter = DocumentLinter(overrides)
    counts = {"files": 0, "from_cache": 0, "linted": 0, "skipped": 0}
    wanted = [p for p in paths if p.is_file() and not is_notebook(p)]
    try:
        found = discover([str(p) for p in wanted], resolver, force_exclude=True).files
        found = _drop_gitignored(found, resolver)
    except ConfigError:  # a bad config: the server shows it when such a file is opened
        counts["skipped"] += len(wanted)
        found = []
    for path in found:
        try:
            settings = resolver.for_path(path)
        except ConfigError:
            counts["skipped"] += 1
            continue
        if cache_folder(settings, path) is None:
            counts["skipped"] += 1  # outside any project: nowhere to keep its entry
            continue
        try:
            text = read_source(path).text
        except (SourceError, DecodeError, OSError, ValueError):
            counts["skipped"] += 1
            continue
        linter.lint(text, path, str(path), persist=True)
        counts["files"] += 1
        counts["linted" if linter.last_source == "lint" else "from_cache"] += 1
    return counts


def _drop_findings(state: Any) -> None:
    """The findings and the texts kept to show them: in the cache already, and nobody
    reads them here (a workspace's worth of them would only take memory). What each
    file asked of other modules stays: the end-of-run sweeps check it."""
    state.diagnostics.clear()
    state.sources.clear()
    state.notes.clear()
    state.io_errors.clear()
    state.internal_errors.clear()


def _check_args() -> argparse.Namespace:
    """What ``checking.py`` reads of ``jaxlint check``'s options: JSON output (so fixes
    are materialised, as in the server's cache entries), no fixing, no diff."""
    return argparse.Namespace(
        output_format="json",
        show_internal_tracebacks=False,
        diff=False,
        fix=False,
        timings=False,
        cache_dir=None,
    )
