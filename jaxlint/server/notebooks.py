"""Notebooks through LSP notebook document sync (no pygls here).

The client sends the notebook as an ordered list of cells, each a text document of its
own (``vscode-notebook-cell:...#W1sZmlsZQ==``). The server keeps the cells in order,
applies the structure changes (cells added, removed, moved) and the text edits, and
lints the Python code cells as one module, as ``jaxlint check`` lints an ``.ipynb``
(``jaxlint/notebook.py``: the cells joined in order, IPython lines masked). Each
finding goes back to its cell's document in the cell's own rows and columns.

A fix is offered on a cell only when all its edits lie in that cell (a fix that would
also edit another cell, such as an import added to the first cell, is not offered);
"add noqa" edits the finding's line in its cell.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from jaxlint import notebook as nb
from jaxlint.diagnostics import INTERNAL_ERROR_CODE, Diagnostic, Position
from jaxlint.server.linting import DocumentLinter, LintResult

PYTHON_LANGUAGES = ("python", "ipython")
CODE = 2
"""``NotebookCellKind.Code`` (markup is 1)."""


@dataclass
class CellDoc:
    uri: str
    kind: int
    language: str | None
    text: str
    version: int | None

    @property
    def python(self) -> bool:
        return (
            self.kind == CODE
            and (self.language is None or self.language.lower() in PYTHON_LANGUAGES)
            and nb._is_python_cell(self.text)
        )


@dataclass
class NotebookState:
    uri: str
    path: Path | None
    name: str
    version: int | None
    cells: list[CellDoc]
    result: LintResult | None = None
    by_cell: dict[str, list[Diagnostic]] = field(default_factory=dict)
    """Cell URI -> its findings in the cell's coordinates (fixes that leave it dropped)."""
    masked: dict[str, str] = field(default_factory=dict)
    """Cell URI -> its text with IPython lines masked (what the noqa action checks)."""
    published: set[str] = field(default_factory=set)
    """The cells last sent diagnostics (a cell that lost its findings gets an empty list)."""

    def cell(self, uri: str) -> CellDoc | None:
        return next((c for c in self.cells if c.uri == uri), None)


def lint_notebook(linter: DocumentLinter, state: NotebookState) -> None:
    """Lint the Python cells as one module; fill ``state.by_cell`` and ``state.masked``."""
    numbered = {number: cell for number, cell in enumerate(state.cells, start=1)}
    cells = [
        nb.Cell(number, "code", c.text, (0, 0), 0, False, python=True)
        for number, c in numbered.items()
        if c.python
    ]
    state.by_cell = {c.uri: [] for c in state.cells if c.kind == CODE}
    state.masked = {}
    state.result = None
    if not cells:
        return
    try:
        module = nb.NotebookModule.build(cells)
    except nb.NotebookError as exc:
        first = numbered[cells[0].number]
        state.by_cell[first.uri] = [_notebook_error(state.name, str(exc))]
        return
    for cell in cells:
        state.masked[numbered[cell.number].uri] = nb.mask_cell(cell.text, 1)[0]
    result = linter.lint(module.text, state.path, state.name)
    state.result = result
    index = module.index()
    assert index is not None  # the module's own text has one part per cell
    for diag in result.diagnostics:
        cell = index.locate(diag.start).cell
        fix = diag.fix
        if fix is not None and not (
            nb.keep_fix(index, fix) and all(_edit_cell(index, e) == cell for e in fix.edits)
        ):
            fix = None
        local = nb.to_cells(_with_fix(diag, fix), index)
        state.by_cell.setdefault(numbered[cell].uri, []).append(local)


def _edit_cell(index: nb.CellIndex, edit) -> int:
    """The cell an edit of the joined module changes (an insertion on a separator line
    goes at the end of the cell before it)."""
    return index.locate(edit.start).cell


def _with_fix(diag: Diagnostic, fix) -> Diagnostic:
    return diag if fix is diag.fix else dataclasses.replace(diag, fix=fix)


def _notebook_error(name: str, message: str) -> Diagnostic:
    return Diagnostic(
        code=INTERNAL_ERROR_CODE,
        name="notebook-error",
        message=f"jaxlint: {message}",
        filename=name,
        start=Position(1, 1),
        end=Position(1, 1),
    )


def apply_change(
    state: NotebookState,
    version: int | None,
    change,
    edit_text: Callable[[str, object], str],
) -> list[str]:
    """Apply one ``notebookDocument/didChange`` event (``lsprotocol`` objects): the cell
    structure (cells added, removed, moved), then cell kinds, then text edits, as the
    protocol orders them. ``edit_text(text, content_change)`` applies one text change.
    Returns the URIs of the cells closed (their diagnostics are to be cleared)."""
    state.version = version
    closed: list[str] = []
    cells = change.cells
    if cells is None:
        return closed
    known = {c.uri: c for c in state.cells}
    if cells.structure is not None:
        opened = {item.uri: item for item in cells.structure.did_open or []}
        array = cells.structure.array
        new = []
        for cell in array.cells or []:
            item = opened.get(cell.document)
            old = known.get(cell.document)
            if item is not None:
                doc = CellDoc(
                    cell.document, int(cell.kind), item.language_id, item.text, item.version
                )
            elif old is not None:  # a moved cell: its document stays open
                doc = dataclasses.replace(old, kind=int(cell.kind))
            else:  # a cell whose document was never sent: empty until it is
                doc = CellDoc(cell.document, int(cell.kind), None, "", None)
            new.append(doc)
        start = min(max(array.start, 0), len(state.cells))
        state.cells[start : start + array.delete_count] = new
        for item in cells.structure.did_close or []:
            closed.append(item.uri)
        known = {c.uri: c for c in state.cells}
        for item in opened.values():  # opened but placed by an earlier event
            doc = known.get(item.uri)
            if doc is not None and doc.version is None:
                doc.text, doc.version, doc.language = item.text, item.version, item.language_id
    for cell in cells.data or []:
        doc = known.get(cell.document)
        if doc is not None:
            doc.kind = int(cell.kind)
    for content in cells.text_content or []:
        doc = known.get(content.document.uri)
        if doc is None:
            continue
        for text_change in content.changes:
            doc.text = edit_text(doc.text, text_change)
        doc.version = content.document.version
    return [uri for uri in closed if uri not in known]
