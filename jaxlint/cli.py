"""The ``jaxlint`` command: ``check`` (with ``--fix``), ``rule`` and ``probe``.

Exit codes: 0 nothing found (or everything fixed), 1 findings remain (or, with
``--diff``, something would change), 2 usage, configuration, IO or internal error.
"""

from __future__ import annotations

import argparse
import difflib
import importlib
import os
import sys
import traceback
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from jaxlint import __version__
from jaxlint.config import ConfigError, ConfigResolver, Settings, check_selector
from jaxlint.diagnostics import Applicability, Diagnostic
from jaxlint.discovery import discover
from jaxlint.engine import InternalError, lint_text, one_line, parse_error_diagnostic
from jaxlint.fixers.fixpoint import FixOutcome, fix_text
from jaxlint.output import (
    FORMATS,
    STATISTICS_FORMATS,
    RenderOptions,
    fix_marker,
    render,
    render_statistics,
)
from jaxlint.rules import all_rules, find_rule
from jaxlint.rules.base import Rule
from jaxlint.source import (
    DecodeError,
    SourceError,
    SourceFile,
    decode_source,
    encode_source,
    read_source,
    write_atomic,
)
from jaxlint.versions import parse_version

SUBCOMMANDS = ("check", "rule", "probe")
EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


class UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # type: ignore[override]
        raise UsageError(f"{self.prog}: {message}")


def _selector_list(text: str) -> list[str]:
    return [s.strip() for s in text.split(",") if s.strip()]


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
    check.add_argument("--stdin-filename", help="the file name to report for stdin")
    check.add_argument("--output-format", choices=FORMATS, default="text")
    check.add_argument("--show-internal-tracebacks", action="store_true", help=argparse.SUPPRESS)

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
    resolver = ConfigResolver(args.config, _overrides(args))
    fixing = args.fix or args.diff
    state = RunState()
    paths = args.paths or (["-"] if args.stdin_filename else ["."])
    if "-" in paths:
        if len(paths) > 1:
            raise UsageError("'-' (stdin) cannot be combined with other paths")
        return _check_stdin(args, resolver, state)
    found = discover(paths, resolver, force_exclude=args.force_exclude)
    state.io_errors.extend(found.errors)
    for path in found.files:
        settings = resolver.for_path(path)
        try:
            _check_file(path, settings, args, state, fixing)
        except Exception as exc:  # one file's failure is reported; the run goes on
            if args.show_internal_tracebacks:
                traceback.print_exc()
            state.io_errors.append(_unexpected(str(path), exc))
    return _finish(args, state, fixing)


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
    rules = _rules_for(settings, state)
    return lint_text(text, name, settings, rules, want_fixes=want_fixes, path=path)


def _check_file(
    path: Path, settings: Settings, args: argparse.Namespace, state: RunState, fixing: bool
) -> None:
    name = str(path)
    try:
        source = read_source(path)
    except SourceError as exc:
        state.io_errors.append(str(exc))
        return
    except DecodeError as exc:
        state.diagnostics.append(parse_error_diagnostic(name, str(exc), exc.row, exc.column))
        return
    except MemoryError:
        state.io_errors.append(f"{name}: file too large to read")
        return
    new_text = _process_text(source.text, name, settings, path, args, state, fixing)
    if new_text is not None and new_text != source.text:
        if args.diff:
            state.diffs.append(_unified_diff(source.text, new_text, name))
        else:
            _write_back(path, source, new_text, state)


def _process_text(
    text: str,
    name: str,
    settings: Settings,
    path: Path | None,
    args: argparse.Namespace,
    state: RunState,
    fixing: bool,
) -> str | None:
    """Lint (and fix) one text; record diagnostics; return the fixed text if fixing."""
    want_fixes = args.output_format in ("json", "sarif")
    unsafe = settings.unsafe_fixes
    if unsafe:
        state.unsafe_files.add(name)
    final_text = text
    if fixing:
        errors: list[InternalError] = []

        def lint_for_fix(t: str) -> list[Diagnostic]:
            result = _lint(t, name, settings, path, True, state)
            errors.extend(result.internal_errors)
            return result.diagnostics

        outcome: FixOutcome = fix_text(text, lint_for_fix, unsafe=unsafe)
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
    result = _lint(final_text, name, settings, path, want_fixes, state)
    _add_internal(state, result.internal_errors)
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
        state.diagnostics.append(parse_error_diagnostic(name, str(exc), exc.row, exc.column))
        if args.fix and not args.diff:
            sys.stdout.buffer.write(data)
        return _finish(args, state, fixing, stdout_is_code=args.fix and not args.diff)
    try:
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
    args: argparse.Namespace, state: RunState, fixing: bool, stdout_is_code: bool = False
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
