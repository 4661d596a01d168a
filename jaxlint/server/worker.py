"""Work in a second process, so that the server keeps answering edits meanwhile: the full
lint of a document, and the background index of the workspace (``index.py``).

A full lint of a 2,000-line file takes from half a second to over a second. Run on the
server's event loop it would hold up the next edit's fast pass for that long (the
user pauses, the full lint starts, the user types again). In a worker process it
runs beside the event loop, on another core where there is one. The server has two
workers: one for full lints, started when the first is due, and one for the index
(at a lower CPU priority), started when the client says ``initialized``; if a worker
cannot start or dies, full lints run on the event loop as before, and the index is
given up.

**Cancelling.** A task that is no longer wanted (a full lint of version N when
version N+1 arrived, an index when the settings changed) is cancelled: one still
waiting is never sent; the one the worker runs is interrupted. The worker's thread
that reads the server's messages interrupts the main thread (``_thread.interrupt_main``
with the worker's own signal handler), which raises :class:`Cancelled` out of the
lint at the next Python instruction (a call into libcst's native parser finishes
first). The worker answers ``cancelled`` and drops its linter (the configs and results
it remembered: an interrupted lint may have left them half updated); the server drops
that task and publishes nothing from it. ``Cancelled`` is a ``BaseException``, so the
engine's handling of a crashing rule (``except Exception``) does not catch it.

The worker is a plain child process (``python -c``, with the server's ``sys.path``)
that reads pickled messages from its stdin and writes pickled answers to a pipe of its
own; no ``multiprocessing``, so no resource tracker process either. It ends when the
server does, however the server ends (``SIGKILL`` included): its stdin reaches EOF
when the server's end closes (a task it runs then is interrupted too), and on Linux
the kernel sends it SIGTERM when the server dies (``PR_SET_PDEATHSIG``; elsewhere a
thread watches the parent's pid), so a worker busy with a long lint does not outlive
the server either.

Task kinds: ``lint`` (a document's full lint, :class:`FullLint`), ``index`` (the
workspace) and ``refresh`` (files changed on disk, ``index.refresh_files``).

Messages, server to worker: ``("task", id, kind, args)`` and ``("cancel", id)``;
worker to server: ``("progress", id, value)`` any number of times while a task runs,
then one of ``("ok", id, value)``, ``("error", id, message)``, ``("cancelled", id,
None)``. The worker runs one task at a time, in the order sent.
"""

from __future__ import annotations

import collections
import concurrent.futures
import itertools
import os
import pickle
import queue
import signal
import struct
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any, NamedTuple

from jaxlint.diagnostics import Diagnostic

_linter = None
_generation = -1

_HEADER = struct.Struct("!Q")

_BOOT = (
    "import json, sys; sys.path[:0] = json.loads(sys.argv[1]);"
    " from jaxlint.server.worker import main; main(int(sys.argv[2]), int(sys.argv[3]))"
)

CANCEL_SIGNAL = getattr(signal, "SIGUSR1", signal.SIGINT)
"""The signal whose (simulated) arrival interrupts the worker's main thread: only its
Python handler runs (``_thread.interrupt_main``), no signal is sent by the OS."""

Progress = Callable[[Any], None]


class FullLint(NamedTuple):
    """A full lint's answer: the findings, what the lint asked of other modules and
    their answers, the digests of the module's summary (``DocumentLinter``'s
    ``_summary_digest``), and where the result came from (``memo``, ``cache``, ``lint``)."""

    diagnostics: list[Diagnostic]
    queries: dict[str, Any] | None
    summary: tuple[str, str] | None
    source: str


class WorkerDied(RuntimeError):
    """The worker process ended (or could not be written to) before it answered."""


class TaskCancelled(RuntimeError):
    """The task was cancelled while the worker ran it: it has no result."""


class Cancelled(BaseException):
    """In the worker: raised in the main thread when the server cancels the running task
    (or goes away)."""


def _full_lint(
    text: str,
    path: Path | None,
    name: str,
    overrides: dict[str, Any],
    generation: int,
    persist: bool = False,
    buffers: dict[str, str] | None = None,
) -> FullLint:
    """In the worker: the document's full lint (configs read again when ``generation``,
    bumped by the server on every save and settings change, moves on). ``persist``:
    through the on-disk results cache (an opened document's, so that opening it again
    is answered from the cache). ``buffers``: the other open documents' texts, which
    stand for their files in the project view (``DocumentLinter.buffers``). A result
    this process or the cache already holds for the text is taken when what it asked
    of other modules still has the same answers (``source`` says which)."""
    global _linter, _generation
    from jaxlint.server.linting import DocumentLinter

    if _linter is None or generation != _generation:
        _linter = DocumentLinter(overrides)
        _generation = generation
    _linter.buffers = dict(buffers or {})
    result = _linter.lint(text, path, name, persist=persist)
    return FullLint(
        result.diagnostics,
        result.extra.get("queries"),
        result.extra.get("summary"),
        _linter.last_source,
    )


def _refresh(paths: list[str], overrides: dict[str, Any]) -> dict[str, Any]:
    from jaxlint.server.index import refresh_files

    return refresh_files([Path(p) for p in paths], overrides)


def _index(roots: list[str], overrides: dict[str, Any], progress: Progress) -> dict[str, Any]:
    from jaxlint.server.index import index_workspace

    return index_workspace([Path(r) for r in roots], overrides, progress)


def _run(kind: str, args: tuple, progress: Progress) -> Any:
    if kind == "lint":
        return _full_lint(*args)
    if kind == "index":
        return _index(*args, progress=progress)
    if kind == "refresh":
        return _refresh(*args)
    raise ValueError(f"unknown task kind {kind!r}")


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


class _Tasks:
    """In the worker: what the main thread runs, and what the reader thread asked to stop.

    ``current`` and ``early`` change under ``lock``; the signal handler reads
    ``current`` and ``target`` without it (it runs in the main thread, which may hold
    the lock)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.todo: queue.SimpleQueue[tuple[int, str, tuple] | None] = queue.SimpleQueue()
        self.current: int | None = None
        self.target: int | None = None
        """The running task to interrupt (set by the reader thread)."""
        self.early: set[int] = set()
        """Tasks cancelled before the main thread took them up."""
        self.gone = False
        """The server closed its end: stop, interrupting the task in hand."""

    def on_signal(self, signum: int, frame: Any) -> None:
        target = self.target
        if target is not None and (target == self.current or self.gone):
            self.target = None  # one interruption per request
            raise Cancelled

    def cancel(self, task_id: int) -> None:
        with self.lock:
            if self.current == task_id:
                self.target = task_id
                _interrupt_main()
            else:
                self.early.add(task_id)

    def read(self, stream: IO[bytes]) -> None:
        """In a thread: the server's messages."""
        while True:
            try:
                message = _receive(stream)
            except Exception:  # EOFError, OSError: the server closed its end, or is gone
                break
            if message[0] == "task":
                self.todo.put(tuple(message[1:]))  # type: ignore[arg-type]
            elif message[0] == "cancel":
                self.cancel(message[1])
        with self.lock:
            self.gone = True
            if self.current is not None:
                self.target = self.current
                _interrupt_main()
        self.todo.put(None)

    def start(self, task_id: int) -> bool:
        """The main thread takes up ``task_id``; False if it was cancelled already."""
        with self.lock:
            if task_id in self.early:
                self.early.discard(task_id)
                return False
            self.current = task_id
            return True

    def finish(self) -> None:
        with self.lock:
            self.current = None
            self.target = None


def _interrupt_main() -> None:
    import _thread

    _thread.interrupt_main(CANCEL_SIGNAL)


def main(server_pid: int, nice: int = 0) -> None:
    """The worker process: messages from stdin, answers on the pipe that was stdout.

    Stdout becomes stderr first (the editor's log): a stray ``print`` must not break
    the answer stream, which keeps the original stdout under another descriptor."""
    global _linter
    from jaxlint.parallel import _die_with_parent

    _die_with_parent(server_pid)
    if nice and hasattr(os, "nice"):
        try:
            os.nice(nice)  # the index: in the background, behind the editor's own work
        except OSError:
            pass
    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    tasks = _Tasks()
    signal.signal(CANCEL_SIGNAL, tasks.on_signal)
    threading.Thread(target=tasks.read, args=(sys.stdin.buffer,), daemon=True).start()
    from jaxlint.rules import all_rules

    all_rules()
    while True:
        item = tasks.todo.get()
        if item is None:
            return  # the server closed its end, or is gone
        task_id, kind, args = item
        reply = _answer(tasks, task_id, kind, args, answers)
        if tasks.gone:
            return
        try:
            _send(answers, reply)
        except OSError:
            return


def _answer(tasks: _Tasks, task_id: int, kind: str, args: tuple, answers: IO[bytes]) -> tuple:
    """Run one task; its answer. A cancellation raised anywhere in here (also between
    the task's end and ``finish``) is the answer ``cancelled``."""
    global _linter

    def progress(value: Any) -> None:
        _send(answers, ("progress", task_id, value))

    try:
        if not tasks.start(task_id):
            return ("cancelled", task_id, None)
        try:
            try:
                return ("ok", task_id, _run(kind, args, progress))
            except Exception as exc:
                return ("error", task_id, f"{type(exc).__name__}: {exc}")
        finally:
            tasks.finish()
    except Cancelled:
        tasks.finish()
        _linter = None  # an interrupted lint may have left it half updated
        import gc

        gc.enable()  # interrupted inside gc_paused before its ``try``: not left off
        return ("cancelled", task_id, None)


class Worker:
    """One worker process, started on first use; one task at a time, in order."""

    def __init__(self, nice: int = 0) -> None:
        self.nice = nice
        self.proc: subprocess.Popen[bytes] | None = None
        self.failed = False
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._queue: collections.deque[tuple[concurrent.futures.Future, tuple]] = (
            collections.deque()
        )
        self._busy: concurrent.futures.Future | None = None
        self._progress: dict[int, Progress] = {}
        self.cancels_sent = 0
        """Interruptions asked of the worker (a task it was running when cancelled)."""

    def submit_lint(
        self,
        text: str,
        path: Path | None,
        name: str,
        overrides: dict[str, Any],
        generation: int,
        persist: bool = False,
        buffers: dict[str, str] | None = None,
    ) -> concurrent.futures.Future | None:
        """The full lint's future (a :class:`FullLint`), or None when no worker can run it."""
        return self.submit("lint", (text, path, name, overrides, generation, persist, buffers))

    def submit(
        self, kind: str, args: tuple, progress: Progress | None = None
    ) -> concurrent.futures.Future | None:
        """The task's future, or None when no worker can run it. ``progress`` is called
        (in a thread of this process) with each progress value the task sends. A task
        cancelled with :meth:`cancel` before the worker takes it up is never run; one
        cancelled while it runs fails with :class:`TaskCancelled`."""
        if self.failed:
            return None
        try:
            with self._lock:
                if self.proc is None:
                    self._start()
                future: concurrent.futures.Future = concurrent.futures.Future()
                task_id = next(self._ids)
                future.task_id = task_id  # type: ignore[attr-defined]
                if progress is not None:
                    self._progress[task_id] = progress
                self._queue.append((future, ("task", task_id, kind, args)))
                self._next()
            return future
        except Exception:  # no processes here (a sandbox), a broken pipe: lint in-process
            self.discard()
            self.failed = True
            return None

    def cancel(self, future: concurrent.futures.Future) -> None:
        """The task is not wanted any more: never sent if it still waits, interrupted if
        the worker runs it (its future then fails with :class:`TaskCancelled`)."""
        with self._lock:
            if future.cancel():
                return  # it waited: ``_next`` skips it
            if future is not self._busy or future.done() or self.proc is None:
                return
            if getattr(future, "cancel_sent", False):
                return
            future.cancel_sent = True  # type: ignore[attr-defined]
            self.cancels_sent += 1
            assert self.proc.stdin is not None
            try:
                _send(self.proc.stdin, ("cancel", future.task_id))  # type: ignore[attr-defined]
            except (OSError, ValueError):
                pass  # the worker is gone: the reader thread fails the task

    def _start(self) -> None:
        proc = subprocess.Popen(
            [sys.executable, "-c", _BOOT, _json_path(), str(os.getpid()), str(self.nice)],
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
            future, message = self._queue.popleft()
            if not future.set_running_or_notify_cancel():
                self._progress.pop(message[1], None)
                continue  # cancelled while it waited
            self._busy = future
            assert proc.stdin is not None
            try:
                _send(proc.stdin, message)
            except (OSError, ValueError) as exc:
                self._busy = None
                self._progress.pop(message[1], None)
                future.set_exception(WorkerDied(f"cannot send to the worker: {exc}"))

    def _read(self, proc: subprocess.Popen[bytes]) -> None:
        """In a thread: progress goes to the task's callback; an answer settles the task
        the worker was on."""
        assert proc.stdout is not None
        while True:
            try:
                kind, task_id, value = _receive(proc.stdout)
            except Exception:
                break
            if kind == "progress":
                callback = self._progress.get(task_id)
                if callback is not None:
                    try:
                        callback(value)
                    except Exception:
                        pass  # a progress report is never worth the reader thread
                continue
            with self._lock:
                future, self._busy = self._busy, None
                self._progress.pop(task_id, None)
                if future is not None:
                    if kind == "ok":
                        future.set_result(value)
                    elif kind == "cancelled":
                        future.set_exception(TaskCancelled("cancelled while it ran"))
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
        self._progress.clear()
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
