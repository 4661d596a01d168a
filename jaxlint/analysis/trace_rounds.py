"""The rounds of the walk of :class:`jaxlint.analysis.tracing.TraceAnalysis`: every
function is walked, helpers that traced code calls become traced and are walked again,
until nothing changes; a round after the first walks a function again only when what
its walk started from or read of a helper has changed. A mixin of ``TraceAnalysis``,
which holds the state these methods read and write (``functions``, ``values``,
``owner``, ``returns``, ``return_parts``, ``return_star``, ``call_parts``,
``call_star``, ``merged_env``, ``foreign_calls``, ``_defs``, ``_parent_fn``,
``_walks``) and ``_module_walker``/``_module_call_sites``."""

from __future__ import annotations

import dataclasses

import libcst as cst

from jaxlint.analysis.trace_values import Level, TracedFunction, Val
from jaxlint.analysis.trace_walk import _FunctionWalker

_ROUNDS = 16
"""At most this many rounds. A round walks the functions in the file's order, so a chain
of helpers defined before their callers (the usual layout) gains one level a round: four
rounds left the fifth function of ``fit -> solve -> _retry -> _solve -> _cpu_solve``
unwalked (traced, but with no traced values). Rounds after the first walk only what
changed, so a bound well above the chains real code has costs nothing where it converges
sooner."""


class _Rounds:
    functions: dict[int, TracedFunction]
    values: dict[int, Val]
    owner: dict[int, TracedFunction]
    returns: dict[int, Val]
    return_parts: dict[int, list[Val] | None]
    return_star: dict[int, int]
    call_parts: dict[int, list[Val]]
    call_star: dict[int, int]
    merged_env: dict[int, dict[str, Val]]
    foreign_calls: list[tuple[TracedFunction, cst.Call, list[tuple[str | None, Val]]]]
    _defs: list[cst.FunctionDef | cst.Lambda]
    _parent_fn: dict[int, cst.FunctionDef | cst.Lambda | None]
    _walks: dict[int, _Walk]

    def _analyze_all(self) -> None:
        """Walk every function; helpers called from traced code become traced and are
        walked again, until nothing changes (bounded).

        A round after the first walks a function again only when what its walk starts
        from or read of other functions has changed since its last walk (``_walk``,
        ``_unchanged``): the walk is a function of those, and what it writes elsewhere
        only grows (``max`` of levels, ``join`` of returns), so walking it again would
        write what is already there. The rounds, their number and every value are those
        of walking every function in every round."""
        self.values.clear()
        self.owner.clear()
        self.call_parts.clear()
        self.call_star.clear()
        walks = self._walks
        for round_ in range(_ROUNDS):
            first = round_ == 0
            before = {
                k: (dict(v.param_levels), v.staging, v.abstract) for k, v in self.functions.items()
            }
            self._module_walker().run_module()  # type: ignore[attr-defined]
            for fn in self._defs:
                if first or not self._unchanged(fn, walks[id(fn)]):
                    self._walk(fn)
            self._module_call_sites()  # type: ignore[attr-defined]
            after = {
                k: (dict(v.param_levels), v.staging, v.abstract) for k, v in self.functions.items()
            }
            # a caller walked before its helper read the helper's tuple positions of an
            # earlier round: walk again while one of them has changed since
            stale = any(
                _levels(self.return_parts.get(fn)) != levels
                for walk in walks.values()
                for fn, levels in walk.parts_read
            )
            if after == before and not stale:
                break
        self.foreign_calls = [call for fn in self._defs for call in walks[id(fn)].foreign]

    def _walk(self, fn: cst.FunctionDef | cst.Lambda) -> None:
        previous = self._walks.get(id(fn))
        if previous is not None:  # what only the last walk may say
            for key in previous.parts_calls:
                self.call_parts.pop(key, None)
                self.call_star.pop(key, None)
        start = self._start_of(fn)
        walker = _FunctionWalker(self, fn)  # type: ignore[arg-type]
        walker.run()
        self._walks[id(fn)] = _Walk(
            start, walker.reads, walker.parts_read, walker.parts_calls, walker.foreign
        )

    def _start_of(self, fn: cst.FunctionDef | cst.Lambda) -> tuple[object, ...]:
        """What a walk of ``fn`` starts from: its own levels, and the values of the
        functions it is nested in (a closure reads them)."""
        info = self.functions.get(id(fn))
        own: tuple[object, ...] = (None,)
        if info is not None:
            own = (info, tuple(info.param_levels.items()), info.staging, info.abstract)
        parent = self._parent_fn.get(id(fn))
        if parent is None:
            return own
        enclosing = []
        while parent is not None:
            enclosing.append(self.merged_env.get(id(parent)))
            parent = self._parent_fn.get(id(parent))
        return (*own, *enclosing)

    def _unchanged(self, fn: cst.FunctionDef | cst.Lambda, walk: _Walk) -> bool:
        if self._start_of(fn) != walk.start:
            return False
        return all(
            self.helper_seen(helper, type(seen) is tuple) == seen for helper, seen in walk.reads
        )

    def helper_seen(self, fn: cst.FunctionDef, traced: bool) -> object:
        """What a walk reads of a helper of this module it calls: from traced code, its
        return value, tuple positions and starred position; from host code, whether it is
        jitted (its calls there return arrays)."""
        key = id(fn)
        if traced:
            return (self.returns.get(key), self.return_parts.get(key), self.return_star.get(key))
        callee = self.functions.get(key)
        return callee is not None and callee.staging and callee.caller is None


@dataclasses.dataclass
class _Walk:
    """What a walk of one function started from and read, and what it left that only its
    last walk may say (see ``TraceAnalysis._analyze_all``)."""

    start: tuple[object, ...]
    reads: list[tuple[cst.FunctionDef, object]]
    parts_read: list[tuple[int, tuple[Level, ...]]]
    parts_calls: list[int]
    foreign: list[tuple[TracedFunction, cst.Call, list[tuple[str | None, Val]]]]


def _levels(parts: list[Val] | None) -> tuple[Level, ...] | None:
    return None if parts is None else tuple(p.level for p in parts)
