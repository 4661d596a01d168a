"""Jupyter notebooks (``.ipynb``): the code cells as one module, and fixes written back.

A notebook is read with the standard library's :mod:`json` (no nbformat): the
parsed document validates it, and a small scanner over the same text finds where
each cell's ``source`` value lies, so that writing fixes back replaces those
characters and nothing else. Everything outside an edited cell's ``source``
(indentation, key order, escapes, outputs, metadata, the trailing newline) stays
byte for byte.

Cells run in order, so the code cells are analysed as one module: their texts
joined, each followed by a separator line (a comment, :data:`CELL_MARK`), so a
jitted function defined in cell 2 and called in a loop in cell 5 is known. A
position in that module maps back to a cell by its row; columns are unchanged.
Cell numbers count every cell, markdown included, from 1 (ruff's convention).

IPython syntax is masked before parsing: line magics (``%timeit f(x)``), shell
escapes (``!pip install jax``, ``files = !ls``), help (``?obj``, ``obj??``) become
``pass`` lines tagged with a comment, and they are never reported and never
edited (a fix that would touch one is not applied). A cell that starts with a
cell magic runs as Python only for the magics in :data:`PYTHON_CELL_MAGICS`
(``%%time``, ``%%timeit``, ...: the first line is masked); any other
(``%%bash``, ``%%writefile``) is not Python and is skipped, as ruff skips it.
"""

from __future__ import annotations

import bisect
import codecs
import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from jaxlint.diagnostics import Diagnostic, Edit, Fix, Position
from jaxlint.source import FileIdentity, read_regular

NOTEBOOK_SUFFIX = ".ipynb"

PYTHON_CELL_MAGICS = frozenset(
    {"capture", "debug", "prun", "pypy", "python", "python3", "time", "timeit"}
)
"""Cell magics whose body is Python (ruff's list): the body is checked."""

CELL_MARK = "# jaxlint: end of notebook cell"
"""The separator line after each cell in the joined module (a comment: never walked)."""
_SEP = f"\n{CELL_MARK}\n"
MAGIC_TAG = "jaxlint: IPython line"
"""The comment on a masked line: ``pass  # jaxlint: IPython line 3``."""
_PLACEHOLDER_RE = re.compile(rf"^([ \t]*)pass  # {MAGIC_TAG} (\d+)$")
_LINE_BREAK_RE = re.compile(r"\r\n|\r|\n")
_ASSIGN_ESCAPE_RE = re.compile(
    r"[A-Za-z_][\w.]*(?:\s*,\s*[A-Za-z_][\w.]*)*\s*=\s*[!%]"
)  # files = !ls, t = %timeit -o f()
_LINE_REF_RE = re.compile(r"(?<![\w`])line (\d+)\b")
_WS_RE = re.compile(r"[ \t\n\r]*")
_NON_ASCII_ESCAPE_RE = re.compile(
    r"(?<!\\)(?:\\\\)*\\u(?:00[89a-fA-F][0-9a-fA-F]|0[1-9a-fA-F][0-9a-fA-F]{2}|[1-9a-fA-F][0-9a-fA-F]{3})"
)


class NotebookError(Exception):
    """The file is not a notebook jaxlint can read (bad JSON, nbformat 3, no ``source``...).

    Reported as an ``error:`` line with exit code 2; the file is never written."""


def is_notebook(path: str | os.PathLike[str]) -> bool:
    return os.fspath(path).lower().endswith(NOTEBOOK_SUFFIX)


# -- reading -------------------------------------------------------------------------------------


@dataclass
class Cell:
    """One cell with a ``source``."""

    number: int
    """1-based, counting every cell (markdown too), as Jupyter and ruff show it."""
    cell_type: str
    text: str
    """The source, its list items joined."""
    span: tuple[int, int]
    """Where the ``source`` value lies in the document text."""
    key_start: int
    """Where the ``"source"`` key starts (its line's indentation is the cell's)."""
    is_list: bool
    python: bool = False
    """A code cell of a Python notebook that is not a non-Python cell magic."""


@dataclass
class Notebook:
    text: str
    """The document, decoded (without a BOM)."""
    bom: bool
    cells: list[Cell]
    ensure_ascii: bool
    """Non-ASCII characters in the document are written as ``\\uXXXX`` escapes."""
    identity: FileIdentity | None = None
    """Set by :func:`read_notebook`: a fix is written only if the file still matches it."""

    @property
    def python_cells(self) -> list[Cell]:
        return [c for c in self.cells if c.python]

    def module(self) -> NotebookModule | None:
        """The Python cells as one module, or None when the notebook has none
        (:class:`NotebookError` if a cell holds the separator line itself)."""
        cells = self.python_cells
        if not cells:
            return None
        return NotebookModule.build(cells)

    def with_sources(self, new: dict[int, str]) -> bytes:
        """The notebook's bytes with the ``source`` of the cells in ``new`` (cell number ->
        text) replaced; every other byte as it was."""
        out: list[str] = []
        last = 0
        for cell in sorted(self.cells, key=lambda c: c.span):
            text = new.get(cell.number)
            if text is None or text == cell.text:
                continue
            start, end = cell.span
            out.append(self.text[last:start])
            out.append(self._source_value(cell, text))
            last = end
        out.append(self.text[last:])
        data = "".join(out).encode("utf-8", "surrogatepass")
        return (codecs.BOM_UTF8 + data) if self.bom else data

    def _source_value(self, cell: Cell, text: str) -> str:
        def dump(s: str) -> str:
            return json.dumps(s, ensure_ascii=self.ensure_ascii)

        if not cell.is_list:
            return dump(text)
        items = re.findall(r"[^\n]*\n|[^\n]+", text)
        if not items:
            return "[]"
        opening, sep, closing = self._list_layout(cell)
        return "[" + opening + sep.join(dump(i) for i in items) + closing + "]"

    def _list_layout(self, cell: Cell) -> tuple[str, str, str]:
        """The whitespace after ``[``, between items and before ``]`` of a source list,
        as this notebook writes it (from this cell, else another cell, else nbformat's)."""
        for candidate in [cell, *self.cells]:
            if candidate.is_list:
                found = _layout_of(self.text, *candidate.span)
                if found is not None:
                    return found
        line_start = self.text.rfind("\n", 0, cell.key_start) + 1
        indent = self.text[line_start : cell.key_start]
        if line_start == 0 or indent.strip():
            return "", ", ", ""  # everything on one line
        unit = _indent_unit(self.text) or " "
        return f"\n{indent}{unit}", f",\n{indent}{unit}", f"\n{indent}"


def _layout_of(doc: str, start: int, end: int) -> tuple[str, str, str] | None:
    decoder = json.JSONDecoder()
    i = _skip(doc, start + 1)
    opening = doc[start + 1 : i]
    ends: list[int] = []
    starts: list[int] = []
    while i < end and doc[i] != "]":
        starts.append(i)
        _, j = decoder.raw_decode(doc, i)
        ends.append(j)
        i = _skip(doc, j)
        if doc[i] == ",":
            i = _skip(doc, i + 1)
    if not starts:
        return None
    closing = doc[ends[-1] : end - 1]
    if len(starts) >= 2:
        sep = doc[ends[0] : starts[1]]
    else:
        sep = "," + opening if opening else ", "
    return opening, sep, closing


def _indent_unit(doc: str) -> str:
    """The indentation of the top-level keys (nbformat writes one space)."""
    i = _skip(doc, 0)
    if i >= len(doc) or doc[i] != "{":
        return ""
    j = _skip(doc, i + 1)
    gap = doc[i + 1 : j]
    return gap[gap.rfind("\n") + 1 :] if "\n" in gap else ""


def _skip(doc: str, i: int) -> int:
    match = _WS_RE.match(doc, i)
    assert match is not None
    return match.end()


def _members(doc: str, i: int) -> Iterator[tuple[str, int, int, int]]:
    """``(key, key_start, value_start, value_end)`` of the JSON object at ``doc[i]``."""
    decoder = json.JSONDecoder()
    i = _skip(doc, i + 1)
    if doc[i] == "}":
        return
    while True:
        key_start = i
        key, i = decoder.raw_decode(doc, i)
        i = _skip(doc, i)
        i = _skip(doc, i + 1)  # the colon
        _, end = decoder.raw_decode(doc, i)
        yield key, key_start, i, end
        i = _skip(doc, end)
        if doc[i] == "}":
            return
        i = _skip(doc, i + 1)  # the comma


def _elements(doc: str, i: int) -> Iterator[tuple[int, int]]:
    """``(start, end)`` of each element of the JSON array at ``doc[i]``."""
    decoder = json.JSONDecoder()
    i = _skip(doc, i + 1)
    if doc[i] == "]":
        return
    while True:
        _, end = decoder.raw_decode(doc, i)
        yield i, end
        i = _skip(doc, end)
        if doc[i] == "]":
            return
        i = _skip(doc, i + 1)


def read_notebook(path: Path) -> Notebook:
    """Read and parse ``path``: :class:`SourceError` for IO, :class:`NotebookError` for content."""
    data, identity, _ = read_regular(path)
    book = parse_notebook(data)
    book.identity = identity
    return book


def parse_notebook(data: bytes) -> Notebook:
    """Parse a notebook's bytes (nbformat 4, UTF-8); :class:`NotebookError` if it is not one."""
    bom = data.startswith(codecs.BOM_UTF8)
    try:
        doc = data[3 if bom else 0 :].decode("utf-8")
    except UnicodeDecodeError as exc:
        raise NotebookError(
            f"not a valid notebook: byte {exc.start} is not UTF-8 (notebooks are UTF-8 JSON)"
        ) from None
    try:
        parsed = json.loads(doc)
    except json.JSONDecodeError as exc:
        raise NotebookError(
            f"not a valid notebook: invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
        ) from None
    except (ValueError, RecursionError) as exc:
        raise NotebookError(f"not a valid notebook: invalid JSON: {exc}") from None
    if not isinstance(parsed, dict):
        raise NotebookError("not a valid notebook: the JSON document is not an object")
    version = parsed.get("nbformat")
    if version is None:
        raise NotebookError("not a valid notebook: no `nbformat` version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise NotebookError(f"not a valid notebook: `nbformat` is {version!r}, not a number")
    if version != 4:
        raise NotebookError(
            f"nbformat {version} is not supported, only nbformat 4 (convert the notebook"
            " with `jupyter nbconvert --to notebook --nbformat 4`)"
        )
    raw_cells = parsed.get("cells")
    if not isinstance(raw_cells, list):
        raise NotebookError("not a valid notebook: `cells` is missing or not a list")
    python = _is_python(parsed.get("metadata"))
    cells: list[Cell] = []
    top = {key: (k0, v0, v1) for key, k0, v0, v1 in _members(doc, _skip(doc, 0))}
    spans = list(_elements(doc, top["cells"][1]))
    for number, (raw, (c0, _)) in enumerate(zip(raw_cells, spans, strict=True), start=1):
        if not isinstance(raw, dict):
            raise NotebookError(f"not a valid notebook: cell {number} is not an object")
        cell_type = raw.get("cell_type")
        if not isinstance(cell_type, str):
            raise NotebookError(f"not a valid notebook: cell {number} has no `cell_type`")
        if "source" not in raw:
            raise NotebookError(f"not a valid notebook: cell {number} has no `source`")
        source = raw["source"]
        if isinstance(source, list) and all(isinstance(s, str) for s in source):
            text = "".join(source)
        elif isinstance(source, str):
            text = source
        else:
            raise NotebookError(
                f"not a valid notebook: the `source` of cell {number} is neither a string"
                " nor a list of strings"
            )
        members = {key: (k0, v0, v1) for key, k0, v0, v1 in _members(doc, c0)}
        k0, v0, v1 = members["source"]
        cells.append(
            Cell(
                number=number,
                cell_type=cell_type,
                text=text,
                span=(v0, v1),
                key_start=k0,
                is_list=isinstance(source, list),
                python=python and cell_type == "code" and _is_python_cell(text),
            )
        )
    ensure_ascii = doc.isascii() and _NON_ASCII_ESCAPE_RE.search(doc) is not None
    return Notebook(text=doc, bom=bom, cells=cells, ensure_ascii=ensure_ascii)


def _is_python(metadata: object) -> bool:
    """The notebook's kernel runs Python (or does not say)."""
    if not isinstance(metadata, dict):
        return True
    for key, field_name in (("language_info", "name"), ("kernelspec", "language")):
        info = metadata.get(key)
        if isinstance(info, dict) and isinstance(info.get(field_name), str):
            return info[field_name].strip().lower() in ("python", "python3", "ipython")
    return True


def _cell_magic(text: str) -> str | None:
    """The name of the cell magic the cell starts with (``%%time`` -> ``time``), if any."""
    for line in _LINE_BREAK_RE.split(text):
        stripped = line.strip()
        if not stripped:
            continue
        if stripped.startswith("%%"):
            return stripped[2:].split(maxsplit=1)[0] if len(stripped) > 2 else ""
        return None
    return None


def _is_python_cell(text: str) -> bool:
    magic = _cell_magic(text)
    return magic is None or magic in PYTHON_CELL_MAGICS


# -- the module of all Python cells ----------------------------------------------------------------


def _is_escape(line: str) -> bool:
    """An IPython line that is not Python: ``%magic``, ``!shell``, ``?help``, ``x = !ls``."""
    s = line.lstrip()
    if not s or s[0] == "#":
        return False
    if s[0] in "%!?":
        return True
    if _ASSIGN_ESCAPE_RE.match(s):
        return True
    return s.rstrip().endswith("?") and "#" not in s


def _scan(line: str, depth: int, quote: str | None) -> tuple[int, str | None, bool]:
    """Brackets and strings open at the end of ``line``, and whether it continues with a
    backslash: enough to know where the next logical line starts."""
    i, n = 0, len(line)
    while i < n:
        c = line[i]
        if quote is not None:
            if c == "\\":
                i += 2
                continue
            if line.startswith(quote, i):
                i += len(quote)
                quote = None
                continue
            i += 1
            continue
        if c == "#":
            break
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth = max(0, depth - 1)
        elif c in "'\"":
            quote = line[i : i + 3] if line[i : i + 3] in ('"""', "'''") else c
            i += len(quote)
            continue
        i += 1
    continued = line.endswith("\\") and not (quote is not None and len(quote) == 3)
    if quote is not None and len(quote) == 1 and not line.endswith("\\"):
        quote = None  # an unterminated string: a syntax error Python will report
    return depth, quote, continued and quote is None


def mask_cell(text: str, first_id: int) -> tuple[str, dict[int, str], dict[int, str]]:
    """``text`` with its IPython lines replaced by tagged ``pass`` lines (same number of
    lines); the original lines by tag; and the indentation each ``pass`` line got (a
    magic's continuation lines get the indentation of its first line)."""
    parts = _LINE_BREAK_RE.split(text)
    breaks = _LINE_BREAK_RE.findall(text) + [""]
    masked: dict[int, str] = {}
    indents: dict[int, str] = {}
    next_id = first_id
    indent = ""

    def mask(row: int, first: bool) -> None:
        nonlocal next_id, indent
        line = parts[row]
        if first:
            indent = line[: len(line) - len(line.lstrip(" \t"))]
        masked[next_id] = line
        indents[next_id] = indent
        parts[row] = f"{indent}pass  # {MAGIC_TAG} {next_id}"
        next_id += 1

    depth, quote, continued, escaping = 0, None, False, False
    start = 0
    if _cell_magic(text) is not None:
        start = next(i for i, line in enumerate(parts) if line.strip())
        escaping = parts[start].endswith("\\")
        mask(start, True)
        start += 1
    for row in range(start, len(parts)):
        line = parts[row]
        if escaping:  # a masked line that ended with a backslash goes on here
            escaping = line.endswith("\\")
            mask(row, False)
            continue
        if depth == 0 and quote is None and not continued and _is_escape(line):
            escaping = line.endswith("\\")
            mask(row, True)
            continue
        depth, quote, continued = _scan(line, depth, quote)
    return "".join(p + b for p, b in zip(parts, breaks, strict=True)), masked, indents


def unmask(text: str, masked: dict[int, str], indents: dict[int, str]) -> tuple[str, list[int]]:
    """Put the original IPython lines back (shifted if a fix re-indented their ``pass``
    line); also return the tags found."""
    parts = _LINE_BREAK_RE.split(text)
    breaks = _LINE_BREAK_RE.findall(text) + [""]
    found: list[int] = []
    for row, line in enumerate(parts):
        match = _PLACEHOLDER_RE.match(line)
        if match is not None and int(match.group(2)) in masked:
            tag = int(match.group(2))
            found.append(tag)
            original, was, now = masked[tag], indents[tag], match.group(1)
            if now != was and original.startswith(was):
                original = now + original[len(was) :]
            parts[row] = original
    return "".join(p + b for p, b in zip(parts, breaks, strict=True)), found


def _line_count(text: str) -> int:
    return len(_LINE_BREAK_RE.findall(text)) + 1


@dataclass
class CellPosition:
    cell: int
    row: int
    column: int


@dataclass
class NotebookModule:
    """The Python cells joined into one module (see the module docstring)."""

    text: str
    numbers: list[int]
    """The cell number of each part, in order."""
    masked: dict[int, str] = field(default_factory=dict)
    """Tag -> the IPython line that the tagged ``pass`` line stands for."""
    indents: dict[int, str] = field(default_factory=dict)
    """Tag -> the indentation its ``pass`` line was given."""

    @classmethod
    def build(cls, cells: list[Cell]) -> NotebookModule:
        pieces: list[str] = []
        masked: dict[int, str] = {}
        indents: dict[int, str] = {}
        for cell in cells:
            if CELL_MARK in cell.text:
                raise NotebookError(
                    f"cell {cell.number} contains jaxlint's cell separator line"
                    f" {CELL_MARK!r}; the notebook cannot be checked"
                )
            text, found, found_indents = mask_cell(cell.text, len(masked) + 1)
            masked.update(found)
            indents.update(found_indents)
            pieces.append(text + _SEP)
        return cls("".join(pieces), [c.number for c in cells], masked, indents)

    def cell_texts(self, text: str | None = None) -> dict[int, str] | None:
        """Cell number -> its text (IPython lines restored) in ``text`` (default: the
        module's own), or None if ``text`` no longer has one part per cell."""
        parts = (self.text if text is None else text).split(_SEP)
        if len(parts) != len(self.numbers) + 1 or parts[-1] != "":
            return None
        out: dict[int, str] = {}
        tags: list[int] = []
        for number, part in zip(self.numbers, parts, strict=False):
            out[number], found = unmask(part, self.masked, self.indents)
            tags.extend(found)
        if sorted(tags) != sorted(self.masked):
            return None  # an IPython line was lost or copied: never write that
        return out

    def index(self, text: str | None = None) -> CellIndex | None:
        parts = (self.text if text is None else text).split(_SEP)
        if len(parts) != len(self.numbers) + 1:
            return None
        return CellIndex(self.numbers, parts[:-1])


class CellIndex:
    """Rows of the joined module -> (cell, row in the cell)."""

    def __init__(self, numbers: list[int], parts: list[str]) -> None:
        self.numbers = numbers
        self.starts: list[int] = []
        self.counts: list[int] = []
        self.last_lines: list[str] = []
        self.placeholders: set[int] = set()
        row = 1
        for part in parts:
            lines = _LINE_BREAK_RE.split(part)
            self.starts.append(row)
            self.counts.append(len(lines))
            self.last_lines.append(lines[-1])
            for offset, line in enumerate(lines):
                if _PLACEHOLDER_RE.match(line):
                    self.placeholders.add(row + offset)
            row += len(lines) + 1  # the cell's lines and the separator line

    def _part(self, row: int) -> int:
        return max(0, bisect.bisect_right(self.starts, row) - 1)

    def locate(self, pos: Position) -> CellPosition:
        """The cell position of ``pos``; a position on a separator line (or past the end)
        is the end of the cell before it."""
        i = self._part(pos.row)
        row = pos.row - self.starts[i] + 1
        if row > self.counts[i]:
            return CellPosition(self.numbers[i], self.counts[i], len(self.last_lines[i]) + 1)
        return CellPosition(self.numbers[i], row, pos.column)

    def is_separator(self, row: int) -> bool:
        i = self._part(row)
        return row - self.starts[i] + 1 > self.counts[i]

    def edit_stays_in_cell(self, edit: Edit) -> bool:
        """``edit`` changes one cell only and leaves its IPython lines alone."""
        start, end = edit.start, edit.end
        if self.is_separator(start.row):
            # only an insertion of whole lines just before the separator (import jax)
            return start == end and start.column == 1 and edit.content.endswith("\n")
        if self._part(start.row) != self._part(end.row) or self.is_separator(end.row):
            return False
        for row in self.placeholders:
            if start == end == Position(row, 1):
                continue  # an insertion before the line
            if start < Position(row + 1, 1) and end > Position(row, 1):
                return False
        return True

    def translate_edit(self, edit: Edit) -> Edit:
        start = self.locate(edit.start)
        if self.is_separator(edit.start.row):  # an insertion at the end of the cell
            content = edit.content
            if content.endswith("\n"):
                content = "\n" + content[:-1]
            return Edit(
                Position(start.row, start.column), Position(start.row, start.column), content
            )
        end = self.locate(edit.end)
        return Edit(Position(start.row, start.column), Position(end.row, end.column), edit.content)

    def module_row(self, cell: int, row: int) -> int:
        """The row in the joined module of ``row`` of cell number ``cell``."""
        return self.starts[self.numbers.index(cell)] + row - 1

    def locate_name(self, filename: str, row: int) -> str:
        """``nb.ipynb:cell 3:2`` for a row of the joined module."""
        where = self.locate(Position(row, 1))
        return f"{cell_key(filename, where.cell)}:{where.row}"

    def line_ref(self, row: int) -> str:
        where = self.locate(Position(row, 1))
        return f"line {where.row} of cell {where.cell}"


def keep_fix(index: CellIndex | None, fix: Fix | None) -> bool:
    """A fix can be applied to the joined module: each edit stays inside one cell."""
    if fix is None:
        return True
    if index is None:
        return False
    return all(index.edit_stays_in_cell(e) for e in fix.edits)


def to_cells(diag: Diagnostic, index: CellIndex) -> Diagnostic:
    """``diag`` (in the joined module) in the coordinates of its cell: ``extra["cell"]``
    holds the cell number; rows, edits and the lines named in the message are the cell's."""
    start = index.locate(diag.start)
    end = index.locate(diag.end)
    if end.cell != start.cell:
        end = CellPosition(start.cell, start.row, start.column)
    message = _LINE_REF_RE.sub(lambda m: index.line_ref(int(m.group(1))), diag.message)
    fix = diag.fix
    if fix is not None:
        fix = Fix(fix.applicability, fix.message, tuple(index.translate_edit(e) for e in fix.edits))
    return Diagnostic(
        code=diag.code,
        name=diag.name,
        message=message,
        filename=diag.filename,
        start=Position(start.row, start.column),
        end=Position(end.row, end.column),
        fix_applicability=diag.fix_applicability,
        fix_message=diag.fix_message,
        fix=fix,
        probe=diag.probe,
        severity=diag.severity,
        extra={**diag.extra, "cell": start.cell},
    )


def cell_of(diag: Diagnostic) -> int | None:
    """The notebook cell a diagnostic is in (None for a Python file)."""
    cell = diag.extra.get("cell") if diag.extra else None
    return cell if isinstance(cell, int) else None


def display_name(diag: Diagnostic) -> str:
    """``nb.ipynb:cell 3`` for a notebook finding, the file name otherwise."""
    cell = cell_of(diag)
    return diag.filename if cell is None else cell_key(diag.filename, cell)


def cell_key(filename: str, cell: int) -> str:
    return f"{filename}:cell {cell}"
