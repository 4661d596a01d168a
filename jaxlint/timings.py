"""``jaxlint check --timings``: where the time of a run goes, per phase and per rule.

The engine adds the time of each phase (parse, semantic model, trace and key
analyses, positions) and of each rule (its construction and its ``visit_``/
``leave_`` handlers) to a :class:`Timings`, summed over files. When timings are
off, the engine takes its untimed path and pays nothing for this.

Work that a rule starts but that belongs to everyone (a rule asking for
``ctx.trace`` first computes the trace analysis for all the rules) is counted
under its own phase, not under the rule that happened to ask first: every timed
section subtracts the sections timed inside it (:attr:`Timings.inner`).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

PHASE_PREFIX = "phase: "
RULE_PREFIX = "rule: "


@dataclass
class Timings:
    """Seconds (``time.perf_counter``) and call counts per label, summed over files."""

    seconds: dict[str, float] = field(default_factory=dict)
    calls: dict[str, int] = field(default_factory=dict)
    files_linted: int = 0
    files_from_cache: int = 0
    files_relinted: int = 0
    """Linted again at the end of the run: what another module says of them changed."""
    files_prefiltered: int = 0
    """Files the cache run skipped at once: they never mention JAX."""
    inner: float = 0.0
    """Seconds spent in timed sections so far. A section subtracts what its nested
    sections added meanwhile, so each label gets its own (exclusive) time."""

    def add(self, label: str, seconds: float, calls: int = 1) -> None:
        self.seconds[label] = self.seconds.get(label, 0.0) + seconds
        self.calls[label] = self.calls.get(label, 0) + calls

    def phase(self, name: str, seconds: float) -> None:
        self.add(PHASE_PREFIX + name, seconds)

    @contextmanager
    def measure(self, name: str) -> Iterator[None]:
        """Time a phase; sections timed inside it are counted under their own names only."""
        start = time.perf_counter()
        inner_before = self.inner
        try:
            yield
        finally:
            elapsed = time.perf_counter() - start
            self.phase(name, elapsed - (self.inner - inner_before))
            self.inner = inner_before + elapsed

    def merge(self, other: Timings) -> None:
        for label, secs in other.seconds.items():
            self.add(label, secs, other.calls.get(label, 0))
        self.files_linted += other.files_linted
        self.files_from_cache += other.files_from_cache
        self.files_relinted += other.files_relinted
        self.files_prefiltered += other.files_prefiltered

    def render(self, wall: float | None = None, processes: int = 1) -> str:
        """A table, the most expensive first, with each row's share of the measured total."""
        total = sum(self.seconds.values())
        rows = sorted(self.seconds.items(), key=lambda kv: (-kv[1], kv[0]))
        width = max([len(label) for label, _ in rows] + [len("total measured")])
        lines = [f"{'phase or rule':<{width}}  {'seconds':>9}  {'share':>6}  {'calls':>9}"]
        for label, secs in rows:
            share = secs / total * 100 if total else 0.0
            lines.append(
                f"{label:<{width}}  {secs:>9.3f}  {share:>5.1f}%  {self.calls.get(label, 0):>9}"
            )
        lines.append(f"{'total measured':<{width}}  {total:>9.3f}  {100.0:>5.1f}%")
        tail = f"{self.files_linted} file(s) linted, {self.files_from_cache} from the cache"
        if self.files_prefiltered:
            tail += f", {self.files_prefiltered} never mention JAX"
        if self.files_relinted:
            tail += f", {self.files_relinted} linted again for what other modules say"
        if processes > 1:
            tail += f"; seconds summed over {processes} worker processes"
        if wall is not None:
            tail += f"; wall time of the run {wall:.3f} s"
        lines.append(tail)
        return "\n".join(lines) + "\n"
