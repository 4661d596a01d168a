"""``jaxlint check --add-noqa``: silence every current finding with a ``# noqa`` comment.

Each line with findings gets ``# noqa: CODE[, CODE]`` (codes that a ``# noqa:``
already on the line lists are kept and the new ones appended). A second run
finds nothing to add. A line whose end lies inside a string, or that continues
with a backslash, cannot carry a comment: it is left alone with a warning. Files
are written through a temporary file and a rename (never half-written), in their
own encoding and line endings.
"""

from __future__ import annotations

import argparse
import io
import os
import re
import sys
import tokenize
from pathlib import Path

from jaxlint.cli.checking import RunState
from jaxlint.cli.common import EXIT_ERROR, EXIT_OK
from jaxlint.diagnostics import INTERNAL_ERROR_CODE, PARSE_ERROR_CODE
from jaxlint.noqa import NOQA_INLINE
from jaxlint.source import DecodeError, SourceError, encode_source, read_source, write_atomic

_LINE_END = re.compile(r"(\r\n|\r|\n)")


def add_noqa(args: argparse.Namespace, state: RunState) -> int:
    silent = args.silent
    for err in state.io_errors:
        if not silent:
            print(f"error: {err}", file=sys.stderr)
    for internal in state.internal_errors:
        if not silent:
            print(f"error: {internal.describe()}", file=sys.stderr)
    wanted: dict[str, dict[int, set[str]]] = {}
    for d in state.diagnostics:
        if d.code in (PARSE_ERROR_CODE, INTERNAL_ERROR_CODE):
            continue
        wanted.setdefault(d.filename, {}).setdefault(d.start.row, set()).add(d.code)
    added = 0
    code = EXIT_ERROR if state.io_errors or state.internal_errors else EXIT_OK
    warnings: list[str] = []
    for name in sorted(wanted):
        path = Path(name)
        try:
            source = read_source(path)
        except (SourceError, DecodeError) as exc:
            print(f"error: {exc}", file=sys.stderr)
            code = EXIT_ERROR
            continue
        if source.text != state.sources.get(name):
            warnings.append(f"{name}: changed while it was checked; no noqa added")
            continue
        try:
            new_text, count, skipped = add_noqa_to_text(source.text, wanted[name])
        except (tokenize.TokenError, SyntaxError) as exc:
            warnings.append(f"{name}: cannot be tokenized ({exc}); no noqa added")
            continue
        warnings.extend(
            f"{name}:{row}: no noqa added: the line ends inside a string or continues"
            " with a backslash"
            for row in skipped
        )
        if not count:
            continue
        try:
            data = encode_source(new_text, source.encoding)
            write_atomic(Path(os.path.realpath(path)), data, source.mode)
        except (OSError, UnicodeEncodeError) as exc:
            why = getattr(exc, "strerror", None) or exc
            print(f"error: {name}: cannot write: {why}", file=sys.stderr)
            code = EXIT_ERROR
            continue
        added += count
    if not (args.quiet or silent):
        for warning in warnings:
            print(f"warning: {warning}", file=sys.stderr)
        print(f"Added {added} noqa directive(s).")
    return code


def add_noqa_to_text(text: str, rows: dict[int, set[str]]) -> tuple[str, int, list[int]]:
    """``text`` with ``# noqa`` comments for ``rows`` (1-based row -> codes): the new
    text, how many comments were added or extended, and the rows that were skipped."""
    parts = _LINE_END.split(text)
    bodies, ends = parts[0::2], parts[1::2] + [""]
    safe = _comment_safe_rows(bodies)
    count = 0
    skipped: list[int] = []
    for row in sorted(rows):
        if not 0 < row <= len(bodies):
            continue
        if row not in safe:
            skipped.append(row)
            continue
        new = _with_codes(bodies[row - 1], sorted(rows[row]))
        if new != bodies[row - 1]:
            bodies[row - 1] = new
            count += 1
    return "".join(b + e for b, e in zip(bodies, ends, strict=True)), count, skipped


def _comment_safe_rows(bodies: list[str]) -> set[int]:
    """Rows whose end is where a comment may go: a ``NEWLINE`` or ``NL`` token ends them
    (not the inside of a string, not a backslash continuation)."""
    source = io.StringIO("\n".join(bodies) + "\n")
    rows: set[int] = set()
    for tok in tokenize.generate_tokens(source.readline):
        if tok.type in (tokenize.NEWLINE, tokenize.NL):
            rows.add(tok.start[0])
    return rows


def _with_codes(line: str, codes: list[str]) -> str:
    match = NOQA_INLINE.search(line) if "#" in line else None
    if match is None:
        body = line.rstrip(" \t")
        return f"{body}  # noqa: {', '.join(codes)}"
    listed = match.group("codes")
    if not listed:
        return line  # a bare noqa silences everything already
    present = set(re.split(r"[,\s]+", listed.strip()))
    missing = [c for c in codes if c not in present]
    if not missing:
        return line
    whole = match.group(0)
    kept = whole.rstrip(", \t")
    tail = whole[len(kept) :]
    return f"{line[: match.start()]}{kept}, {', '.join(missing)}{tail}{line[match.end() :]}"
