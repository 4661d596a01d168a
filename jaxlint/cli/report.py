"""The end of ``jaxlint check``: errors and warnings, findings or diffs, the summary
line, ``--timings``, and the exit code."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TextIO

from jaxlint.cli import common
from jaxlint.cli.checking import RunState
from jaxlint.cli.common import EXIT_ERROR, EXIT_FINDINGS, EXIT_OK
from jaxlint.diagnostics import Applicability, Diagnostic
from jaxlint.output import RenderOptions, fix_marker, render, render_statistics, sort_key
from jaxlint.output.style import Style, use_color


def finish(
    args: argparse.Namespace,
    state: RunState,
    fixing: bool,
    stdout_is_code: bool = False,
    wall: float | None = None,
) -> int:
    out = sys.stderr if stdout_is_code else sys.stdout
    diags = sorted(state.diagnostics, key=sort_key)
    if args.silent:
        return _exit_code(args, state, diags)
    opts = RenderOptions(
        unsafe_fixes=bool(args.unsafe_fixes),
        sources=state.sources,
        unsafe_files=frozenset(state.unsafe_files),
        style=Style(use_color(args.color, out)),
        docs_url=state.docs_url,
    )
    quiet = args.quiet
    for err in state.io_errors:
        print(f"error: {err}", file=sys.stderr)
    for err in state.internal_errors:
        print(f"error: {err.describe()}", file=sys.stderr)
        if args.show_internal_tracebacks:
            print(err.traceback, file=sys.stderr)
    if not quiet:
        for note in state.notes:
            print(f"warning: {note}", file=sys.stderr)

    human = args.output_format in ("text", "concise")
    if args.diff:
        for diff in state.diffs.values():
            out.write(diff)
        out.flush()
        hidden = _count_hidden(diags, opts)
        if quiet:
            pass
        elif state.diffs:
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
        if human and not quiet:
            _summary(state, diags, opts, out)
    out.flush()
    if state.timings is not None:
        sys.stderr.write(state.timings.render(wall, state.processes))
        sys.stderr.flush()
    return _exit_code(args, state, diags)


def _exit_code(args: argparse.Namespace, state: RunState, diags: Sequence[Diagnostic]) -> int:
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
            rule = common.find_rule(code)
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
    st = opts.style
    failed = _failed_count(state)
    could_not = (
        f"Could not check {failed} file(s) or path(s); see the error(s) above." if failed else ""
    )
    if not diags:
        if fixed:
            print(f"Found {fixed} error(s) ({fixed} fixed, 0 remaining).", file=out)
        elif not failed:
            print(st.paint("All checks passed!", "bold", "green"), file=out)
        if could_not:
            print(could_not, file=out)
        return
    if fixed:
        total = len(diags) + fixed
        print(f"Found {total} error(s) ({fixed} fixed, {len(diags)} remaining).", file=out)
    else:
        print(f"Found {len(diags)} error(s).", file=out)
    fixable = sum(1 for d in diags if fix_marker(d, opts.unsafe_for(d.filename)))
    hidden = _count_hidden(diags, opts)
    hidden_text = f"{hidden} hidden fix(es) can be enabled with the `--unsafe-fixes` option"
    marker = st.paint("[*]", "bold", "cyan")
    if fixable and hidden:
        print(f"{marker} {fixable} fixable with the `--fix` option ({hidden_text}).", file=out)
    elif fixable:
        print(f"{marker} {fixable} fixable with the `--fix` option.", file=out)
    elif hidden:
        print(f"No fixes available ({hidden_text}).", file=out)
    if could_not:
        print(could_not, file=out)


def _failed_count(state: RunState) -> int:
    """Files (or command-line paths) that were not checked, or not by every rule: one
    per IO/internal error line, and one per file where a rule crashed."""
    crashed = {e.filename for e in state.internal_errors}
    return len(state.io_errors) + len(crashed)
