"""SIGTERM and SIGHUP end a run the way Ctrl-C (SIGINT) does.

Python turns SIGINT into ``KeyboardInterrupt``, so the cleanup that runs on an
exception (an atomic write removing its temporary file, the process pool
stopping its workers) runs. SIGTERM (``kill``, a CI job's timeout, ``systemd``)
and SIGHUP (the terminal closed) kill a process without any of that by default.
:func:`terminate_like_interrupt` makes them raise :class:`Terminated`, a
``KeyboardInterrupt``, so the same cleanup runs, and ``jaxlint`` exits with the
shell's code for that signal: 143 for SIGTERM, 129 for SIGHUP (130 stays Ctrl-C).
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from types import FrameType

HANDLED = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))
"""The signals handled like SIGINT (Windows has no SIGHUP)."""


class Terminated(KeyboardInterrupt):
    """Raised in the main thread when SIGTERM or SIGHUP arrives."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum

    @property
    def exit_code(self) -> int:
        return 128 + self.signum

    @property
    def signal_name(self) -> str:
        try:
            return signal.Signals(self.signum).name
        except ValueError:
            return f"signal {self.signum}"


def exit_code_for(exc: KeyboardInterrupt) -> int:
    """143 for SIGTERM, 129 for SIGHUP, 130 for Ctrl-C (a plain ``KeyboardInterrupt``)."""
    return exc.exit_code if isinstance(exc, Terminated) else 130


def _raise_once(signum: int, frame: FrameType | None) -> None:
    # Later signals are ignored while the cleanup this one started runs (it is bounded:
    # the process pool kills a worker that does not stop), so it is not cut short.
    for handled in HANDLED:
        signal.signal(handled, signal.SIG_IGN)
    raise Terminated(signum)


def install(*, force: bool = False) -> dict[int, object]:
    """Handle SIGTERM and SIGHUP like SIGINT in this process; returns the previous handlers.

    Only the main thread can set handlers; elsewhere nothing changes. A signal that
    was ignored when jaxlint started (``nohup`` ignores SIGHUP) stays ignored, unless
    ``force`` (a pool worker, which its pool stops with SIGTERM).
    """
    previous: dict[int, object] = {}
    if threading.current_thread() is not threading.main_thread():
        return previous
    for signum in HANDLED:
        try:
            old = signal.getsignal(signum)
            if old == signal.SIG_IGN and not force:
                continue
            signal.signal(signum, _raise_once)
            previous[signum] = old
        except (OSError, ValueError):
            continue
    return previous


HELD = (signal.SIGINT, *HANDLED)
"""The signals :func:`hold` defers: every one that ends a run by raising."""


def hold() -> object:
    """Defer SIGINT, SIGTERM and SIGHUP in this thread until :func:`release`.

    For the few steps where an exception would lose track of something: between
    creating a temporary file and knowing its name (inside ``mkstemp``), a signal
    that raised would leave the file behind. A signal that arrives meanwhile is
    kept pending by the OS and delivered by :func:`release`, so its handler raises
    just after. Returns the previous mask (``None`` where the OS has no signal
    masks: Windows)."""
    if not hasattr(signal, "pthread_sigmask"):
        return None
    try:
        return signal.pthread_sigmask(signal.SIG_BLOCK, HELD)
    except (OSError, ValueError):
        return None


def release(previous: object) -> None:
    """Undo :func:`hold` (a signal held meanwhile is delivered now)."""
    if previous is not None:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)  # type: ignore[arg-type]


def restore(previous: dict[int, object]) -> None:
    for signum, handler in previous.items():
        try:
            signal.signal(signum, handler)  # type: ignore[arg-type]
        except (OSError, ValueError, TypeError):
            pass


@contextlib.contextmanager
def terminate_like_interrupt() -> Iterator[None]:
    """SIGTERM and SIGHUP raise :class:`Terminated` inside the ``with`` block."""
    previous = install()
    try:
        yield
    finally:
        restore(previous)
