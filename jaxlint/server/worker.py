"""The full lint in a second process, so that the server keeps answering edits meanwhile.

A full lint of a 2,000-line file takes from half a second to over a second. Run on the
server's event loop it would hold up the next edit's fast pass for that long (the
user pauses, the full lint starts, the user types again). In a worker process it
runs beside the event loop, on another core where there is one; a result that
arrives after the document changed again is dropped. The worker is started once,
when the first full lint after an edit is due; if it cannot start or dies, the full
lint runs on the event loop as before.

The worker is a plain child process (``python -c``, with the server's ``sys.path``)
that reads pickled tasks from its stdin and writes pickled results to a pipe of its
own; no ``multiprocessing``, so no resource tracker process either. It ends when the
server does, however the server ends (``SIGKILL`` included): its stdin reaches EOF
when the server's end closes, and on Linux the kernel sends it SIGTERM when the
server dies (``PR_SET_PDEATHSIG``; elsewhere a thread watches the parent's pid), so
a worker busy with a long lint does not outlive the server either.
"""

from __future__ import annotations

import collections
import concurrent.futures
import os
import pickle
import struct
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO, Any

from jaxlint.diagnostics import Diagnostic

_linter = None
_generation = -1

_HEADER = struct.Struct("!Q")

_BOOT = (
    "import json, sys; sys.path[:0] = json.loads(sys.argv[1]);"
    " from jaxlint.server.worker import main; main(int(sys.argv[2]))"
)


class WorkerDied(RuntimeError):
    """The worker process ended (or could not be written to) before it answered."""


def _full_lint(
    text: str,
    path: Path | None,
    name: str,
    overrides: dict[str, Any],
    generation: int,
    persist: bool = False,
) -> list[Diagnostic]:
    """In the worker: the document's full lint (configs read again when ``generation``,
    bumped by the server on every save and settings change, moves on). ``persist``:
    through the on-disk results cache (an opened document's, so that opening it again
    is answered from the cache)."""
    global _linter, _generation
    from jaxlint.server.linting import DocumentLinter

    if _linter is None or generation != _generation:
        _linter = DocumentLinter(overrides)
        _generation = generation
    return _linter.lint(text, path, name, persist=persist).diagnostics


def _send(stream: IO[bytes], message: Any) -> None:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(_HEADER.pack(len(data)) + data)
    stream.flush()


def _receive(stream: IO[bytes]) -> Any:
    """The next message, or ``EOFError`` when the other side is gone."""
    head = stream.read(_HEADER.size)
    if len(head) < _HEADER.size:
        raise EOFError
    size = _HEADER.unpack(head)[0]
    data = stream.read(size)
    if len(data) < size:
        raise EOFError
    return pickle.loads(data)


def main(server_pid: int) -> None:
    """The worker process: tasks from stdin, results on the pipe that was stdout.

    Stdout becomes stderr first (the editor's log): a stray ``print`` must not break
    the result stream, which keeps the original stdout under another descriptor."""
    from jaxlint.parallel import _die_with_parent

    _die_with_parent(server_pid)
    results = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    tasks = sys.stdin.buffer
    from jaxlint.rules import all_rules

    all_rules()
    while True:
        try:
            args = _receive(tasks)
        except (EOFError, OSError):
            return  # the server closed its end, or is gone
        try:
            reply: tuple[str, Any] = ("ok", _full_lint(*args))
        except Exception as exc:
            reply = ("error", f"{type(exc).__name__}: {exc}")
        try:
            _send(results, reply)
        except OSError:
            return


class Worker:
    """One worker process, started on first use; one task at a time, in order."""

    def __init__(self) -> None:
        self.proc: subprocess.Popen[bytes] | None = None
        self.failed = False
        self._lock = threading.Lock()
        self._queue: collections.deque[tuple[concurrent.futures.Future, tuple]] = (
            collections.deque()
        )
        self._busy: concurrent.futures.Future | None = None

    def submit(
        self,
        text: str,
        path: Path | None,
        name: str,
        overrides: dict[str, Any],
        generation: int,
        persist: bool = False,
    ) -> concurrent.futures.Future | None:
        """The full lint's future, or None when no worker can run it. A future cancelled
        before the worker takes it up is never run."""
        if self.failed:
            return None
        try:
            with self._lock:
                if self.proc is None:
                    self._start()
                future: concurrent.futures.Future = concurrent.futures.Future()
                self._queue.append((future, (text, path, name, overrides, generation, persist)))
                self._next()
            return future
        except Exception:  # no processes here (a sandbox), a broken pipe: lint in-process
            self.discard()
            self.failed = True
            return None

    def _start(self) -> None:
        proc = subprocess.Popen(
            [sys.executable, "-c", _BOOT, _json_path(), str(os.getpid())],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            close_fds=True,
        )
        self.proc = proc
        threading.Thread(target=self._read, args=(proc,), daemon=True).start()

    def _next(self) -> None:
        """With the lock held: give the worker its next task if it is idle."""
        proc = self.proc
        while self._busy is None and self._queue and proc is not None:
            future, args = self._queue.popleft()
            if not future.set_running_or_notify_cancel():
                continue  # cancelled while it waited
            self._busy = future
            assert proc.stdin is not None
            try:
                _send(proc.stdin, args)
            except (OSError, ValueError) as exc:
                self._busy = None
                future.set_exception(WorkerDied(f"cannot send to the worker: {exc}"))

    def _read(self, proc: subprocess.Popen[bytes]) -> None:
        """In a thread: each result settles the task the worker was on."""
        assert proc.stdout is not None
        while True:
            try:
                kind, value = _receive(proc.stdout)
            except Exception:
                break
            with self._lock:
                future, self._busy = self._busy, None
                if future is not None:
                    if kind == "ok":
                        future.set_result(value)
                    else:
                        future.set_exception(RuntimeError(value))
                if self.proc is proc:
                    self._next()
        with self._lock:  # the worker is gone: fail what it held and what waited
            if self.proc is proc:
                self._end(WorkerDied("the worker process ended"), cancel_waiting=False)
        try:
            proc.stdout.close()
        except OSError:
            pass

    def _end(self, error: Exception, cancel_waiting: bool) -> None:
        """With the lock held: the task in the worker fails; the waiting ones fail too or,
        when the worker is stopped on purpose, are cancelled."""
        future, self._busy = self._busy, None
        waiting = [f for f, _ in self._queue]
        self._queue.clear()
        if future is not None and not future.done():
            future.set_exception(error)
        for f in waiting:
            if cancel_waiting:
                f.cancel()
            elif f.set_running_or_notify_cancel():
                f.set_exception(error)

    def discard(self) -> None:
        """Stop the worker (after it died or failed); the next ``submit`` starts a new one."""
        with self._lock:
            proc, self.proc = self.proc, None
            self._end(WorkerDied("the worker was stopped"), cancel_waiting=True)
        if proc is None:
            return
        try:
            if proc.stdin is not None:
                proc.stdin.close()  # the worker sees EOF and ends
        except OSError:
            pass
        if proc.poll() is None:
            proc.kill()  # it may be busy with a long lint of a text nobody needs now
        try:
            proc.wait(timeout=10)  # the reader thread sees EOF and closes its end
        except subprocess.TimeoutExpired:
            pass

    def close(self) -> None:
        """The server is shutting down: stop the worker, start none again."""
        self.failed = True
        self.discard()


def _json_path() -> str:
    import json

    return json.dumps([p for p in sys.path if isinstance(p, str)])
