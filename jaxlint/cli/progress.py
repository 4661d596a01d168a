"""The progress line of ``jaxlint check`` on a terminal: ``[120/3400 files]``.

It appears (on stderr) only when stdout and stderr are terminals (never when the
output is piped), ``-q``/``-s`` are not given, and the run
has already taken ``delay`` seconds (short runs print nothing), and it is erased
before the report is printed.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TextIO

DELAY_S = 2.0
"""Seconds a run takes before the line appears."""
EVERY_S = 0.1
"""Seconds between redraws."""


class Progress:
    def __init__(
        self,
        total: int,
        stream: TextIO | None,
        *,
        clock: Callable[[], float] = time.monotonic,
        delay: float | None = None,
        every: float | None = None,
    ) -> None:
        """``stream`` None (or not a terminal) turns the line off."""
        isatty = getattr(stream, "isatty", None)
        self.enabled = bool(stream is not None and total > 0 and isatty is not None and isatty())
        self.total = total
        self.done = 0
        self.stream = stream
        self.clock = clock
        self.start = clock()
        self.delay = DELAY_S if delay is None else delay
        self.every = EVERY_S if every is None else every
        self.last_draw: float | None = None
        self.shown = False

    def advance(self, n: int = 1) -> None:
        self.done += n
        if not self.enabled:
            return
        now = self.clock()
        if now - self.start < self.delay:
            return
        if (
            self.last_draw is not None
            and now - self.last_draw < self.every
            and (self.done < self.total)
        ):
            return
        self.last_draw = now
        self.shown = True
        assert self.stream is not None
        self.stream.write(f"\r\x1b[K[{self.done}/{self.total} files]")
        self.stream.flush()

    def close(self) -> None:
        """Erase the line (if it was drawn), so the report starts on a clean line."""
        if self.shown and self.stream is not None:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.shown = False
