"""The ``jaxlint`` command: ``check`` (with ``--fix``), ``rule`` and ``probe``.

Exit codes: 0 nothing found (or everything fixed), 1 findings remain (or, with
``--diff``, something would change), 2 usage, configuration, IO or internal error.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import importlib
import os
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from jaxlint import __version__
from jaxlint.cache import (
    Cache,
    CachedResult,
    default_cache_dir,
    entry_key,
    find_caches,
    remove_cache,
    settings_fingerprint,
)
from jaxlint.config import ConfigError, ConfigResolver, Settings, check_selector
from jaxlint.diagnostics import Applicability, Diagnostic
from jaxlint.discovery import discover
from jaxlint.gc_pause import gc_paused
from jaxlint.output import (
    FORMATS,
    STATISTICS_FORMATS,
    RenderOptions,
    fix_marker,
    render,
    render_statistics,
)
from jaxlint.parallel import available_cores, run_parallel, should_parallelize
from jaxlint.prefilter import mentions_jax
from jaxlint.source import (
    DecodeError,
    SourceError,
    SourceFile,
    decode_source,
    encode_source,
    read_source,
    write_atomic,
)
from jaxlint.timings import Timings
from jaxlint.versions import parse_version

if TYPE_CHECKING:
    from jaxlint.engine import FileResult, InternalError
    from jaxlint.rules.base import Rule

# The linting machinery (libcst, the rules) is imported when a file is linted, so a
# run that the cache answers entirely starts in a fraction of the time.

SUBCOMMANDS = ("check", "rule", "probe", "clean")
EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


class UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # type: ignore[override]
        raise UsageError(f"{self.prog}: {message}")


def _selector_list(text: str) -> list[str]:
    return [s.strip() for s in text.split(",") if s.strip()]


def _jobs(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of processes, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError("must be 0 (all available cores) or more")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="jaxlint",
        description="A linter for JAX code, with autofixes and runtime probes.",
    )
    parser.add_argument("--version", action="version", version=f"jaxlint {__version__}")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)

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
        type=_selector_list,
        action="extend",
        help="comma-separated code prefixes to check (replaces the config's select)",
    )
    check.add_argument(
        "--extend-select",
        type=_selector_list,
        default=[],
        action="extend",
        help="code prefixes to check in addition",
    )
    check.add_argument(
        "--ignore", type=_selector_list, default=[], action="extend", help="code prefixes to skip"
    )
    check.add_argument("--extend-exclude", type=_selector_list, default=[], action="extend")
    check.add_argument(
        "--force-exclude",
        action="store_true",
        help="apply excludes to files named on the command line too (pre-commit)",
    )
    check.add_argument("--statistics", action="store_true", help="count findings per code")
    check.add_argument("--config", type=Path, help="a jaxlint.toml or pyproject.toml to use")
    check.add_argument("--target-jax", help="the JAX version to check against, e.g. 0.4.26")
    check.add_argument("--no-cache", action="store_true", help="do not read or write the cache")
    check.add_argument(
        "--cache-dir",
        type=Path,
        help="where to keep the cache (default: $JAXLINT_CACHE_DIR, else .jaxlint_cache"
        " in the project root)",
    )
    check.add_argument(
        "-j",
        "--jobs",
        type=_jobs,
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
    check.add_argument("--show-internal-tracebacks", action="store_true", help=argparse.SUPPRESS)

    clean = sub.add_parser("clean", help="remove jaxlint's cache folders")
    clean.add_argument(
        "paths", nargs="*", help="folders to clear caches under (default: the current folder)"
    )
    clean.add_argument("--cache-dir", type=Path, help="also remove this cache folder")

    rule = sub.add_parser("rule", help="show a rule's documentation")
    rule.add_argument("code", nargs="?", help="a code (JAX602) or name (empty-not-zeros)")
    rule.add_argument("--all", action="store_true", help="list every rule")

    probe = sub.add_parser(
        "probe",
        help="run a runtime probe (env, compile, recompile, bench); runs your code",
        add_help=False,
    )
    probe.add_argument("name", nargs="?")
    probe.add_argument("args", nargs=argparse.REMAINDER)
    return parser


def all_rules() -> tuple[type[Rule], ...]:
    """Every rule (imported on first use: a run the cache answers never loads them)."""
    from jaxlint.rules import all_rules as load_rules

    return load_rules()


def find_rule(code_or_name: str) -> type[Rule] | None:
    from jaxlint.rules import find_rule as find

    return find(code_or_name)


def one_line(message: str) -> str:
    """``message`` with its line breaks and runs of whitespace folded to single spaces."""
    return " ".join(message.split())


def _normalize_argv(argv: Sequence[str]) -> list[str]:
    argv = list(argv)
    if not argv:
        return ["check"]
    if argv[0] in SUBCOMMANDS or argv[0] in ("-h", "--help", "--version"):
        return argv
    return ["check", *argv]


def _tolerant_output() -> None:
    """On a non-UTF-8 terminal, print what it cannot encode as escapes instead of crashing."""
    for stream in (sys.stdout, sys.stderr):
        encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "")
        reconfigure = getattr(stream, "reconfigure", None)
        if encoding not in ("utf8", "utf8sig") and reconfigure is not None:
            try:
                reconfigure(errors="backslashreplace")
            except (ValueError, OSError):
                pass


def main(argv: Sequence[str] | None = None) -> int:
    _tolerant_output()
    argv = _normalize_argv(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except UsageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except SystemExit as exc:  # --help / --version
        return int(exc.code or 0)
    try:
        if args.command == "rule":
            return cmd_rule(args)
        if args.command == "probe":
            return cmd_probe(args)
        if args.command == "clean":
            return cmd_clean(args)
        return cmd_check(args)
    except (ConfigError, UsageError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_ERROR
    except Exception as exc:  # a bug in jaxlint: one clear line and exit 2, not a traceback
        if getattr(args, "show_internal_tracebacks", False):
            traceback.print_exc()
        print(f"error: internal error: {one_line(f'{type(exc).__name__}: {exc}')}", file=sys.stderr)
        return EXIT_ERROR


# -- jaxlint rule ---------------------------------------------------------------------------


_FIX_LABELS = {"always": "fix: always", "sometimes": "fix: sometimes", "none": "fix: none"}


def cmd_rule(args: argparse.Namespace) -> int:
    if args.all:
        rules = all_rules()
        width = max((len(r.name) for r in rules), default=0)
        for r in rules:
            state = "" if r.default_enabled else "  (off by default)"
            print(f"{r.code}  {r.name:<{width}}  {_FIX_LABELS[r.fix_availability]}{state}")
        return EXIT_OK
    if not args.code:
        raise UsageError("jaxlint rule: give a rule code or name, or --all")
    rule = find_rule(args.code) or find_rule(args.code.strip().upper())
    if rule is None:
        rule = find_rule(args.code.strip().lower())
    if rule is None:
        known = ", ".join(r.code for r in all_rules())
        raise UsageError(f"jaxlint rule: unknown rule {args.code!r} (known: {known})")
    print(rule_markdown(rule), end="")
    return EXIT_OK


def rule_markdown(rule: type[Rule]) -> str:
    from jaxlint.docs_gen import rule_markdown as generate

    return generate(rule)


# -- jaxlint probe --------------------------------------------------------------------------


def cmd_probe(args: argparse.Namespace) -> int:
    import pkgutil

    import jaxlint.runtime_probes as probes_pkg

    available = sorted(
        m.name for m in pkgutil.iter_modules(probes_pkg.__path__) if not m.name.startswith("_")
    )
    if not args.name or args.name in ("-h", "--help"):
        print("usage: jaxlint probe NAME [ARGS...]")
        print("Runtime probes import and run your code: use them on trusted code only.")
        print(f"available probes: {', '.join(available) or 'none in this version'}")
        return EXIT_OK if args.name else EXIT_ERROR
    if args.name not in available:
        listed = ", ".join(available) or "none in this version"
        print(f"error: unknown probe {args.name!r} (available: {listed})", file=sys.stderr)
        return EXIT_ERROR
    module = importlib.import_module(f"jaxlint.runtime_probes.{args.name}")
    return int(module.main(list(args.args)))


# -- jaxlint clean --------------------------------------------------------------------------


def cmd_clean(args: argparse.Namespace) -> int:
    """Remove the cache folders jaxlint made (never a folder without its CACHEDIR.TAG)."""
    roots = [Path(p) for p in args.paths] or [Path.cwd()]
    extra = [args.cache_dir] if args.cache_dir is not None else []
    env_dir = default_cache_dir(None)
    if os.environ.get("JAXLINT_CACHE_DIR"):
        extra.append(env_dir)
    code = EXIT_OK
    for folder in find_caches([*roots, *extra]):
        try:
            remove_cache(folder)
        except OSError as exc:
            print(f"error: {folder}: cannot remove: {exc.strerror or exc}", file=sys.stderr)
            code = EXIT_ERROR
            continue
        print(f"Removing cache at: {folder}")
    return code


# -- jaxlint check --------------------------------------------------------------------------


@dataclass
class RunState:
    diagnostics: list[Diagnostic] = field(default_factory=list)
    sources: dict[str, str] = field(default_factory=dict)
    io_errors: list[str] = field(default_factory=list)
    internal_errors: list[InternalError] = field(default_factory=list)
    fixed_total: int = 0
    fixed_by_file: dict[str, dict[str, int]] = field(default_factory=dict)
    changed_files: int = 0
    diffs: list[str] = field(default_factory=list)
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

    def merge(self, other: RunState) -> None:
        """Add one file's (or one worker's) results; called in file order."""
        self.diagnostics.extend(other.diagnostics)
        self.sources.update(other.sources)
        self.io_errors.extend(other.io_errors)
        self.internal_errors.extend(other.internal_errors)
        self.fixed_total += other.fixed_total
        self.fixed_by_file.update(other.fixed_by_file)
        self.changed_files += other.changed_files
        self.diffs.extend(other.diffs)
        self.notes.extend(other.notes)
        self.unsafe_files |= other.unsafe_files
        self.cache_hits += other.cache_hits
        self.cache_misses += other.cache_misses
        if self.timings is not None and other.timings is not None:
            self.timings.merge(other.timings)

    def for_worker(self) -> RunState:
        """An empty state for one task, timed if this one is."""
        return RunState(timings=Timings() if self.timings is not None else None)


def _timed(state: RunState, phase: str) -> contextlib.AbstractContextManager[None]:
    t = state.timings
    return contextlib.nullcontext() if t is None else t.measure(phase)


def _overrides(args: argparse.Namespace) -> dict[str, object]:
    for option, sels in (
        ("--select", args.select or []),
        ("--extend-select", args.extend_select),
        ("--ignore", args.ignore),
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
        "extend_exclude": args.extend_exclude,
    }


def cmd_check(args: argparse.Namespace) -> int:
    if args.statistics and args.output_format not in STATISTICS_FORMATS:
        raise UsageError(
            f"--statistics cannot be combined with --output-format {args.output_format}"
            f" (use {', '.join(STATISTICS_FORMATS)})"
        )
    started = time.perf_counter()
    resolver = ConfigResolver(args.config, _overrides(args))
    fixing = args.fix or args.diff
    state = RunState(timings=Timings() if args.timings else None)
    paths = args.paths or (["-"] if args.stdin_filename else ["."])
    if "-" in paths:
        if len(paths) > 1:
            raise UsageError("'-' (stdin) cannot be combined with other paths")
        return _check_stdin(args, resolver, state)
    with _timed(state, "discover files"):
        found = discover(paths, resolver, force_exclude=args.force_exclude)
    state.io_errors.extend(found.errors)
    for path in found.files:
        resolver.for_path(path)  # configuration errors stop the run here, before any work
    cache = None if args.no_cache else _open_cache(args, resolver, state)
    tasks = _tasks(found.files, fixing)
    if cache is not None:
        tasks = _from_cache(tasks, resolver, args, state, fixing, cache)
    jobs = args.jobs or available_cores()
    sizes = [_size(paths) for paths in tasks]
    if should_parallelize(jobs, sizes):
        _check_in_pool(tasks, sizes, resolver, args, state, fixing, cache, jobs)
    else:
        for paths in tasks:
            _check_task(paths, resolver, args, state, fixing, cache, lookup=False)
    return _finish(args, state, fixing, wall=time.perf_counter() - started)


def _tasks(files: Sequence[Path], fixing: bool) -> list[tuple[Path, ...]]:
    """One task per file; when fixing, paths that reach the same file form one task,
    so that no two processes write the same file at once."""
    if not fixing:
        return [(path,) for path in files]
    groups: dict[str, list[Path]] = {}
    for path in files:
        groups.setdefault(os.path.realpath(path), []).append(path)
    return [tuple(group) for group in groups.values()]


def _size(paths: Sequence[Path]) -> int:
    total = 0
    for path in paths:
        try:
            total += os.stat(path).st_size
        except (OSError, ValueError):
            pass
    return total


def _check_task(
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
            state.io_errors.append(_unexpected(str(path), exc))


# -- the cache ------------------------------------------------------------------------------


def _open_cache(
    args: argparse.Namespace, resolver: ConfigResolver, state: RunState
) -> Cache | None:
    root = args.cache_dir
    if root is None:
        root = default_cache_dir(resolver.for_path(None).root)
    cache = Cache.open(root)
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


def _from_cache(
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
        try:
            with _timed(state, "read files"):
                source = read_source(path)
        except Exception:  # reported when the file is checked
            todo.append(paths)
            continue
        if not mentions_jax(source.text):
            # the prefilter: never parsed, no findings, nothing to fix (and no entry needed)
            if state.timings is not None:
                state.timings.files_prefiltered += 1
            if resolver.for_path(path).unsafe_fixes:
                state.unsafe_files.add(str(path))
            continue
        settings = resolver.for_path(path)
        with _timed(state, "cache"):
            key = _cache_key(source.text, path, settings, args, state)
            hit = cache.get(key, str(path))
        if hit is None or (fixing and hit.diagnostics):
            state.cache_misses += 1
            todo.append(paths)
            continue
        state.cache_hits += 1
        if state.timings is not None:
            state.timings.files_from_cache += 1
        if settings.unsafe_fixes:
            state.unsafe_files.add(str(path))
        state.diagnostics.extend(hit.diagnostics)
        if hit.diagnostics:
            state.sources[str(path)] = source.text
    return todo


# -- the process pool -----------------------------------------------------------------------


@dataclass
class _WorkerContext:
    args: argparse.Namespace
    resolver: ConfigResolver
    cache_root: Path | None
    fixing: bool
    timed: bool


def _work(ctx: _WorkerContext, paths: tuple[Path, ...]) -> RunState:
    """One task in a worker process: the file's results, to be merged by the parent."""
    state = RunState(timings=Timings() if ctx.timed else None)
    cache = Cache(ctx.cache_root) if ctx.cache_root is not None else None
    _check_task(paths, ctx.resolver, ctx.args, state, ctx.fixing, cache, lookup=False)
    state.rules_cache.clear()
    state.fingerprints.clear()
    return state


def _check_in_pool(
    tasks: list[tuple[Path, ...]],
    sizes: list[int],
    resolver: ConfigResolver,
    args: argparse.Namespace,
    state: RunState,
    fixing: bool,
    cache: Cache | None,
    jobs: int,
) -> None:
    """Check ``tasks`` in ``jobs`` processes; merge the results in task order."""
    results: dict[int, RunState] = {}

    def on_result(index: int, result: RunState) -> None:
        results[index] = result

    def on_crash(index: int, why: str) -> None:
        failed = state.for_worker()
        for path in tasks[index]:
            failed.io_errors.append(f"{path}: internal error: {why} while checking this file")
        results[index] = failed

    def on_error(index: int, message: str, detail: str) -> None:
        if args.show_internal_tracebacks:
            print(detail, file=sys.stderr)
        failed = state.for_worker()
        for path in tasks[index]:
            failed.io_errors.append(f"{path}: internal error: {one_line(message)}")
        results[index] = failed

    context = _WorkerContext(
        args, resolver, cache.root if cache is not None else None, fixing, args.timings
    )
    # Load the linting machinery once here: forked workers inherit it instead of each
    # importing libcst and the rules again.
    import jaxlint.engine
    import jaxlint.fixers.fixpoint  # noqa: F401

    all_rules()
    largest_first = sorted(range(len(tasks)), key=lambda i: -sizes[i])
    state.processes = min(jobs, len(tasks))
    sys.stdout.flush()
    sys.stderr.flush()
    run_parallel(tasks, _work, context, jobs, on_result, on_crash, on_error, largest_first)
    for index in range(len(tasks)):
        if index in results:
            state.merge(results[index])


def _unexpected(name: str, exc: Exception) -> str:
    return f"{name}: internal error: {one_line(f'{type(exc).__name__}: {exc}')}"


def _rules_for(settings: Settings, state: RunState) -> list[type[Rule]]:
    cached = state.rules_cache.get(id(settings))
    if cached is None or cached[0] is not settings:
        cached = (settings, settings.enabled_rules(all_rules()))
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
    return lint_text(
        text, name, settings, rules, want_fixes=want_fixes, path=path, timings=state.timings
    )


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
    name = str(path)
    try:
        with _timed(state, "read files"):
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
    store: StoreFn | None = None
    if cache is not None and mentions_jax(source.text):
        if lookup:
            with _timed(state, "cache"):
                hit = cache.get(_cache_key(source.text, path, settings, args, state), name)
            if hit is not None and not (fixing and hit.diagnostics):
                state.cache_hits += 1
                if state.timings is not None:
                    state.timings.files_from_cache += 1
                if settings.unsafe_fixes:
                    state.unsafe_files.add(name)
                state.diagnostics.extend(hit.diagnostics)
                if hit.diagnostics:
                    state.sources[name] = source.text
                return
            state.cache_misses += 1

        def store(text: str, result: FileResult) -> None:
            with _timed(state, "cache"):
                key = _cache_key(text, path, settings, args, state)
                cache.put(key, CachedResult(result.diagnostics))

    if state.timings is not None:
        state.timings.files_linted += 1
    with gc_paused():
        new_text = _process_text(
            source.text, name, settings, path, args, state, fixing, store=store
        )
    if new_text is not None and new_text != source.text:
        if args.diff:
            state.diffs.append(_unified_diff(source.text, new_text, name))
        else:
            with _timed(state, "write fixed files"):
                _write_back(path, source, new_text, state)


def _process_text(
    text: str,
    name: str,
    settings: Settings,
    path: Path | None,
    args: argparse.Namespace,
    state: RunState,
    fixing: bool,
    store: StoreFn | None = None,
) -> str | None:
    """Lint (and fix) one text; record diagnostics; return the fixed text if fixing.

    ``store`` gets the final text's lint result for the cache (not if a rule crashed).
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
            last[:] = [(t, result)]
            return result.diagnostics

        with _timed(state, "fix loop (apply edits, re-parse)"):
            outcome = fix_text(text, lint_for_fix, unsafe=unsafe)
        final_text = outcome.text
        if outcome.total_applied:
            state.fixed_total += outcome.total_applied
            state.fixed_by_file[name] = outcome.applied
        for dropped in outcome.dropped:
            state.notes.append(
                f"{name}:{dropped.row}:{dropped.column}: fix for {dropped.code} not applied:"
                f" {dropped.reason}"
            )
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


def _add_internal(state: RunState, errors: list[InternalError]) -> None:
    seen = {(e.filename, e.rule_code) for e in state.internal_errors}
    for e in errors:
        if (e.filename, e.rule_code) not in seen:
            seen.add((e.filename, e.rule_code))
            state.internal_errors.append(e)


def _write_back(path: Path, source: SourceFile, new_text: str, state: RunState) -> None:
    try:
        data = encode_source(new_text, source.encoding)
    except UnicodeEncodeError as exc:
        state.io_errors.append(f"{path}: fixed text cannot be encoded as {source.encoding}: {exc}")
        return
    try:
        write_atomic(Path(os.path.realpath(path)), data, source.mode)
    except OSError as exc:
        state.io_errors.append(f"{path}: cannot write fixes: {exc.strerror or exc}")
        return
    state.changed_files += 1


def _diff_lines(text: str) -> list[str]:
    """Lines as ``patch`` and ``git apply`` see them: split at ``\\n`` only (not at the
    form feeds and other separators ``str.splitlines`` knows), ends kept."""
    lines = [line + "\n" for line in text.split("\n")]
    lines[-1] = lines[-1][:-1]
    return lines if lines[-1] else lines[:-1]


def _unified_diff(old: str, new: str, name: str) -> str:
    out = []
    for line in difflib.unified_diff(
        _diff_lines(old), _diff_lines(new), fromfile=f"a/{name}", tofile=f"b/{name}"
    ):
        if not line.endswith("\n"):
            line += "\n\\ No newline at end of file\n"
        out.append(line)
    return "".join(out)


def _check_stdin(args: argparse.Namespace, resolver: ConfigResolver, state: RunState) -> int:
    name = args.stdin_filename or "-"
    path = Path(args.stdin_filename) if args.stdin_filename else None
    settings = resolver.for_path(path)
    data = sys.stdin.buffer.read()
    fixing = args.fix or args.diff
    try:
        text, encoding = decode_source(data)
    except DecodeError as exc:
        from jaxlint.engine import parse_error_diagnostic

        state.diagnostics.append(parse_error_diagnostic(name, str(exc), exc.row, exc.column))
        if args.fix and not args.diff:
            sys.stdout.buffer.write(data)
        return _finish(args, state, fixing, stdout_is_code=args.fix and not args.diff)
    try:
        with gc_paused():
            new_text = _process_text(text, name, settings, path, args, state, fixing)
    except Exception as exc:
        state.io_errors.append(_unexpected(name, exc))
        new_text = None
    if args.diff:
        if new_text is not None and new_text != text:
            state.diffs.append(_unified_diff(text, new_text, name))
    elif args.fix:
        # The code goes back in its own encoding, BOM and line endings.
        sys.stdout.flush()
        sys.stdout.buffer.write(encode_source(new_text if new_text is not None else text, encoding))
        sys.stdout.flush()
    return _finish(args, state, fixing, stdout_is_code=args.fix and not args.diff)


def _finish(
    args: argparse.Namespace,
    state: RunState,
    fixing: bool,
    stdout_is_code: bool = False,
    wall: float | None = None,
) -> int:
    out = sys.stderr if stdout_is_code else sys.stdout
    diags = sorted(state.diagnostics, key=Diagnostic.sort_key)
    opts = RenderOptions(
        unsafe_fixes=bool(args.unsafe_fixes),
        sources=state.sources,
        unsafe_files=frozenset(state.unsafe_files),
    )
    for err in state.io_errors:
        print(f"error: {err}", file=sys.stderr)
    for err in state.internal_errors:
        print(f"error: {err.describe()}", file=sys.stderr)
        if args.show_internal_tracebacks:
            print(err.traceback, file=sys.stderr)
    for note in state.notes:
        print(f"warning: {note}", file=sys.stderr)

    human = args.output_format in ("text", "concise")
    if args.diff:
        for diff in state.diffs:
            out.write(diff)
        out.flush()
        hidden = _count_hidden(diags, opts)
        if state.diffs:
            print(
                f"Would fix {state.fixed_total} error(s) in {len(state.diffs)} file(s).",
                file=sys.stderr,
            )
        elif hidden:
            print(
                f"No fixes available ({hidden} hidden fix(es) can be enabled with the"
                " `--unsafe-fixes` option).",
                file=sys.stderr,
            )
        else:
            print("No fixes available.", file=sys.stderr)
    else:
        if args.statistics:
            out.write(render_statistics(args.output_format, diags, opts))
        else:
            out.write(render(args.output_format, diags, opts))
        if args.show_fixes and state.fixed_by_file:
            # After the findings and before the summary, as ruff prints it; on stderr when
            # stdout carries JSON/SARIF or workflow commands.
            _show_fixes(state, out if human else sys.stderr)
        if human:
            _summary(state, diags, opts, out)
    out.flush()
    if state.timings is not None:
        sys.stderr.write(state.timings.render(wall, state.processes))
        sys.stderr.flush()

    if state.io_errors or state.internal_errors:
        return EXIT_ERROR
    if args.exit_zero:
        return EXIT_OK
    if args.diff:
        return EXIT_FINDINGS if state.diffs else EXIT_OK
    if diags:
        return EXIT_FINDINGS
    if args.exit_non_zero_on_fix and state.fixed_total:
        return EXIT_FINDINGS
    return EXIT_OK


def _show_fixes(state: RunState, out: TextIO) -> None:
    print(f"Fixed {state.fixed_total} error(s):", file=out)
    for fname, counts in sorted(state.fixed_by_file.items()):
        print(f"- {fname}:", file=out)
        for code, n in sorted(counts.items()):
            rule = find_rule(code)
            label = f" ({rule.name})" if rule else ""
            print(f"    {n} × {code}{label}", file=out)
    print(file=out)


def _count_hidden(diags: Sequence[Diagnostic], opts: RenderOptions) -> int:
    """Unsafe fixes that ``--unsafe-fixes`` would enable."""
    return sum(
        1
        for d in diags
        if d.fix_applicability is Applicability.UNSAFE and not opts.unsafe_for(d.filename)
    )


def _summary(
    state: RunState, diags: Sequence[Diagnostic], opts: RenderOptions, out: TextIO
) -> None:
    fixed = state.fixed_total
    if not diags:
        if fixed:
            print(f"Found {fixed} error(s) ({fixed} fixed, 0 remaining).", file=out)
        else:
            print("All checks passed!", file=out)
        return
    if fixed:
        total = len(diags) + fixed
        print(f"Found {total} error(s) ({fixed} fixed, {len(diags)} remaining).", file=out)
    else:
        print(f"Found {len(diags)} error(s).", file=out)
    fixable = sum(1 for d in diags if fix_marker(d, opts.unsafe_for(d.filename)))
    hidden = _count_hidden(diags, opts)
    hidden_text = f"{hidden} hidden fix(es) can be enabled with the `--unsafe-fixes` option"
    if fixable and hidden:
        print(f"[*] {fixable} fixable with the `--fix` option ({hidden_text}).", file=out)
    elif fixable:
        print(f"[*] {fixable} fixable with the `--fix` option.", file=out)
    elif hidden:
        print(f"No fixes available ({hidden_text}).", file=out)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
