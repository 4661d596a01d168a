"""The full lint in a second process, so that the server keeps answering edits meanwhile.

A full lint of a 2,000-line file takes from half a second to over a second. Run on the
server's event loop it would hold up the next edit's fast pass for that long (the
user pauses, the full lint starts, the user types again). In a worker process it
runs beside the event loop, on another core where there is one; a result that
arrives after the document changed again is dropped. The worker is started with
``spawn`` (the server has threads, which ``fork`` does not mix with), once, when the
first full lint after an edit is due; if it cannot start or dies, the full lint runs
on the event loop as before.
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import os
import sys
from pathlib import Path
from typing import Any

from jaxlint.diagnostics import Diagnostic

_linter = None
_generation = -1


def _init() -> None:
    """In the worker: stdout is the editor's protocol stream, so nothing may write there."""
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    from jaxlint.rules import all_rules

    all_rules()


def _full_lint(
    text: str, path: Path | None, name: str, overrides: dict[str, Any], generation: int
) -> list[Diagnostic]:
    """In the worker: the document's full lint (configs read again when ``generation``,
    bumped by the server on every save and settings change, moves on)."""
    global _linter, _generation
    from jaxlint.server.linting import DocumentLinter

    if _linter is None or generation != _generation:
        _linter = DocumentLinter(overrides)
        _generation = generation
    return _linter.lint(text, path, name).diagnostics


class Worker:
    """One worker process, started on first use."""

    def __init__(self) -> None:
        self.pool: concurrent.futures.ProcessPoolExecutor | None = None
        self.failed = False

    def submit(
        self, text: str, path: Path | None, name: str, overrides: dict[str, Any], generation: int
    ) -> concurrent.futures.Future | None:
        """The full lint's future, or None when no worker can run it."""
        if self.failed:
            return None
        try:
            if self.pool is None:
                self.pool = concurrent.futures.ProcessPoolExecutor(
                    max_workers=1,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_init,
                )
            return self.pool.submit(_full_lint, text, path, name, overrides, generation)
        except Exception:  # no processes here (a sandbox), a broken pool: lint in-process
            self.discard()
            self.failed = True
            return None

    def discard(self) -> None:
        """Drop the pool (after its process died); the next ``submit`` starts a new one."""
        pool, self.pool = self.pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        self.discard()
