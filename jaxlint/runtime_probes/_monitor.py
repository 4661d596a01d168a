"""JAX's own compile signals: ``jax.monitoring`` events and ``jax_explain_cache_misses`` logs.

Facts (verified on jax 0.12.0.1, CPU): every XLA compilation of ``jit(f)``
records a ``/jax/core/compile/backend_compile_duration`` duration event with
``fun_name='jit(f)'``; it also fires when the executable comes from the
persistent compilation cache, which records a ``/jax/compilation_cache/cache_hits``
event, so real compilations are backend events minus cache hits. Tracing records
``/jax/core/compile/jaxpr_trace_duration`` and lowering
``/jax/core/compile/jaxpr_to_mlir_module_duration``. With
``jax_explain_cache_misses`` on, each tracing-cache miss is logged at WARNING on
``jax._src.interpreters.partial_eval`` as ``TRACING CACHE MISS at ...``, and
persistent-cache misses on ``jax._src.compiler`` (``PERSISTENT COMPILATION CACHE MISS``).
"""

from __future__ import annotations

import logging
import threading
from collections import Counter
from contextlib import AbstractContextManager, ExitStack
from dataclasses import dataclass
from types import ModuleType, TracebackType
from typing import Any

BACKEND_COMPILE = "/jax/core/compile/backend_compile_duration"
TRACE = "/jax/core/compile/jaxpr_trace_duration"
LOWER = "/jax/core/compile/jaxpr_to_mlir_module_duration"
CACHE_HIT = "/jax/compilation_cache/cache_hits"
# tracing-cache misses; persistent-cache misses, writes and hits
EXPLAIN_LOGGERS = (
    "jax._src.interpreters.partial_eval",
    "jax._src.compiler",
    "jax._src.compilation_cache",
)


@dataclass(frozen=True)
class Event:
    name: str
    seconds: float | None
    fun_name: str | None


@dataclass
class Window:
    """What JAX recorded between two marks."""

    events: list[Event]

    def count(self, name: str) -> int:
        return sum(1 for e in self.events if e.name == name)

    def seconds(self, name: str) -> float:
        return sum(e.seconds or 0.0 for e in self.events if e.name == name)

    @property
    def backend_compiles(self) -> int:
        return self.count(BACKEND_COMPILE)

    @property
    def cache_hits(self) -> int:
        return self.count(CACHE_HIT)

    @property
    def compiles(self) -> int:
        """XLA compilations: backend compile events minus persistent-cache hits."""
        return max(self.backend_compiles - self.cache_hits, 0)

    def by_function(self) -> dict[str, int]:
        counts = Counter(e.fun_name or "?" for e in self.events if e.name == BACKEND_COMPILE)
        return dict(sorted(counts.items()))

    def summary(self) -> dict[str, Any]:
        return {
            "traces": self.count(TRACE),
            "trace_seconds": self.seconds(TRACE),
            "lowerings": self.count(LOWER),
            "lowering_seconds": self.seconds(LOWER),
            "backend_compiles": self.backend_compiles,
            "backend_compile_seconds": self.seconds(BACKEND_COMPILE),
            "persistent_cache_hits": self.cache_hits,
        }


class CompileMonitor(AbstractContextManager["CompileMonitor"]):
    """Records JAX's monitoring events while active (listeners removed on exit)."""

    def __init__(self, jax: ModuleType) -> None:
        self._monitoring = jax.monitoring
        self._events: list[Event] = []
        self._lock = threading.Lock()
        self._active = False

    def _on_duration(self, name: str, seconds: float, **kwargs: Any) -> None:
        if self._active:
            with self._lock:
                self._events.append(Event(name, float(seconds), kwargs.get("fun_name")))

    def _on_event(self, name: str, **kwargs: Any) -> None:
        if self._active:
            with self._lock:
                self._events.append(Event(name, None, kwargs.get("fun_name")))

    def __enter__(self) -> CompileMonitor:
        self._monitoring.register_event_duration_secs_listener(self._on_duration)
        self._monitoring.register_event_listener(self._on_event)
        self._active = True
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._active = False
        for unregister, cb in (
            ("unregister_event_duration_listener", self._on_duration),
            ("unregister_event_listener", self._on_event),
        ):
            fn = getattr(self._monitoring, unregister, None)
            if fn is not None:
                try:
                    fn(cb)
                except Exception:
                    pass  # already gone; the listener is inactive anyway

    def mark(self) -> int:
        with self._lock:
            return len(self._events)

    def since(self, mark: int) -> Window:
        with self._lock:
            return Window(list(self._events[mark:]))


class _Capture(logging.Filter):
    """A logger filter that keeps cache-miss explanations and stops them being printed."""

    def __init__(self) -> None:
        super().__init__()
        self.messages: list[str] = []

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:
            return True
        if "CACHE MISS" in message or "persistent compilation cache" in message.lower():
            self.messages.append(message)
            return False
        return True


class ExplainCapture(AbstractContextManager["ExplainCapture"]):
    """Turns on ``jax_explain_cache_misses`` and keeps its log lines (not printed)."""

    def __init__(self, jax: ModuleType) -> None:
        self._jax = jax
        self._capture = _Capture()
        self._stack = ExitStack()
        self._loggers = [logging.getLogger(name) for name in EXPLAIN_LOGGERS]

    def __enter__(self) -> ExplainCapture:
        self._stack.enter_context(self._jax.explain_cache_misses(True))
        for logger in self._loggers:
            logger.addFilter(self._capture)
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        for logger in self._loggers:
            logger.removeFilter(self._capture)
        self._stack.close()

    def mark(self) -> int:
        return len(self._capture.messages)

    def since(self, mark: int) -> list[str]:
        return list(self._capture.messages[mark:])
