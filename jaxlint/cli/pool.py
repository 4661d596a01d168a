"""The process pool of ``jaxlint check``: tasks checked in worker processes by
:func:`jaxlint.cli.checking.check_task`, their results merged in task order."""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jaxlint.cache import Cache
from jaxlint.cli import common, project_run
from jaxlint.cli.checking import RunState, check_task
from jaxlint.cli.common import one_line
from jaxlint.config import ConfigResolver
from jaxlint.parallel import run_parallel
from jaxlint.timings import Timings

if TYPE_CHECKING:
    from jaxlint.cli.progress import Progress


@dataclass
class _WorkerContext:
    args: argparse.Namespace
    resolver: ConfigResolver
    cache_root: Path | None
    fixing: bool
    timed: bool
    run_files: tuple[Path, ...] = ()
    """The files of the run (their summaries come from their lint, not a parse)."""
    run_id: str = ""
    summaries: dict[str, tuple[str, dict[str, Any]]] | None = None
    """The parent's summaries, for the end-of-run re-check (then every one may be made)."""
    summary_root: Path | None = None
    """Where the workers share module summaries when the run has no cache (--no-cache)."""


def _work(ctx: _WorkerContext, paths: tuple[Path, ...]) -> RunState:
    """One task in a worker process: the file's results, to be merged by the parent."""
    state = RunState(timings=Timings() if ctx.timed else None)
    cache = Cache(ctx.cache_root) if ctx.cache_root is not None else None

    def make() -> project_run.ProjectRun:
        shared = cache if ctx.summary_root is None else Cache(ctx.summary_root)
        made = project_run.ProjectRun(shared, ctx.run_files, ctx.resolver.for_path(None))
        if ctx.summaries is not None:
            made.store.merge(ctx.summaries)
            made.finalize()
            made.new_summaries()  # the parent has these
        return made

    run = project_run.ensure(ctx.run_id, make)
    check_task(paths, ctx.resolver, ctx.args, state, ctx.fixing, cache, lookup=False)
    state.summaries = run.new_summaries()
    state.rules_cache.clear()
    state.fingerprints.clear()
    return state


def check_in_pool(
    tasks: list[tuple[Path, ...]],
    sizes: list[int],
    resolver: ConfigResolver,
    args: argparse.Namespace,
    state: RunState,
    fixing: bool,
    cache: Cache | None,
    jobs: int,
    progress: Progress | None = None,
    final_round: int = 0,
) -> None:
    """Check ``tasks`` in ``jobs`` processes; merge the results in task order.

    ``final_round`` > 0: the end-of-run re-check (cli/project_run.py): the workers
    start from every summary the run holds and may make the missing ones."""
    results: dict[int, RunState] = {}

    def on_result(index: int, result: RunState) -> None:
        results[index] = result
        if progress is not None:
            progress.advance()

    def on_crash(index: int, why: str) -> None:
        failed = state.for_worker()
        for path in tasks[index]:
            failed.io_errors.append(f"{path}: internal error: {why} while checking this file")
        results[index] = failed
        if progress is not None:
            progress.advance()

    def on_error(index: int, message: str, detail: str) -> None:
        if args.show_internal_tracebacks:
            print(detail, file=sys.stderr)
        failed = state.for_worker()
        for path in tasks[index]:
            failed.io_errors.append(f"{path}: internal error: {one_line(message)}")
        results[index] = failed
        if progress is not None:
            progress.advance()

    run = project_run.current()
    context = _WorkerContext(
        args,
        resolver,
        cache.root if cache is not None else None,
        fixing,
        args.timings,
        tuple(Path(p) for p in sorted(run.store.run_files)) if run is not None else (),
        f"{id(run)}:{final_round}",
        dict(run.store.by_path) if run is not None and final_round else None,
        run.summary_root if run is not None else None,
    )
    # Load the linting machinery once here: forked workers inherit it instead of each
    # importing libcst and the rules again.
    import jaxlint.engine
    import jaxlint.fixers.fixpoint  # noqa: F401

    common.all_rules()
    # the modules a file imports first: a worker then finds most of the summaries it asks
    # for (published to the cache folder by the other workers) and fewer files are linted
    # again at the end
    # and a module is handed out once the modules it imports are linted (the end-of-run
    # re-check has every summary already)

    largest_first, waits = project_run.dependency_plan(tasks)
    state.processes = max(state.processes, min(jobs, len(tasks)))
    sys.stdout.flush()
    sys.stderr.flush()
    run_parallel(
        tasks,
        _work,
        context,
        jobs,
        on_result,
        on_crash,
        on_error,
        largest_first,
        waits if not final_round else None,
    )
    for index in range(len(tasks)):
        if index in results:
            state.merge(results[index])
