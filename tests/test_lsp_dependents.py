"""The open documents that read what another module tells them (issue 29, item 2).

When the full lint of an edited document changes what its module tells the others (its
summary), the other open documents whose last result asked something of it are looked
at again in the worker, and re-linted and published only when an answer changed; files
changed on disk outside the editor (``workspace/didChangeWatchedFiles``) update the
index's entry and then do the same; a changed configuration file is a settings change;
added workspace folders are indexed. Checked by what was linted and published, never
by time.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls.lsp.server", reason="jaxlint server needs the lsp extra")
lsp = pytest.importorskip("lsprotocol.types")

from jaxlint.server.app import build_server  # noqa: E402
from jaxlint.server.linting import DocumentLinter  # noqa: E402
from jaxlint.server.readers import asks_of  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 120.0
PROJECT = ROOT / "tests/fixtures/projects/src_layout"


def _project(tmp_path: Path, monkeypatch) -> Path:
    """The src_layout fixture: ``helper`` (util.py) is traced only because
    ``train_step`` (train/step.py) is jitted and calls it (JAX101 at util.py:5);
    loop.py asks what ``pkg.train.train_step`` is (re-exported from step.py)."""
    shutil.copytree(PROJECT, tmp_path / "proj")
    monkeypatch.chdir(tmp_path / "proj")
    monkeypatch.setenv("JAXLINT_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "proj"


def _server(published: list, logs: list):
    server = build_server(exact_delay=0.01)
    server.protocol.server_capabilities = lsp.ServerCapabilities()  # as after initialize
    server.protocol.client_capabilities = lsp.ClientCapabilities()
    server.text_document_publish_diagnostics = published.append  # type: ignore[method-assign]
    server.window_log_message = lambda p: logs.append(p.message)  # type: ignore[method-assign]
    return server


def _last(published: list, uri: str):
    return [p for p in published if p.uri == uri][-1]


def _codes(params) -> list[tuple[str, int]]:
    return sorted((d.code, d.range.start.line + 1) for d in params.diagnostics)


async def _idle(server) -> None:
    """Until no full lint is due or running, for a few turns in a row."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + TIMEOUT
    quiet = 0
    while quiet < 5:
        assert loop.time() < deadline, "the server never went idle"
        busy = any(s.timer is not None or s.running is not None for s in server.docs.values())
        busy = busy or server.indexer.pending > 0
        quiet = 0 if busy else quiet + 1
        await asyncio.sleep(0.05)


def _edit(server, uri: str, version: int, line: int, text: str, end: int | None = None) -> None:
    end = line if end is None else end
    change = lsp.TextDocumentContentChangePartial(
        range=lsp.Range(lsp.Position(line, 0), lsp.Position(end, 0)), text=text
    )
    server.changed(
        lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(uri=uri, version=version), [change]
        )
    )


def test_an_edit_that_changes_what_a_module_tells_relints_the_open_files_that_read_it(
    tmp_path, monkeypatch
):
    root = _project(tmp_path, monkeypatch)
    util, step, loop_py = (
        root / "src/pkg/util.py",
        root / "src/pkg/train/step.py",
        root / "src/pkg/loop.py",
    )

    async def body():
        published: list = []
        server = _server(published, [])
        try:
            uris = {}
            for path in (util, step, loop_py):
                uris[path.name] = path.as_uri()
                server.relint(path.as_uri(), path.read_text(), 1)
            await _idle(server)
            u, s, lp = uris["util.py"], uris["step.py"], uris["loop.py"]
            assert _codes(_last(published, u)) == [("JAX101", 5)]
            # util.py asks who calls it from traced code; loop.py what train_step is
            assert "callers:pkg.util" in server.docs[u].queries
            assert "function:pkg.train.train_step" in server.docs[lp].queries
            lines = step.read_text().splitlines(keepends=True)

            # 1. a comment at the end of step.py: its summary is the same, nobody is
            # looked at again
            done = len(server.readers.full_lints)
            _edit(server, s, 2, len(lines), "# a note\n")
            await _idle(server)
            after = list(server.readers.full_lints)[done:]
            assert [uri for uri, _, _ in after] == [s], after

            # 2. a new function in step.py: what it exports changed, but no answer that
            # util.py or loop.py got: loop.py (which reads step.py) is looked at again
            # and answered without a lint; util.py (which asks only who calls it) is not
            done = len(server.readers.full_lints)
            count = len(published)
            _edit(server, s, 3, len(lines) + 1, "\n\ndef extra(x):\n    return x\n")
            await _idle(server)
            after = list(server.readers.full_lints)[done:]
            assert (lp, "memo", True) in after, after
            assert not [a for a in after if a[0] == u], after
            assert not [a for a in after if a[2] and a[1] == "lint"], after
            assert {p.uri for p in published[count:]} == {s}  # loop.py's findings: the same

            # 3. train_step no longer jitted: helper is not traced any more; util.py is
            # linted again (in the worker) and published without JAX101
            done = len(server.readers.full_lints)
            jit_line = next(i for i, t in enumerate(lines) if t.startswith("@jax.jit"))
            _edit(server, s, 4, jit_line, "", end=jit_line + 1)
            await _idle(server)
            after = list(server.readers.full_lints)[done:]
            assert (u, "lint", True) in after, after
            assert _codes(_last(published, u)) == []
            assert _last(published, u).version == 1
            # what the worker saw is what a fresh lint of the buffers sees
            fresh = DocumentLinter(use_disk_cache=False)
            fresh.buffers = {os.path.abspath(step): server.docs[s].text}
            assert fresh.lint(util.read_text(), util, "util.py").diagnostics == []

            # 4. closing step.py unsaved: the file on disk (jitted) stands for it again
            state = server.docs.pop(s)  # as didClose does
            server.cancel_exact(state)
            server.readers.closed(state)
            await _idle(server)
            assert _codes(_last(published, u)) == [("JAX101", 5)]
        finally:
            server.worker.close()
            server.indexer.close()

    asyncio.run(body())


def test_asks_of_reads_the_questions_a_change_can_answer_differently():
    where = "/p/src/pkg/train/step.py"
    function = {"function:pkg.train.train_step": {"where": "src/pkg/train/step.py:6"}}
    assert asks_of(function, "pkg.train.step", where, True, False, False)  # a re-export
    assert not asks_of(function, "pkg.train.step", where, False, True, False)  # calls only
    assert not asks_of(function, "pkg.models", "/p/src/pkg/models.py", True, True, True)
    own = {"class:pkg.models.Net": {"where": "elsewhere.py:1"}}
    assert asks_of(own, "pkg.models", "/p/src/pkg/models.py", True, False, False)
    missing = {"value:pkg.util.MESH": None}
    assert asks_of(missing, "pkg.models", "/p/src/pkg/models.py", True, False, False)
    assert not asks_of(missing, "other.mod", "/p/other/mod.py", True, False, False)
    callers = {"callers:pkg.util": []}
    assert asks_of(callers, "pkg.train.step", where, False, True, False)
    assert not asks_of(callers, "pkg.train.step", where, True, False, True)
    x64 = {"x64:run:pkg": None}
    assert asks_of(x64, "pkg", "/p/src/pkg/__init__.py", False, False, True)
    assert not asks_of(x64, "pkg", "/p/src/pkg/__init__.py", True, True, False)
    assert asks_of({"new-kind:x": 1}, "pkg", where, False, False, False)


def test_a_file_changed_on_disk_updates_its_entry_and_relints_the_open_files_that_read_it(
    tmp_path, monkeypatch
):
    root = _project(tmp_path, monkeypatch)
    util, step = root / "src/pkg/util.py", root / "src/pkg/train/step.py"

    async def body():
        published: list = []
        logs: list = []
        server = _server(published, logs)
        server.indexer.roots = lambda: [root]  # type: ignore[method-assign]
        try:
            u = util.as_uri()
            server.relint(u, util.read_text(), 1)
            await _idle(server)
            assert _codes(_last(published, u)) == [("JAX101", 5)]
            # step.py (not open) loses its jit on disk
            step.write_text(step.read_text().replace("@jax.jit\n", ""))
            done = len(server.readers.full_lints)
            server.readers.files_changed(
                lsp.DidChangeWatchedFilesParams(
                    [lsp.FileEvent(step.as_uri(), lsp.FileChangeType.Changed)]
                )
            )
            assert server.indexer.refreshes == 1
            await _idle(server)
            assert list(server.indexer.refreshed) == [
                {"files": 1, "from_cache": 0, "linted": 1, "skipped": 0}
            ]
            assert any(m.startswith("jaxlint: re-indexed 1 changed file") for m in logs), logs
            assert (u, "lint", True) in list(server.readers.full_lints)[done:]
            assert _codes(_last(published, u)) == []
            # the cache holds an entry of step.py's new text (a lookup also checks what
            # step.py asked of other modules, as `jaxlint check` does)
            probe = DocumentLinter()
            settings = probe.settings_for(step)
            cache = probe._cache_for(settings, step)
            key = probe._disk_key(step.read_text(), step, settings)
            assert cache is not None and cache.get(key, "step.py") is not None
            # an open file's change on disk is the editor's (its buffer, its save)
            server.readers.files_changed(
                lsp.DidChangeWatchedFilesParams([lsp.FileEvent(u, lsp.FileChangeType.Changed)])
            )
            assert server.indexer.refreshes == 1
            # deleted: nothing to lint; the open file that read it is looked at again
            step.unlink()
            done = len(server.readers.full_lints)
            server.readers.files_changed(
                lsp.DidChangeWatchedFilesParams(
                    [lsp.FileEvent(step.as_uri(), lsp.FileChangeType.Deleted)]
                )
            )
            await _idle(server)
            assert server.indexer.refreshes == 1  # nothing to send to the worker
            assert any(a[0] == u and a[2] for a in list(server.readers.full_lints)[done:])
            assert _codes(_last(published, u)) == []
        finally:
            server.worker.close()
            server.indexer.close()

    asyncio.run(body())


def test_a_config_file_changed_on_disk_is_a_settings_change(tmp_path, monkeypatch):
    root = _project(tmp_path, monkeypatch)
    util = root / "src/pkg/util.py"

    async def body():
        published: list = []
        server = _server(published, [])
        server.indexer.roots = lambda: [root]  # type: ignore[method-assign]
        try:
            u = util.as_uri()
            server.relint(u, util.read_text(), 1)
            await _idle(server)
            assert _codes(_last(published, u)) == [("JAX101", 5)]
            generation = server.generation
            pyproject = root / "pyproject.toml"
            pyproject.write_text(pyproject.read_text() + '\n[tool.jaxlint]\nignore = ["JAX101"]\n')
            server.readers.files_changed(
                lsp.DidChangeWatchedFilesParams(
                    [lsp.FileEvent(pyproject.as_uri(), lsp.FileChangeType.Changed)]
                )
            )
            assert server.generation == generation + 1
            assert server.indexer.run is not None  # the index runs again
            await _idle(server)
            assert _codes(_last(published, u)) == []
        finally:
            server.worker.close()
            server.indexer.close()

    asyncio.run(body())


# -- end to end: registration, watched files and workspace folders over LSP ------------------


def test_watched_files_and_workspace_folders_over_lsp(tmp_path):
    from pygls.lsp.client import LanguageClient

    first, second = tmp_path / "first", tmp_path / "second"
    shutil.copytree(PROJECT, first)
    (second / "lib").mkdir(parents=True)
    (second / "pyproject.toml").write_text("[project]\nname = 'lib'\n")
    (second / "lib/__init__.py").write_text("")
    (second / "lib/ops.py").write_text("import jax\n\nx = jax.tree_map(abs, [1])\n")
    util, step = first / "src/pkg/util.py", first / "src/pkg/train/step.py"
    caps = lsp.ClientCapabilities(
        workspace=lsp.WorkspaceClientCapabilities(
            did_change_watched_files=lsp.DidChangeWatchedFilesClientCapabilities(
                dynamic_registration=True
            ),
            workspace_folders=True,
        )
    )

    async def scenario():
        client = LanguageClient("jaxlint-tests", "1")
        published: list = []
        logs: list[str] = []
        registrations: list = []
        changed = asyncio.Event()

        @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def on_diagnostics(params):
            published.append(params)
            changed.set()

        @client.feature(lsp.WINDOW_LOG_MESSAGE)
        def on_log(params):
            logs.append(params.message)
            changed.set()

        @client.feature(lsp.CLIENT_REGISTER_CAPABILITY)
        def on_register(params: lsp.RegistrationParams):
            registrations.extend(params.registrations)
            changed.set()

        async def wait_for(check, what: str) -> None:
            loop = asyncio.get_running_loop()
            deadline = loop.time() + TIMEOUT
            while not check():
                left = deadline - loop.time()
                assert left > 0, f"timed out waiting for {what}; logs: {logs}"
                changed.clear()
                try:
                    await asyncio.wait_for(changed.wait(), min(left, 1.0))
                except asyncio.TimeoutError:
                    pass

        def indexed() -> list[str]:
            return [m for m in logs if m.startswith("jaxlint: indexed")]

        env = {**os.environ, "PYTHONPATH": str(ROOT), "JAXLINT_CACHE_DIR": str(tmp_path / "c")}
        command = [sys.executable, "-m", "jaxlint", "server", "--exact-delay", "0.05"]
        await client.start_io(*command, env=env, cwd=str(tmp_path))
        try:
            await asyncio.wait_for(
                client.initialize_async(
                    lsp.InitializeParams(
                        capabilities=caps,
                        workspace_folders=[lsp.WorkspaceFolder(first.as_uri(), "first")],
                    )
                ),
                TIMEOUT,
            )
            client.initialized(lsp.InitializedParams())
            await wait_for(lambda: registrations, "the registration of the watched files")
            (registration,) = registrations
            assert registration.method == lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES
            globs = [w["globPattern"] for w in registration.register_options["watchers"]]
            assert "**/*.py" in globs and "**/pyproject.toml" in globs
            await wait_for(lambda: indexed(), "the first index")
            files = len(list(first.rglob("*.py")))
            assert indexed()[0].startswith(f"jaxlint: indexed {files} files"), indexed()

            uri = util.as_uri()
            client.text_document_did_open(
                lsp.DidOpenTextDocumentParams(
                    lsp.TextDocumentItem(uri, "python", 1, util.read_text())
                )
            )

            def codes() -> list[str]:
                found = [p for p in published if p.uri == uri]
                return [d.code for d in found[-1].diagnostics] if found else ["none yet"]

            await wait_for(lambda: codes() == ["JAX101"], "util.py's JAX101")
            # step.py changed on disk: util.py's finding goes
            step.write_text(step.read_text().replace("@jax.jit\n", ""))
            client.workspace_did_change_watched_files(
                lsp.DidChangeWatchedFilesParams(
                    [lsp.FileEvent(step.as_uri(), lsp.FileChangeType.Changed)]
                )
            )
            await wait_for(lambda: codes() == [], "util.py published without JAX101")
            assert any(m.startswith("jaxlint: re-indexed 1 changed file") for m in logs)
            # a folder added to the workspace is indexed
            client.workspace_did_change_workspace_folders(
                lsp.DidChangeWorkspaceFoldersParams(
                    lsp.WorkspaceFoldersChangeEvent(
                        added=[lsp.WorkspaceFolder(second.as_uri(), "second")], removed=[]
                    )
                )
            )
            await wait_for(lambda: len(indexed()) == 2, "the added folder's index")
            assert indexed()[1].startswith("jaxlint: indexed 2 files"), indexed()
            # a config file changed on disk: read again, the index runs again
            pyproject = first / "pyproject.toml"
            pyproject.write_text(pyproject.read_text() + '\n[tool.jaxlint]\nselect = ["JAX1"]\n')
            client.workspace_did_change_watched_files(
                lsp.DidChangeWatchedFilesParams(
                    [lsp.FileEvent(pyproject.as_uri(), lsp.FileChangeType.Changed)]
                )
            )
            await wait_for(lambda: len(indexed()) == 3, "the index after the config change")
            files = len(list(first.rglob("*.py"))) + len(list(second.rglob("*.py")))
            assert indexed()[2].startswith(f"jaxlint: indexed {files} files"), indexed()
            await asyncio.wait_for(client.shutdown_async(None), TIMEOUT)
            client.exit(None)
        finally:
            await asyncio.wait_for(client.stop(), TIMEOUT)

    asyncio.run(scenario())
