"""The server's background index and the cancelling of stale work (issue 29, item 2).

What is checked is order and versions, never time: the open file's diagnostics come
before the index ends (the index held by a test hook until then), the index fills the
cache that opening a file then answers from, the open documents are published again
only when the index changed their findings, and a full lint that a newer version made
stale is interrupted in the worker and never published.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import shutil
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("pygls.lsp.server", reason="jaxlint server needs the lsp extra")
lsp = pytest.importorskip("lsprotocol.types")

from jaxlint.server import worker as worker_mod  # noqa: E402
from jaxlint.server.app import build_server  # noqa: E402
from jaxlint.server.index import index_workspace  # noqa: E402
from jaxlint.server.linting import DocumentLinter  # noqa: E402
from jaxlint.server.worker import TaskCancelled, Worker  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 120.0
PROJECT = ROOT / "tests/fixtures/projects/src_layout"


def _project(tmp_path: Path, monkeypatch) -> Path:
    """The src_layout fixture: ``helper`` (util.py) is traced only because
    ``train_step`` (train/step.py) is jitted and calls it."""
    shutil.copytree(PROJECT, tmp_path / "proj")
    monkeypatch.chdir(tmp_path / "proj")
    monkeypatch.setenv("JAXLINT_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "proj"


def _server(published: list, logs: list):
    server = build_server()
    server.protocol.server_capabilities = lsp.ServerCapabilities()  # as after initialize
    server.protocol.client_capabilities = lsp.ClientCapabilities()
    server.text_document_publish_diagnostics = published.append  # type: ignore[method-assign]
    server.window_log_message = logs.append  # type: ignore[method-assign]
    return server


def _codes(diags) -> list[tuple[str, int]]:
    return sorted((d.code, d.start.row) for d in diags)


def test_the_index_fills_the_cache_that_opening_a_file_answers_from(tmp_path, monkeypatch):
    root = _project(tmp_path, monkeypatch)
    util = root / "src/pkg/util.py"
    reports: list = []
    counts = index_workspace([root], {}, reports.append)
    assert counts["linted"] >= 5 and counts["from_cache"] == 0
    assert reports and reports[0]["done"] == 0 and reports[0]["total"] == counts["linted"]
    # opened now, the file is answered from the cache: exact at once, and the same as a
    # full lint (which reads the module that calls `helper` from jitted code)
    linter = DocumentLinter()
    text = util.read_text()
    opened = linter.lint(text, util, "src/pkg/util.py", persist=True, partial=True)
    assert opened.exact is True and "partial" not in opened.extra
    full = DocumentLinter(use_disk_cache=False).lint(text, util, "src/pkg/util.py")
    assert _codes(opened.diagnostics) == _codes(full.diagnostics) == [("JAX101", 5)]
    # a second index finds everything in the cache
    again = index_workspace([root], {}, reports.append)
    assert again["linted"] == 0 and again["from_cache"] == counts["linted"]


def test_opening_before_the_index_parses_no_other_module(tmp_path, monkeypatch):
    """The first lint of an opened file reads other modules only from the cache."""
    import jaxlint.engine

    root = _project(tmp_path, monkeypatch)
    loop = root / "src/pkg/loop.py"  # calls `train_step`, jitted in train/step.py
    made: list = []
    real = jaxlint.engine.summarize_module

    def counted(*args, **kwargs):
        made.append(Path(args[1]).name)
        return real(*args, **kwargs)

    monkeypatch.setattr(jaxlint.engine, "summarize_module", counted)
    linter = DocumentLinter()
    opened = linter.lint(loop.read_text(), loop, "loop.py", persist=True, partial=True)
    assert opened.exact is False and made == []
    assert opened.extra["queries"]["function:pkg.train.train_step"] is None
    # the full lint that follows reads step.py (its summary is made), and util.py: the
    # summary says which functions jit a parameter they are given (analysis/jit_params.py),
    # and step.py's `train_step` hands its parameters to util.py's `helper`
    full = linter.lint(loop.read_text(), loop, "loop.py", persist=True)
    assert made == ["step.py", "util.py"]
    assert full.extra["queries"]["function:pkg.train.train_step"]["transform"] == "jax.jit"
    # once the cache holds it, an opening reads it from there
    made.clear()
    again = DocumentLinter().lint(loop.read_text() + "\n", loop, "loop.py", partial=True)
    assert made == [] and again.extra["queries"]["function:pkg.train.train_step"] is not None


def test_after_the_index_the_open_documents_are_published_again_only_if_changed(
    tmp_path, monkeypatch
):
    root = _project(tmp_path, monkeypatch)
    util = root / "src/pkg/util.py"

    async def body():
        published: list = []
        logs: list = []
        server = _server(published, logs)
        server.worker.failed = True  # full lints in this process
        uri = util.as_uri()
        server.relint(uri, util.read_text(), 1)
        state = server.docs[uri]
        state.timer.cancel()
        state.timer = None
        # opened before any index: the helper's caller is not read yet
        assert len(published) == 1 and published[0].diagnostics == []

        def index_ends(counts):
            from jaxlint.server.indexer import IndexRun

            indexer = server.indexer
            indexer.runs += 1
            future: concurrent.futures.Future = concurrent.futures.Future()
            future.set_running_or_notify_cancel()
            future.set_result(counts)
            indexer.run = IndexRun(indexer.runs, future, 0.0)
            indexer.done(indexer.runs, future)

        index_ends({"files": 6, "linted": 6, "from_cache": 0})
        assert server.indexer.ready and server.indexer.run is None
        assert [m.message for m in logs][-1].startswith("jaxlint: indexed 6 files")
        assert len(published) == 2 and published[1].version == 1
        assert [d.code for d in published[1].diagnostics] == ["JAX101"]
        # an index that changes nothing for it publishes nothing
        index_ends({"files": 6, "linted": 0, "from_cache": 6})
        assert len(published) == 2
        server.indexer.close()

    asyncio.run(body())


def test_the_index_can_be_switched_off(tmp_path, monkeypatch):
    root = _project(tmp_path, monkeypatch)

    async def body():
        server = _server([], [])
        server.apply_settings({"index": False, "extend-select": ["JAX602"]})
        assert server.pending_messages == []  # a known setting
        assert "index" not in server.linter.overrides
        indexer = server.indexer
        indexer.roots = lambda: [root]  # type: ignore[method-assign]
        indexer.start()
        assert indexer.run is None and indexer.worker.proc is None
        server.apply_settings({"index": True})
        indexer.start()
        assert indexer.run is not None
        first = indexer.run.future
        indexer.start()  # again (the settings changed): the first one is cancelled
        assert first.cancelled() or indexer.worker.cancels_sent == 1
        indexer.close()

    asyncio.run(body())


# -- cancelling stale work ---------------------------------------------------------------------


_SPIN_BOOT = textwrap.dedent(
    """\
    import json, sys, time
    sys.path[:0] = json.loads(sys.argv[1])
    import jaxlint.server.worker as w
    real = w._full_lint
    def spin(text, *args, **kwargs):
        while text == "spin":  # a lint that never ends by itself
            time.sleep(0.01)
        return real(text, *args, **kwargs)
    w._full_lint = spin
    w.main(int(sys.argv[2]), int(sys.argv[3]))
    """
)


def test_a_running_task_is_interrupted_and_the_worker_goes_on(tmp_path, monkeypatch):
    monkeypatch.setattr(worker_mod, "_BOOT", _SPIN_BOOT)
    worker = Worker()
    try:
        stuck = worker.submit_lint("spin", None, "spin.py", {}, 0)
        assert stuck is not None
        waiting = worker.submit_lint("import jax\nx = jax.tree_map(f, 1)\n", None, "w.py", {}, 0)
        cancelled_waiting = worker.submit_lint("never", None, "n.py", {}, 0)
        worker.cancel(cancelled_waiting)
        assert cancelled_waiting.cancelled()  # it waited: it is never sent
        worker.cancel(stuck)  # it runs (or is about to): the worker is interrupted
        with pytest.raises(TaskCancelled):
            stuck.result(TIMEOUT)
        # the worker is free again: the next task runs to its end
        assert [d.code for d in waiting.result(TIMEOUT).diagnostics] == ["JAX702"]
        assert worker.cancels_sent == 1 and not worker.failed
    finally:
        worker.close()


def test_a_stale_full_lint_is_interrupted_and_never_published(tmp_path, monkeypatch):
    """A large buffer's full lint runs in the worker; an edit arrives: the lint is
    interrupted, and every publish after that is of the newest version."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("JAXLINT_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "pyproject.toml").write_text("[tool.jaxlint]\n")
    block = "def f{i}(x):\n    y = jax.tree_map(lambda v: v, x)\n    return y\n\n\n"
    big = "import jax\n\n\n" + "".join(block.format(i=i) for i in range(4000))
    path = tmp_path / "big.py"
    path.write_text(big)

    async def body():
        published: list = []
        server = _server(published, [])
        server.exact_delay = 0.0
        uri = path.as_uri()
        server.relint(uri, big, 1)
        state = server.docs[uri]
        loop = asyncio.get_running_loop()
        deadline = loop.time() + TIMEOUT
        while state.running is None or not state.running.running():
            assert loop.time() < deadline, "the full lint never went to the worker"
            await asyncio.sleep(0.01)
        stale = state.running
        change = lsp.TextDocumentContentChangePartial(
            range=lsp.Range(lsp.Position(3, 0), lsp.Position(3, 0)), text="# edited\n"
        )
        server.changed(
            lsp.DidChangeTextDocumentParams(
                lsp.VersionedTextDocumentIdentifier(uri=uri, version=2), [change]
            )
        )
        assert server.worker.cancels_sent == 1
        with pytest.raises(TaskCancelled):
            await asyncio.wrap_future(stale)
        while state.result.exact is not True or state.running is not None:  # v2's full lint
            assert loop.time() < deadline, "no full lint of version 2"
            await asyncio.sleep(0.05)
        versions = [p.version for p in published]
        assert versions == sorted(versions) and versions[-1] == 2
        assert versions.count(1) == 1  # the open's publish; v1's full lint never published
        expected = DocumentLinter(use_disk_cache=False).lint(state.text, path, state.name)
        assert len(published[-1].diagnostics) == len(expected.diagnostics) == 4000
        server.worker.close()

    asyncio.run(body())


# -- end to end: the index held by a test hook ---------------------------------------------


def _held_index_command(gate: Path) -> list[str]:
    """``jaxlint server`` whose index waits for ``gate`` to exist before it starts."""
    boot = textwrap.dedent(
        f"""\
        import json, os, sys, time
        sys.path[:0] = json.loads(sys.argv[1])
        import jaxlint.server.index as ix
        real = ix.index_workspace
        def held(*args, **kwargs):
            while not os.path.exists({str(gate)!r}):
                time.sleep(0.02)
            return real(*args, **kwargs)
        ix.index_workspace = held
        from jaxlint.server.worker import main
        main(int(sys.argv[2]), int(sys.argv[3]))
        """
    )
    code = (
        f"import sys, jaxlint.server.worker as w; w._BOOT = {boot!r}\n"
        "from jaxlint.cli import main\n"
        "sys.exit(main(['server', '--exact-delay', '0.05']))\n"
    )
    return [sys.executable, "-c", code]


def test_the_open_file_is_published_before_a_slow_index_ends(tmp_path):
    from test_lsp_server import Session

    shutil.copytree(PROJECT, tmp_path, dirs_exist_ok=True)
    gate = tmp_path / "gate"
    text = (tmp_path / "src/pkg/util.py").read_text()
    caps = lsp.ClientCapabilities(window=lsp.WindowClientCapabilities(work_done_progress=True))

    async def scenario():
        session = Session(
            tmp_path, init_options={}, command=_held_index_command(gate), capabilities=caps
        )
        logs: list[str] = []
        progress: list = []

        @session.client.feature(lsp.WINDOW_LOG_MESSAGE)
        def on_log(params: lsp.LogMessageParams) -> None:
            logs.append(params.message)
            session.changed.set()

        @session.client.feature(lsp.WINDOW_WORK_DONE_PROGRESS_CREATE)
        def on_create(params: lsp.WorkDoneProgressCreateParams) -> None:
            return None

        @session.client.feature(lsp.PROGRESS)
        def on_progress(params: lsp.ProgressParams) -> None:
            progress.append(params.value)
            session.changed.set()

        async with session as s:
            uri = s.open("src/pkg/util.py", text)
            await s.diagnostics(uri, 1)

            # the full lint (in the worker, not the index) reads step.py: JAX101
            def full() -> bool:
                found = [p for p in s.published if p.uri == uri and p.version == 1]
                return any(p.diagnostics for p in found)

            await s.wait_for(full, "the full lint of the opened file")
            ended = [m for m in logs if m.startswith("jaxlint: indexed")]
            assert ended == []  # the index is still held: nothing waited for it
            assert [v.get("kind") for v in progress] == ["begin"]  # shown as it runs
            gate.write_text("")
            await s.wait_for(
                lambda: any(m.startswith("jaxlint: indexed") for m in logs), "the index's end"
            )
            (message,) = [m for m in logs if m.startswith("jaxlint: indexed")]
            files = len(list(tmp_path.rglob("*.py")))
            assert f"indexed {files} files in " in message, message
            linted = int(message.split("(")[1].split()[0])
            assert linted >= 4, message  # util.py may come from its own full lint's entry
            await s.wait_for(
                lambda: any(v.get("kind") == "end" for v in progress),
                "the progress's end",
            )

    asyncio.run(scenario())
