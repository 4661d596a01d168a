"""What the server does, not how fast: which requests lint, parse or wait (issue 29).

The server runs in this process (no client, no stdio): its publish is captured, and
its linter's methods are wrapped to count calls. No timings are asserted.
"""

from __future__ import annotations

import asyncio
import textwrap

import pytest

pytest.importorskip("pygls.lsp.server", reason="jaxlint server needs the lsp extra")
lsp = pytest.importorskip("lsprotocol.types")

from jaxlint.server import actions  # noqa: E402
from jaxlint.server.app import FIX_ALL_KIND, build_server  # noqa: E402

SOURCE = textwrap.dedent(
    """\
    import jax
    import jax.numpy as jnp


    def init(n):
        buf = jnp.empty((n,))
        return buf


    def legacy(key):
        key = jax.random.PRNGKey(0)
        return jax.tree_map(lambda x: x, key)


    TEXT = '''
    a string over lines
    '''
    """
)


def _open(tmp_path, monkeypatch, text=SOURCE):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("JAXLINT_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "pyproject.toml").write_text(
        '[tool.jaxlint]\nextend-select = ["JAX602"]\n', encoding="utf-8"
    )
    path = tmp_path / "model.py"
    path.write_text(text, encoding="utf-8")
    server = build_server()
    server.protocol.server_capabilities = lsp.ServerCapabilities()  # as after initialize
    server.protocol.client_capabilities = lsp.ClientCapabilities()
    published: list = []
    server.text_document_publish_diagnostics = published.append  # type: ignore[method-assign]
    server.relint(path.as_uri(), text, 1)
    return server, path.as_uri(), published


class _Counter:
    def __init__(self, monkeypatch, linter) -> None:
        self.calls: list[str] = []
        for name in ("lint", "lint_with"):
            real = getattr(linter, name)

            def counted(*args, _real=real, _name=name, **kwargs):
                self.calls.append(_name)
                return _real(*args, **kwargs)

            monkeypatch.setattr(linter, name, counted)


def _in_loop(fn):
    async def body():
        return fn()

    return asyncio.run(body())


def test_code_actions_neither_lint_nor_parse_the_whole_text(tmp_path, monkeypatch):
    def body():
        server, uri, _ = _open(tmp_path, monkeypatch)
        state = server.docs[uri]
        server.exact_here(state)  # the full lint's result, as after the worker's
        found = [d for d in state.result.diagnostics if d.fix is not None]
        assert found, "the sample has fixable findings"
        counter = _Counter(monkeypatch, server.linter)
        parsed: list[int] = []
        real_parse = actions.ast.parse

        def parse(text, *args, **kwargs):
            parsed.append(len(text))
            return real_parse(text, *args, **kwargs)

        monkeypatch.setattr(actions.ast, "parse", parse)
        actions._tree_dump.cache_clear()
        titles = []
        for diag in state.result.diagnostics:
            params = lsp.CodeActionParams(
                text_document=lsp.TextDocumentIdentifier(uri=uri),
                range=lsp.Range(
                    lsp.Position(diag.start.row - 1, 0), lsp.Position(diag.start.row - 1, 0)
                ),
                context=lsp.CodeActionContext(diagnostics=[], only=["quickfix"]),
            )
            titles += [a.title for a in server.code_actions(params)]
        assert counter.calls == []  # served from the last result
        assert any(t.startswith("Fix ") for t in titles)
        assert any(t.startswith("Disable ") for t in titles)
        assert parsed and max(parsed) < len(SOURCE)  # the statement, never the whole text
        # and the noqa edits are the ones the whole-text check gives
        units = server.units(state.text)
        for diag in state.result.diagnostics:
            fast = actions.noqa_edit(state.text, diag, units, state.spans)
            assert fast == actions.noqa_edit(state.text, diag, units)

    _in_loop(body)


def test_noqa_by_statement_refuses_a_line_inside_a_string(tmp_path, monkeypatch):
    from jaxlint.diagnostics import Diagnostic, Position

    def body():
        server, uri, _ = _open(tmp_path, monkeypatch)
        state = server.docs[uri]
        row = SOURCE.splitlines().index("a string over lines") + 1
        diag = Diagnostic("JAX602", "x", "m", "model.py", Position(row, 1), Position(row, 2))
        units = server.units(state.text)
        assert actions.noqa_edit(state.text, diag, units, state.spans) is None
        assert actions.noqa_edit(state.text, diag, units) is None

    _in_loop(body)


def test_fix_all_comes_from_the_last_result_without_a_lint(tmp_path, monkeypatch):
    def body():
        server, uri, _ = _open(tmp_path, monkeypatch)
        state = server.docs[uri]
        server.exact_here(state)
        settings = state.result.settings
        expected = actions.fix_all(
            state.text,
            lambda t: server.linter.lint_with(t, state.path, state.name, settings).diagnostics,
            unsafe=False,
        )
        assert expected is not None
        counter = _Counter(monkeypatch, server.linter)
        action = lsp.CodeAction(
            title="fix all", kind=FIX_ALL_KIND, data={"uri": uri, "version": state.version}
        )
        resolved = server.resolve_fix_all(action)
        assert counter.calls == []
        assert resolved.edit is not None
        edit = resolved.edit.document_changes[0].edits[0]
        whole = actions.whole_text_edit(state.text, expected[0], server.units(state.text))
        assert (edit.new_text, edit.range.start.line) == (whole.new_text, whole.start[0])

    _in_loop(body)


def test_fix_all_for_an_older_version_edits_nothing(tmp_path, monkeypatch):
    def body():
        server, uri, _ = _open(tmp_path, monkeypatch)
        state = server.docs[uri]
        counter = _Counter(monkeypatch, server.linter)
        action = lsp.CodeAction(
            title="fix all", kind=FIX_ALL_KIND, data={"uri": uri, "version": state.version - 1}
        )
        assert server.resolve_fix_all(action).edit is None
        assert counter.calls == []

    _in_loop(body)


def test_open_publishes_without_the_importers_and_the_full_lint_follows(tmp_path, monkeypatch):
    def body():
        server, uri, published = _open(tmp_path, monkeypatch)
        state = server.docs[uri]
        assert len(published) == 1
        assert state.result.exact is False  # no other module was asked about this one
        assert state.timer is not None  # the full lint is scheduled
        state.timer.cancel()
        server.exact_here(state)
        assert state.result.exact is True
        assert len(published) == 2
        # the full result went to the disk cache: opening again is exact at once
        server.relint(uri, state.text, 2)
        assert server.docs[uri].result.exact is True

    _in_loop(body)


def test_a_full_lint_of_an_older_version_is_dropped(tmp_path, monkeypatch):
    import concurrent.futures

    def body():
        server, uri, published = _open(tmp_path, monkeypatch)
        state = server.docs[uri]
        state.timer.cancel()
        before = list(state.result.diagnostics)
        future: concurrent.futures.Future = concurrent.futures.Future()
        future.set_running_or_notify_cancel()
        from jaxlint.server.worker import FullLint

        future.set_result(FullLint([], None, None, "lint"))  # the older text's full lint
        count = len(published)
        server.exact_done(uri, state.version - 1, state.text, future, False, None)
        assert len(published) == count  # nothing published for the older version
        assert state.result.diagnostics == before
        server.exact_done(uri, state.version, state.text, future, False, None)
        assert len(published) == count + 1 and state.result.diagnostics == []

    _in_loop(body)


def test_the_fast_pass_reuses_the_project_view_until_close(tmp_path, monkeypatch):
    def body():
        server, uri, _ = _open(tmp_path, monkeypatch)
        state = server.docs[uri]
        state.timer.cancel()
        linter = server.linter
        linter.warm_facts(state.path, state.result.settings)
        views: list = []
        real = linter._project_facts

        def counted(*args, **kwargs):
            views.append(args)
            return real(*args, **kwargs)

        monkeypatch.setattr(linter, "_project_facts", counted)
        for version, line in ((2, 5), (3, 6)):
            change = lsp.TextDocumentContentChangePartial(
                range=lsp.Range(lsp.Position(line, 0), lsp.Position(line, 0)), text="    # e\n"
            )
            server.changed(
                lsp.DidChangeTextDocumentParams(
                    lsp.VersionedTextDocumentIdentifier(uri=uri, version=version), [change]
                )
            )
            state.timer.cancel()
        assert views == []  # both fast passes used the view read while idle
        linter.forget(state.path)
        assert str(state.path) not in linter._facts

    _in_loop(body)
