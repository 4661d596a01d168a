"""``jaxlint check``: lint (and fix) files, folders or stdin, and report.

The work per file (cache, pool, lint, fix loop, write back) is in
:mod:`jaxlint.cli.checking`; the report (findings, diffs, summary, exit code) in
:mod:`jaxlint.cli.report`.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from hashlib import sha256
from pathlib import Path

from jaxlint.cli import checking, project_order, project_run
from jaxlint.cli.checking import (
    RunState,
    check_task,
    open_cache,
    take_from_cache,
    task_size,
    tasks_for,
    timed,
    unexpected,
    unified_diff,
)
from jaxlint.cli.common import UsageError, cache_dir, jobs_count, per_file_ignores, selector_list
from jaxlint.cli.noqa_add import add_noqa
from jaxlint.cli.pool import check_in_pool
from jaxlint.cli.progress import Progress
from jaxlint.cli.report import finish
from jaxlint.config import ConfigError, ConfigResolver, Settings, check_selector, inline_config
from jaxlint.discovery import discover
from jaxlint.gc_pause import gc_paused
from jaxlint.notebook import NotebookError, is_notebook, parse_notebook
from jaxlint.output import FORMATS, STATISTICS_FORMATS
from jaxlint.output.urls import environment_docs_url
from jaxlint.parallel import available_cores, jobs_within_budget, should_parallelize
from jaxlint.source import NOT_ROUND_TRIP, DecodeError, decode_source, encode_source, round_trips
from jaxlint.timings import Timings
from jaxlint.versions import parse_version


def add_parser(sub: argparse._SubParsersAction) -> None:
    check = sub.add_parser("check", help="lint files (default command)")
    check.add_argument("paths", nargs="*", help="files or folders (default: .); '-' reads stdin")
    check.add_argument("--fix", action="store_true", help="apply safe fixes")
    check.add_argument(
        "--unsafe-fixes",
        action="store_const",
        const=True,
        default=None,
        help="also apply (and offer) unsafe fixes",
    )
    check.add_argument(
        "--no-unsafe-fixes",
        dest="unsafe_fixes",
        action="store_const",
        const=False,
        help="never apply unsafe fixes, whatever the config says",
    )
    check.add_argument(
        "--diff", action="store_true", help="print the fixes as a diff; write nothing"
    )
    check.add_argument("--show-fixes", action="store_true", help="list the fixes applied")
    check.add_argument(
        "--exit-non-zero-on-fix", action="store_true", help="exit 1 if any file was fixed"
    )
    check.add_argument("--exit-zero", action="store_true", help="exit 0 even with findings")
    check.add_argument(
        "--select",
        type=selector_list,
        action="extend",
        help="comma-separated code prefixes to check (replaces the config's select)",
    )
    check.add_argument(
        "--extend-select",
        type=selector_list,
        default=[],
        action="extend",
        help="code prefixes to check in addition",
    )
    check.add_argument(
        "--ignore", type=selector_list, default=[], action="extend", help="code prefixes to skip"
    )
    check.add_argument(
        "--extend-ignore",
        dest="ignore",
        type=selector_list,
        action="extend",
        help="the same as --ignore (both add to the config's ignore)",
    )
    check.add_argument(
        "--per-file-ignores",
        type=per_file_ignores,
        default=[],
        action="extend",
        metavar="GLOB:CODES",
        help="codes to skip in matching files, e.g. 'tests/*:JAX302,JAX6' (globs relative to"
        " the current folder; added to the config's per-file-ignores)",
    )
    check.add_argument(
        "--exclude",
        type=selector_list,
        action="extend",
        metavar="GLOBS",
        help="comma-separated globs to skip (replaces the config's exclude and the defaults)",
    )
    check.add_argument(
        "--extend-exclude",
        type=selector_list,
        default=[],
        action="extend",
        metavar="GLOBS",
        help="comma-separated globs to skip in addition",
    )
    check.add_argument(
        "--force-exclude",
        action="store_true",
        help="apply excludes to files named on the command line too (pre-commit)",
    )
    check.add_argument("--statistics", action="store_true", help="count findings per code")
    check.add_argument(
        "--add-noqa",
        action="store_true",
        help="add `# noqa: CODE` to every line with a finding (keeps existing noqa codes)",
    )
    check.add_argument(
        "--config",
        action="append",
        default=[],
        metavar="FILE | KEY=VALUE",
        help="a jaxlint.toml or pyproject.toml to use, or a TOML 'KEY = VALUE' pair that"
        " overrides a setting of every config (repeatable)",
    )
    check.add_argument("--target-jax", help="the JAX version to check against, e.g. 0.4.26")
    check.add_argument("--no-cache", action="store_true", help="do not read or write the cache")
    check.add_argument(
        "--cache-dir",
        type=cache_dir,
        help="where to keep the cache (default: $JAXLINT_CACHE_DIR, else .jaxlint_cache"
        " in the project root)",
    )
    check.add_argument(
        "-j",
        "--jobs",
        type=jobs_count,
        default=0,
        help="worker processes (default 0: one per available core; 1: no pool)",
    )
    check.add_argument(
        "--timings",
        action="store_true",
        help="print the time per phase and per rule, summed over files (on stderr)",
    )
    check.add_argument("--stdin-filename", help="the file name to report for stdin")
    check.add_argument("--output-format", choices=FORMATS, default="text")
    check.add_argument(
        "-q", "--quiet", action="store_true", help="print findings and errors, nothing else"
    )
    check.add_argument(
        "-s",
        "--silent",
        action="store_true",
        help="print nothing (the exit code still says whether there are findings)",
    )
    check.add_argument(
        "--color",
        choices=("auto", "always", "never"),
        default="auto",
        help="colour the text output (auto: on a terminal, unless NO_COLOR is set;"
        " FORCE_COLOR forces it)",
    )
    check.add_argument(
        "-w", "--watch", action="store_true", help="check again whenever a file changes"
    )
    check.add_argument(
        "--watch-interval", type=float, default=0.5, help=argparse.SUPPRESS
    )  # seconds between polls when watchfiles is not installed
    check.add_argument("--show-internal-tracebacks", action="store_true", help=argparse.SUPPRESS)


def _overrides(args: argparse.Namespace) -> dict[str, object]:
    for option, sels in (
        ("--select", args.select or []),
        ("--extend-select", args.extend_select),
        ("--ignore", args.ignore),
        *((f"--per-file-ignores {glob!r}", codes) for glob, codes in args.per_file_ignores),
    ):
        for sel in sels:
            check_selector(sel, option)
    target = None
    if args.target_jax is not None:
        try:
            target = parse_version(args.target_jax)
        except ValueError as exc:
            raise UsageError(f"--target-jax: {exc}") from None
    return {
        "select": args.select,
        "extend_select": args.extend_select,
        "ignore": args.ignore,
        "target_jax": target,
        "unsafe_fixes": args.unsafe_fixes,
        "exclude": args.exclude,
        "extend_exclude": args.extend_exclude,
        "per_file_ignores": args.per_file_ignores,
    }


def config_sources(values: list[str]) -> tuple[Path | None, list[dict[str, object]]]:
    """``--config`` values: at most one file, and any number of ``KEY = VALUE`` pairs
    (a value that names an existing file, or has no ``=``, is a file)."""
    files: list[Path] = []
    inline: list[dict[str, object]] = []
    for value in values:
        if os.path.exists(value) or "=" not in value:
            files.append(Path(value))
        else:
            inline.append(inline_config(value))
    if len(files) > 1:
        raise UsageError(
            f"--config: one config file at most, got {', '.join(str(f) for f in files)}"
        )
    return (files[0] if files else None), inline


def run(args: argparse.Namespace) -> int:
    if args.statistics and args.output_format not in STATISTICS_FORMATS:
        raise UsageError(
            f"--statistics cannot be combined with --output-format {args.output_format}"
            f" (use {', '.join(STATISTICS_FORMATS)})"
        )
    if args.add_noqa and (args.fix or args.diff):
        raise UsageError("--add-noqa cannot be combined with --fix or --diff")
    paths = args.paths or (["-"] if args.stdin_filename else ["."])
    if "-" in paths:
        if len(paths) > 1:
            raise UsageError("'-' (stdin) cannot be combined with other paths")
        if args.add_noqa or args.watch:
            raise UsageError("--add-noqa and --watch need files, not stdin")
    if args.watch:
        from jaxlint.cli.watch import watch

        return watch(args, paths, check_once)
    return check_once(args, paths)


def check_once(args: argparse.Namespace, paths: list[str]) -> int:
    """One ``jaxlint check`` run over ``paths`` (``["-"]``: stdin)."""
    started = time.perf_counter()
    explicit, inline = config_sources(args.config)
    resolver = ConfigResolver(explicit, _overrides(args), inline)
    fixing = args.fix or args.diff
    state = RunState(timings=Timings() if args.timings else None)
    state.docs_url = _docs_url(resolver)
    if "-" in paths:
        return _check_stdin(args, resolver, state)
    with timed(state, "discover files"):
        found = discover(paths, resolver, force_exclude=args.force_exclude)
    state.io_errors.extend(found.errors)
    if not found.files and not found.errors:
        state.notes.append("No Python files found under the given path(s)")
    for path in found.files:
        resolver.for_path(path)  # configuration errors stop the run here, before any work
    cache = None if args.no_cache else open_cache(args, resolver, state)
    run = project_run.begin(cache, found.files, resolver.for_path(None))
    tasks = tasks_for(found.files, fixing)
    if cache is not None:
        tasks = take_from_cache(tasks, resolver, args, state, fixing, cache)
    wanted = args.jobs or available_cores()
    sizes = [task_size(paths) for paths in tasks]
    jobs = jobs_within_budget(wanted, sizes, resolver.for_path(None).memory_budget)
    if jobs < wanted and should_parallelize(wanted, sizes):
        state.notes.append(
            f"using {jobs} process(es), not {wanted}: {jobs + 1} linting the largest file"
            f" ({max(sizes) / 1e6:.1f} MB) would exceed the memory budget (`memory-budget`)"
        )
    parallel = should_parallelize(jobs, sizes)
    if parallel:
        run.share()  # the workers exchange summaries (a private folder under --no-cache)
    quiet = args.quiet or args.silent
    # on stderr, and only when stdout is a terminal too: `jaxlint check | less` shows none
    shown = not quiet and _isatty(sys.stdout)
    progress = Progress(len(tasks), sys.stderr if shown else None)
    try:
        if parallel:
            check_in_pool(tasks, sizes, resolver, args, state, fixing, cache, jobs, progress)
        else:
            run.keep_trees = True  # the re-check at the end runs in this process too
            for paths in project_run.dependency_order(tasks):
                check_task(paths, resolver, args, state, fixing, cache, lookup=False)
                progress.advance()
        project_order.recheck(resolver, args, state, fixing, cache, jobs)
    finally:
        progress.close()
        project_run.end()
    if args.add_noqa:
        return add_noqa(args, state)
    return finish(args, state, fixing, wall=time.perf_counter() - started)


def _docs_url(resolver: ConfigResolver) -> str | None:
    """The run's ``docs-url``: from the configuration of the current folder (or
    ``--config FILE``), as ``memory-budget`` is. A ``$JAXLINT_DOCS_URL`` that is not an
    address stops the run here, as a bad key in the file does; a good one wins over the
    file when the links are made (``jaxlint/output/urls.py``)."""
    try:
        environment_docs_url()
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    return resolver.for_path(None).docs_url


def _isatty(stream: object) -> bool:
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty is not None and isatty())
    except (OSError, ValueError):
        return False


def _check_stdin(args: argparse.Namespace, resolver: ConfigResolver, state: RunState) -> int:
    name = args.stdin_filename or "-"
    path = Path(args.stdin_filename) if args.stdin_filename else None
    settings = resolver.for_path(path)
    data = sys.stdin.buffer.read()
    fixing = args.fix or args.diff
    if is_notebook(name):
        return _check_stdin_notebook(args, data, name, path, settings, state)
    try:
        text, encoding = decode_source(data)
    except DecodeError as exc:
        from jaxlint.engine import parse_error_diagnostic

        state.diagnostics.append(parse_error_diagnostic(name, str(exc), exc.row, exc.column))
        if args.fix and not args.diff:
            sys.stdout.buffer.write(data)
        return finish(args, state, fixing, stdout_is_code=args.fix and not args.diff)
    if fixing and not round_trips(text, encoding, sha256(data).digest()):
        # the code goes back as it came, with its findings: a fix could not be written
        state.io_errors.append(f"{name}: {NOT_ROUND_TRIP.format(encoding=encoding)}")
        fixing = False
    run = project_run.begin(None, (), settings)
    run.finalize()  # one file: the project's other modules are read or parsed on demand
    try:
        with gc_paused():
            new_text = checking.process_text(text, name, settings, path, args, state, fixing)
    except Exception as exc:
        state.io_errors.append(unexpected(name, exc))
        new_text = None
    finally:
        project_run.end()
    if args.diff:
        if new_text is not None and new_text != text:
            state.diffs[name] = unified_diff(text, new_text, name)
    elif args.fix:
        # The code goes back in its own encoding, BOM and line endings.
        out = data if new_text is None or new_text == text else encode_source(new_text, encoding)
        sys.stdout.flush()
        sys.stdout.buffer.write(out)
        sys.stdout.flush()
    return finish(args, state, fixing, stdout_is_code=args.fix and not args.diff)


def _check_stdin_notebook(
    args: argparse.Namespace,
    data: bytes,
    name: str,
    path: Path | None,
    settings: Settings,
    state: RunState,
) -> int:
    """A notebook on stdin (``--stdin-filename nb.ipynb``); with ``--fix`` the notebook
    goes to stdout (unchanged when it cannot be read)."""
    fixing = args.fix or args.diff
    to_stdout = args.fix and not args.diff
    changed: dict[int, str] = {}
    try:
        book = parse_notebook(data)
    except NotebookError as exc:
        state.io_errors.append(f"{name}: {exc}")
        book = None
    if book is not None:
        try:
            with gc_paused():
                changed = checking.lint_notebook(book, name, path, settings, args, state, fixing)
        except NotebookError as exc:
            state.io_errors.append(f"{name}: {exc}")
        except Exception as exc:
            state.io_errors.append(unexpected(name, exc))
    if args.diff and book is not None and changed:
        state.diffs[name] = checking.notebook_diff(book, changed, name)
    elif to_stdout:
        sys.stdout.flush()
        sys.stdout.buffer.write(book.with_sources(changed) if book is not None else data)
        sys.stdout.flush()
    return finish(args, state, fixing, stdout_is_code=to_stdout)
