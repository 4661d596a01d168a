"""Code actions as plain text edits (no pygls here): positions, fixes, fix-all, noqa.

jaxlint counts columns in characters from 1; LSP counts from 0 in the negotiated
position encoding (UTF-16 code units unless the client offers another), so every
position goes through :class:`Units`.
"""

from __future__ import annotations

import ast
import functools
import re
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from jaxlint.diagnostics import Applicability, Diagnostic, Position
from jaxlint.engine import split_lines
from jaxlint.noqa import _NOQA_INLINE, noqa_codes, suppresses

LspPosition = tuple[int, int]
"""``(line, character)``, both from 0, in the client's position encoding."""


@dataclass(frozen=True)
class TextEdit:
    start: LspPosition
    end: LspPosition
    new_text: str


@functools.lru_cache(maxsize=4)
def lines_of(text: str) -> list[str]:
    """``split_lines(text)``, remembered for the last few texts (the document's text is
    split by the fast pass, the position conversions and the edits alike). Read only."""
    return split_lines(text)


class Units:
    """Converts between jaxlint positions and LSP positions for one text."""

    def __init__(self, text: str, encoding: str = "utf-16") -> None:
        self.lines = lines_of(text)
        self.encoding = encoding

    def _width(self, chars: str) -> int:
        if self.encoding == "utf-32" or chars.isascii():
            return len(chars)
        if self.encoding == "utf-8":
            return len(chars.encode("utf-8", "surrogatepass"))
        return len(chars.encode("utf-16-le", "surrogatepass")) // 2

    def to_lsp(self, pos: Position) -> LspPosition:
        row = min(max(pos.row, 1), len(self.lines))
        line = self.lines[row - 1]
        column = min(max(pos.column, 1), len(line) + 1)
        if row < pos.row:  # past the end of the text
            column = len(line) + 1
        return row - 1, self._width(line[: column - 1])

    def from_lsp(self, line: int, character: int) -> Position:
        row = min(max(line, 0), len(self.lines) - 1)
        text = self.lines[row]
        if self.encoding == "utf-32" or text.isascii():
            return Position(row + 1, min(max(character, 0), len(text)) + 1)
        count = 0
        for index, char in enumerate(text):
            if count >= character:
                return Position(row + 1, index + 1)
            count += self._width(char)
        return Position(row + 1, len(text) + 1)


def apply_change(
    text: str,
    start: LspPosition | None,
    end: LspPosition | None,
    new: str,
    encoding: str = "utf-16",
) -> str:
    """``text`` after one ``didChange`` content change (``start`` None: the whole text).

    Lines are split where LSP splits them (``\\n``, ``\\r\\n``, ``\\r``), not where
    ``str.splitlines`` does: a form feed or U+2028 in a comment is not a line break.
    """
    if start is None or end is None:
        return new
    units = Units(text, encoding)
    if "\r" in text:
        starts = [0, *(m.end() for m in _LINE_BREAK.finditer(text))]
    else:  # every break is one character: sum the line lengths (far quicker)
        starts = _LfStarts(units.lines)
    first = _offset(units, starts, text, start)
    last = _offset(units, starts, text, end)
    if last < first:
        first, last = last, first
    return text[:first] + new + text[last:]


_LINE_BREAK = re.compile(r"\r\n|\r|\n")


class _LfStarts:
    """``starts[i]``: the offset of line ``i`` of a text whose breaks are all ``\\n``."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines

    def __len__(self) -> int:
        return len(self.lines)

    def __getitem__(self, line: int) -> int:
        return sum(map(len, self.lines[:line])) + line


def _offset(units: Units, starts, text: str, pos: LspPosition) -> int:
    if pos[0] >= len(starts):
        return len(text)
    return starts[pos[0]] + units.from_lsp(*pos).column - 1


def fix_title(diag: Diagnostic) -> str | None:
    """``Fix JAX602: Replace with `jnp.zeros` (safe fix)``, or None without an applicable fix."""
    if diag.fix is None or not diag.fix.edits:
        return None
    kind = {Applicability.SAFE: "safe fix", Applicability.UNSAFE: "unsafe fix"}.get(
        diag.fix.applicability
    )
    if kind is None:  # display-only: shown in the message, never applied
        return None
    return f"Fix {diag.code}: {diag.fix.message} ({kind})"


def fix_edits(diag: Diagnostic, units: Units) -> list[TextEdit]:
    assert diag.fix is not None
    return [TextEdit(units.to_lsp(e.start), units.to_lsp(e.end), e.content) for e in diag.fix.edits]


def whole_text_edit(old: str, new: str, units: Units) -> TextEdit:
    """One edit that turns ``old`` into ``new``: the differing middle only, so the
    editor keeps the cursor and the folds outside it."""
    prefix = 0
    limit = min(len(old), len(new))
    while prefix < limit and old[prefix] == new[prefix]:
        prefix += 1
    suffix = 0
    while suffix < limit - prefix and old[len(old) - 1 - suffix] == new[len(new) - 1 - suffix]:
        suffix += 1
    # never cut a \r\n pair in two
    while prefix > 0 and old[prefix - 1] == "\r":
        prefix -= 1
    cut = len(old) - suffix
    while suffix > 0 and old[cut] == "\n" and cut > 0 and old[cut - 1] == "\r":
        suffix -= 1
        cut += 1
    start = _offset_position(old, prefix)
    end = _offset_position(old, len(old) - suffix)
    return TextEdit(units.to_lsp(start), units.to_lsp(end), new[prefix : len(new) - suffix])


def _offset_position(text: str, offset: int) -> Position:
    head = text[:offset]
    lines = split_lines(head)
    return Position(len(lines), len(lines[-1]) + 1)


def fix_all(
    text: str,
    lint: Callable[[str], list[Diagnostic]],
    *,
    unsafe: bool,
    known: list[Diagnostic] | None = None,
) -> tuple[str, int] | None:
    """The text with every applicable fix applied (the fix loop of ``jaxlint check --fix``)
    and how many were applied; ``None`` when nothing changes.

    ``known``: the text's diagnostics as last published. When every applicable one
    carries its edits, they are applied in one pass and nothing is linted (a fix that
    makes another possible is offered by the lint of the fixed text, as the editor
    sends it); else the fix loop starts from them rather than from a lint of ``text``.
    """
    from jaxlint.fixers.fixpoint import fix_text, is_applicable

    if known is not None:
        wanted = [d for d in known if is_applicable(d, unsafe)]
        one_pass = all(d.fix is not None and d.fix.edits for d in wanted)
        given = lint

        def lint(current: str) -> list[Diagnostic]:
            if current == text:
                return known
            return [] if one_pass else given(current)

    outcome = fix_text(text, lint, unsafe=unsafe)
    if outcome.text == text:
        return None
    return outcome.text, outcome.total_applied


def noqa_edit(
    text: str, diag: Diagnostic, units: Units, spans: Sequence[Any] | None = None
) -> TextEdit | None:
    """The edit that silences ``diag`` on its line: extend its ``# noqa: ...`` or add one.

    ``None`` when that cannot be done by a comment: the line ends inside a string or
    with a backslash (the text would change meaning or stop parsing), or a bare
    ``# noqa`` is already there.

    ``spans``: the text's top-level statements (``incremental.statement_spans``, rows
    from 1), when known: then only the statements around the line are parsed again,
    not the whole text (a code action on a 2,000-line file parsed it twice per finding).
    """
    lines = units.lines
    if not 1 <= diag.start.row <= len(lines):
        return None
    line = lines[diag.start.row - 1]
    existing = noqa_codes(line)
    if existing is not None and suppresses(existing, diag.code):
        return None
    match = _NOQA_INLINE.search(line) if existing is not None else None
    if match is not None and match.group("codes"):
        codes = match.group("codes")
        at = match.start("codes") + len(codes.rstrip(", \t"))
        new_line = f"{line[:at]}, {diag.code}{line[at:]}"
    else:
        body = line.rstrip(" \t")
        new_line = f"{body}  # noqa: {diag.code}"
    chunk = _statement_rows(spans, diag.start.row) if spans is not None else None
    if chunk is not None:
        first, last = chunk
        part = lines[first - 1 : last]
        if not _same_program("\n".join(part), part, diag.start.row - first + 1, new_line):
            return None
    elif not _same_program(text, lines, diag.start.row, new_line):
        return None
    row = diag.start.row - 1
    return TextEdit((row, 0), (row, units._width(line)), new_line)


_TRAILING_BACKSLASH = re.compile(r"\\\s*$")


def _statement_rows(spans: Sequence[Any], row: int) -> tuple[int, int] | None:
    """The first and last rows of the top-level statements on ``row`` (a statement starts
    outside any string, so these rows tokenize as they do in the whole text), or None
    when no statement covers it (a comment or blank line between statements)."""
    found = [s for s in spans if s.start <= row <= s.end]
    if not found:
        return None
    first = min(s.start for s in found)
    last = max(s.end for s in found)
    # statements that share the first or last row (``a = 1; b = 2``) come along
    for s in spans:
        if s.start <= last and s.end >= first:
            first, last = min(first, s.start), max(last, s.end)
    return first, last


def _same_program(text: str, lines: list[str], row: int, new_line: str) -> bool:
    """The comment changes only comments: the new text parses to the same tree."""
    if _TRAILING_BACKSLASH.search(lines[row - 1]):
        return False
    new_text = _replace_line(text, row, new_line)
    if noqa_codes(split_lines(new_text)[row - 1]) is None:
        return False
    before = _tree_dump(text)
    return before is not None and before == _tree_dump(new_text)


@functools.lru_cache(maxsize=8)
def _tree_dump(text: str) -> str | None:
    """``ast.dump`` of the text's tree, or None when it does not parse (remembered: the
    text before the comment is the same for every finding of a code action)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ast.dump(ast.parse(text))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _replace_line(text: str, row: int, new_line: str) -> str:
    pieces = re.split(r"(\r\n|\r|\n)", text)
    pieces[2 * (row - 1)] = new_line
    return "".join(pieces)
