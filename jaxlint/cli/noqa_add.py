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
import re
import sys
import tokenize
from pathlib import Path

from jaxlint.cli.checking import RunState
from jaxlint.cli.common import EXIT_ERROR, EXIT_OK
from jaxlint.diagnostics import INTERNAL_ERROR_CODE, PARSE_ERROR_CODE
from jaxlint.fixers.fixpoint import python_parses
from jaxlint.noqa import NOQA_INLINE
from jaxlint.notebook import NotebookError, cell_of, is_notebook, read_notebook
from jaxlint.source import (
    DecodeError,
    NotFixedError,
    SourceError,
    encode_source,
    read_source,
    write_atomic,
)

_LINE_END = re.compile(r"(\r\n|\r|\n)")


def add_noqa(args: argparse.Namespace, state: RunState) -> int:
    silent = args.silent
    for err in state.io_errors:
        if not silent:
            print(f"error: {err}", file=sys.stderr)
    for internal in state.internal_errors:
        if not silent:
            print(f"error: {internal.describe()}", file=sys.stderr)
    wanted: dict[str, dict[tuple[int, int], set[str]]] = {}
    for d in state.diagnostics:
        if d.code in (PARSE_ERROR_CODE, INTERNAL_ERROR_CODE):
            continue
        place = (cell_of(d) or 0, d.start.row)  # (notebook cell, row); cell 0: a Python file
        wanted.setdefault(d.filename, {}).setdefault(place, set()).add(d.code)
    added = 0
    code = EXIT_ERROR if state.io_errors or state.internal_errors else EXIT_OK
    warnings: list[str] = []
    for name in sorted(wanted):
        path = Path(name)
        if is_notebook(name):
            result = _add_noqa_notebook(path, name, wanted[name], state)
            if isinstance(result, str):
                print(f"error: {result}", file=sys.stderr)
                code = EXIT_ERROR
            else:
                added += result[0]
                warnings.extend(result[1])
            continue
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
            rows = {row: codes for (_, row), codes in wanted[name].items()}
            new_text, count, skipped = add_noqa_to_text(source.text, rows)
        except (tokenize.TokenError, SyntaxError) as exc:
            warnings.append(f"{name}: cannot add comments ({exc}); no noqa added")
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
            write_atomic(path, data, source.mode, expect=source.identity)
        except NotFixedError as exc:
            print(f"error: {exc}", file=sys.stderr)
            code = EXIT_ERROR
            continue
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


def _add_noqa_notebook(
    path: Path, name: str, wanted: dict[tuple[int, int], set[str]], state: RunState
) -> tuple[int, list[str]] | str:
    """Add the comments to a notebook's cells: (count, warnings), or an error message."""
    try:
        book = read_notebook(path)
    except (SourceError, NotebookError) as exc:
        return str(exc) if isinstance(exc, SourceError) else f"{name}: {exc}"
    module = book.module()
    index = module.index() if module is not None else None
    if module is None or index is None or module.text != state.sources.get(name):
        return 0, [f"{name}: changed while it was checked; no noqa added"]
    rows: dict[int, set[str]] = {}
    for (cell, row), codes in wanted.items():
        rows[index.module_row(cell, row)] = codes
    try:
        new_text, count, skipped = add_noqa_to_text(module.text, rows)
    except (tokenize.TokenError, SyntaxError) as exc:
        return 0, [f"{name}: cannot add comments ({exc}); no noqa added"]
    warnings = [
        f"{index.locate_name(name, row)}: no noqa added: the line ends inside a string or"
        " continues with a backslash"
        for row in skipped
    ]
    cells = module.cell_texts(new_text)
    old_cells = module.cell_texts()
    if cells is None or old_cells is None:
        return f"{name}: internal error: cannot add noqa comments to this notebook"
    changed = {n: t for n, t in cells.items() if t != old_cells[n]}
    if changed:
        try:
            write_atomic(path, book.with_sources(changed), expect=book.identity)
        except NotFixedError as exc:
            return str(exc)
        except OSError as exc:
            return f"{name}: cannot write: {exc.strerror or exc}"
    return count, warnings


def add_noqa_to_text(text: str, rows: dict[int, set[str]]) -> tuple[str, int, list[int]]:
    """``text`` with ``# noqa`` comments for ``rows`` (1-based row -> codes): the new
    text, how many comments were added or extended, and the rows that were skipped.

    :class:`SyntaxError` if ``text`` parsed and the new text would not (nothing is
    written then)."""
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
    new_text = "".join(b + e for b, e in zip(bodies, ends, strict=True))
    if count and python_parses(text) and not python_parses(new_text):
        raise SyntaxError("it would not parse with the comments added")
    return new_text, count, skipped


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
