"""Node positions, as libcst's ``PositionProvider`` gives them, computed several times faster.

libcst computes positions by generating the module's code with a codegen state
that updates a line and a column on every token (a regular-expression split per
token) and builds ``CodePosition``/``CodeRange`` objects for every node through
a generator-based context manager. That costs about as much as the parse, and
jaxlint needs positions only for the handful of nodes it reports.

Here the same code generation (libcst's own ``_codegen`` methods, so the same
hooks in the same order) only adds up character offsets, and a node's range is
turned into lines and columns when it is asked for. The result is checked
against the source: if the generated length differs from the text (it never
should: libcst round-trips), libcst's own provider is used instead.
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


class Positions(Mapping[cst.CSTNode, CodeRange]):
    """Node -> ``CodeRange`` (1-based lines, 0-based columns), built on first access."""

    def __init__(self, spans: dict[cst.CSTNode, int], text: str) -> None:
        self._spans = spans
        self._line_starts = [0] + [m.end() for m in _NEWLINE_RE.finditer(text)]
        self._ranges: dict[cst.CSTNode, CodeRange] = {}

    def _position(self, offset: int) -> CodePosition:
        line = bisect.bisect_right(self._line_starts, offset)
        return CodePosition(line, offset - self._line_starts[line - 1])

    def __getitem__(self, node: cst.CSTNode) -> CodeRange:
        found = self._ranges.get(node)
        if found is None:
            span = self._spans[node]
            start, end = span >> _SHIFT, span & _MASK
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
        return _libcst_positions(module)
    if state.offset - len(state.popped) != len(text):  # never seen: libcst round-trips
        return _libcst_positions(module)
    # the popped newline still counts for the ranges that end after it
    return Positions(state.spans, text + state.popped)


def _libcst_positions(module: cst.Module) -> Mapping[Any, CodeRange]:
    return MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
