"""The work of ``jaxlint check`` per file: the cache, lint, the fix loop and writing
fixed files back (the process pool is ``cli/pool.py``). Results go into a :class:`RunState`, merged in
file order."""

from __future__ import annotations

import argparse
import contextlib
import difflib
import os
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jaxlint.cache import (
    CACHE_ENV,
    Cache,
    CachedResult,
    NotACacheError,
    default_cache_dir,
    entry_key,
    settings_fingerprint,
)
from jaxlint.cli import common, project_run
from jaxlint.cli.common import UsageError, one_line
from jaxlint.config import ConfigResolver, Settings, above_max_file_size
from jaxlint.diagnostics import Diagnostic, Position
from jaxlint.gc_pause import gc_paused
from jaxlint.notebook import is_notebook
from jaxlint.prefilter import mentions_jax
from jaxlint.source import (
    NOT_ROUND_TRIP,
    DecodeError,
    NotFixedError,
    SourceError,
    SourceFile,
    encode_source,
    read_source,
    round_trips,
    write_atomic,
)
from jaxlint.timings import Timings

if TYPE_CHECKING:
    from jaxlint.engine import FileResult, InternalError
    from jaxlint.notebook import Notebook
    from jaxlint.rules.base import Rule


@dataclass
class RunState:
    diagnostics: list[Diagnostic] = field(default_factory=list)
    sources: dict[str, str] = field(default_factory=dict)
    io_errors: list[str] = field(default_factory=list)
    internal_errors: list[InternalError] = field(default_factory=list)
    fixed_total: int = 0
    fixed_by_file: dict[str, dict[str, int]] = field(default_factory=dict)
    changed_files: int = 0
    diffs: dict[str, str] = field(default_factory=dict)
    """File name -> the diff of its fixes (``--diff``): one per file, however often it is
    linted (the end-of-run re-check lints files again)."""
    notes: list[str] = field(default_factory=list)
    unsafe_files: set[str] = field(default_factory=set)
    """Files whose settings enable unsafe fixes."""
    rules_cache: dict[int, tuple[Settings, list[type[Rule]]]] = field(default_factory=dict)
    """id(settings) -> (settings, its enabled rules); holding the settings keeps the id valid."""
    fingerprints: dict[tuple[int, str, bool], str] = field(default_factory=dict)
    """(id(settings), per-file ignores, want_fixes) -> the cache's settings fingerprint."""
    timings: Timings | None = None
    cache_hits: int = 0
    cache_misses: int = 0
    processes: int = 1
    project_queries: dict[str, dict[str, Any]] = field(default_factory=dict)
    """File -> what it asked of its project's other modules, and the answers it got."""
    summaries: dict[str, tuple[str, dict[str, Any]]] = field(default_factory=dict)
    """Module summaries made in a worker process, for the parent's project view."""
    docs_url: str | None = None
    """The run's ``docs-url`` (the configuration of the current folder, or ``--config``),
    for the links of the report (``jaxlint/output/urls.py``)."""

    def merge(self, other: RunState) -> None:
        """Add one file's (or one worker's) results; called in file order."""
        self.diagnostics.extend(other.diagnostics)
        self.sources.update(other.sources)
        self.io_errors.extend(other.io_errors)
        self.internal_errors.extend(other.internal_errors)
        self.fixed_total += other.fixed_total
        for name, counts in other.fixed_by_file.items():
            add_fix_counts(self, name, counts, total=False)
        self.changed_files += other.changed_files
        self.diffs.update(other.diffs)
        self.notes.extend(other.notes)
        self.unsafe_files |= other.unsafe_files
        self.cache_hits += other.cache_hits
        self.cache_misses += other.cache_misses
        self.project_queries.update(other.project_queries)
        self.summaries.update(other.summaries)
        if self.timings is not None and other.timings is not None:
            self.timings.merge(other.timings)

    def for_worker(self) -> RunState:
        """An empty state for one task, timed if this one is."""
        return RunState(timings=Timings() if self.timings is not None else None)


def timed(state: RunState, phase: str) -> contextlib.AbstractContextManager[None]:
    t = state.timings
    return contextlib.nullcontext() if t is None else t.measure(phase)


def tasks_for(files: Sequence[Path], fixing: bool) -> list[tuple[Path, ...]]:
    """One task per file; when fixing, paths that reach the same file form one task,
    so that no two processes write the same file at once."""
    if not fixing:
        return [(path,) for path in files]
    groups: dict[str, list[Path]] = {}
    for path in files:
        groups.setdefault(os.path.realpath(path), []).append(path)
    return [tuple(group) for group in groups.values()]


def task_size(paths: Sequence[Path]) -> int:
    total = 0
    for path in paths:
        try:
            total += os.stat(path).st_size
        except (OSError, ValueError):
            pass
    return total


def check_task(
    paths: Sequence[Path],
    resolver: ConfigResolver,
    args: argparse.Namespace,
    state: RunState,
    fixing: bool,
    cache: Cache | None,
    lookup: bool,
) -> None:
    for path in paths:
        settings = resolver.for_path(path)  # a bad configuration stops the run (exit 2)
        try:
            _check_file(path, settings, args, state, fixing, cache, lookup)
        except Exception as exc:  # one file's failure is reported; the run goes on
            if args.show_internal_tracebacks:
                traceback.print_exc()
            state.io_errors.append(unexpected(str(path), exc))


# -- the cache ------------------------------------------------------------------------------


def open_cache(args: argparse.Namespace, resolver: ConfigResolver, state: RunState) -> Cache | None:
    root = args.cache_dir
    chosen = root is not None or bool(os.environ.get(CACHE_ENV))
    if root is None:
        root = default_cache_dir(resolver.for_path(None).root)
    try:
        cache = Cache.open(root)
    except NotACacheError as exc:
        if chosen:  # the user named it: a clear error, exit 2, nothing written into it
            source = "--cache-dir" if args.cache_dir is not None else f"${CACHE_ENV}"
            raise UsageError(f"{source}: {exc}") from None
        state.notes.append(f"{exc}; running without a cache")
        return None
    if cache is None:
        state.notes.append(f"{root}: cannot create the cache folder; running without a cache")
    return cache


def _cache_key(
    text: str, path: Path, settings: Settings, args: argparse.Namespace, state: RunState
) -> str:
    want_fixes = args.output_format in ("json", "sarif")
    ignores = ",".join(settings.file_ignores(path))
    slot = (id(settings), ignores, want_fixes)
    fingerprint = state.fingerprints.get(slot)
    if fingerprint is None:
        fingerprint = settings_fingerprint(settings, path, want_fixes)
        state.fingerprints[slot] = fingerprint
    return entry_key(text, path, fingerprint)


def take_from_cache(
    tasks: list[tuple[Path, ...]],
    resolver: ConfigResolver,
    args: argparse.Namespace,
    state: RunState,
    fixing: bool,
    cache: Cache,
) -> list[tuple[Path, ...]]:
    """Take every file the cache can answer for; return the tasks still to run.

    When fixing, only entries with no findings are used: a cached finding's fix
    would be applied to text the fix loop has not seen, so such files are linted.
    """
    todo: list[tuple[Path, ...]] = []
    for paths in tasks:
        if len(paths) != 1:
            todo.append(paths)
            continue
        path = paths[0]
        if is_notebook(path):  # the cache is asked about the notebook's cells, later
            todo.append(paths)
            continue
        try:
            with timed(state, "read files"):
                source = read_source(path)
        except Exception:  # reported when the file is checked
            todo.append(paths)
            continue
        settings = resolver.for_path(path)
        jax_named = mentions_jax(source.text, settings.prefilter_words)
        with timed(state, "cache"):
            key = _cache_key(source.text, path, settings, args, state)
            hit = cache.get(key, str(path))
        if not jax_named and hit is None:
            # the prefilter: never parsed, no findings, nothing to fix, and no entry
            # unless traced code of another module calls it (then it was linted and its
            # entry says so); that question is asked again at the end of the run
            _prefiltered(path, settings, state)
            continue
        if hit is None or (fixing and hit.diagnostics):
            state.cache_misses += 1
            todo.append(paths)
            continue
        state.cache_hits += 1
        if state.timings is not None:
            state.timings.files_from_cache += 1
        if settings.unsafe_fixes:
            state.unsafe_files.add(str(path))
        if hit.queries:  # checked at the end of the run (project_run.stale_files)
            state.project_queries[str(path)] = hit.queries
        run = project_run.current()
        if run is not None:
            run.preload(path, source.text)
        state.diagnostics.extend(hit.diagnostics)
        if hit.diagnostics:
            state.sources[str(path)] = source.text
    return todo


def _prefiltered(path: Path, settings: Settings, state: RunState) -> None:
    """A file that never mentions JAX, not linted: what it assumed (no traced function of
    another module calls it) is recorded, so the end of the run lints it when that
    changes (:func:`jaxlint.engine._involves_jax`)."""
    if state.timings is not None:
        state.timings.files_prefiltered += 1
    if settings.unsafe_fixes:
        state.unsafe_files.add(str(path))
    run = project_run.current()
    facts = run.facts(path) if run is not None else None
    if facts is not None and facts.callers:
        state.project_queries[str(path)] = {f"callers:{facts.module.name}": []}


def unexpected(name: str, exc: Exception) -> str:
    return f"{name}: internal error: {one_line(f'{type(exc).__name__}: {exc}')}"


def _rules_for(settings: Settings, state: RunState) -> list[type[Rule]]:
    cached = state.rules_cache.get(id(settings))
    if cached is None or cached[0] is not settings:
        cached = (settings, settings.enabled_rules(common.all_rules()))
        state.rules_cache[id(settings)] = cached
    return cached[1]


def _lint(
    text: str,
    name: str,
    settings: Settings,
    path: Path | None,
    want_fixes: bool,
    state: RunState,
):
    from jaxlint.engine import lint_text

    rules = _rules_for(settings, state)
    run = project_run.current()
    facts = run.facts(path) if run is not None else None
    result = lint_text(
        text,
        name,
        settings,
        rules,
        want_fixes=want_fixes,
        path=path,
        timings=state.timings,
        project=facts,
        tree=run.take_tree(name, text) if run is not None else None,
        keep_tree=run.tree_keeper(name, text) if facts is not None else None,
    )
    if facts is not None:  # the last lint of a file is of its final text
        state.project_queries[name] = facts.queries
    return result


StoreFn = Callable[[str, "FileResult"], None]
"""Puts the final lint result of a text into the cache."""


def _check_file(
    path: Path,
    settings: Settings,
    args: argparse.Namespace,
    state: RunState,
    fixing: bool,
    cache: Cache | None = None,
    lookup: bool = True,
) -> None:
    if too_large(path, settings, state):
        return
    if is_notebook(path):
        check_notebook(path, settings, args, state, fixing, cache)
        return
    name = str(path)
    try:
        with timed(state, "read files"):
            source = read_source(path)
    except SourceError as exc:
        state.io_errors.append(str(exc))
        return
    except DecodeError as exc:
        from jaxlint.engine import parse_error_diagnostic

        state.diagnostics.append(parse_error_diagnostic(name, str(exc), exc.row, exc.column))
        return
    except MemoryError:
        state.io_errors.append(f"{name}: file too large to read")
        return
    identity = source.identity
    if fixing and identity and not round_trips(source.text, source.encoding, identity.digest):
        # reported with its findings; a fix (or --diff) would rewrite every line
        state.io_errors.append(f"{path}: {NOT_ROUND_TRIP.format(encoding=source.encoding)}")
        fixing = False
    store: StoreFn | None = None
    if cache is not None:
        if lookup:
            with timed(state, "cache"):
                hit = cache.get(_cache_key(source.text, path, settings, args, state), name)
            if hit is not None and not (fixing and hit.diagnostics):
                state.cache_hits += 1
                if state.timings is not None:
                    state.timings.files_from_cache += 1
                if settings.unsafe_fixes:
                    state.unsafe_files.add(name)
                if hit.queries:
                    state.project_queries[name] = hit.queries
                state.diagnostics.extend(hit.diagnostics)
                if hit.diagnostics:
                    state.sources[name] = source.text
                return
            state.cache_misses += 1

        # A file that never mentions JAX comes here when traced code of another module
        # calls it, or called it when its entry was made: its entry is written either way
        # (take_from_cache reads entries before the prefilter, and skips files with none).
        def store(text: str, result: FileResult) -> None:
            with timed(state, "cache"):
                key = _cache_key(text, path, settings, args, state)
                cache.put(key, CachedResult(result.diagnostics, state.project_queries.get(name)))

    if state.timings is not None:
        state.timings.files_linted += 1
    mark = _Mark.of(state, name)
    with gc_paused():
        new_text = process_text(source.text, name, settings, path, args, state, fixing, store=store)
    if new_text is not None and new_text != source.text:
        if args.diff:
            state.diffs[name] = unified_diff(source.text, new_text, name)
        else:
            with timed(state, "write fixed files"):
                written = _write_back(path, source, new_text, state)
            if not written:  # report the file as it is: its findings, no fixes
                mark.undo(state, name)
                with gc_paused():
                    process_text(source.text, name, settings, path, args, state, False)


def too_large(path: Path, settings: Settings, state: RunState) -> bool:
    """A file above ``max-file-size`` is skipped, with a warning that says how to check it
    (linting needs about 900 bytes of memory per byte of source: docs/performance.md).
    Notebooks are not: their size is mostly outputs, not code."""
    limit = settings.max_file_size
    if not limit or is_notebook(path):
        # a notebook's size is mostly its outputs (images): its code cells are small
        return False
    try:
        size = os.stat(path).st_size
    except OSError:
        return False  # reading it reports the error
    why = above_max_file_size(size, limit)
    if why is None:
        return False
    state.notes.append(f"{path}: skipped: {why}")
    return True


@dataclass
class _Mark:
    """Where one file's results start in a :class:`RunState`, to take them back when its
    fixed text could not be written (the summary, ``--show-fixes`` and reports count only
    fixes that were written)."""

    diagnostics: int
    notes: int
    fixed: dict[str, int] | None
    """The file's fix counts before (from an earlier lint in the run, whose fixes were
    written)."""

    @classmethod
    def of(cls, state: RunState, name: str) -> _Mark:
        before = state.fixed_by_file.get(name)
        return cls(len(state.diagnostics), len(state.notes), dict(before) if before else None)

    def undo(self, state: RunState, name: str) -> None:
        counts = state.fixed_by_file.pop(name, None)
        if counts:
            state.fixed_total -= sum(counts.values())
        if self.fixed:
            add_fix_counts(state, name, self.fixed)
        del state.diagnostics[self.diagnostics :]
        del state.notes[self.notes :]
        for key in [k for k in state.sources if k == name or k.startswith(f"{name}:cell ")]:
            del state.sources[key]  # a notebook's cells are keyed ``name:cell N``


def process_text(
    text: str,
    name: str,
    settings: Settings,
    path: Path | None,
    args: argparse.Namespace,
    state: RunState,
    fixing: bool,
    store: StoreFn | None = None,
    keep_fix: Callable[[str, Diagnostic], bool] | None = None,
    where: Callable[[int, int], str] | None = None,
) -> str | None:
    """Lint (and fix) one text; record diagnostics; return the fixed text if fixing.

    ``store`` gets the final text's lint result for the cache (not if a rule crashed).
    ``keep_fix(text, diagnostic)`` says whether the fix loop may apply a diagnostic's fix
    (a notebook's fixes must stay inside one cell); ``where(row, column)`` names a
    position in the notes (default ``name:row:column``).
    """
    want_fixes = args.output_format in ("json", "sarif")
    unsafe = settings.unsafe_fixes
    if unsafe:
        state.unsafe_files.add(name)
    final_text = text
    # the fix loop's last lint is of the final text: it need not be linted once more
    last: list[tuple[str, FileResult]] = []
    if fixing:
        from jaxlint.fixers.fixpoint import fix_text

        errors: list[InternalError] = []

        def lint_for_fix(t: str) -> list[Diagnostic]:
            result = _lint(t, name, settings, path, True, state)
            errors.extend(result.internal_errors)
            if keep_fix is not None:
                for diag in result.diagnostics:
                    if diag.fix is not None and not keep_fix(t, diag):
                        diag.fix = None
            last[:] = [(t, result)]
            return result.diagnostics

        with timed(state, "fix loop (apply edits, re-parse)"):
            outcome = fix_text(text, lint_for_fix, unsafe=unsafe)
        final_text = outcome.text
        if outcome.total_applied:
            add_fix_counts(state, name, outcome.applied)
        for dropped in outcome.dropped:
            at = (
                where(dropped.row, dropped.column)
                if where
                else f"{name}:{dropped.row}:{dropped.column}"
            )
            state.notes.append(f"{at}: fix for {dropped.code} not applied: {dropped.reason}")
        if not outcome.converged:
            state.notes.append(f"{name}: fixes did not converge after {outcome.iterations} passes")
        _add_internal(state, errors)
    if last and last[0][0] == final_text:
        result = last[0][1]
        if not want_fixes:
            for diag in result.diagnostics:
                diag.fix = None  # as a lint without fixes would report it
    else:
        result = _lint(final_text, name, settings, path, want_fixes, state)
    _add_internal(state, result.internal_errors)
    if store is not None and not result.internal_errors:
        store(final_text, result)
    state.diagnostics.extend(result.diagnostics)
    if result.diagnostics:
        state.sources[name] = final_text
    return final_text if fixing else None


def add_fix_counts(state: RunState, name: str, applied: dict[str, int], total: bool = True) -> None:
    """Count fixes applied to ``name`` (added to those of an earlier lint of the same run:
    a file fixed and written, then linted again at the end, keeps both)."""
    counts = state.fixed_by_file.setdefault(name, {})
    for code, n in applied.items():
        counts[code] = counts.get(code, 0) + n
    if total:
        state.fixed_total += sum(applied.values())


def _add_internal(state: RunState, errors: list[InternalError]) -> None:
    seen = {(e.filename, e.rule_code) for e in state.internal_errors}
    for e in errors:
        if (e.filename, e.rule_code) not in seen:
            seen.add((e.filename, e.rule_code))
            state.internal_errors.append(e)


def _write_back(path: Path, source: SourceFile, new_text: str, state: RunState) -> bool:
    """Write the fixed text; False (and an error) when it was not written."""
    try:
        data = encode_source(new_text, source.encoding)
    except UnicodeEncodeError as exc:
        state.io_errors.append(f"{path}: fixed text cannot be encoded as {source.encoding}: {exc}")
        return False
    try:
        write_atomic(path, data, source.mode, expect=source.identity)
    except NotFixedError as exc:
        state.io_errors.append(str(exc))
        return False
    except OSError as exc:
        state.io_errors.append(f"{path}: cannot write fixes: {exc.strerror or exc}")
        return False
    state.changed_files += 1
    return True


def _diff_lines(text: str) -> list[str]:
    """Lines as ``patch`` and ``git apply`` see them: split at ``\\n`` only (not at the
    form feeds and other separators ``str.splitlines`` knows), ends kept."""
    lines = [line + "\n" for line in text.split("\n")]
    lines[-1] = lines[-1][:-1]
    return lines if lines[-1] else lines[:-1]


def unified_diff(old: str, new: str, name: str) -> str:
    out = []
    for line in difflib.unified_diff(
        _diff_lines(old), _diff_lines(new), fromfile=f"a/{name}", tofile=f"b/{name}"
    ):
        if not line.endswith("\n"):
            line += "\n\\ No newline at end of file\n"
        out.append(line)
    return "".join(out)


# -- notebooks -----------------------------------------------------------------------------


def check_notebook(
    path: Path,
    settings: Settings,
    args: argparse.Namespace,
    state: RunState,
    fixing: bool,
    cache: Cache | None = None,
) -> None:
    """Lint (and fix) a notebook's Python cells as one module; findings in cell coordinates.

    A notebook jaxlint cannot read (invalid JSON, nbformat 3, a cell without ``source``)
    is an error (exit 2) and is never written."""
    from jaxlint import notebook as nb

    name = str(path)
    try:
        with timed(state, "read files"):
            book = nb.read_notebook(path)
    except SourceError as exc:
        state.io_errors.append(str(exc))
        return
    except nb.NotebookError as exc:
        state.io_errors.append(f"{name}: {exc}")
        return
    mark = _Mark.of(state, name)
    try:
        changed = lint_notebook(book, name, path, settings, args, state, fixing, cache)
    except nb.NotebookError as exc:
        state.io_errors.append(f"{name}: {exc}")
        return
    if not changed:
        return
    if args.diff:  # one entry per file (the summary counts files), a diff per cell
        state.diffs[name] = notebook_diff(book, changed, name)
        return
    with timed(state, "write fixed files"):
        try:
            write_atomic(path, book.with_sources(changed), None, expect=book.identity)
        except NotFixedError as exc:
            state.io_errors.append(str(exc))
        except OSError as exc:
            state.io_errors.append(f"{path}: cannot write fixes: {exc.strerror or exc}")
        else:
            state.changed_files += 1
            return
    mark.undo(state, name)  # not written: report the notebook as it is
    lint_notebook(book, name, path, settings, args, state, False, None)


def notebook_diff(book: Notebook, changed: dict[int, str], name: str) -> str:
    """A unified diff per changed cell, headed ``a/nb.ipynb:cell 3`` (as ruff shows it)."""
    from jaxlint.notebook import cell_key

    old = {cell.number: cell.text for cell in book.cells}
    return "".join(
        unified_diff(old[number], changed[number], cell_key(name, number))
        for number in sorted(changed)
    )


def lint_notebook(
    book: Notebook,
    name: str,
    path: Path | None,
    settings: Settings,
    args: argparse.Namespace,
    state: RunState,
    fixing: bool,
    cache: Cache | None = None,
) -> dict[int, str]:
    """Lint (and fix) ``book``; record its findings in cell coordinates; return the new
    text of each cell the fixes changed (cell number -> text)."""
    from jaxlint import notebook as nb

    module = book.module()
    if module is None:
        return {}  # no Python cells (a markdown-only or non-Python notebook)
    sub = state.for_worker()
    sub.rules_cache = state.rules_cache
    sub.fingerprints = state.fingerprints
    text = module.text
    store: StoreFn | None = None
    hit_diagnostics: list[Diagnostic] | None = None
    if cache is not None and path is not None and mentions_jax(text, settings.prefilter_words):
        with timed(state, "cache"):
            key = _cache_key(text, path, settings, args, state)
            hit = cache.get(key, name)  # (take_from_cache leaves notebooks to this)
        if hit is not None and not (fixing and hit.diagnostics):
            state.cache_hits += 1
            if state.timings is not None:
                state.timings.files_from_cache += 1
            hit_diagnostics = hit.diagnostics
        else:
            state.cache_misses += 1

            def store(final: str, result: FileResult) -> None:
                with timed(state, "cache"):
                    cache.put(
                        _cache_key(final, path, settings, args, state),
                        CachedResult(result.diagnostics),
                    )

    final_text = text
    if hit_diagnostics is not None:
        if settings.unsafe_fixes:
            sub.unsafe_files.add(name)
        sub.diagnostics.extend(hit_diagnostics)
    else:
        if state.timings is not None:
            state.timings.files_linted += 1

        def keep(t: str, diag: Diagnostic) -> bool:
            return nb.keep_fix(module.index(t), diag.fix)

        def where(row: int, column: int) -> str:
            index = module.index(text)
            if index is None:
                return name
            at = index.locate(Position(row, column))
            return f"{nb.cell_key(name, at.cell)}:{at.row}:{at.column}"

        with gc_paused():
            new_text = process_text(
                text,
                name,
                settings,
                path,
                args,
                sub,
                fixing,
                store=store,
                keep_fix=keep,
                where=where,
            )
        if new_text is not None:
            final_text = new_text
    index = module.index(final_text)
    cells = module.cell_texts(final_text)
    if index is None or cells is None:
        state.io_errors.append(
            f"{name}: internal error: the fixes changed the notebook's cell boundaries or"
            " IPython lines; the notebook was not written"
        )
        return {}
    diagnostics = []
    for diag in sub.diagnostics:
        if diag.fix is not None and not nb.keep_fix(index, diag.fix):
            diag.fix = None
        diagnostics.append(nb.to_cells(diag, index))
    sub.diagnostics = diagnostics
    # sources[name] keeps the joined module (--add-noqa checks that the file is unchanged)
    if diagnostics:
        for number, cell_text in cells.items():
            sub.sources[nb.cell_key(name, number)] = cell_text
    state.merge(sub)
    if not fixing or final_text == text:
        return {}
    old_cells = module.cell_texts()
    assert old_cells is not None
    return {n: t for n, t in cells.items() if t != old_cells[n]}
