"""``jaxlint server`` on notebooks (LSP notebook document sync), end to end.

The real server process, driven by pygls's client as in ``test_lsp_server.py``: the
client opens a Jupyter notebook as cells (each a text document of its own), and the
tests check what an editor would see per cell: diagnostics in the cell's own lines,
diagnostics that follow edits and structure changes (cells added, moved, removed),
quick fixes and noqa edits for that cell's document only.
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls.lsp.client", reason="jaxlint server needs the lsp extra (pygls >= 2)")
lsp = pytest.importorskip("lsprotocol.types")

from pygls.lsp.client import LanguageClient  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 60.0

# A jitted function that donates its first argument (cell 1), the parameters (cell 2),
# and a loop that reads them again after the call (cell 3): JAX405 only when the cells
# are known to run in order.
DEFINE = (
    "from functools import partial\nimport jax\nimport jax.numpy as jnp\n\n"
    "@partial(jax.jit, donate_argnums=0)\ndef update(params, batch):\n    return params - batch\n"
)
PARAMS = "%time x = 1\nparams = jnp.ones(3)\nbuf = jnp.empty((3,))\n"
LOOP = "for batch in [jnp.ones(3)] * 3:\n    new = update(params, batch)\nprint(params)\n"
SELECT = {"extend-select": ["JAX602", "JAX302"]}  # both off by default


def cell_uri(nb: Path, n: int) -> str:
    return f"vscode-notebook-cell:{nb.as_posix()}#cell{n}"


class NotebookSession:
    """One server process, one client that offers notebook sync, what was published."""

    def __init__(self, tmp_path: Path, notebook_capable: bool = True) -> None:
        self.tmp_path = tmp_path
        self.client = LanguageClient("jaxlint-tests", "1")
        caps = lsp.ClientCapabilities()
        if notebook_capable:
            caps.notebook_document = lsp.NotebookDocumentClientCapabilities(
                synchronization=lsp.NotebookDocumentSyncClientCapabilities()
            )
        self.capabilities = caps
        self.result: lsp.InitializeResult | None = None
        self.published: list[lsp.PublishDiagnosticsParams] = []
        self.changed = asyncio.Event()
        self.nb_uri = ""
        self.nb_version = 0
        self.cells: list[str] = []  # cell URIs, in order
        self.texts: dict[str, str] = {}
        self.versions: dict[str, int] = {}
        self.mark = 0
        """Where the publications since the last notification to the server start."""

        @self.client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def on_diagnostics(params: lsp.PublishDiagnosticsParams) -> None:
            self.published.append(params)
            self.changed.set()

    async def __aenter__(self) -> NotebookSession:
        env = {**os.environ, "PYTHONPATH": str(ROOT), "JAXLINT_CACHE_DIR": str(self.tmp_path / "c")}
        command = [sys.executable, "-m", "jaxlint", "server", "--exact-delay", "0.05"]
        await self.client.start_io(*command, env=env, cwd=str(self.tmp_path))
        self.result = await asyncio.wait_for(
            self.client.initialize_async(
                lsp.InitializeParams(
                    capabilities=self.capabilities,
                    root_uri=self.tmp_path.as_uri(),
                    initialization_options=SELECT,
                )
            ),
            TIMEOUT,
        )
        self.client.initialized(lsp.InitializedParams())
        return self

    async def __aexit__(self, *exc) -> None:
        try:
            await asyncio.wait_for(self.client.shutdown_async(None), TIMEOUT)
            self.client.exit(None)
        finally:
            await asyncio.wait_for(self.client.stop(), TIMEOUT)

    async def diagnostics(self, uri: str, version: int) -> list[lsp.Diagnostic]:
        """The diagnostics published for cell ``uri`` at ``version`` since the last
        notification (the server publishes every code cell after each), once they come."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + TIMEOUT
        while True:
            for params in reversed(self.published[self.mark :]):
                if params.uri == uri and params.version == version:
                    return list(params.diagnostics)
            self.changed.clear()
            left = deadline - loop.time()
            if left <= 0:
                raise AssertionError(f"no diagnostics for {uri} v{version}: {self.published}")
            try:
                await asyncio.wait_for(self.changed.wait(), left)
            except asyncio.TimeoutError:
                pass

    async def all_cells(self) -> dict[str, list[tuple[str, int]]]:
        """Cell URI -> (code, line) of its latest findings, for every code cell."""
        out = {}
        for uri in self.cells:
            if self.kinds[uri] == lsp.NotebookCellKind.Code:
                out[uri] = codes(await self.diagnostics(uri, self.versions[uri]))
        return out

    def item(self, uri: str, text: str, kind) -> lsp.TextDocumentItem:
        self.texts[uri] = text
        self.versions[uri] = 1
        self.kinds[uri] = kind
        language = "python" if kind == lsp.NotebookCellKind.Code else "markdown"
        return lsp.TextDocumentItem(uri=uri, language_id=language, version=1, text=text)

    def open(self, name: str, cells: list[tuple[str, str]]) -> None:
        """Open notebook ``name`` with ``cells`` ((kind, text), kind "code" or "markdown")."""
        path = self.tmp_path / name
        self.nb_uri = path.as_uri()
        self.nb_version = 1
        self.kinds: dict[str, lsp.NotebookCellKind] = {}
        items = []
        self.mark = len(self.published)
        for n, (kind, text) in enumerate(cells, start=1):
            uri = cell_uri(path, n)
            self.cells.append(uri)
            items.append(self.item(uri, text, _kind(kind)))
        self.client.notebook_document_did_open(
            lsp.DidOpenNotebookDocumentParams(
                notebook_document=lsp.NotebookDocument(
                    uri=self.nb_uri,
                    notebook_type="jupyter-notebook",
                    version=1,
                    cells=[lsp.NotebookCell(kind=self.kinds[u], document=u) for u in self.cells],
                ),
                cell_text_documents=items,
            )
        )

    def notify(self, change: lsp.NotebookDocumentChangeEvent) -> None:
        self.nb_version += 1
        self.mark = len(self.published)
        self.client.notebook_document_did_change(
            lsp.DidChangeNotebookDocumentParams(
                notebook_document=lsp.VersionedNotebookDocumentIdentifier(
                    version=self.nb_version, uri=self.nb_uri
                ),
                change=change,
            )
        )

    def edit(self, uri: str, edits: list[lsp.TextEdit]) -> int:
        """Edit one cell's text (incremental changes, the last edit first)."""
        self.texts[uri] = apply_edits(self.texts[uri], edits)
        self.versions[uri] += 1
        changes = [
            lsp.TextDocumentContentChangePartial(range=e.range, text=e.new_text)
            for e in sorted(
                edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True
            )
        ]
        self.notify(
            lsp.NotebookDocumentChangeEvent(
                cells=lsp.NotebookDocumentCellChanges(
                    text_content=[
                        lsp.NotebookDocumentCellContentChanges(
                            document=lsp.VersionedTextDocumentIdentifier(
                                uri=uri, version=self.versions[uri]
                            ),
                            changes=changes,
                        )
                    ]
                )
            )
        )
        return self.versions[uri]

    def splice(self, start: int, delete: int, new: list[tuple[str, str, str | None]]) -> None:
        """Replace ``delete`` cells at ``start`` by ``new`` ((uri, kind, text): text None
        for a cell that was open already, i.e. moved)."""
        removed = self.cells[start : start + delete]
        opened = []
        for uri, kind, text in new:
            if text is not None:
                opened.append(self.item(uri, text, _kind(kind)))
        self.cells[start : start + delete] = [uri for uri, _, _ in new]
        closed = [u for u in removed if u not in self.cells]
        self.notify(
            lsp.NotebookDocumentChangeEvent(
                cells=lsp.NotebookDocumentCellChanges(
                    structure=lsp.NotebookDocumentCellChangeStructure(
                        array=lsp.NotebookCellArrayChange(
                            start=start,
                            delete_count=delete,
                            cells=[
                                lsp.NotebookCell(kind=self.kinds[u], document=u) for u, _, _ in new
                            ],
                        ),
                        did_open=opened or None,
                        did_close=[lsp.TextDocumentIdentifier(uri=u) for u in closed] or None,
                    )
                )
            )
        )

    async def actions(self, uri: str, diag: lsp.Diagnostic):
        return await asyncio.wait_for(
            self.client.text_document_code_action_async(
                lsp.CodeActionParams(
                    text_document=lsp.TextDocumentIdentifier(uri=uri),
                    range=diag.range,
                    context=lsp.CodeActionContext(diagnostics=[diag]),
                )
            ),
            TIMEOUT,
        )

    def apply(self, uri: str, action: lsp.CodeAction) -> int:
        """Apply a code action's edit to the cell as an editor does; it must edit that
        cell's document, at its current version, and nothing else."""
        assert action.edit is not None, action
        (doc_edit,) = action.edit.document_changes
        assert doc_edit.text_document.uri == uri
        assert doc_edit.text_document.version == self.versions[uri]
        return self.edit(uri, list(doc_edit.edits))


def _kind(kind: str) -> lsp.NotebookCellKind:
    return lsp.NotebookCellKind.Code if kind == "code" else lsp.NotebookCellKind.Markup


def apply_edits(text: str, edits: list[lsp.TextEdit]) -> str:
    """LSP edits on ``text`` (ASCII, ``\\n`` line ends in these tests), the last first."""
    lines = text.split("\n")
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)

    def offset(pos: lsp.Position) -> int:
        if pos.line >= len(lines):
            return len(text)
        return starts[pos.line] + min(pos.character, len(lines[pos.line]))

    for e in sorted(edits, key=lambda e: offset(e.range.start), reverse=True):
        text = text[: offset(e.range.start)] + e.new_text + text[offset(e.range.end) :]
    return text


def codes(diags: list[lsp.Diagnostic]) -> list[tuple[str, int]]:
    return sorted((str(d.code), d.range.start.line + 1) for d in diags)


def run(coro):
    return asyncio.run(coro)


THREE = [("code", DEFINE), ("code", PARAMS), ("markdown", "# the loop"), ("code", LOOP)]


def test_notebook_sync_is_advertised_only_to_clients_that_offer_it(tmp_path):
    async def scenario():
        async with NotebookSession(tmp_path) as s:
            sync = s.result.capabilities.notebook_document_sync
            assert sync is not None and sync.save
            (selector,) = sync.notebook_selector
            assert selector.notebook == "jupyter-notebook"
            assert [c.language for c in selector.cells] == ["python"]
        async with NotebookSession(tmp_path, notebook_capable=False) as s:
            assert s.result.capabilities.notebook_document_sync is None

    run(scenario())


def test_cells_are_one_module_and_findings_come_back_per_cell(tmp_path):
    async def scenario():
        async with NotebookSession(tmp_path) as s:
            s.open("train.ipynb", THREE)
            define, params, markdown, loop = s.cells
            found = await s.all_cells()
            # the loop (cell 4) reads `params` after donating it to `update` (cell 1):
            # known only because the cells are linted in order, as one module
            assert found == {define: [], params: [("JAX602", 3)], loop: [("JAX405", 3)]}
            diags = await s.diagnostics(loop, 1)
            (d405,) = diags
            # cell-relative position and the message names the other cell's line
            assert (d405.range.start.line, d405.range.start.character) == (2, 6)
            assert "line 2 of cell 4" in d405.message, d405.message
            (d602,) = await s.diagnostics(params, 1)
            # the %time line above it is masked, not a syntax error, and not counted away
            assert (d602.range.start.line, d602.range.start.character) == (2, 6)
            assert markdown not in {p.uri for p in s.published}
            hover = await asyncio.wait_for(
                s.client.text_document_hover_async(
                    lsp.HoverParams(
                        text_document=lsp.TextDocumentIdentifier(uri=loop),
                        position=lsp.Position(2, 8),
                    )
                ),
                TIMEOUT,
            )
            assert hover is not None and "**JAX405**" in hover.contents.value
            assert hover.range == d405.range

    run(scenario())


def test_editing_a_cell_updates_the_findings_of_the_cells(tmp_path):
    async def scenario():
        async with NotebookSession(tmp_path) as s:
            s.open("train.ipynb", THREE)
            define, params, _, loop = s.cells
            assert (await s.all_cells())[loop] == [("JAX405", 3)]
            # cell 1 stops donating: the loop's finding goes, though cell 4 was not edited
            line = DEFINE.split("\n").index("@partial(jax.jit, donate_argnums=0)")
            s.edit(
                define,
                [
                    lsp.TextEdit(
                        range=lsp.Range(lsp.Position(line, 0), lsp.Position(line, 35)),
                        new_text="@jax.jit",
                    )
                ],
            )
            assert "@jax.jit\ndef update" in s.texts[define]
            found = await s.all_cells()
            assert found == {define: [], params: [("JAX602", 3)], loop: []}
            # a line typed into the loop cell: rows in that cell move, nothing else
            version = s.edit(
                loop,
                [
                    lsp.TextEdit(
                        range=lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0)),
                        new_text="junk = jnp.empty((2,))\n",
                    )
                ],
            )
            assert codes(await s.diagnostics(loop, version)) == [("JAX602", 1)]
            # a syntax error mid-typing is reported in its cell; the server keeps going
            version = s.edit(
                params,
                [
                    lsp.TextEdit(
                        range=lsp.Range(lsp.Position(1, 0), lsp.Position(1, 0)), new_text="y = (\n"
                    )
                ],
            )
            assert [c for c, _ in codes(await s.diagnostics(params, version))] == ["JAX000"]

    run(scenario())


def test_cells_added_moved_and_removed(tmp_path):
    async def scenario():
        async with NotebookSession(tmp_path) as s:
            s.open("train.ipynb", THREE)
            define, params, markdown, loop = s.cells
            assert (await s.all_cells())[loop] == [("JAX405", 3)]
            # the loop moved to the top (one event: the cells' documents stay open):
            # its finding stays in its cell, which is now cell 1 of the notebook
            s.splice(0, 4, [(u, "code", None) for u in (loop, define, params, markdown)])
            found = await s.all_cells()
            assert found == {loop: [("JAX405", 3)], define: [], params: [("JAX602", 3)]}
            (d405,) = await s.diagnostics(loop, 1)
            assert "line 2 of cell 1" in d405.message, d405.message
            # moved back, and a new cell added after the loop: its finding is published
            new = cell_uri(tmp_path / "train.ipynb", 9)
            s.splice(
                0,
                4,
                [(u, "code", None) for u in (define, params, markdown, loop)]
                + [(new, "code", "z = jax.tree_map(abs, [1])\n")],
            )
            assert s.cells == [define, params, markdown, loop, new]
            found = await s.all_cells()
            assert found[loop] == [("JAX405", 3)]
            assert found[new] == [("JAX702", 1)]
            (d405,) = await s.diagnostics(loop, 1)
            assert "line 2 of cell 4" in d405.message, d405.message
            # the params cell removed (its document closed): its diagnostics are cleared
            count = len(s.published)
            s.splice(1, 1, [])
            found = await s.all_cells()
            assert params not in found and found[new] == [("JAX702", 1)]
            cleared = [p for p in s.published[count:] if p.uri == params]
            assert cleared and not cleared[-1].diagnostics

    run(scenario())


def test_quick_fix_and_noqa_edit_only_their_cell(tmp_path):
    async def scenario():
        async with NotebookSession(tmp_path) as s:
            s.open("train.ipynb", THREE)
            _, params, _, loop = s.cells
            (d602,) = await s.diagnostics(params, 1)
            actions = await s.actions(params, d602)
            titles = [a.title for a in actions]
            assert "Disable JAX602 for this line" in titles, titles
            fix = next(a for a in actions if a.title.startswith("Fix JAX602"))
            assert fix.title.endswith("(safe fix)")
            version = s.apply(params, fix)
            assert s.texts[params] == PARAMS.replace("jnp.empty", "jnp.zeros")
            assert await s.diagnostics(params, version) == []
            assert codes(await s.diagnostics(loop, s.versions[loop])) == [("JAX405", 3)]
            # noqa on the loop's finding: the comment goes on the cell's own line 3
            (d405,) = await s.diagnostics(loop, s.versions[loop])
            actions = await s.actions(loop, d405)
            noqa = next(a for a in actions if a.title == "Disable JAX405 for this line")
            version = s.apply(loop, noqa)
            assert s.texts[loop].split("\n")[2] == "print(params)  # noqa: JAX405"
            assert await s.diagnostics(loop, version) == []

    run(scenario())


def test_a_fix_that_would_edit_another_cell_is_not_offered(tmp_path):
    # JAX302's fix spells `PRNGKey(0)` as `jax.random.key(0)`: without `import jax`
    # it also adds the import, after the imports, i.e. in cell 1 (`jaxlint check --fix`
    # does that); a code action on cell 2 edits cell 2 only, so that fix is not offered
    async def scenario():
        async with NotebookSession(tmp_path) as s:
            s.open(
                "k.ipynb",
                [
                    ("code", "from jax.random import PRNGKey\n"),
                    ("code", "%time k = 1\nkey = PRNGKey(0)"),
                ],
            )
            first, second = s.cells
            (d302,) = await s.diagnostics(second, 1)
            assert d302.code == "JAX302"
            titles = [a.title for a in await s.actions(second, d302)]
            assert titles == ["Disable JAX302 for this line"], titles
            # once cell 1 imports jax, the fix is one edit in cell 2: offered, applied
            end = lsp.Position(1, 0)
            s.edit(first, [lsp.TextEdit(range=lsp.Range(end, end), new_text="import jax\n")])
            (d302,) = await s.diagnostics(second, 1)
            actions = await s.actions(second, d302)
            fix = next(a for a in actions if a.title.startswith("Fix JAX302"))
            assert fix.title.endswith("(unsafe fix)")
            version = s.apply(second, fix)
            assert s.texts[second] == "%time k = 1\nkey = jax.random.key(0)"
            assert await s.diagnostics(second, version) == []

    run(scenario())


def test_saving_reads_the_config_again_and_closing_clears_the_cells(tmp_path):
    async def scenario():
        async with NotebookSession(tmp_path) as s:
            s.open("train.ipynb", THREE)
            await s.all_cells()
            # saved after a config turned JAX405 off: the configs are read again
            (tmp_path / "pyproject.toml").write_text('[tool.jaxlint]\nignore = ["JAX405"]\n')
            s.mark = len(s.published)
            s.client.notebook_document_did_save(
                lsp.DidSaveNotebookDocumentParams(
                    notebook_document=lsp.NotebookDocumentIdentifier(uri=s.nb_uri)
                )
            )
            assert (await s.all_cells())[s.cells[3]] == []
            count = len(s.published)
            s.client.notebook_document_did_close(
                lsp.DidCloseNotebookDocumentParams(
                    notebook_document=lsp.NotebookDocumentIdentifier(uri=s.nb_uri),
                    cell_text_documents=[lsp.TextDocumentIdentifier(uri=u) for u in s.cells],
                )
            )
            code_cells = {u for u in s.cells if s.kinds[u] == lsp.NotebookCellKind.Code}
            loop = asyncio.get_running_loop()
            deadline = loop.time() + TIMEOUT
            while {p.uri for p in s.published[count:] if not p.diagnostics} < code_cells:
                assert loop.time() < deadline, s.published[count:]
                s.changed.clear()
                try:
                    await asyncio.wait_for(s.changed.wait(), 1.0)
                except asyncio.TimeoutError:
                    pass

    run(scenario())
