"""Applying text edits: positions to offsets, conflicts, and one pass of fixes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from jaxlint.diagnostics import Edit, Fix, Position


class LineIndex:
    """Maps 1-based (row, column) positions to offsets in a text."""

    def __init__(self, text: str) -> None:
        self.text = text
        starts = [0]
        i = 0
        n = len(text)
        while i < n:
            ch = text[i]
            if ch == "\n":
                starts.append(i + 1)
            elif ch == "\r":
                if i + 1 < n and text[i + 1] == "\n":
                    i += 1
                starts.append(i + 1)
            i += 1
        self.starts = starts

    def offset(self, pos: Position) -> int:
        if pos.row - 1 >= len(self.starts):
            return len(self.text)
        return min(self.starts[pos.row - 1] + pos.column - 1, len(self.text))


@dataclass(frozen=True)
class _Span:
    start: int
    end: int
    content: str


def _spans(index: LineIndex, fix: Fix) -> list[_Span]:
    return [_Span(index.offset(e.start), index.offset(e.end), e.content) for e in fix.edits]


def _overlaps(a: _Span, b: _Span) -> bool:
    if a == b:
        return False  # the same edit twice (e.g. two fixes adding ``import jax``)
    if a.start == a.end and b.start == b.end:
        return a.start == b.start  # two different insertions at one point: order unclear
    return a.start < b.end and b.start < a.end


def apply_fixes(text: str, fixes: Sequence[Fix]) -> tuple[str, list[Fix]]:
    """Apply every fix that does not conflict with one chosen before it.

    Fixes are taken in order of their first edit; a fix whose edits overlap an
    already chosen edit is left for the next pass of the fix loop.
    """
    index = LineIndex(text)
    ordered = sorted((f for f in fixes if f.edits), key=lambda f: min(e.start for e in f.edits))
    chosen: list[Fix] = []
    taken: list[_Span] = []
    imported: set[str] = set()  # ``import x`` lines the chosen edits write
    for fix in ordered:
        spans = _spans(index, fix)
        if any(_overlaps(s, t) for s in spans for t in taken):
            continue
        if any(_overlaps(a, b) for i, a in enumerate(spans) for b in spans[i + 1 :]):
            continue
        adds = {line for s in spans if s not in taken for line in _import_lines(s.content)}
        if adds & imported:
            # another fix writes the same import elsewhere (one rewrites an import
            # statement, the other adds one after the imports): the next pass re-lints
            # and sees it there
            continue
        chosen.append(fix)
        imported |= adds
        for s in spans:
            if s not in taken:
                taken.append(s)
    out = text
    for span in sorted(taken, key=lambda s: (s.start, s.end), reverse=True):
        out = out[: span.start] + span.content + out[span.end :]
    return out, chosen


def _import_lines(content: str) -> set[str]:
    """The ``import x`` statements that ``content`` writes, one per line."""
    return {
        line.strip()
        for line in content.splitlines()
        if line.strip().startswith("import ") and "," not in line
    }


def edit_text(text: str, edits: Sequence[Edit]) -> str:
    """Apply edits that are known not to overlap."""
    index = LineIndex(text)
    spans = sorted(
        {_Span(index.offset(e.start), index.offset(e.end), e.content) for e in edits},
        key=lambda s: (s.start, s.end),
        reverse=True,
    )
    for span in spans:
        text = text[: span.start] + span.content + text[span.end :]
    return text
