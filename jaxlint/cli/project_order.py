"""The end of a ``jaxlint check`` run: lint again, in the order the facts flow, the files
whose questions about other modules have other answers now that every module is known.

The run lints its files with the modules a file imports first
(:func:`jaxlint.cli.project_run.dependency_order`), so what a module asks of the
modules it imports (``function``, ``class``, ``value``) is answered on the first lint,
except inside an import cycle. What flows the other way, which traced functions of
other modules call this module's functions (``callers``), is known only once the
importing modules are linted: such a module is linted again here. Its lint may change
what it tells the modules it imports in turn (a helper of a helper), so the files are
visited importers first, each one checked when it is reached, against the answers as
they are at that moment: a chain of traced helpers is settled in one sweep, each file
linted at most once more. Sweeps repeat until one lints nothing (the fixpoint, which is
what the cache then holds), at most :data:`MAX_SWEEPS` times.

With a pool, the files found stale at the start are linted again in the pool when there
are many; the sweeps that follow run in this process.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from jaxlint.analysis.project import answers_changed
from jaxlint.cli import project_run

if TYPE_CHECKING:
    from jaxlint.cache import Cache
    from jaxlint.cli.checking import RunState
    from jaxlint.config import ConfigResolver

MAX_SWEEPS = 16
"""A bound on the sweeps (each one lints again only files whose answers changed; a
project whose answers never settle stops here)."""
POOL_AT_LEAST = 8
"""Stale files per worker from which the first re-check runs in the pool."""


def importers_first(names: list[str]) -> list[str]:
    """``names`` with the modules that import a module before it (the reverse of the
    run's lint order; a cycle is broken where it is met)."""
    tasks = [(Path(name),) for name in names]
    return [names[i] for i in reversed(project_run.dependency_indices(tasks))]


def recheck(
    resolver: ConfigResolver,
    args: argparse.Namespace,
    state: RunState,
    fixing: bool,
    cache: Cache | None,
    jobs: int = 1,
) -> None:
    from jaxlint.cli.checking import task_size, timed
    from jaxlint.cli.pool import check_in_pool
    from jaxlint.parallel import should_parallelize

    run = project_run.current()
    if run is None:
        return
    run.store.merge(state.summaries)
    state.summaries = {}
    if not any(state.project_queries.values()):
        return
    if jobs > 1:
        with timed(state, "project: check answers"):
            stale = project_run.stale_files(run, state.project_queries)
        tasks = [(Path(name),) for name in stale]
        sizes = [task_size(t) for t in tasks]
        if not stale:
            return  # the fixpoint already (a run from the cache with nothing changed)
        if len(stale) >= POOL_AT_LEAST * jobs and should_parallelize(jobs, sizes):
            _forget(state, stale, args)
            check_in_pool(tasks, sizes, resolver, args, state, fixing, cache, jobs, final_round=1)
            run.store.merge(state.summaries)
            state.summaries = {}
    run.finalize()
    with timed(state, "project: order"):
        order = importers_first([n for n, q in state.project_queries.items() if q])
    for _ in range(MAX_SWEEPS):
        if not _sweep(run, order, resolver, args, state, fixing, cache):
            return


def _sweep(
    run: project_run.ProjectRun,
    order: list[str],
    resolver: ConfigResolver,
    args: argparse.Namespace,
    state: RunState,
    fixing: bool,
    cache: Cache | None,
) -> bool:
    """One pass over ``order``: each file whose recorded answers differ from the answers
    now is linted again at once (its new summary is what the files after it see).
    Whether another pass is needed: some file was linted again and some summary changed
    during this one. With no summary changed, every file's answers are still the ones it
    was checked (or linted again) with, so another pass would lint nothing; a file linted
    again for what an importer asks (``callers``) mostly publishes the summary it had."""
    from jaxlint.cli.checking import check_task, timed

    changes = run.store.changes
    relinted: list[tuple[str, RunState]] = []
    for name in order:
        queries = state.project_queries.get(name)
        if not queries:
            continue
        with timed(state, "project: check answers"):
            try:
                facts = run.facts(Path(name))
                stale = facts is None or answers_changed(facts, queries)
            except Exception:  # linted again: a failure there is reported for this file alone
                stale = True
        if not stale:
            continue
        one = state.for_worker()
        one.rules_cache = state.rules_cache
        one.fingerprints = state.fingerprints
        check_task((Path(name),), resolver, args, one, fixing, cache, lookup=False)
        state.project_queries[name] = one.project_queries.get(name, {})
        relinted.append((name, one))
    if relinted:
        _forget(state, [name for name, _ in relinted], args)
        for _, one in relinted:
            one.rules_cache = {}
            one.fingerprints = {}
            state.merge(one)
    return bool(relinted) and run.store.changes != changes


def _forget(state: RunState, names: list[str], args: argparse.Namespace) -> None:
    """Take back what the earlier lints of ``names`` reported (they are linted again)."""
    gone = set(names)
    state.diagnostics = [d for d in state.diagnostics if d.filename not in gone]
    for name in names:
        state.project_queries.pop(name, None)
        state.sources.pop(name, None)
        if getattr(args, "diff", False):
            # nothing was written: the lint again starts from the same text, and its
            # diff and fixes replace these (with --fix they were written and stay)
            state.diffs.pop(name, None)
            counts = state.fixed_by_file.pop(name, None)
            if counts:
                state.fixed_total -= sum(counts.values())
    if state.timings is not None:
        state.timings.files_relinted += len(names)
