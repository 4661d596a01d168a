"""The fast pass after an edit: lint only the top-level statements the edit touched.

A full lint of a 2,000-line file takes 200-700 ms on this project's machine (libcst's
parse alone is half of it: docs/performance.md), too slow to follow typing. The fast
pass lints a smaller text: the module without the top-level ``def``/``class``
statements the edit did not touch (imports, assignments and every other module-level
statement stay, so names resolve as in the whole file), maps the findings back to the
document's rows, takes the touched statements' findings from it, and moves the
previous findings of the rest of the document by the number of lines added or removed.

What it cannot see: facts that cross statements, such as a helper traced because a
jitted function elsewhere calls it, or what a changed import or module-level wrapper
means for the untouched definitions (their previous findings stay). So the server
follows it with the full lint once typing pauses (``app.py``) and publishes that exact
result too. :func:`fast_relint` answers ``None`` (lint in full) when it has no parse
of the old text to start from, for a changed file-level ``# jaxlint: noqa`` and for a
lone ``\\r`` line break. (The server starts from the last text that parsed, so
typing through a syntax error does not lose the fast pass.)
"""

from __future__ import annotations

import ast
import re
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from jaxlint.diagnostics import INTERNAL_ERROR_CODE, Diagnostic, Edit, Fix, Position
from jaxlint.engine import parse_error_diagnostic
from jaxlint.gc_pause import gc_paused
from jaxlint.noqa import file_noqa_codes
from jaxlint.prefilter import mentions_jax
from jaxlint.server.actions import lines_of

_BREAK = re.compile(r"(\r\n|\r|\n)")
_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


@dataclass(frozen=True)
class Span:
    """One top-level statement: its first row (decorators included), last row, kind."""

    start: int
    end: int
    definition: bool


def statement_spans(text: str) -> list[Span] | SyntaxError:
    """The module's top-level statements, or the SyntaxError Python's parser gives."""
    try:
        with warnings.catch_warnings(), gc_paused():
            warnings.simplefilter("ignore")
            tree = ast.parse(text)
    except SyntaxError as exc:
        return exc
    except (ValueError, RecursionError, MemoryError) as exc:
        return SyntaxError(f"{type(exc).__name__}: {exc}")
    spans = []
    for node in tree.body:
        start = node.lineno
        for deco in getattr(node, "decorator_list", ()):
            start = min(start, deco.lineno)
        end = node.end_lineno or node.lineno
        spans.append(Span(start, end, isinstance(node, _DEFINITIONS)))
    return spans


@dataclass
class FastResult:
    diagnostics: list[Diagnostic]
    spans: list[Span] | None
    """The new text's top-level statements (``None`` after a syntax error)."""
    linted_rows: int = 0
    """Rows of the smaller text that was linted (0: nothing needed linting)."""


def changed_rows(old: Sequence[str], new: Sequence[str]) -> tuple[int, int, int]:
    """``(first, old_last, new_last)``: the 1-based rows that differ (``*_last`` < ``first``
    when nothing was there: a pure insertion or deletion)."""
    limit = min(len(old), len(new))
    first = 0
    while first < limit and old[first] == new[first]:
        first += 1
    same_tail = 0
    while (
        same_tail < limit - first and old[len(old) - 1 - same_tail] == new[len(new) - 1 - same_tail]
    ):
        same_tail += 1
    return first + 1, len(old) - same_tail, len(new) - same_tail


def _touching(spans: Sequence[Span], low: int, high: int) -> list[Span]:
    return [s for s in spans if s.start <= high and low <= s.end]


def fast_relint(
    old_text: str,
    old_spans: list[Span] | None,
    old_diagnostics: Sequence[Diagnostic],
    new_text: str,
    filename: str,
    lint: Callable[[str], list[Diagnostic]],
) -> FastResult | None:
    """The new text's diagnostics by the fast pass, or ``None`` when it does not apply.

    ``lint`` lints a text with the document's settings and returns its diagnostics.
    """
    if "\r" in new_text and "\r" in new_text.replace("\r\n", ""):
        return None
    if not mentions_jax(new_text) or file_noqa_codes(new_text) != file_noqa_codes(old_text):
        return None
    if old_spans is None:  # no parse to start from: only a syntax error is quick to report
        spans = statement_spans(new_text)
        if isinstance(spans, SyntaxError):
            return FastResult([_syntax_diagnostic(filename, spans)], None)
        return None
    old_lines, new_lines = lines_of(old_text), lines_of(new_text)
    first, old_last, new_last = changed_rows(old_lines, new_lines)
    delta = len(new_lines) - len(old_lines)
    # One row of margin each side: a deleted last line still marks its definition changed.
    old_touched = _touching(old_spans, first - 1, old_last + 1)
    spans = _respan(old_spans, old_touched, new_lines, first, old_last, new_last, delta)
    if spans is None:  # the region alone does not parse: ask about the whole text
        spans = statement_spans(new_text)
    if isinstance(spans, SyntaxError):
        return FastResult([_syntax_diagnostic(filename, spans)], None)
    new_touched = _touching(spans, first - 1, new_last + 1)
    # The window of rows whose old findings are replaced, in old and in new rows.
    low = min([first - 1, *(s.start for s in old_touched), *(s.start for s in new_touched)])
    high_new = max([new_last + 1, *(s.end for s in new_touched)])
    high_old = max([old_last + 1, high_new - delta, *(s.end for s in old_touched)])
    kept = _shifted(old_diagnostics, low, high_old, (first, old_last, delta))
    fresh: list[Diagnostic] = []
    linted_rows = 0
    if new_touched:
        partial, rows = _partial_text(new_text, spans, new_touched)
        linted_rows = len(rows)
        seen_internal = {d.message for d in kept if d.code == INTERNAL_ERROR_CODE}
        for diag in lint(partial):
            if diag.code == INTERNAL_ERROR_CODE:
                if diag.message not in seen_internal:
                    fresh.append(diag)
                continue
            mapped = _mapped(diag, rows)
            if any(s.start <= mapped.start.row <= s.end for s in new_touched):
                fresh.append(mapped)
    out = kept + fresh
    out.sort(key=Diagnostic.sort_key)
    return FastResult(out, spans, linted_rows)


def _respan(
    old_spans: Sequence[Span],
    old_touched: Sequence[Span],
    new_lines: Sequence[str],
    first: int,
    old_last: int,
    new_last: int,
    delta: int,
) -> list[Span] | None:
    """The new text's top-level statements, parsing only the changed region.

    The region runs from the first touched statement (or the first changed row) to
    the end of the last touched one (moved by ``delta``) or the last changed row.
    Both ends are top-level statement boundaries of a text that parsed, so when the
    region parses alone the whole text does, and its statements replace the touched
    ones. ``None`` when the region alone does not parse (indented code typed after a
    blank line that in fact continues a definition above, or a real syntax error).
    """
    low = min([first, *(s.start for s in old_touched)])
    high = max([new_last, *(s.end + delta for s in old_touched if s.end > old_last)])
    before = [s for s in old_spans if s.end < low]
    after = [
        Span(s.start + delta, s.end + delta, s.definition) for s in old_spans if s.start > old_last
    ]
    after = [s for s in after if s.start > high]
    if high < low:
        return [*before, *after]
    region = statement_spans("\n".join(new_lines[low - 1 : high]))
    if isinstance(region, SyntaxError):
        return None
    moved = [Span(s.start + low - 1, s.end + low - 1, s.definition) for s in region]
    return [*before, *moved, *after]


def _syntax_diagnostic(filename: str, exc: SyntaxError) -> Diagnostic:
    message = " ".join(f"{type(exc).__name__}: {exc.msg}".split())
    return parse_error_diagnostic(filename, message, exc.lineno or 1, exc.offset or 1)


def _partial_text(
    text: str, spans: Sequence[Span], touched: Sequence[Span]
) -> tuple[str, list[int]]:
    """The text without the untouched definitions, and the document row of each of its rows.

    Rows outside every statement (blank lines and comments between statements) go too,
    but for a ``# jaxlint: noqa`` line."""
    pieces = _BREAK.split(text)  # line, break, line, break, ..., line
    keep: set[int] = set()
    for s in spans:
        if not s.definition or s in touched:
            keep.update(range(s.start, s.end + 1))
    if "jaxlint" in text:
        for index in range(0, len(pieces), 2):
            if file_noqa_codes(pieces[index]) is not None:
                keep.add(index // 2 + 1)
    rows = sorted(r for r in keep if 2 * (r - 1) < len(pieces))
    out: list[str] = []
    for row in rows:
        index = 2 * (row - 1)
        out.append(pieces[index])
        if index + 1 < len(pieces):
            out.append(pieces[index + 1])
    return "".join(out), rows


_LINE_REF = re.compile(r"\b(line )(\d+)\b")


def _renumber(diag: Diagnostic, row_map: Callable[[int], int]) -> Diagnostic:
    """``diag`` with the rows its texts name ("jitted by `jax.jit` at line 12") mapped."""

    def fix(text: str | None) -> str | None:
        if text is None or "line " not in text:
            return text
        return _LINE_REF.sub(lambda m: f"{m.group(1)}{row_map(int(m.group(2)))}", text)

    message, fix_message = fix(diag.message), fix(diag.fix_message)
    new_fix = diag.fix
    if new_fix is not None and "line " in new_fix.message:
        new_fix = replace(new_fix, message=fix(new_fix.message) or "")
    if message == diag.message and fix_message == diag.fix_message and new_fix is diag.fix:
        return diag
    return replace(diag, message=message or "", fix_message=fix_message, fix=new_fix)


def _map_row(row: int, rows: Sequence[int]) -> int:
    if 1 <= row <= len(rows):
        return rows[row - 1]
    return (rows[-1] if rows else 0) + row - len(rows)


def _map_position(pos: Position, rows: Sequence[int]) -> Position:
    return Position(_map_row(pos.row, rows), pos.column)


def _mapped(diag: Diagnostic, rows: Sequence[int]) -> Diagnostic:
    fix = diag.fix
    if fix is not None:
        fix = replace(
            fix,
            edits=tuple(
                Edit(_map_position(e.start, rows), _map_position(e.end, rows), e.content)
                for e in fix.edits
            ),
        )
    moved = replace(
        diag,
        start=_map_position(diag.start, rows),
        end=_map_position(diag.end, rows),
        fix=fix,
    )
    return _renumber(moved, lambda row: _map_row(row, rows))


def _shifted(
    diagnostics: Sequence[Diagnostic], low: int, high_old: int, change: tuple[int, int, int]
) -> list[Diagnostic]:
    """The old findings outside rows ``low..high_old``, moved by ``delta`` rows after them.

    ``change`` is ``(first, old_last, delta)``: the changed rows and the row count change."""
    first, old_last, delta = change

    def row_map(row: int) -> int:
        return row + delta if row > old_last else row

    out = []
    for diag in diagnostics:
        row = diag.start.row
        if diag.code == INTERNAL_ERROR_CODE:
            out.append(diag)
            continue
        if low <= row <= high_old:
            continue
        if delta:
            diag = _renumber(diag, row_map)
        if row < low or not delta:
            out.append(_move_fix(diag, change))
            continue
        out.append(
            _move_fix(
                replace(
                    diag,
                    start=Position(diag.start.row + delta, diag.start.column),
                    end=Position(diag.end.row + delta, diag.end.column),
                ),
                change,
            )
        )
    return out


def _move_fix(diag: Diagnostic, change: tuple[int, int, int]) -> Diagnostic:
    """Move the fix's edits that lie after the changed rows; drop a fix that reaches into
    them. ``diag`` itself when nothing moves (the server reuses its LSP form then)."""
    first, old_last, delta = change
    if diag.fix is None:
        return diag
    edits = []
    moved = False
    for edit in diag.fix.edits:
        if edit.end.row < first or (edit.end.row == first and edit.end.column == 1):
            edits.append(edit)
        elif edit.start.row > old_last:
            moved = moved or delta != 0
            edits.append(
                Edit(
                    Position(edit.start.row + delta, edit.start.column),
                    Position(edit.end.row + delta, edit.end.column),
                    edit.content,
                )
            )
        else:
            return replace(diag, fix=None)
    if not moved:
        return diag
    return replace(diag, fix=Fix(diag.fix.applicability, diag.fix.message, tuple(edits)))
