"""One timed call of ``jaxlint probe bench``: what is inside the clock and what is not.

Inside the clock: the call and the synchronisation of what it returned
(``jax.block_until_ready`` on its output arrays and its unconsumed input arrays; for a
jitted function with no output array, ``jax.effects_barrier()``). Nothing else: the scan
of ``jax.live_arrays()``, whose cost grows with the number of arrays alive (a metrics
buffer that grows by one array per call made a call look up to thousands of times
slower), happens after the clock stops (issue 26, item 1).

After the clock, untimed:

- **Arrays the call created and kept** (in a dict, on an object) besides its outputs:
  each is asked ``is_ready()``. One still being computed proves the device was busy
  with the call's work past the clock's stop, so the probe waits for it and the call's
  time runs to the end of that wait, less the probe's own scan (measured on each call:
  from the clock's stop to the check). That is a lower bound, not a measurement: the
  work may have run during the scan, so the call took between the time and the time
  plus the scan; each timed call's subtracted scan is recorded
  (``Subject.last_scan_subtracted``, reported as ``kept_arrays.scan_subtracted_seconds``
  with a warning). When all are ready, the time stands, and how long after the clock's
  stop they were checked is recorded (``kept_arrays``): the bound on work the time could
  have missed.
- **A result without device arrays** from an unjitted function that keeps none
  (``return int(n)`` after launching device work and dropping it, issue 26, item 2):
  the arrays it launched are gone, nothing can be waited on, and the time would be
  dispatch only. Once, on an extra untimed call, the probe watches whether the function
  runs any JAX code (``sys.monitoring``, Python 3.12+); if it does, the run is refused
  (``UnsynchronisableOutput``, exit 3). A function that runs no JAX (NumPy, pure
  Python) is timed as it is.
- **A cached result** (issue 26, item 3): the same output arrays as the previous call's
  (identity, through weak references), or a ``functools`` cache wrapper whose hit count
  grew during the call: refused (``CachedOutput``, exit 3), the time is a cache lookup.
"""

from __future__ import annotations

import contextlib
import sys
import time
import warnings
import weakref
from collections.abc import Callable
from types import ModuleType
from typing import Any

from jaxlint.runtime_probes._common import EXIT_USER_CODE, ProbeFailure
from jaxlint.runtime_probes._errors import describe_exception, jax_dirs, warning_rules
from jaxlint.runtime_probes._monitor import CompileMonitor


class Unsynchronisable(Exception):
    pass


def _host_leaf(leaf: Any) -> bool:
    import numpy as np

    return isinstance(leaf, (np.ndarray, np.generic, bool, int, float, complex))


def array_leaves(jax: ModuleType, tree: Any, what: str) -> list[Any]:
    """The jax.Array leaves of ``tree``; raise for a leaf that cannot be waited on."""
    arrays = []
    leaves, _ = jax.tree_util.tree_flatten_with_path(tree)
    for path, leaf in leaves:
        if isinstance(leaf, jax.Array):
            arrays.append(leaf)
        elif not _host_leaf(leaf):
            where = what + jax.tree_util.keystr(path)
            raise Unsynchronisable(
                f"{where} is a {type(leaf).__module__}.{type(leaf).__qualname__}, which"
                " jax.block_until_ready cannot wait on: the time would not include its work"
            )
    return arrays


def array_leaves_safe(jax: ModuleType, tree: Any) -> list[Any]:
    return [leaf for leaf in jax.tree_util.tree_leaves(tree) if isinstance(leaf, jax.Array)]


NO_ARRAYS = (
    "{what} returned no array the probe can wait on ({got}), kept no array it created, and"
    " ran JAX code without jit: the device work it launched is dispatched asynchronously"
    " and may still run after it returns, so a time would measure dispatch only. Return"
    " the arrays it computes (not a Python number or NumPy array made from them), or the"
    " state it updates"
)

NO_ARRAYS_UNCHECKED = (
    "{what} returned no array the probe can wait on ({got}) and kept no array it created;"
    " whether it launched device work cannot be checked on Python {python} (needs 3.12"
    " sys.monitoring), so a time could measure dispatch only. Return the arrays it"
    " computes"
)


def synchronise(
    jax: ModuleType, out: Any, inputs: list[Any], jitted: bool, what: str
) -> tuple[int, str]:
    """Wait, inside the timer, for what the call returned: no scan of live arrays here.

    Returns the number of output arrays waited on, and how the call was synchronised.
    """
    outputs = array_leaves(jax, out, "output")
    if outputs:
        jax.block_until_ready(outputs + _live(inputs))
        return len(outputs), "output arrays and unconsumed input arrays"
    jax.effects_barrier()
    if jitted:
        return 0, "effects barrier (jitted, no output arrays)"
    return 0, "effects barrier (no output arrays)"


def _live(arrays: list[Any]) -> list[Any]:
    return [a for a in arrays if not a.is_deleted()]


def _created(jax: ModuleType, before_ids: set[int]) -> list[Any]:
    return [a for a in jax.live_arrays() if id(a) not in before_ids and not a.is_deleted()]


# -- does the call run JAX code? -----------------------------------------------------------------


def runs_jax(call: Callable[[], Any]) -> tuple[bool | None, Any]:
    """Call ``call()`` and say whether it ran any JAX code: a Python function of the jax or
    jaxlib packages, or a callable of theirs (a jitted function's C++ fast path).
    ``None``: cannot tell (Python before 3.12, or no free ``sys.monitoring`` tool id)."""
    monitoring = getattr(sys, "monitoring", None)
    if monitoring is None:
        return None, call()
    tool = next((t for t in (5, 4, 3) if monitoring.get_tool(t) is None), None)
    if tool is None:
        return None, call()
    folders = jax_dirs()
    seen = False

    def hit() -> None:
        nonlocal seen
        seen = True
        monitoring.set_events(tool, 0)

    def on_start(code: Any, offset: int) -> Any:
        if code.co_filename.startswith(folders):
            hit()
        return None

    def on_call(code: Any, offset: int, func: object, arg0: object) -> Any:
        module = type(func).__module__ or ""
        own = getattr(func, "__module__", None) or ""
        if isinstance(own, str) and own.startswith(("jax.", "jaxlib")) or own == "jax":
            hit()
        elif module.startswith("jaxlib") or module.startswith("jax."):
            hit()
        return None

    monitoring.use_tool_id(tool, "jaxlint bench")
    try:
        events = monitoring.events
        monitoring.register_callback(tool, events.PY_START, on_start)
        monitoring.register_callback(tool, events.CALL, on_call)
        monitoring.set_events(tool, events.PY_START | events.CALL)
        try:
            out = call()
        finally:
            monitoring.set_events(tool, 0)
            monitoring.register_callback(tool, events.PY_START, None)
            monitoring.register_callback(tool, events.CALL, None)
    finally:
        monitoring.free_tool_id(tool)
    return seen, out


# -- one call ----------------------------------------------------------------------------------


def _cache_hits(fn: Any) -> int | None:
    info = getattr(fn, "cache_info", None)
    if not callable(info):
        return None
    try:
        return int(info().hits)
    except Exception:
        return None


def _user_failure(exc: BaseException, label: str, phase: str) -> ProbeFailure:
    return ProbeFailure(EXIT_USER_CODE, describe_exception(exc, phase=f"{label}: {phase}"))


def _refuse(error: dict[str, Any], label: str, phase: str) -> ProbeFailure:
    return ProbeFailure(EXIT_USER_CODE, {**error, "phase": f"{label}: {phase}"})


def call_once(
    jax: ModuleType,
    subject: Any,
    phase: str,
    monitor: CompileMonitor,
    call_index: int,
    annotate: bool = False,
) -> tuple[float, int]:
    """Prepare fresh inputs (untimed), then time the call plus its synchronisation.

    Returns the seconds and the number of XLA compilations during the call.
    """
    subject.last_scan_subtracted = None
    inputs = subject.prepare(jax, phase, call_index)
    args, kwargs = inputs
    donated = subject.donated(jax, inputs)
    input_arrays = array_leaves_safe(jax, inputs)
    # the arrays alive before the call (kept referenced, so their ids stay theirs)
    before = jax.live_arrays()
    before_ids = {id(a) for a in before}
    hits = _cache_hits(subject.fn)
    mark = monitor.mark()
    # --profile: one TraceAnnotation per timed call, entered and left outside the timer
    annotation = (
        jax.profiler.TraceAnnotation(f"jaxlint bench {subject.label} {phase}")
        if annotate
        else contextlib.nullcontext()
    )
    with warnings.catch_warnings(record=True) as caught, annotation:
        warnings.simplefilter("always")
        start = time.perf_counter()
        try:
            out = subject.fn(*args, **kwargs)
            n_arrays, how = synchronise(jax, out, input_arrays, subject.jitted, subject.spec)
        except Unsynchronisable as exc:
            raise _refuse(
                {"class": "UnsynchronisableOutput", "message": str(exc)}, subject.label, phase
            ) from exc
        except Exception as exc:
            raise _user_failure(exc, subject.label, phase) from exc
        stop = time.perf_counter()
    elapsed = stop - start
    # -- untimed from here ------------------------------------------------------------------
    outputs = array_leaves_safe(jax, out)
    _check_cached(subject, out, outputs, hits, phase)
    output_ids = {id(a) for a in outputs} | {id(a) for a in input_arrays}
    kept = [a for a in _created(jax, before_ids) if id(a) not in output_ids]
    checked = time.perf_counter()
    pending = [a for a in kept if not a.is_ready()]
    if pending:
        # still computing after the scan: the device was busy with this call's work all
        # along, so the time runs until that work is done
        try:
            jax.block_until_ready(pending)
        except Exception as exc:
            raise _user_failure(exc, subject.label, phase) from exc
        ready = time.perf_counter()
        # the call's time runs to the end of that wait, less the probe's own scan: a
        # lower bound (the work may have run during the scan), reported as one
        scan = checked - stop
        elapsed = ready - start - scan
        subject.last_scan_subtracted = scan
        subject.kept_scan_left_out = max(subject.kept_scan_left_out, scan)
        how += "; arrays the call kept, still computing when checked: waited for"
        subject.kept_pending_calls += 1
    elif kept:
        how += "; arrays the call kept were already computed when checked"
        gap = checked - stop
        subject.kept_check_gap = max(subject.kept_check_gap, gap)
        subject.kept_check_gap_ratio = max(subject.kept_check_gap_ratio, gap / elapsed)
    if kept:
        subject.keeps_arrays = True
    elif not n_arrays and not subject.jitted and subject.host_only_checked is None:
        _check_host_only(jax, subject, out, phase, call_index)
    del before, before_ids, kept, pending
    compiles = monitor.since(mark).compiles
    del out, outputs
    subject.calls += 1
    subject.output_arrays = n_arrays
    subject.sync[how] = subject.sync.get(how, 0) + 1
    for w in caught:
        text = str(w.message).splitlines()[0]
        if text not in subject.warnings:
            subject.warnings.append(text)
            subject.warning_rules.extend(warning_rules([w]))
    if donated:
        if all(a.is_deleted() for a in donated):
            subject.donated_consumed += 1
        else:
            subject.donated_not_consumed += 1
    elif subject.donate_argnums:
        subject.donation_not_checked += 1
    return elapsed, compiles


def _check_cached(subject: Any, out: Any, outputs: list[Any], hits: int | None, phase: str) -> None:
    """Refuse a result that is a cache lookup: the previous call's arrays again, or a
    ``functools`` cache hit."""
    after = _cache_hits(subject.fn)
    if hits is not None and after is not None and after > hits:
        raise _refuse(
            {
                "class": "CachedOutput",
                "message": f"{subject.spec} is a functools cache wrapper and this call was a"
                " cache hit: its time is a lookup, not the work",
                "hint": "time the function the cache wraps (its __wrapped__), or clear the"
                " cache in the factory",
            },
            subject.label,
            phase,
        )
    previous = subject.previous_outputs
    if outputs and previous and len(previous) == len(outputs):
        if all(ref() is a for ref, a in zip(previous, outputs, strict=True)):
            raise _refuse(
                {
                    "class": "CachedOutput",
                    "message": f"{subject.spec} returned the same output array objects as the"
                    " previous call: the result is cached (or computed once and reused), so"
                    " the time is not of the work that computes it",
                    "hint": "return a freshly computed result on every call",
                },
                subject.label,
                phase,
            )
    try:
        subject.previous_outputs = [weakref.ref(a) for a in outputs]
    except TypeError:
        subject.previous_outputs = []


def _check_host_only(jax: ModuleType, subject: Any, out: Any, phase: str, index: int) -> None:
    """Once, when an unjitted function's result holds no device array and it keeps none:
    an extra untimed call tells whether it runs JAX code; if so, refuse."""
    if jax.tree_util.tree_leaves(out):
        got = f"only host values ({type(out).__name__})"
    else:
        got = "None" if out is None else f"an empty {type(out).__name__}"
    check_phase = f"untimed check after the {phase}"
    inputs = subject.prepare(jax, check_phase, index)
    args, kwargs = inputs
    try:
        ran, _ = runs_jax(lambda: subject.fn(*args, **kwargs))
    except Exception as exc:
        raise _user_failure(exc, subject.label, check_phase) from exc
    subject.calls += 1
    subject.host_only_checked = ran
    if ran is None:
        message = NO_ARRAYS_UNCHECKED.format(
            what=subject.spec, got=got, python=sys.version.split()[0]
        )
    elif ran:
        message = NO_ARRAYS.format(what=subject.spec, got=got)
    else:
        return
    raise _refuse({"class": "UnsynchronisableOutput", "message": message}, subject.label, phase)
