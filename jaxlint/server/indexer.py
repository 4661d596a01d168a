"""The server's side of the background index (``index.py`` is the work itself).

At ``initialized`` (and again after a settings change) the server starts the index of
its workspace folders in a worker process of its own (``worker.py``, at a lower CPU
priority than the editor's work) and goes on answering: nothing waits for the index.
While it runs, a client that can show work-done progress (``window.workDoneProgress``)
sees ``jaxlint: indexing`` with the files done; at its end the client gets that
progress's end and a log message with the counts, and the open documents are linted
again through the cache (``JaxlintServer.exact`` with ``quiet_if_same``): published
only when their findings changed. A document whose full lint runs at that moment is
looked at again after it (``DocState.recheck``): its view of the project may predate
the index. An index that fails is reported in the log and not tried again until the
settings change; the documents are then linted as they are opened, as before.
The same worker brings up to date the entries of files changed on disk outside the
editor (``refresh``), and indexes workspace folders added later (``folders_changed``).
"""

from __future__ import annotations

import asyncio
import collections
import functools
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types as lsp

from jaxlint.server.uris import path_of
from jaxlint.server.worker import TaskCancelled, Worker

if TYPE_CHECKING:
    from jaxlint.server.app import JaxlintServer

INDEX_NICE = 10
"""How much lower the index worker's CPU priority is (``os.nice``): the editor's own
work (the fast pass, the full lint of the open documents) goes first."""
START_DELAY = 0.25
"""Seconds after ``initialized`` before the index starts. The callback runs once the
event loop is free, so a document the client opens at once (as editors do) is linted
and published first: an index starting beside that lint slowed it (1,015-1,038 ms
against 829-869 ms without an index, three runs each, 2 cores at load 2.6-3.3)."""


@dataclass
class IndexRun:
    number: int
    future: Any
    started: float
    token: str | None = None
    """The work-done progress token, once the client accepted it."""


class Indexer:
    """Starts the index, follows its progress, and acts on its end."""

    def __init__(self, server: JaxlintServer) -> None:
        self.server = server
        self.worker = Worker(nice=INDEX_NICE)
        self.enabled = True
        """The client's ``index`` setting."""
        self.run: IndexRun | None = None
        """The index that runs now."""
        self.runs = 0
        self.ready = False
        """An index ran to its end with the current settings."""
        self.last: dict[str, Any] | None = None
        """What the last index that ended reported (its counts)."""
        self.closed = False
        """The server is shutting down: no index starts any more."""
        self.refreshes = 0
        """Refreshes of files changed on disk sent to the worker (``refresh``)."""
        self.pending = 0
        """Of those, the ones that have not ended."""
        self.refreshed: collections.deque[dict[str, Any]] = collections.deque(maxlen=100)
        """What each refresh that ended reported (its counts)."""

    def roots(self) -> list[Path]:
        """The workspace folders (else the root) the client named, as existing folders."""
        workspace = self.server.workspace
        uris = [f.uri for f in workspace.folders.values()]
        if not uris and workspace.root_uri:
            uris = [workspace.root_uri]
        roots: list[Path] = []
        for uri in uris:
            path = path_of(uri)
            if path is not None and path.is_dir() and path not in roots:
                roots.append(path)
        return roots

    def start_soon(self) -> None:
        """:meth:`start` after :data:`START_DELAY`, when the event loop is free."""
        asyncio.get_event_loop().call_later(START_DELAY, self.start)

    def start(self, roots: list[Path] | None = None) -> None:
        """Index the workspace, or only ``roots`` (folders added to it); an index still
        running is cancelled (the settings changed). Nothing waits for it."""
        self.stop("cancelled")
        if roots is None:
            roots = self.roots()
        if not self.enabled or self.closed:
            roots = []
        if not roots:
            return
        loop = asyncio.get_event_loop()
        self.runs += 1
        number = self.runs

        def progress(value: Any) -> None:  # in the worker's reader thread
            loop.call_soon_threadsafe(self.progress, number, value)

        overrides = dict(self.server.linter.overrides)
        future = self.worker.submit("index", ([str(r) for r in roots], overrides), progress)
        if future is None:
            self.server.log("jaxlint: no background index (no worker process could be started)")
            return
        self.run = IndexRun(number, future, time.perf_counter())
        self.begin_progress(self.run)
        asyncio.wrap_future(future).add_done_callback(functools.partial(self.done, number, future))

    def folders_changed(self, added: list[str]) -> None:
        """Workspace folders were added or removed (``self.roots()`` is the new list). An
        index that runs is started again over the new folders (a removed one is left
        out); otherwise the added folders are indexed (the entries of the others stand;
        a removed folder's entries stay in its cache, where ``jaxlint check`` finds
        them too)."""
        if self.run is not None:
            self.start()
            return
        roots = [p for p in (path_of(u) for u in added) if p is not None and p.is_dir()]
        if roots:
            self.start(roots)

    def refresh(self, paths: list[Path], then: Callable[[], None]) -> None:
        """Bring the index's entries of ``paths`` (changed on disk outside the editor) up
        to date in the index's worker (niced; after an index that runs), then call
        ``then`` on the event loop, however that ended. Only files that exist inside the
        workspace folders, and only when the index is on; otherwise ``then`` at once."""
        roots = self.roots() if self.enabled and not self.closed else []
        inside = [p for p in paths if p.is_file() and any(_under(p, r) for r in roots)]
        future = (
            self.worker.submit(
                "refresh", ([str(p) for p in inside], dict(self.server.linter.overrides))
            )
            if inside
            else None
        )
        if future is None:
            then()
            return
        self.refreshes += 1
        self.pending += 1
        loop = asyncio.get_event_loop()

        def ended(_wrapped: Any) -> None:
            self.pending -= 1
            if not future.cancelled() and future.exception() is None:
                counts = future.result()
                files = counts.get("files", 0)
                self.server.log(
                    f"jaxlint: re-indexed {files} changed file{'' if files == 1 else 's'}"
                    f" ({counts.get('linted', 0)} linted,"
                    f" {counts.get('from_cache', 0)} from the cache)"
                )
            else:
                counts = {"failed": True}
                self.server.log("jaxlint: the changed files could not be re-indexed")
            self.refreshed.append(counts)
            then()

        asyncio.wrap_future(future, loop=loop).add_done_callback(ended)

    def stop(self, why: str) -> None:
        """Cancel the index that runs (its progress ends with ``why``)."""
        run, self.run = self.run, None
        self.ready = False
        if run is not None:
            self.worker.cancel(run.future)
            self.end_progress(run, why)

    def close(self) -> None:
        self.closed = True
        self.run = None
        self.worker.close()

    def progress(self, number: int, value: Any) -> None:
        run = self.run
        if run is None or run.number != number or run.token is None:
            return
        if not isinstance(value, dict):
            return
        done, total = value.get("done", 0), value.get("total", 0)
        self.server.work_done_progress.report(
            run.token,
            lsp.WorkDoneProgressReport(
                message=f"{done}/{total} files",
                percentage=int(100 * done / total) if total else None,
            ),
        )

    def done(self, number: int, future: Any, _wrapped: Any = None) -> None:
        run = self.run
        if run is None or run.number != number or run.future is not future:
            return  # cancelled for a newer index
        self.run = None
        if future.cancelled():
            return
        error = future.exception()
        if isinstance(error, TaskCancelled):
            return
        server = self.server
        if error is not None:
            self.end_progress(run, "failed")
            server.log(
                f"jaxlint: the background index failed ({error}); files are linted as opened"
            )
            self.worker.discard()
            return
        counts = future.result()
        self.ready = True
        self.last = counts
        seconds = time.perf_counter() - run.started
        message = (
            f"indexed {counts.get('files', 0)} files in {seconds:.1f} s"
            f" ({counts.get('linted', 0)} linted, {counts.get('from_cache', 0)} from the cache)"
        )
        self.end_progress(run, message)
        server.log(f"jaxlint: {message}")
        # the open documents: their results may read what the index learnt
        for state in list(server.docs.values()):
            if state.running is not None:
                state.recheck = True  # its view of the project may predate the index
            elif state.timer is None:  # (a full lint due later reads the project then)
                server.exact(state.uri, state.version, quiet_if_same=True)

    def begin_progress(self, run: IndexRun) -> None:
        """A work-done progress for the index, when the client can show one."""
        window = self.server.client_capabilities.window
        if window is None or not window.work_done_progress:
            return
        token = f"jaxlint-index-{run.number}"

        def created(*_args: Any, **_kwargs: Any) -> None:
            if self.run is not run:
                return  # ended (or replaced) before the client answered
            run.token = token
            self.server.work_done_progress.begin(
                token, lsp.WorkDoneProgressBegin(title="jaxlint: indexing", percentage=0)
            )

        try:
            self.server.work_done_progress.create(token, created)
        except Exception:  # a token still registered: no progress shown this time
            pass

    def end_progress(self, run: IndexRun, message: str) -> None:
        token, run.token = run.token, None
        if token is not None:
            self.server.work_done_progress.end(token, lsp.WorkDoneProgressEnd(message=message))


def _under(path: Path, root: Path) -> bool:
    try:
        path.resolve().relative_to(root.resolve())
    except (ValueError, OSError):
        return False
    return True
