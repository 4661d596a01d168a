"""The pygls wiring: documents, diagnostics, code actions, hover, settings, the index.

The handlers run on the server's one event-loop thread (the engine is single-threaded):
an edit gets the fast pass (``incremental.py``) at once and, once the document has not
changed for ``exact_delay`` seconds, the full lint in a worker process (``worker.py``),
so that edits made meanwhile still get their fast pass; both results are published.
A full lint still running when a newer version arrives is cancelled (the worker is
interrupted; nothing of it is published). Opening, saving and edits the fast pass
declines are linted on the loop; an opened document without a cached result is
linted from what the cache knows of the other modules, and the full lint follows.
At ``initialized`` the workspace is indexed in a second worker process
(``indexer.py``, ``index.py``) while the server answers as usual; when the index is
done, the open documents are looked at again and published if their findings changed.
The open documents' texts stand for their files in every project view; when a full
lint changes what a document's module tells the others (its summary), the other open
documents whose last result may read it are looked at again (``readers.py``):
linted and published only if an answer changed. Files changed on disk
outside the editor (``workspace/didChangeWatchedFiles``, registered at ``initialized``)
are re-indexed and do the same; a changed configuration file is a settings change;
added workspace folders are indexed.
Notebooks (LSP notebook document sync, ``notebooks.py``) are linted in full on every
change, their findings published to each cell's document.
"""

from __future__ import annotations

import asyncio
import functools
import gc
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcInternalError
from pygls.lsp.server import LanguageServer
from pygls.protocol.language_server import lsp_method

from jaxlint import __version__
from jaxlint.config import ConfigError
from jaxlint.diagnostics import INTERNAL_ERROR_CODE, PARSE_ERROR_CODE, Diagnostic, Position
from jaxlint.output.urls import environment_docs_url, rule_url
from jaxlint.server import actions
from jaxlint.server import notebooks as nbs
from jaxlint.server.hover import hover_markdown
from jaxlint.server.incremental import Span, fast_relint, statement_spans
from jaxlint.server.indexer import Indexer
from jaxlint.server.linting import (
    TOO_LARGE_NAME,
    DocumentLinter,
    LintResult,
    too_large_diagnostic,
)
from jaxlint.server.options import SERVER_KEYS, parse_options
from jaxlint.server.protocol import AnsweringProtocol
from jaxlint.server.readers import Readers
from jaxlint.server.uris import display_name, path_of
from jaxlint.server.worker import FullLint, TaskCancelled, Worker

FIX_ALL_KIND = "source.fixAll.jaxlint"
FIX_ALL_TITLE = "Fix all safe jaxlint findings"
FIX_ALL_UNSAFE_TITLE = "Fix all jaxlint findings (safe and unsafe)"
DEFAULT_EXACT_DELAY = 0.3
"""Seconds without an edit before the full lint follows the fast pass."""
_DEPRECATED_CODES = ("JAX701", "JAX702")


@dataclass
class DocState:
    uri: str
    path: Path | None
    name: str
    text: str
    version: int | None
    result: LintResult
    spans: list[Span] | None
    timer: asyncio.TimerHandle | None = None
    running: Any = None
    """The worker's future for this document's full lint, while it waits or runs."""
    good: tuple[str, list[Span], list[Diagnostic]] | None = None
    """The last text that parsed, its statements and diagnostics: where the fast pass
    starts from while the document has a syntax error."""
    recheck: bool = False
    """The index ended (or a module it reads changed) while this document's full lint
    ran: look again after it."""
    dependent: bool = False
    """The full lint due (``timer``) or running is a look again because a module this
    document reads changed (``JaxlintServer.look_again``), not one of its own edits."""
    queries: dict[str, Any] | None = None
    """What the last full lint asked of other modules, and the answers."""
    summary: tuple[str, str] | None = None
    """The digests of what this module tells the others (``linting._summary_digest``),
    as of the last full lint (``seen_text``)."""
    seen_text: str | None = None
    """The text the other documents' last results may have read: the one of this
    document's last full lint (None: not linted in full yet; the file on disk)."""
    lsp_forms: dict[int, tuple[Diagnostic, lsp.Diagnostic]] = field(default_factory=dict)
    """id(diagnostic) -> (it, its LSP form) as last published (the pair keeps the id valid)."""


class _Protocol(AnsweringProtocol):
    """pygls's protocol, but it leaves edits to the server (``JaxlintServer.changed``),
    and it answers every request (``protocol.py``).

    pygls applies incremental changes to its own copy of the document with lines split
    by ``str.splitlines`` (which breaks at form feeds, U+2028 and other characters that
    are not line breaks for LSP or Python), and it rewrites a position past the end of
    such a line in the request itself, so the server could not even apply the changes
    correctly after it. The server keeps its own copy of each open document.
    """

    @lsp_method(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: lsp.DidChangeTextDocumentParams):
        if (handler := self.fm.features.get(lsp.TEXT_DOCUMENT_DID_CHANGE)) is not None:
            yield handler, (params,), None

    # Notebooks too: their cells are edited like documents (the server keeps them).

    @lsp_method(lsp.NOTEBOOK_DOCUMENT_DID_OPEN)
    def lsp_notebook_document__did_open(self, params: lsp.DidOpenNotebookDocumentParams):
        if (handler := self.fm.features.get(lsp.NOTEBOOK_DOCUMENT_DID_OPEN)) is not None:
            yield handler, (params,), None

    @lsp_method(lsp.NOTEBOOK_DOCUMENT_DID_CHANGE)
    def lsp_notebook_document__did_change(self, params: lsp.DidChangeNotebookDocumentParams):
        if (handler := self.fm.features.get(lsp.NOTEBOOK_DOCUMENT_DID_CHANGE)) is not None:
            yield handler, (params,), None

    @lsp_method(lsp.NOTEBOOK_DOCUMENT_DID_CLOSE)
    def lsp_notebook_document__did_close(self, params: lsp.DidCloseNotebookDocumentParams):
        if (handler := self.fm.features.get(lsp.NOTEBOOK_DOCUMENT_DID_CLOSE)) is not None:
            yield handler, (params,), None


NOTEBOOK_SYNC = lsp.NotebookDocumentSyncOptions(
    notebook_selector=[
        lsp.NotebookDocumentFilterWithNotebook(
            notebook="jupyter-notebook", cells=[lsp.NotebookCellLanguage(language="python")]
        )
    ],
    save=True,
)
"""Advertised to clients that offer notebook sync: Jupyter notebooks, their Python cells."""


class JaxlintServer(LanguageServer):
    def __init__(self, exact_delay: float = DEFAULT_EXACT_DELAY) -> None:
        super().__init__(
            "jaxlint",
            __version__,
            text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental,
            protocol_cls=_Protocol,
            notebook_document_sync=NOTEBOOK_SYNC,
        )
        self.linter = DocumentLinter()
        self.docs: dict[str, DocState] = {}
        self.notebooks: dict[str, nbs.NotebookState] = {}
        self.cell_owner: dict[str, str] = {}
        """Cell document URI -> the URI of its notebook."""
        self.exact_delay = exact_delay
        self.pending_messages: list[str] = []
        self.worker = Worker()
        self.indexer = Indexer(self)
        self.frozen = False
        self.shown_bug = False
        self.generation = 0
        """Bumped whenever configs are to be read again (the worker's linter follows)."""
        self.readers = Readers(self)

    def report_server_error(self, error: Exception, source: Any) -> None:
        """pygls reports a message it could not send (``JsonRpcInternalError``, the one
        source of that kind) by sending another. When the pipe is closed (``exit`` closes
        stdout, and a lint finished in the worker may still publish), that send fails
        too and pygls reports it again, recursively, logging a longer traceback each
        time: the process spent minutes there instead of ending. pygls has logged the
        failure already; it is not sent."""
        if source is JsonRpcInternalError:
            return
        super().report_server_error(error, source)

    # -- helpers ------------------------------------------------------------------------

    @property
    def encoding(self) -> str:
        found = getattr(self.server_capabilities, "position_encoding", None)
        return str(getattr(found, "value", found) or "utf-16")

    def units(self, text: str) -> actions.Units:
        return actions.Units(text, self.encoding)

    def lsp_range(self, units: actions.Units, start: Position, end: Position) -> lsp.Range:
        (sl, sc), (el, ec) = units.to_lsp(start), units.to_lsp(end)
        return lsp.Range(lsp.Position(sl, sc), lsp.Position(el, ec))

    def to_lsp(
        self, diag: Diagnostic, units: actions.Units, docs_url: str | None
    ) -> lsp.Diagnostic:
        """``docs_url``: the document's ``docs-url`` (:func:`docs_url_of`)."""
        if diag.code in (PARSE_ERROR_CODE, INTERNAL_ERROR_CODE) and diag.name != TOO_LARGE_NAME:
            severity = lsp.DiagnosticSeverity.Error
        else:
            severity = lsp.DiagnosticSeverity.Warning
        # the same page as JSON's `url` and SARIF's `helpUri` (jaxlint/output/urls.py)
        url = rule_url(diag.code, docs_url)
        return lsp.Diagnostic(
            range=self.lsp_range(units, diag.start, diag.end),
            message=diag.message,
            severity=severity,
            code=diag.code,
            code_description=lsp.CodeDescription(href=url) if url else None,
            source="jaxlint",
            tags=[lsp.DiagnosticTag.Deprecated] if diag.code in _DEPRECATED_CODES else None,
            data={"name": diag.name, "fix": diag.fix.applicability.value if diag.fix else None},
        )

    def publish(self, state: DocState) -> None:
        """Send the document's diagnostics. A diagnostic object the fast pass kept as it
        was (same rows, same text) reuses its LSP form from the last publish."""
        units = self.units(state.text)
        before = state.lsp_forms
        forms: dict[int, tuple[Diagnostic, lsp.Diagnostic]] = {}
        out = []
        docs_url = docs_url_of(state.result)
        for diag in state.result.diagnostics:
            known = before.get(id(diag))
            if known is not None and known[0] is diag:
                form = known[1]
            else:
                form = self.to_lsp(diag, units, docs_url)
            forms[id(diag)] = (diag, form)
            out.append(form)
        state.lsp_forms = forms
        self.text_document_publish_diagnostics(
            lsp.PublishDiagnosticsParams(uri=state.uri, version=state.version, diagnostics=out)
        )

    def show(self, message: str, kind: lsp.MessageType = lsp.MessageType.Warning) -> None:
        self.window_show_message(lsp.ShowMessageParams(type=kind, message=message))

    def show_once(self, message: str) -> None:
        """A problem worth a bug report, logged always, shown once per server."""
        self.window_log_message(lsp.LogMessageParams(type=lsp.MessageType.Error, message=message))
        if not self.shown_bug:
            self.shown_bug = True
            self.show(f"{message}; please report this bug", lsp.MessageType.Error)

    # -- start-up ---------------------------------------------------------------------------

    def warm_up(self) -> None:
        """Import what the first lint needs and compute the cache's engine fingerprint
        (0.3-0.6 s measured), at ``initialized``: on the event loop, since the first
        document's lint needs all of it anyway (done in a thread beside that lint, it
        made the lint slower: 1.2-1.3 s against 0.9-1.0 s, measured with the file
        opened at once). A document opened later finds it done."""
        try:
            import jaxlint.cli.project_run  # noqa: F401  (the project view)
            import jaxlint.engine  # noqa: F401
            from jaxlint.cache import engine_fingerprint
            from jaxlint.rules import all_rules

            all_rules()
            engine_fingerprint()
        except Exception:  # the first lint imports them again and reports what fails
            pass

    def log(self, message: str) -> None:
        self.window_log_message(lsp.LogMessageParams(type=lsp.MessageType.Info, message=message))

    # -- linting ------------------------------------------------------------------------

    def open_state(self, uri: str, text: str, version: int | None) -> DocState:
        path = path_of(uri)
        name = display_name(path, uri)
        # a cache miss: at once without the modules that import this one, the rest after
        result = self.linter.lint(text, path, name, persist=True, partial=True)
        # above max-file-size: one diagnostic, and no parse at all
        spans = None if result.extra.get("too_large") else statement_spans(text)
        state = DocState(
            uri,
            path,
            name,
            text,
            version,
            result,
            spans if isinstance(spans, list) else None,
        )
        if state.spans is not None:
            state.good = (text, state.spans, result.diagnostics)
        old = self.docs.get(uri)
        if old is not None:  # linted again (a save, a settings change): what others saw
            state.queries, state.summary = old.queries, old.summary
            state.seen_text = old.seen_text
        self.docs[uri] = state
        self.set_buffer(state)
        return state

    def set_buffer(self, state: DocState) -> None:
        """The document's text stands for its file in every project view from now on."""
        if state.path is not None:
            self.linter.buffers[os.path.abspath(state.path)] = state.text

    def other_buffers(self, state: DocState) -> dict[str, str]:
        """The other open documents' texts (for a full lint of ``state`` in the worker)."""
        own = os.path.abspath(state.path) if state.path is not None else None
        return {k: v for k, v in self.linter.buffers.items() if k != own}

    def relint(self, uri: str, text: str | None = None, version: int | None = None) -> None:
        """A full lint of the document (as it is now, or as given), published."""
        old = self.docs.get(uri)
        if text is None:
            if old is not None:
                text, version = old.text, old.version
            else:
                doc = self.workspace.get_text_document(uri)
                text, version = doc.source, doc.version
        if old is not None:
            self.cancel_exact(old)
        state = self.open_state(uri, text, version)
        self.publish(state)
        if not state.result.exact:
            self.schedule_exact(state)
        else:  # from the cache (or too large, or a bad config): no full lint follows
            self.readers.full_lint(state, state.result, self.linter.last_source, False)
        if not self.frozen:
            # Everything loaded so far (libcst, the rules) lives as long as the server:
            # keep the cyclic GC from walking it again and again (65 ms pauses, measured
            # on a 2,000-line file, every few edits).
            gc.freeze()
            self.frozen = True

    def changed(self, params: lsp.DidChangeTextDocumentParams) -> None:
        """Apply the edits to the document's text (this server's own copy: pygls splits
        lines with ``str.splitlines``, which breaks at form feeds), then lint."""
        uri = params.text_document.uri
        state = self.docs.get(uri)
        if state is None:  # a change to a document never opened: nothing to apply it to
            return
        new_text = state.text
        for change in params.content_changes:
            if isinstance(change, lsp.TextDocumentContentChangePartial):
                rng = change.range
                new_text = actions.apply_change(
                    new_text,
                    (rng.start.line, rng.start.character),
                    (rng.end.line, rng.end.character),
                    change.text,
                    self.encoding,
                )
            else:
                new_text = change.text
        self.cancel_exact(state)
        settings = state.result.settings
        fast = None
        big = settings is not None and too_large_diagnostic(new_text, state.name, settings)
        if settings is not None and state.result.diagnostics is not None and not big:

            def lint(text: str) -> list[Diagnostic]:
                return self.linter.lint_with(
                    text, state.path, state.name, settings, reuse_facts=True
                ).diagnostics

            if state.spans is not None or state.good is None:
                base = (state.text, state.spans, state.result.diagnostics)
            else:
                base = state.good
            try:
                fast = fast_relint(*base, new_text, state.name, lint)
            except Exception as exc:  # a bug in the fast pass: the full lint is always right
                self.show_once(f"jaxlint: fast pass failed ({type(exc).__name__}: {exc})")
                fast = None
        if fast is None:
            result = self.linter.lint(new_text, state.path, state.name)
            spans = None if result.extra.get("too_large") else statement_spans(new_text)
            state.spans = spans if isinstance(spans, list) else None
        else:
            result = LintResult(fast.diagnostics, settings, exact=False)
            state.spans = fast.spans
        state.text, state.version, state.result = new_text, params.text_document.version, result
        self.set_buffer(state)
        if state.spans is not None:
            state.good = (state.text, state.spans, result.diagnostics)
        self.publish(state)
        if not result.exact:
            self.schedule_exact(state)
        self.readers.edited(state)

    def cancel_exact(self, state: DocState) -> None:
        """The document changed (or closed): its full lint is not wanted. A waiting one is
        never run; a running one is interrupted in the worker, and nothing of it is
        published (``exact_done`` drops it)."""
        if state.timer is not None:
            state.timer.cancel()
            state.timer = None
        if state.running is not None:
            self.worker.cancel(state.running)
            state.running = None
        state.recheck = False  # the next full lint reads the project as it is then
        state.dependent = False

    def schedule_exact(self, state: DocState) -> None:
        loop = asyncio.get_event_loop()
        state.timer = loop.call_later(self.exact_delay, self.exact, state.uri, state.version)

    def exact(self, uri: str, version: int | None, quiet_if_same: bool = False) -> None:
        """The full lint after the fast pass, in the worker process when there is one.
        ``quiet_if_same``: published only if the findings differ from those published
        (the open documents looked at again after the index)."""
        state = self.docs.get(uri)
        if state is None or state.version != version:
            return
        state.timer = None
        if state.running is not None:
            self.worker.cancel(state.running)  # a full lint of an older text
            state.running = None
        # after an open (and after the index): through the results cache, and into it
        persist = quiet_if_same or bool(state.result.extra.get("partial"))
        future = self.worker.submit_lint(
            state.text,
            state.path,
            state.name,
            self.linter.overrides,
            self.generation,
            persist,
            self.other_buffers(state),
        )
        if future is None:
            self.exact_here(state, persist=persist, quiet_if_same=quiet_if_same)
            return
        state.running = future
        asyncio.wrap_future(future).add_done_callback(
            functools.partial(self.exact_done, uri, version, state.text, future, quiet_if_same)
        )

    def exact_here(
        self, state: DocState, persist: bool | None = None, quiet_if_same: bool = False
    ) -> None:
        if persist is None:
            persist = bool(state.result.extra.get("partial"))
        dependent, state.dependent = state.dependent, False
        result = self.linter.lint(state.text, state.path, state.name, persist=persist)
        self.settle(state, result, quiet_if_same, self.linter.last_source, dependent)

    def settle(
        self,
        state: DocState,
        result: LintResult,
        quiet_if_same: bool,
        source: str = "lint",
        dependent: bool = False,
    ) -> None:
        """The full lint's result becomes the document's; published (unless it finds what
        is published already and ``quiet_if_same``). Then the other open documents that
        read what this one tells them are looked at again if that changed."""
        same = quiet_if_same and _same(state.result.diagnostics, result.diagnostics)
        state.result = result
        if state.spans is not None:
            state.good = (state.text, state.spans, state.result.diagnostics)
        if not same:
            self.publish(state)
        self.readers.full_lint(state, result, source, dependent)

    def exact_done(
        self,
        uri: str,
        version: int | None,
        text: str,
        future,
        quiet_if_same: bool,
        _wrapped,
    ) -> None:
        state = self.docs.get(uri)
        dependent = False
        if state is not None and state.running is future:
            state.running = None
            dependent, state.dependent = state.dependent, False
        if future.cancelled():
            return
        current = state is not None and state.version == version and state.text == text
        error = future.exception()
        if isinstance(error, TaskCancelled):
            return  # a newer text came while it ran: never published
        if error is not None:  # the worker died or failed: lint here from now on
            self.worker.discard()
            self.worker.failed = True
            if current:
                assert state is not None
                self.exact_here(state, quiet_if_same=quiet_if_same)
            return
        if not current:
            return  # the document changed meanwhile: its own full lint follows
        assert state is not None
        try:
            settings = self.linter.settings_for(state.path)
        except ConfigError:
            settings = None
        answer: FullLint = future.result()
        extra: dict[str, Any] = {}
        if answer.queries:
            extra["queries"] = answer.queries
        if answer.summary is not None:
            extra["summary"] = answer.summary
        result = LintResult(answer.diagnostics, settings, extra=extra)
        self.settle(state, result, quiet_if_same, answer.source, dependent)
        if state.recheck:
            state.recheck = False
            self.exact(uri, version, quiet_if_same=True)
            return
        if dependent and answer.source == "lint":
            self.linter.forget(state.path)  # the fast pass's view read the older module
        if settings is not None:  # idle now: the fast pass's project view, for the next edit
            self.linter.warm_facts(state.path, settings)

    def current(self, uri: str) -> DocState:
        """The document's state (linted now if it was never opened)."""
        state = self.docs.get(uri)
        if state is None:
            doc = self.workspace.get_text_document(uri)
            state = self.open_state(uri, doc.source, doc.version)
        return state

    # -- code actions -------------------------------------------------------------------

    def code_actions(self, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
        uri = params.text_document.uri
        if uri in self.cell_owner:
            return self.cell_actions(params)
        state = self.current(uri)
        units = self.units(state.text)
        start = units.from_lsp(params.range.start.line, params.range.start.character)
        end = units.from_lsp(params.range.end.line, params.range.end.character)
        only = params.context.only
        out: list[lsp.CodeAction] = []
        if _wanted(lsp.CodeActionKind.QuickFix, only):
            for diag in state.result.diagnostics:
                if diag.code in (PARSE_ERROR_CODE, INTERNAL_ERROR_CODE):
                    continue
                if not (diag.start.row <= end.row and start.row <= diag.end.row):
                    continue
                out += self.diagnostic_actions(state, diag, units)
        # Fix-all runs the fix loop (a full lint per pass): asked for by kind it is
        # computed at once; in a plain request (made on every cursor move) it is
        # offered only to clients that resolve its edit when it is chosen.
        lazy = only is None
        if _wanted(FIX_ALL_KIND, only) and not (lazy and not self.resolves_edits()):
            action = self.fix_all_action(state, lazy=lazy)
            if action is not None:
                out.append(action)
        return out

    def diagnostic_actions(
        self, state: DocState, diag: Diagnostic, units: actions.Units
    ) -> list[lsp.CodeAction]:
        out = []
        lsp_diag = [self.to_lsp(diag, units, docs_url_of(state.result))]
        title = actions.fix_title(diag)
        if title is not None:
            edits = actions.fix_edits(diag, units)
            out.append(
                lsp.CodeAction(
                    title=title,
                    kind=lsp.CodeActionKind.QuickFix,
                    diagnostics=lsp_diag,
                    is_preferred=diag.fix is not None and diag.fix.applicability.value == "safe",
                    edit=self.workspace_edit(state, edits),
                )
            )
        noqa = actions.noqa_edit(state.text, diag, units, state.spans)
        if noqa is not None:
            out.append(
                lsp.CodeAction(
                    title=f"Disable {diag.code} for this line",
                    kind=lsp.CodeActionKind.QuickFix,
                    diagnostics=lsp_diag,
                    edit=self.workspace_edit(state, [noqa]),
                )
            )
        return out

    def workspace_edit(self, state: DocState, edits: list[actions.TextEdit]) -> lsp.WorkspaceEdit:
        text_edits: list[lsp.TextEdit | lsp.AnnotatedTextEdit | lsp.SnippetTextEdit] = [
            lsp.TextEdit(
                range=lsp.Range(lsp.Position(*e.start), lsp.Position(*e.end)), new_text=e.new_text
            )
            for e in edits
        ]
        return lsp.WorkspaceEdit(
            document_changes=[
                lsp.TextDocumentEdit(
                    text_document=lsp.OptionalVersionedTextDocumentIdentifier(
                        uri=state.uri, version=state.version
                    ),
                    edits=text_edits,
                )
            ]
        )

    def resolves_edits(self) -> bool:
        caps = self.client_capabilities.text_document
        action = caps.code_action if caps is not None else None
        support = action.resolve_support if action is not None else None
        return support is not None and "edit" in support.properties

    def fix_all_action(self, state: DocState, lazy: bool) -> lsp.CodeAction | None:
        settings = state.result.settings
        if settings is None:
            return None
        unsafe = settings.unsafe_fixes
        applicable = [
            d
            for d in state.result.diagnostics
            if d.fix is not None
            and (
                d.fix.applicability.value == "safe"
                or (unsafe and d.fix.applicability.value == "unsafe")
            )
        ]
        if not applicable:
            return None
        title = FIX_ALL_UNSAFE_TITLE if unsafe else FIX_ALL_TITLE
        action = lsp.CodeAction(
            title=title,
            kind=FIX_ALL_KIND,
            data={"uri": state.uri, "version": state.version},
        )
        return action if lazy else self.resolve_fix_all(action)

    def resolve_fix_all(self, action: lsp.CodeAction) -> lsp.CodeAction:
        data = action.data if isinstance(action.data, dict) else {}
        uri = data.get("uri")
        if not isinstance(uri, str) or uri not in self.docs:
            return action
        state = self.current(uri)
        settings = state.result.settings
        if settings is None or data.get("version", state.version) != state.version:
            return action  # offered for an older text: no edit rather than a stale one

        def lint(text: str) -> list[Diagnostic]:
            return self.linter.lint_with(text, state.path, state.name, settings).diagnostics

        fixed = actions.fix_all(
            state.text, lint, unsafe=settings.unsafe_fixes, known=state.result.diagnostics
        )
        if fixed is not None:
            edit = actions.whole_text_edit(state.text, fixed[0], self.units(state.text))
            action.edit = self.workspace_edit(state, [edit])
        return action

    # -- notebooks ----------------------------------------------------------------------

    def edit_text(self, text: str, change: Any) -> str:
        if isinstance(change, lsp.TextDocumentContentChangePartial):
            rng = change.range
            return actions.apply_change(
                text,
                (rng.start.line, rng.start.character),
                (rng.end.line, rng.end.character),
                change.text,
                self.encoding,
            )
        return change.text

    def notebook_opened(self, params: lsp.DidOpenNotebookDocumentParams) -> None:
        book = params.notebook_document
        items = {item.uri: item for item in params.cell_text_documents}
        cells = []
        for cell in book.cells:
            item = items.get(cell.document)
            cells.append(
                nbs.CellDoc(
                    cell.document,
                    int(cell.kind),
                    item.language_id if item is not None else None,
                    item.text if item is not None else "",
                    item.version if item is not None else None,
                )
            )
        path = path_of(book.uri)
        state = nbs.NotebookState(book.uri, path, display_name(path, book.uri), book.version, cells)
        self.notebooks[book.uri] = state
        self.relint_notebook(state)

    def notebook_changed(self, params: lsp.DidChangeNotebookDocumentParams) -> None:
        state = self.notebooks.get(params.notebook_document.uri)
        if state is None:
            return
        closed = nbs.apply_change(
            state, params.notebook_document.version, params.change, self.edit_text
        )
        for uri in closed:
            self.clear(uri)
        self.relint_notebook(state)

    def notebook_closed(self, params: lsp.DidCloseNotebookDocumentParams) -> None:
        state = self.notebooks.pop(params.notebook_document.uri, None)
        uris = {c.uri for c in params.cell_text_documents}
        if state is not None:
            uris |= {c.uri for c in state.cells} | state.published
        for uri in uris:
            self.clear(uri)

    def clear(self, cell_uri: str) -> None:
        """A cell closed or removed: forget it and clear its diagnostics."""
        self.cell_owner.pop(cell_uri, None)
        self.text_document_publish_diagnostics(
            lsp.PublishDiagnosticsParams(uri=cell_uri, diagnostics=[])
        )

    def relint_notebook(self, state: nbs.NotebookState) -> None:
        """Lint the notebook's Python cells as one module and publish per cell."""
        for cell in state.cells:
            self.cell_owner[cell.uri] = state.uri
        nbs.lint_notebook(self.linter, state)
        docs_url = docs_url_of(state.result)
        sent = set()
        for cell in state.cells:
            found = state.by_cell.get(cell.uri)
            if found is None and cell.uri not in state.published:
                continue
            units = self.units(cell.text)
            self.text_document_publish_diagnostics(
                lsp.PublishDiagnosticsParams(
                    uri=cell.uri,
                    version=cell.version,
                    diagnostics=[self.to_lsp(d, units, docs_url) for d in found or []],
                )
            )
            sent.add(cell.uri)
        for uri in state.published - sent:  # cells removed from the notebook
            if state.cell(uri) is None:
                self.clear(uri)
        state.published = sent

    def cell_state(self, uri: str) -> tuple[nbs.NotebookState, nbs.CellDoc] | None:
        owner = self.cell_owner.get(uri)
        state = self.notebooks.get(owner) if owner is not None else None
        cell = state.cell(uri) if state is not None else None
        return None if state is None or cell is None else (state, cell)

    def cell_actions(self, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
        """Quick fixes and noqa on one cell: edits of that cell's document only."""
        found = self.cell_state(params.text_document.uri)
        if found is None or not _wanted(lsp.CodeActionKind.QuickFix, params.context.only):
            return []
        state, cell = found
        units = self.units(cell.text)
        start = units.from_lsp(params.range.start.line, params.range.start.character)
        end = units.from_lsp(params.range.end.line, params.range.end.character)
        target = DocState(
            cell.uri, None, state.name, cell.text, cell.version, LintResult([], None), None
        )
        out: list[lsp.CodeAction] = []
        for diag in state.by_cell.get(cell.uri, []):
            if diag.code in (PARSE_ERROR_CODE, INTERNAL_ERROR_CODE):
                continue
            if not (diag.start.row <= end.row and start.row <= diag.end.row):
                continue
            lsp_diag = [self.to_lsp(diag, units, docs_url_of(state.result))]
            title = actions.fix_title(diag)
            if title is not None:
                out.append(
                    lsp.CodeAction(
                        title=title,
                        kind=lsp.CodeActionKind.QuickFix,
                        diagnostics=lsp_diag,
                        is_preferred=diag.fix is not None
                        and diag.fix.applicability.value == "safe",
                        edit=self.workspace_edit(target, actions.fix_edits(diag, units)),
                    )
                )
            # checked on the cell with its IPython lines masked (same lines, and the
            # finding's line is never one of them), so that a cell with magics parses
            masked = state.masked.get(cell.uri)
            noqa = None
            if masked is not None and len(actions.lines_of(masked)) == len(units.lines):
                noqa = actions.noqa_edit(masked, diag, actions.Units(masked, self.encoding))
            if noqa is not None:
                out.append(
                    lsp.CodeAction(
                        title=f"Disable {diag.code} for this line",
                        kind=lsp.CodeActionKind.QuickFix,
                        diagnostics=lsp_diag,
                        edit=self.workspace_edit(target, [noqa]),
                    )
                )
        return out

    # -- settings -----------------------------------------------------------------------

    def configs_changed(self) -> None:
        """The configuration may have changed (a settings change, a config file changed
        on disk): read it again, lint the open documents again, and index again (the
        cache entries of the old settings do not answer the new)."""
        self.linter.reset()
        self.generation += 1
        for uri in list(self.docs):
            self.relint(uri)
        for state in list(self.notebooks.values()):
            self.relint_notebook(state)
        self.indexer.start()

    def apply_settings(self, raw: Any) -> None:
        overrides, problems = parse_options(raw)
        self.indexer.enabled = overrides.pop("index", True) is not False
        for key in SERVER_KEYS:
            overrides.pop(key, None)
        self.linter.reset(overrides)
        self.generation += 1
        for message in problems:
            self.pending_messages.append(message)


def docs_url_of(result: LintResult | None) -> str | None:
    """The ``docs-url`` of the settings a document was linted with (None: not set, or the
    configuration could not be read); ``$JAXLINT_DOCS_URL`` wins over it in ``rule_url``."""
    settings = result.settings if result is not None else None
    return settings.docs_url if settings is not None else None


def _same(old: list[Diagnostic], new: list[Diagnostic]) -> bool:
    def key(d: Diagnostic) -> tuple:
        return (d.code, d.start, d.end, d.message)

    return [key(d) for d in old] == [key(d) for d in new]


def _wanted(kind: str, only: list[str] | None) -> bool:
    if only is None:
        return True
    return any(kind == k or kind.startswith(f"{k}.") for k in only)


def build_server(exact_delay: float = DEFAULT_EXACT_DELAY) -> JaxlintServer:
    server = JaxlintServer(exact_delay)

    @server.feature(lsp.INITIALIZE)
    def initialize(ls: JaxlintServer, params: lsp.InitializeParams) -> None:
        ls.apply_settings(params.initialization_options)
        try:
            environment_docs_url()
        except ValueError as exc:  # `jaxlint check` stops for it; the server goes on
            ls.pending_messages.append(f"{exc}; the links point at the pages on disk")

    @server.feature(lsp.INITIALIZED)
    def initialized(ls: JaxlintServer, params: lsp.InitializedParams) -> None:
        for message in ls.pending_messages:
            ls.show(message)
        ls.pending_messages.clear()
        ls.warm_up()
        ls.readers.watch()
        ls.indexer.start_soon()

    @server.feature(lsp.WORKSPACE_DID_CHANGE_CONFIGURATION)
    def did_change_configuration(ls: JaxlintServer, params: lsp.DidChangeConfigurationParams):
        if params.settings is None:
            return
        ls.apply_settings(params.settings)
        for message in ls.pending_messages:
            ls.show(message)
        ls.pending_messages.clear()
        ls.configs_changed()

    @server.feature(lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def did_change_watched_files(ls: JaxlintServer, params: lsp.DidChangeWatchedFilesParams):
        ls.readers.files_changed(params)

    @server.feature(lsp.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    def did_change_workspace_folders(
        ls: JaxlintServer, params: lsp.DidChangeWorkspaceFoldersParams
    ) -> None:
        # pygls has updated ``ls.workspace`` already
        ls.indexer.folders_changed([f.uri for f in params.event.added or []])

    @server.feature(lsp.SHUTDOWN)
    def shutdown(ls: JaxlintServer, params: None) -> None:
        ls.worker.close()
        ls.indexer.close()

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: JaxlintServer, params: lsp.DidOpenTextDocumentParams) -> None:
        item = params.text_document
        ls.relint(item.uri, item.text, item.version)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: JaxlintServer, params: lsp.DidChangeTextDocumentParams) -> None:
        ls.changed(params)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: JaxlintServer, params: lsp.DidSaveTextDocumentParams) -> None:
        # a config file may have changed since: read the configs again
        ls.linter.reset()
        ls.generation += 1
        ls.relint(params.text_document.uri)

    @server.feature(lsp.NOTEBOOK_DOCUMENT_DID_OPEN)
    def notebook_did_open(ls: JaxlintServer, params: lsp.DidOpenNotebookDocumentParams) -> None:
        ls.notebook_opened(params)

    @server.feature(lsp.NOTEBOOK_DOCUMENT_DID_CHANGE)
    def notebook_did_change(ls: JaxlintServer, params: lsp.DidChangeNotebookDocumentParams) -> None:
        ls.notebook_changed(params)

    @server.feature(lsp.NOTEBOOK_DOCUMENT_DID_SAVE)
    def notebook_did_save(ls: JaxlintServer, params: lsp.DidSaveNotebookDocumentParams) -> None:
        ls.linter.reset()  # a config file may have changed since
        ls.generation += 1
        state = ls.notebooks.get(params.notebook_document.uri)
        if state is not None:
            ls.relint_notebook(state)

    @server.feature(lsp.NOTEBOOK_DOCUMENT_DID_CLOSE)
    def notebook_did_close(ls: JaxlintServer, params: lsp.DidCloseNotebookDocumentParams) -> None:
        ls.notebook_closed(params)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: JaxlintServer, params: lsp.DidCloseTextDocumentParams) -> None:
        state = ls.docs.pop(params.text_document.uri, None)
        if state is not None:
            ls.cancel_exact(state)
            ls.linter.forget(state.path)
            ls.readers.closed(state)
        ls.text_document_publish_diagnostics(
            lsp.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[])
        )

    @server.feature(
        lsp.TEXT_DOCUMENT_CODE_ACTION,
        lsp.CodeActionOptions(
            code_action_kinds=[lsp.CodeActionKind.QuickFix, FIX_ALL_KIND],
            resolve_provider=True,
        ),
    )
    def code_action(ls: JaxlintServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
        return ls.code_actions(params)

    @server.feature(lsp.CODE_ACTION_RESOLVE)
    def code_action_resolve(ls: JaxlintServer, action: lsp.CodeAction) -> lsp.CodeAction:
        if action.kind == FIX_ALL_KIND:
            return ls.resolve_fix_all(action)
        return action

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    def hover(ls: JaxlintServer, params: lsp.HoverParams) -> lsp.Hover | None:
        cell = ls.cell_state(params.text_document.uri)
        if cell is not None:
            text, found = cell[1].text, cell[0].by_cell.get(cell[1].uri, [])
            docs_url = docs_url_of(cell[0].result)
        elif params.text_document.uri in ls.cell_owner:
            return None  # a cell of a notebook that is no longer open
        else:
            state = ls.current(params.text_document.uri)
            text, found = state.text, state.result.diagnostics
            docs_url = docs_url_of(state.result)
        units = ls.units(text)
        pos = units.from_lsp(params.position.line, params.position.character)
        under = [d for d in found if d.code not in (INTERNAL_ERROR_CODE,) and _covers(d, pos)]
        text = hover_markdown(under, lambda code: rule_url(code, docs_url))
        if text is None:
            return None
        first = under[0]
        return lsp.Hover(
            contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text),
            range=ls.lsp_range(units, first.start, first.end),
        )

    return server


def _covers(diag: Diagnostic, pos: Position) -> bool:
    if diag.start == diag.end:
        return diag.start.row == pos.row
    return diag.start <= pos <= diag.end


def serve(exact_delay: float = DEFAULT_EXACT_DELAY) -> int:
    """Serve on stdin/stdout until ``exit`` (or the end of stdin). The exit code is 0
    after a ``shutdown`` request and 1 without one, as the LSP specification asks
    (pygls calls ``sys.exit`` with it, but its IO loop swallows ``SystemExit``)."""
    server = build_server(exact_delay)
    try:
        server.start_io()
    finally:
        server.worker.close()
        server.indexer.close()
    return 0 if server.protocol._shutdown else 1
