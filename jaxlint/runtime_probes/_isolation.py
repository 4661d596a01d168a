"""Keep the user's code from corrupting a probe's report (issue 28).

While a probe runs the user's code (:class:`UserCode`, entered by ``run_probe``):

- **Its output never reaches the report's channel.** What it prints goes to standard
  error: in the probe's child process by pointing file descriptor 1 at standard error
  (so ``print``, ``os.write(1, ...)`` and C code all land there), in-process by
  ``contextlib.redirect_stdout``. In the child the report itself goes to the supervising
  process through a file (:func:`deliver`), which prints it.
- **An interrupt is told apart from a ``KeyboardInterrupt`` it raises.** A SIGINT
  handler records that the signal came; a ``KeyboardInterrupt`` without one was
  raised by the user's code (exit 3, like any ``BaseException``), with one it is an
  interrupt (exit 2).
- **Processes it starts are owned.** ``os.fork()`` is counted (``os.register_at_fork``)
  and a forked copy of the probe exits silently when it reaches the probe's end instead of
  writing a second report. In the child, the probe's process is a child subreaper
  (Linux ``PR_SET_CHILD_SUBREAPER``): every process the user's code started, and every
  process those started (``setsid()`` included), is its descendant or is re-parented to
  it, and :func:`sweep` kills and reaps what is still there when the probe ends. The
  supervising process also kills the child's process group when the child ends (a
  backstop when the child died first).
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
from types import FrameType, TracebackType
from typing import Any

_forks = 0
_forked_copy = False


def _after_fork_in_parent() -> None:
    global _forks
    _forks += 1


def _after_fork_in_child() -> None:
    global _forked_copy
    _forked_copy = True


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_parent=_after_fork_in_parent, after_in_child=_after_fork_in_child)


def forks() -> int:
    """``os.fork()`` calls made by this process so far (not by ``subprocess``)."""
    return _forks


def is_forked_copy() -> bool:
    """True in a process that ``os.fork()`` copied from a probe."""
    return _forked_copy


def _set_subreaper() -> bool:
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(36, 1, 0, 0, 0) == 0  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        return False


class UserCode:
    """The context in which a probe runs the user's code (see the module's docstring)."""

    def __init__(self, child: bool) -> None:
        self.child = child
        self.interrupted = False
        self.forks = 0
        self._forks_before = 0
        self._previous_sigint: Any = None
        self._redirect: contextlib.AbstractContextManager[Any] | None = None
        self.report_fd: int | None = None

    def _on_sigint(self, signum: int, frame: FrameType | None) -> None:
        self.interrupted = True
        raise KeyboardInterrupt

    def __enter__(self) -> UserCode:
        self._forks_before = _forks
        with contextlib.suppress(OSError, ValueError):
            sys.stdout.flush()
        if self.child:
            try:
                # the original standard output stays reachable for a last-resort report
                self.report_fd = os.dup(1)
                os.dup2(2, 1)
            except OSError:
                self.report_fd = None
            _set_subreaper()
        else:
            self._redirect = contextlib.redirect_stdout(sys.stderr)
            self._redirect.__enter__()
        if threading.current_thread() is threading.main_thread():
            with contextlib.suppress(OSError, ValueError):
                self._previous_sigint = signal.signal(signal.SIGINT, self._on_sigint)
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.forks = _forks - self._forks_before
        if self._previous_sigint is not None:
            with contextlib.suppress(OSError, ValueError, TypeError):
                signal.signal(signal.SIGINT, self._previous_sigint)
        with contextlib.suppress(OSError, ValueError):
            sys.stdout.flush()  # the user's output, before the redirection ends
        if self._redirect is not None:
            self._redirect.__exit__(None, None, None)


def _process_stats() -> list[tuple[int, list[str]]]:
    """(pid, fields of ``/proc/PID/stat`` after the command: state, ppid, pgrp, ...) of
    every process (Linux /proc); raises ``OSError`` when /proc cannot be listed."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", encoding="utf-8", errors="replace") as fh:
                text = fh.read()
        except OSError:
            continue  # ended meanwhile, or not ours to read
        found.append((int(name), text[text.rfind(")") + 2 :].split()))
    return found


def _children(pid: int) -> list[tuple[int, str]]:
    """(pid, state) of the processes whose parent is ``pid`` (Linux /proc; else none)."""
    try:
        stats = _process_stats()
    except OSError:
        return []
    return [(p, f[0]) for p, f in stats if len(f) >= 2 and f[1] == str(pid)]


def sweep() -> int:
    """Kill and reap every process still alive below this one; return how many were alive.

    Zombies (processes that ended and wait to be reaped) are reaped, not counted.
    A killed process's own children are re-parented here (the subreaper) and killed
    in the next round.
    """
    me = os.getpid()
    killed: set[int] = set()
    for _ in range(100):
        children = _children(me)
        if not children:
            break
        for pid, state in children:
            if state not in ("Z", "X"):
                killed.add(pid)
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
            with contextlib.suppress(OSError):
                os.waitpid(pid, 0)
        time.sleep(0.01)
    return len(killed)


def kill_group(pgid: int) -> int | None:
    """Kill the processes of process group ``pgid`` (the ended child's session); how many
    were running (zombies not counted). ``None``: the group had members but /proc could
    not be read to count them (they are killed all the same)."""
    try:
        os.killpg(pgid, 0)
    except (OSError, AttributeError):
        return 0
    members: int | None
    try:
        members = sum(
            1
            for _, f in _process_stats()
            if len(f) >= 3 and f[2] == str(pgid) and f[0] not in ("Z", "X")
        )
    except OSError:
        members = None  # not counted: never a guessed number
    with contextlib.suppress(OSError):
        os.killpg(pgid, signal.SIGKILL)
    return members
