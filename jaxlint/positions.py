"""Node positions, as libcst's ``PositionProvider`` gives them, computed several times faster.

libcst computes positions by generating the module's code with a codegen state
that updates a line and a column on every token (a regular-expression split per
token) and builds ``CodePosition``/``CodeRange`` objects for every node through
a generator-based context manager. That costs about as much as the parse, and
jaxlint needs positions only for the handful of nodes it reports.

Here the same code generation (libcst's own ``_codegen`` methods, so the same
hooks in the same order) only adds up character offsets, and a node's range is
turned into lines and columns when it is asked for.

Offsets are those of the file's text, the text every fix is applied to. libcst
round-trips nearly every file, but not all: a form feed that starts a line, and
the blanks around it before a statement (``\fx = 1``, ``    \fy = 2``), are not
kept by its parser (Python ignores them), so its generated code is shorter than
the text and every later column on that line would be off (issue 28: the safe
JAX702 fix wrote ``x =jax.tree.mapp(f, y)``). The generated code is then aligned
with the text (it differs only by those dropped blanks, never a line break) and
every offset is moved to the text's; the dropped runs are kept so that a fix
whose replaced text holds one is not offered (its new text would lose them). If
the two cannot be aligned, positions are marked inexact and no fix is offered.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import libcst as cst
from libcst._nodes.internal import CodegenState
from libcst.metadata import CodePosition, CodeRange, MetadataWrapper, PositionProvider

_NEWLINE_RE = re.compile(r"\r\n?|\n")

_SHIFT = 40
_MASK = (1 << _SHIFT) - 1
"""A node's span is one int, ``start << _SHIFT | end`` (offsets below 1 TB): a tuple of
two ints costs about 120 bytes per node, this about 32, and a module has one node per
two or three source bytes (memory: docs/performance.md)."""


@dataclass
class _OffsetState(CodegenState):
    """A codegen state that records each node's (start, end) character offsets."""

    offset: int = 0
    spans: dict[cst.CSTNode, int] = field(default_factory=dict)
    """Node -> ``start << _SHIFT | end``."""
    starts: list[int] = field(default_factory=list)
    indent_width: int = 0
    popped: str = ""

    def increase_indent(self, value: str) -> None:
        self.indent_tokens.append(value)
        self.indent_width += len(value)

    def decrease_indent(self) -> None:
        self.indent_width -= len(self.indent_tokens.pop())

    def add_indent_tokens(self) -> None:
        self.tokens.extend(self.indent_tokens)  # Module reads len(tokens)
        self.offset += self.indent_width

    def add_token(self, value: str) -> None:
        self.tokens.append(value)
        self.offset += len(value)

    def pop_trailing_newline(self) -> None:
        # the module drops its last newline when the file has none; the ranges already
        # recorded stay as they are (so does libcst's provider)
        if self.tokens:
            self.popped = self.tokens.pop()

    def before_codegen(self, node: cst.CSTNode) -> None:
        self.starts.append(self.offset)

    def after_codegen(self, node: cst.CSTNode) -> None:
        start = self.starts.pop()
        if node not in self.spans:  # a syntactic position recorded inside wins
            self.spans[node] = start << _SHIFT | self.offset

    def record_syntactic_position(
        self,
        node: cst.CSTNode,
        *,
        start_node: cst.CSTNode | None = None,
        end_node: cst.CSTNode | None = None,
    ) -> _Syntactic:
        return _Syntactic(self, node, start_node, end_node)


class _Syntactic:
    """``record_syntactic_position`` as a plain context manager (no generator per node)."""

    __slots__ = ("end_node", "node", "start", "start_node", "state")

    def __init__(
        self,
        state: _OffsetState,
        node: cst.CSTNode,
        start_node: cst.CSTNode | None,
        end_node: cst.CSTNode | None,
    ) -> None:
        self.state = state
        self.node = node
        self.start_node = start_node
        self.end_node = end_node
        self.start = 0

    def __enter__(self) -> None:
        self.start = self.state.offset

    def __exit__(self, *exc: object) -> None:
        spans = self.state.spans
        start = spans[self.start_node] >> _SHIFT if self.start_node is not None else self.start
        end = spans[self.end_node] & _MASK if self.end_node is not None else self.state.offset
        spans[self.node] = start << _SHIFT | end


_DROPPABLE = " \t\f"
"""What libcst's parser may leave out of a line's start (around a form feed)."""


@dataclass
class _Shifts:
    """Where libcst's generated code is shorter than the text: the blanks it dropped.

    ``points[k]`` is the generated offset just after the ``k``-th dropped run and
    ``deltas[k]`` how many characters were dropped up to and including it;
    ``runs`` are the dropped runs as (start, end) offsets in the text."""

    points: list[int]
    deltas: list[int]
    runs: list[tuple[int, int]]

    def start(self, offset: int) -> int:
        """The text offset of the character at generated ``offset`` (after any dropped run)."""
        k = bisect.bisect_right(self.points, offset)
        return offset + (self.deltas[k - 1] if k else 0)

    def end(self, offset: int) -> int:
        """The text offset just after the character before generated ``offset``."""
        if offset == 0:
            return 0
        k = bisect.bisect_right(self.points, offset - 1)
        return offset + (self.deltas[k - 1] if k else 0)


def _align(generated: str, text: str) -> _Shifts | None:
    """The runs of blanks ``text`` has that ``generated`` lacks, or ``None`` if it differs
    otherwise: blanks inside a line, and whole lines of blanks with their line break (libcst
    1.9 leaves out the empty lines before a last line of blanks or a comment after the last
    statement: ``x = 1\\n\\n \\n`` comes back as ``x = 1\\n \\n``)."""
    points: list[int] = []
    deltas: list[int] = []
    runs: list[tuple[int, int]] = []
    gen_lines = _NEWLINE_RE.split(generated)
    text_lines = _NEWLINE_RE.split(text)
    gen_starts = [0] + [m.end() for m in _NEWLINE_RE.finditer(generated)]
    text_starts = [0] + [m.end() for m in _NEWLINE_RE.finditer(text)]
    dropped = 0
    row = 0  # in the generated code
    for text_row, t in enumerate(text_lines):
        text_at = text_starts[text_row]
        text_break = (
            text[text_at + len(t) : text_starts[text_row + 1]]
            if text_row + 1 < len(text_starts)
            else ""
        )
        if row < len(gen_lines):
            g = gen_lines[row]
            gen_at = gen_starts[row]
            gen_break = (
                generated[gen_at + len(g) : gen_starts[row + 1]]
                if row + 1 < len(gen_starts)
                else ""
            )
            inside = _align_line(g, t) if gen_break == text_break else None
            if inside is not None:
                for i, run_start, run_end in inside:
                    dropped += run_end - run_start
                    points.append(gen_at + i)
                    deltas.append(dropped)
                    runs.append((text_at + run_start, text_at + run_end))
                row += 1
                continue
        if t.strip(_DROPPABLE) or not text_break:
            return None  # not a whole line of blanks that libcst left out
        dropped += len(t) + len(text_break)
        points.append(gen_starts[row] if row < len(gen_starts) else len(generated))
        deltas.append(dropped)
        runs.append((text_at, text_at + len(t) + len(text_break)))
    if row != len(gen_lines):
        return None
    return _Shifts(points, deltas, runs)


def _align_line(g: str, t: str) -> list[tuple[int, int, int]] | None:
    """The runs of blanks the text's line ``t`` has that the generated line ``g`` lacks, as
    (offset in ``g`` they come before, start and end in ``t``), or ``None``."""
    if g == t:
        return []
    found: list[tuple[int, int, int]] = []
    i = j = 0
    while j < len(t):
        if i < len(g) and g[i] == t[j]:
            i += 1
            j += 1
            continue
        if t[j] not in _DROPPABLE:
            return None
        run_start = j
        while j < len(t) and t[j] in _DROPPABLE and not (i < len(g) and g[i] == t[j]):
            j += 1
        found.append((i, run_start, j))
    if i != len(g):
        return None
    return found


class Positions(Mapping[cst.CSTNode, CodeRange]):
    """Node -> ``CodeRange`` (1-based lines, 0-based columns), built on first access.

    Lines and columns are the text's (``shifts``: where libcst's generated code
    left blanks out)."""

    exact = True
    """Whether the positions are the text's (see :class:`_Inexact`)."""

    def __init__(
        self, spans: dict[cst.CSTNode, int], text: str, shifts: _Shifts | None = None
    ) -> None:
        self._spans = spans
        self._line_starts = [0] + [m.end() for m in _NEWLINE_RE.finditer(text)]
        self._ranges: dict[cst.CSTNode, CodeRange] = {}
        self._shifts = shifts

    def _text_span(self, node: cst.CSTNode) -> tuple[int, int]:
        span = self._spans[node]
        start, end = span >> _SHIFT, span & _MASK
        shifts = self._shifts
        if shifts is None:
            return start, end
        if start == end:
            start = end = shifts.start(start)
        else:
            start, end = shifts.start(start), shifts.end(end)
        return start, end

    @property
    def has_drops(self) -> bool:
        """Whether the text holds blanks that libcst's tree does not keep."""
        return self._shifts is not None and bool(self._shifts.runs)

    def drops_within(self, node: cst.CSTNode) -> bool:
        """Whether the text of ``node`` holds blanks that libcst's tree does not keep
        (code generated from the node would lose them)."""
        if self._shifts is None:
            return False
        start, end = self._text_span(node)
        return any(a < end and b > start for a, b in self._shifts.runs)

    def _position(self, offset: int) -> CodePosition:
        line = bisect.bisect_right(self._line_starts, offset)
        return CodePosition(line, offset - self._line_starts[line - 1])

    def __getitem__(self, node: cst.CSTNode) -> CodeRange:
        found = self._ranges.get(node)
        if found is None:
            start, end = self._text_span(node)
            found = CodeRange(self._position(start), self._position(end))
            self._ranges[node] = found
        return found

    def __iter__(self) -> Iterator[cst.CSTNode]:
        return iter(self._spans)

    def __len__(self) -> int:
        return len(self._spans)

    def __contains__(self, node: object) -> bool:
        return node in self._spans


def compute_positions(module: cst.Module, text: str | None = None) -> Mapping[Any, CodeRange]:
    """Every node's ``PositionProvider`` range; ``text`` is the source ``module`` came from."""
    if text is None:
        text = module.code
    state = _OffsetState(
        default_indent=module.default_indent, default_newline=module.default_newline
    )
    try:
        module._codegen(state)
    except Exception:  # a libcst that generates code differently: use its own provider
        ranges = _libcst_positions(module)
        try:
            same = module.code == text
        except Exception:
            same = False
        return ranges if same else _Inexact(ranges)
    # the popped newline still counts for the ranges that end after it
    if state.offset - len(state.popped) == len(text):
        return Positions(state.spans, text + state.popped)
    # libcst left something out (a form feed that starts a line): align with the text
    generated = "".join(state.tokens) + state.popped
    # a file that ends with a lone "\r" keeps it, although libcst pops it as "missing"
    for full in (text + state.popped, text):
        shifts = _align(generated, full)
        if shifts is not None:
            return Positions(state.spans, full, shifts)
    return _Inexact(_libcst_positions(module))  # never seen: libcst drops only blanks


class _Inexact(Mapping[cst.CSTNode, CodeRange]):
    """libcst's positions of a tree whose code differs from the text in a way that
    could not be aligned: good enough to report a finding, not to apply a fix."""

    exact = False

    def __init__(self, ranges: Mapping[Any, CodeRange]) -> None:
        self._ranges = ranges

    def __getitem__(self, node: cst.CSTNode) -> CodeRange:
        return self._ranges[node]

    def __iter__(self) -> Iterator[cst.CSTNode]:
        return iter(self._ranges)

    def __len__(self) -> int:
        return len(self._ranges)

    def drops_within(self, node: cst.CSTNode) -> bool:
        return True


def _libcst_positions(module: cst.Module) -> Mapping[Any, CodeRange]:
    return MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
