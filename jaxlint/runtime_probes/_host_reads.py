"""Count the reads of device arrays by the host, per line of one file (``probe syncs``).

Facts (verified on jax 0.12.0.1, CPU, Python 3.12): every conversion of a ``jax.Array``
to a host value goes through one of two doors of its class (``jaxlib._jax.ArrayImpl``):

* the ``_value`` property (``float``, ``int``, ``bool``, ``complex``, ``str``, ``repr``,
  ``format`` and f-strings, ``print``, ``.tolist()``, ``jax.device_get``,
  ``__array__``), which copies the array to the host, or returns the copy kept on a
  backend that keeps one (``_npy_value``: then no device is read, and it is not counted);
* the buffer protocol (``np.asarray``, ``np.array``, ``.item()``, NumPy functions, of
  an array on the CPU), a C slot that Python 3.12 lets a class replace through
  ``__buffer__``.

Both wait for the device computation that produces the array: a blocking sync. Off the
CPU (checked on a TPU v5e, jax 0.10.2, Python 3.11) the buffer protocol refuses with
``BufferError`` and NumPy falls back to ``__array__``, so every conversion goes through
``_value``, and a second read of the same array reads the copy it keeps. A door that
refuses reads nothing and is not counted. The transfer guard
(``jax.transfer_guard_device_to_host``) cannot count the reads: it sees nothing on the
CPU backend, where no transfer happens (on the TPU it refused ``float``).

While counting, both doors are replaced by wrappers that note the read and call the
original; they are put back on exit. A read is credited to every line of the file on
the reading thread's stack (the conversion's line, and the lines that called the
function doing it), in the run of that line in progress (``sys.monitoring`` LINE events
count the runs of the file's lines; the other files' lines are switched off at their
first event).
"""

from __future__ import annotations

import os
import sys
import threading
import time
from dataclasses import dataclass, field
from types import ModuleType, TracebackType
from typing import Any

PYTHON = sys.version_info[:2]
TOOL_IDS = (3, 4, 5, 2, 1, 0)
"""``sys.monitoring`` tool ids tried in order (3 and 4 have no conventional user)."""


class Unavailable(Exception):
    """The reads cannot be counted here; the message says why."""


@dataclass
class LineCounts:
    runs: int = 0
    runs_with_read: set[int] = field(default_factory=set)
    reads: int = 0
    reads_of_pending: int = 0
    seconds_in_reads: float = 0.0
    seen: set[tuple[int, int]] = field(default_factory=set)

    def report(self, line: int, code: str) -> dict[str, Any]:
        return {
            "line": line,
            "code": code,
            "runs": self.runs,
            "runs_with_host_read": len(self.runs_with_read),
            "host_reads": self.reads,
            "reads_of_pending_arrays": self.reads_of_pending,
            "seconds_in_reads": self.seconds_in_reads,
        }


def _array_class(jax: ModuleType) -> type:
    return type(jax.numpy.zeros(()))


def unavailable_reason(jax: ModuleType) -> str | None:
    """Why the reads cannot be counted with this Python and JAX, or None."""
    if PYTHON < (3, 12):
        return (
            "counting host reads needs Python 3.12 or newer (sys.monitoring, and the buffer"
            f" protocol door that np.asarray goes through); this is Python {PYTHON[0]}.{PYTHON[1]}"
        )
    cls = _array_class(jax)
    if not isinstance(cls.__dict__.get("_value"), property):
        return f"{cls.__qualname__} has no `_value` property in this JAX: its host reads are unseen"
    if "__buffer__" not in cls.__dict__:
        return f"{cls.__qualname__} has no buffer protocol door (`__buffer__`) in this JAX"
    return None


class HostReads:
    """While active: the runs of each line of ``file`` and the host reads credited to it."""

    def __init__(self, jax: ModuleType, file: str) -> None:
        self._cls = _array_class(jax)
        self.file = os.path.realpath(file)
        self.lines: dict[int, LineCounts] = {}
        self.reads_elsewhere = 0
        """Reads with no line of the file on the stack (JAX's own, another thread's)."""
        self._lock = threading.Lock()
        self._files: dict[str, bool] = {}
        self._tool: int | None = None
        self._saved: dict[str, Any] = {}

    # -- the file's lines ----------------------------------------------------------------------

    def _ours(self, filename: str) -> bool:
        known = self._files.get(filename)
        if known is None:
            known = self._files[filename] = os.path.realpath(filename) == self.file
        return known

    def _on_line(self, code: Any, line: int) -> Any:
        if not self._ours(code.co_filename):
            return sys.monitoring.DISABLE
        with self._lock:
            self.lines.setdefault(line, LineCounts()).runs += 1
        return None

    def _stack_lines(self) -> list[int]:
        lines = []
        frame = sys._getframe(2)
        while frame is not None:
            if self._ours(frame.f_code.co_filename) and frame.f_lineno is not None:
                lines.append(frame.f_lineno)
            frame = frame.f_back
        return lines

    # -- the reads -----------------------------------------------------------------------------

    def _read(self, array: Any, read: Any, *args: Any) -> Any:
        lines = self._stack_lines()
        try:
            pending = not array.is_ready()
        except Exception:  # deleted: the original raises the real error
            pending = False
        start = time.perf_counter()
        result = read(array, *args)  # a door that refuses (BufferError off the CPU) reads nothing
        seconds = time.perf_counter() - start
        with self._lock:
            if not lines:
                self.reads_elsewhere += 1
            for line in dict.fromkeys(lines):
                counts = self.lines.setdefault(line, LineCounts())
                run = counts.runs
                counts.runs_with_read.add(run)
                counts.seconds_in_reads += seconds
                if (run, id(array)) not in counts.seen:
                    counts.seen.add((run, id(array)))
                    counts.reads += 1
                    counts.reads_of_pending += pending
        return result

    def __enter__(self) -> HostReads:
        cls = self._cls
        value = cls.__dict__["_value"]
        buffer = cls.__dict__["__buffer__"]
        self._saved = {"_value": value, "__buffer__": buffer}
        reads = self

        def fget(array: Any) -> Any:
            if getattr(array, "_npy_value", None) is not None:
                return value.fget(array)  # a host copy kept from an earlier read
            return reads._read(array, value.fget)

        def buffer_door(array: Any, flags: int) -> Any:
            return reads._read(array, buffer, flags)

        monitoring = sys.monitoring
        for tool in TOOL_IDS:
            try:
                monitoring.use_tool_id(tool, "jaxlint probe syncs")
            except ValueError:
                continue
            self._tool = tool
            break
        else:
            raise Unavailable("every sys.monitoring tool id is in use (a debugger, coverage)")
        monitoring.register_callback(self._tool, monitoring.events.LINE, self._on_line)
        monitoring.restart_events()  # lines switched off by an earlier run count again
        monitoring.set_events(self._tool, monitoring.events.LINE)
        cls._value = property(fget)
        cls.__buffer__ = buffer_door
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        for name, original in self._saved.items():
            setattr(self._cls, name, original)
        if self._tool is not None:
            monitoring = sys.monitoring
            monitoring.set_events(self._tool, 0)
            monitoring.register_callback(self._tool, monitoring.events.LINE, None)
            monitoring.free_tool_id(self._tool)
            self._tool = None
