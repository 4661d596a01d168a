"""A process pool for ``jaxlint check -j N`` that survives a worker dying.

``concurrent.futures.ProcessPoolExecutor`` breaks as a whole when one worker
dies (a segfault in a native parser, the OOM killer, ``os._exit`` in a rule) and
cannot tell which task killed it. This pool keeps its own workers, each with a
pipe: a worker handles its tasks in the order it received them, so when one
dies the parent knows which task it was on. That task is reported through
``on_crash``, the tasks queued behind it go back to the queue, a fresh worker
takes its place, and the run goes on.

The caller gets each result by task index, so output order never depends on
which worker finished first. Workers are forked on Linux (they inherit the
loaded rules and the configuration, and start in milliseconds) when this process
has one thread, and started from a fork server or spawned otherwise (then the
work function and its context must be picklable).
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import traceback
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from jaxlint import signals

if TYPE_CHECKING:
    import multiprocessing.context

PREFETCH = 2
"""Tasks queued per worker: one running and one waiting, so a worker never idles."""

WAIT_WINDOW = 256
"""How many of the next tasks are looked at for one whose dependencies are done."""

MIN_PARALLEL_BYTES = 64_000
"""Below this much source to lint (about 2,000 lines), one process is faster than a pool."""


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))  # type: ignore[attr-defined]
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


BASE_WORKER_BYTES = 300 * 1024**2
"""A worker's memory before its largest file: the interpreter, libcst and the rules
(about 240 MiB measured on the whole corpus in one process, docs/performance.md)."""
BYTES_PER_SOURCE_BYTE = 1100
"""Peak memory per byte of source while a file is linted (about 930 measured on a
generated 1 MB file, docs/performance.md), with a margin."""


def physical_memory() -> int | None:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return None


def jobs_within_budget(jobs: int, task_sizes: Sequence[int], budget: int | None) -> int:
    """The most processes (at most ``jobs``, at least 1) whose estimated peak memory,
    each linting the run's largest file, fits in ``budget`` bytes (``None``: half of
    the physical memory; 0: no limit)."""
    if budget is None:
        physical = physical_memory()
        budget = physical // 2 if physical else 0
    if budget <= 0 or jobs <= 1:
        return max(jobs, 1)
    largest = max(task_sizes, default=0)
    per_worker = BASE_WORKER_BYTES + BYTES_PER_SOURCE_BYTE * largest
    return max(1, min(jobs, budget // per_worker))


def should_parallelize(jobs: int, task_sizes: Sequence[int]) -> bool:
    """A pool pays off with more than one job, more than one task and enough work."""
    return jobs > 1 and len(task_sizes) > 1 and sum(task_sizes) >= MIN_PARALLEL_BYTES


def _thread_count() -> int:
    """Threads of this process as the OS sees them (native ones too), 1 if unknown."""
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return 1


def _context() -> multiprocessing.context.BaseContext:
    """fork where it is safe (Linux, one thread), else forkserver or spawn.

    Forking a multi-threaded process (jaxlint called from a program that has
    imported jax, whose runtime starts threads) can deadlock the child on a lock
    another thread held; Python warns about it. Then the workers start from a
    clean fork server instead (the work function and its context are pickled).
    """
    import multiprocessing  # only a run with workers pays for it (start-up of one file)

    if sys.platform.startswith("linux"):
        if _thread_count() == 1:
            return multiprocessing.get_context("fork")
        return multiprocessing.get_context("forkserver")
    return multiprocessing.get_context("spawn")


def _die_with_parent(parent: int | None) -> None:
    """Make this worker end when the process that started it dies, even by SIGKILL.

    On Linux the kernel sends SIGTERM (``PR_SET_PDEATHSIG``); elsewhere a daemon
    thread watches the parent process id. Either way the worker's SIGTERM handler
    raises, so a write in progress removes its temporary file. ``parent`` is the
    process that should be the parent (None when it is a fork server: the fork
    server ends when jaxlint does, and then its children get the signal).
    """
    armed = False
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            armed = libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0) == 0
        except (OSError, AttributeError):
            armed = False
    if parent is not None and os.getppid() != parent:
        # the parent died before the death signal was armed
        os.kill(os.getpid(), signal.SIGTERM)
    if not armed:
        threading.Thread(target=_watch_parent, args=(os.getppid(),), daemon=True).start()


_PR_SET_PDEATHSIG = 1


def _watch_parent(parent: int) -> None:
    import time

    while os.getppid() == parent:
        time.sleep(PARENT_POLL_SECONDS)
    os.kill(os.getpid(), signal.SIGTERM)


PARENT_POLL_SECONDS = 1.0
"""How often a worker without ``PR_SET_PDEATHSIG`` checks that its parent lives."""


def _worker_main(
    conn: Any,
    work: Callable[[Any, Any], Any],
    context: Any,
    inherited: Sequence[Any] = (),
    parent: int | None = None,
) -> None:
    """Run tasks from ``conn`` until told to stop; an interrupt ends it quietly.

    ``inherited``: the parent's ends of the pipes (this worker's and the other
    workers'), which a forked worker inherits. They are closed first: a worker
    holding the parent's end of its own pipe would never see it close, and would
    wait forever once the parent is gone.
    """
    for other in inherited:
        try:
            other.close()
        except OSError:
            pass
    try:
        signals.install(force=True)  # SIGTERM, SIGHUP: like Ctrl-C, a write cleans up
        # the pool's step before SIGKILL is SIGINT: it raises here even where jaxlint was
        # started with SIGINT ignored (a script's background job, where Python keeps it so)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        _die_with_parent(parent)
        while True:
            message = conn.recv()
            if message is None:
                break
            index, task = message
            try:
                result = ("ok", work(context, task))
            except Exception as exc:  # a bug in the work function: report it, keep going
                detail = "".join(traceback.format_exception(exc))
                result = ("error", f"{type(exc).__name__}: {exc}", detail)
            conn.send((index, result))
    except (KeyboardInterrupt, EOFError, BrokenPipeError):
        pass
    finally:
        conn.close()


@dataclass
class _Worker:
    process: Any
    conn: Any
    queued: deque[int] = field(default_factory=deque)


def describe_exit(exitcode: int | None) -> str:
    if exitcode is None:
        return "the worker process vanished"
    if exitcode < 0:
        try:
            name = signal.Signals(-exitcode).name
        except ValueError:
            name = f"signal {-exitcode}"
        return f"the worker process was killed by {name}"
    return f"the worker process exited with code {exitcode}"


def run_parallel(
    tasks: Sequence[Any],
    work: Callable[[Any, Any], Any],
    context: Any,
    jobs: int,
    on_result: Callable[[int, Any], None],
    on_crash: Callable[[int, str], None],
    on_error: Callable[[int, str, str], None],
    order: Sequence[int] | None = None,
    waits: Sequence[Sequence[int]] | None = None,
) -> None:
    """Run ``work(context, tasks[i])`` for every task in ``jobs`` worker processes.

    ``on_result(i, result)`` gets each result; ``on_crash(i, why)`` a task whose
    worker died while running it; ``on_error(i, message, traceback)`` a task whose
    work function raised. ``order`` is the order to hand tasks out (largest
    first balances the load); results are keyed by index whatever the order.
    ``waits[i]``: tasks that must be finished (or queued before it in the same worker)
    before task ``i`` is handed out; each comes before ``i`` in ``order``, so the first
    task left can always go once no worker is busy.
    """
    from multiprocessing.connection import wait

    ctx = _context()
    pending: list[int] = list(order if order is not None else range(len(tasks)))
    pending.reverse()  # taken from the end
    done: set[int] = set()
    workers: list[_Worker] = []

    def next_task(worker: _Worker) -> int | None:
        """The first task left that may go to ``worker`` now (None: none may)."""
        if waits is None:
            return pending.pop()
        for at in range(len(pending) - 1, max(-1, len(pending) - 1 - WAIT_WINDOW), -1):
            index = pending[at]
            if all(j in done or j in worker.queued for j in waits[index]):
                del pending[at]
                return index
        return None

    forking = ctx.get_start_method() == "fork"

    def start_worker() -> _Worker:
        parent_conn, child_conn = ctx.Pipe(duplex=True)
        # A forked worker inherits every open pipe end; it closes the parent's ones. A
        # worker from a fork server or spawned inherits none (and they do not pickle).
        inherited = (parent_conn, *(w.conn for w in workers)) if forking else ()
        parent = os.getpid() if forking or ctx.get_start_method() == "spawn" else None
        process = ctx.Process(
            target=_worker_main,
            args=(child_conn, work, context, inherited, parent),
            daemon=True,
        )
        process.start()
        child_conn.close()
        return _Worker(process, parent_conn)

    def feed(worker: _Worker) -> None:
        while pending and len(worker.queued) < PREFETCH:
            index = next_task(worker)
            if index is None:
                return
            try:
                worker.conn.send((index, tasks[index]))
            except (BrokenPipeError, OSError):
                pending.append(index)
                return
            worker.queued.append(index)

    def receive(worker: _Worker) -> bool:
        """Take every result waiting on the worker's pipe; False if the pipe is closed."""
        while True:
            try:
                if not worker.conn.poll():
                    return True
                index, result = worker.conn.recv()
            except (EOFError, OSError):
                return False
            if worker.queued and worker.queued[0] == index:
                worker.queued.popleft()
            done.add(index)
            if result[0] == "ok":
                on_result(index, result[1])
            else:
                on_error(index, result[1], result[2])

    def bury(worker: _Worker) -> None:
        """The worker died: report its current task, requeue the others, replace it."""
        receive(worker)  # results it sent before dying still count
        worker.process.join(timeout=5)
        if worker.queued:
            crashed = worker.queued.popleft()
            done.add(crashed)
            on_crash(crashed, describe_exit(worker.process.exitcode))
            pending.extend(reversed(worker.queued))
            worker.queued.clear()
        worker.conn.close()
        workers.remove(worker)
        if pending:
            workers.append(start_worker())

    try:
        for _ in range(max(1, min(jobs, len(pending)))):
            workers.append(start_worker())
        while workers:
            for worker in workers:
                feed(worker)
            busy = [w for w in workers if w.queued]
            if not busy:
                break
            waitables: list[Any] = []
            for w in busy:
                waitables.extend((w.conn, w.process.sentinel))
            # bounded: a signal marked just before the wait began is handled within it
            ready = set(wait(waitables, timeout=WAKE_SECONDS))
            for worker in list(busy):
                if worker.conn in ready:
                    alive = receive(worker)
                    if not alive:
                        bury(worker)
                        continue
                if worker.process.sentinel in ready and worker in workers:
                    bury(worker)
    except BaseException:
        # interrupted (Ctrl-C, SIGTERM, SIGHUP) or a bug here: stop the workers now
        _shutdown(workers, interrupted=True)
        raise
    _shutdown(workers)


def _shutdown(workers: list[_Worker], interrupted: bool = False) -> None:
    """Stop every worker: ask it to finish, then interrupt it, then kill it.

    When the run was interrupted, each worker gets SIGTERM at once (its handler
    raises, so a fix being written removes its temporary file) instead of finishing
    its task first. The signal is sent again until the worker ends: one that arrives
    after the worker's last check for signals but before it blocks (in a sleep, a
    read) only marks the signal pending, and nothing wakes the worker to handle it;
    the next one does. The handler ignores every SIGTERM after its first, so the
    repeats cannot cut its cleanup short."""
    for worker in workers:
        if interrupted:
            _signal(worker, signal.SIGTERM)
        try:
            worker.conn.send(None)
        except (BrokenPipeError, OSError):
            pass
    for worker in workers:
        if interrupted:
            _join_resending(worker, signal.SIGTERM, STOP_SECONDS)
        else:
            worker.process.join(timeout=STOP_SECONDS)
        if worker.process.is_alive():
            # interrupted mid-task: SIGINT lets an atomic write remove its temporary file
            _signal(worker, signal.SIGINT)
            worker.process.join(timeout=STOP_SECONDS)
        if worker.process.is_alive():
            worker.process.kill()
            worker.process.join()
        try:
            worker.conn.close()
        except OSError:
            pass


STOP_SECONDS = 10.0
"""How long a worker gets to stop after each step (finish, SIGTERM, SIGINT)."""
WAKE_SECONDS = 1.0
"""The longest the pool waits for its workers before it checks for signals again."""
RESEND_SECONDS = 0.2
"""How often an interrupted worker that has not ended gets SIGTERM again."""


def _signal(worker: _Worker, signum: int) -> None:
    if worker.process.is_alive():
        try:
            os.kill(worker.process.pid, signum)
        except OSError:
            pass


def _join_resending(worker: _Worker, signum: int, seconds: float) -> None:
    """Wait up to ``seconds`` for ``worker`` to end, sending ``signum`` again meanwhile."""
    import time

    deadline = time.monotonic() + seconds
    while True:
        left = deadline - time.monotonic()
        worker.process.join(timeout=max(0.0, min(RESEND_SECONDS, left)))
        if not worker.process.is_alive() or left <= RESEND_SECONDS:
            return
        _signal(worker, signum)
