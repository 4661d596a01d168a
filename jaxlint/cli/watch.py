"""``jaxlint check --watch``: check, then check again whenever a file changes.

With the optional ``watchfiles`` package installed, the OS's file events wake it;
without it, the Python files and config files under the paths are polled (their
modification times and sizes) every ``--watch-interval`` seconds (0.5 s). Ctrl-C
ends the loop (exit 0).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from jaxlint.cli.common import UsageError
from jaxlint.config import CONFIG_NAMES, ConfigError, ConfigResolver
from jaxlint.discovery import PYTHON_SUFFIXES

Snapshot = dict[str, tuple[int, int]]


def watch(
    args: argparse.Namespace,
    paths: list[str],
    check_once: Callable[[argparse.Namespace, list[str]], int],
    *,
    changes: Iterator[object] | None = None,
    max_runs: int | None = None,
) -> int:
    """Run ``check_once`` now and after each change; ``changes`` yields once per change
    (default: watchfiles, else polling); ``max_runs`` bounds the loop (tests)."""
    if changes is None:
        changes = _watchfiles_changes(paths)
        if changes is None:
            changes = poll_changes(paths, args.watch_interval)
    quiet = args.quiet or args.silent
    runs = 0
    try:
        while True:
            if runs and not quiet:
                print("File change detected; checking again.", file=sys.stderr)
            try:
                check_once(args, paths)
            except (ConfigError, UsageError) as exc:  # e.g. a config saved half-edited
                print(f"error: {exc}", file=sys.stderr)
            runs += 1
            if max_runs is not None and runs >= max_runs:
                return 0
            if not quiet:
                print("Watching for file changes (Ctrl-C to stop).", file=sys.stderr)
            sys.stdout.flush()
            next(changes)
    except (KeyboardInterrupt, StopIteration):
        return 0


def _watchfiles_changes(paths: list[str]) -> Iterator[object] | None:
    try:
        import watchfiles  # optional: the `watch` extra
    except ImportError:
        return None

    def relevant(change: object, path: str) -> bool:
        return path.endswith((*PYTHON_SUFFIXES, *CONFIG_NAMES))

    return iter(watchfiles.watch(*paths, watch_filter=relevant))


def poll_changes(
    paths: list[str],
    interval: float,
    *,
    sleep: Callable[[float], None] = time.sleep,
    max_polls: int | None = None,
) -> Iterator[Snapshot]:
    """Yield (the new snapshot) each time the watched files change; polls every
    ``interval`` seconds, at most ``max_polls`` times in all when given."""
    before = snapshot(paths)
    polls = 0
    while max_polls is None or polls < max_polls:
        sleep(interval)
        polls += 1
        now = snapshot(paths)
        if now != before:
            before = now
            yield now


def snapshot(paths: Iterable[str]) -> Snapshot:
    """(mtime, size) of every Python and config file under ``paths`` (excluded folders,
    such as ``.git`` and ``.venv``, are not walked)."""
    resolver = ConfigResolver()
    out: Snapshot = {}

    def note(path: str) -> None:
        try:
            st = os.stat(path)
        except OSError:
            return
        out[path] = (st.st_mtime_ns, st.st_size)

    for raw in paths:
        if not os.path.isdir(raw):
            note(raw)
            continue
        for dirpath, dirnames, filenames in os.walk(raw):
            base = Path(dirpath)
            try:
                settings = resolver.for_path(base)
                dirnames[:] = [d for d in dirnames if not settings.is_excluded(base / d)]
            except Exception:  # a broken config is reported by the check itself
                pass
            for name in filenames:
                if name.endswith(PYTHON_SUFFIXES) or name in CONFIG_NAMES:
                    note(os.path.join(dirpath, name))
    return out
