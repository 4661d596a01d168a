"""The open documents that read what another module tells them, and files changed on
disk outside the editor (docs/design.md, Language server).

Every project view reads an open document's text instead of its file
(``DocumentLinter.buffers``). A full lint reports what it asked of other modules and
two digests of its own module's summary (``linting._summary_digest``: exports, calls).
When they change, the other open documents whose last result may read that module
(:func:`asks_of`) are looked at again: the worker's full lint after the idle delay,
through its memo and the cache, which lints only if an answer changed; published only
if the findings changed. Files changed on disk (``workspace/didChangeWatchedFiles``)
have their index entries brought up to date first (``Indexer.refresh``).
"""

from __future__ import annotations

import asyncio
import collections
import functools
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types as lsp

from jaxlint.analysis.x64 import PYTEST_CONFIG_FILES
from jaxlint.config import CONFIG_NAMES as SETTINGS_FILES
from jaxlint.server.uris import path_of

if TYPE_CHECKING:
    from jaxlint.server.app import DocState, JaxlintServer
    from jaxlint.server.linting import LintResult

CONFIG_NAMES = frozenset({*SETTINGS_FILES, *PYTEST_CONFIG_FILES, ".gitignore"})
"""Files whose change on disk is a settings change (the configuration the linter reads,
the pytest configuration the x64 analysis reads, what discovery leaves out)."""
WATCHED_GLOBS = ("**/*.py", *(f"**/{name}" for name in sorted(CONFIG_NAMES)))
"""What the server asks the client to watch on disk (``workspace/didChangeWatchedFiles``)."""
X64_FILES = frozenset({"__init__.py", "conftest.py"})
"""Modules whose text (not their summary) the ``x64`` questions read (analysis/x64.py)."""
WATCH_ID = "jaxlint-watched-files"


class Readers:
    """The server's side: which open documents to look at again, and when."""

    def __init__(self, server: JaxlintServer) -> None:
        self.server = server
        self.owed: set[str] = set()
        """Documents whose look again (``look_again``) an edit cancelled: done after the
        next full lint of any document."""
        self.full_lints: collections.deque[tuple[str, str, bool]] = collections.deque(maxlen=200)
        """The last full lints: (URI, where the result came from: ``lint``, ``memo``,
        ``cache``; whether it was a look again). For the log and the tests."""

    def edited(self, state: DocState) -> None:
        """``state`` was edited: a look again at another document, for an older text of
        this one, is stale: cancelled (never sent, or interrupted) and owed."""
        for other in self.server.docs.values():
            if other is not state and other.dependent:
                self.server.cancel_exact(other)
                self.owed.add(other.uri)

    def full_lint(self, state: DocState, result: LintResult, source: str, dependent: bool) -> None:
        """A full lint's result (or the cache's, exact too) is the document's: keep what it
        asked of other modules, and if what the module tells the others changed since
        they last read it, look again at the open documents that read it."""
        self.full_lints.append((state.uri, source, dependent))
        state.queries = result.extra.get("queries")
        if state.path is None:
            return
        new = result.extra.get("summary")
        if state.seen_text is None:  # the others read the file on disk until now
            before = _disk_text(state.path)
            exports = calls = before != state.text
        else:
            before = state.seen_text
            old = state.summary
            exports = old is not new and (old is None or new is None or old[0] != new[0])
            calls = old is not new and (old is None or new is None or old[1] != new[1])
        x64 = state.path.name in X64_FILES and before != state.text
        state.summary, state.seen_text = new, state.text
        self.module_changed(state.path, exports, calls, x64, origin=state.uri)

    def module_changed(
        self, path: Path, exports: bool, calls: bool, x64: bool, origin: str | None = None
    ) -> None:
        """What the module of ``path`` tells the others changed (``exports``: its
        functions, classes, values or re-exports; ``calls``: its calls from traced code;
        ``x64``: its text, for an ``__init__.py`` or ``conftest.py``): the other open
        documents whose last full lint asked something that may read it are looked at
        again (``look_again``), and those an edit left owed one."""
        targets = set(self.owed)
        self.owed.clear()
        module = _module_name(path) if exports or calls or x64 else None
        if module is not None:
            where = Path(os.path.abspath(path)).as_posix()
            for uri, other in self.server.docs.items():
                if other.queries and asks_of(other.queries, module, where, exports, calls, x64):
                    targets.add(uri)
        for uri in sorted(targets):
            other = self.server.docs.get(uri)
            if other is not None and uri != origin:
                self.look_again(other)

    def closed(self, state: DocState) -> None:
        """The document was closed: its file on disk stands for it again in the project
        views; if that differs from what the others last read, they are looked at."""
        if state.path is None:
            return
        self.server.linter.buffers.pop(os.path.abspath(state.path), None)
        seen = state.seen_text if state.seen_text is not None else state.text
        changed = _disk_text(state.path) != seen
        self.module_changed(state.path, changed, changed, changed and state.path.name in X64_FILES)

    def look_again(self, state: DocState) -> None:
        """A module this document reads changed: after the idle delay, its full lint in
        the worker checks what its last result asked of other modules and lints it
        again only if an answer changed (a result the worker or the cache holds is
        taken otherwise); published only if its findings changed. An edit of another
        document cancels it until the next full lint (``owed``)."""
        if state.timer is not None:
            return  # its own full lint is due: it reads the project as it is then
        if state.running is not None:
            state.recheck = True
            return
        state.dependent = True
        loop = asyncio.get_event_loop()
        state.timer = loop.call_later(
            self.server.exact_delay, self.server.exact, state.uri, state.version, True
        )

    def watch(self) -> None:
        """Ask the client to tell about changes on disk (``WATCHED_GLOBS``), when it can
        be asked at run time (dynamic registration of ``didChangeWatchedFiles``)."""
        workspace = self.server.client_capabilities.workspace
        found = workspace.did_change_watched_files if workspace is not None else None
        if found is None or not found.dynamic_registration:
            return
        options = lsp.DidChangeWatchedFilesRegistrationOptions(
            watchers=[lsp.FileSystemWatcher(glob_pattern=g) for g in WATCHED_GLOBS]
        )
        registration = lsp.Registration(
            id=WATCH_ID, method=lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES, register_options=options
        )
        try:
            self.server.client_register_capability(lsp.RegistrationParams([registration]))
        except Exception as exc:  # no file watching: files are read again when opened
            self.server.log(f"jaxlint: cannot watch files ({type(exc).__name__}: {exc})")

    def files_changed(self, params: lsp.DidChangeWatchedFilesParams) -> None:
        """Files changed on disk outside the editor. A configuration file: as a settings
        change (``JaxlintServer.configs_changed``). A Python file that is not open (an
        open one is the editor's: its buffer, and its save, count): its index entry is
        brought up to date in the background (the index's worker, niced), then the open
        documents that read what it tells them are looked at again."""
        paths: list[Path] = []
        for event in params.changes:
            path = path_of(event.uri)
            if path is None:
                continue
            if path.name in CONFIG_NAMES:
                self.server.log(f"jaxlint: {path} changed: reading the configuration again")
                self.server.configs_changed()  # the index that follows covers the files too
                return
            if path.suffix in (".py", ".pyi") and path not in paths:
                paths.append(path)
        open_paths = {os.path.abspath(s.path) for s in self.server.docs.values() if s.path}
        paths = [p for p in paths if os.path.abspath(p) not in open_paths]
        if paths:
            self.server.indexer.refresh(paths, functools.partial(self.disk_modules_changed, paths))

    def disk_modules_changed(self, paths: list[Path]) -> None:
        for path in paths:
            self.module_changed(path, True, True, path.name in X64_FILES)


def asks_of(
    queries: dict[str, Any], module: str, where: str, exports: bool, calls: bool, x64: bool
) -> bool:
    """Whether a result that asked ``queries`` may have read what ``module`` (its file at
    the absolute POSIX path ``where``) tells the others, given what changed of it: a
    question about a name of the module (or of a module inside it), one whose answer
    came from its file (a name re-exported from it: the answer's ``where``), one not
    answered (the name may be found now) in the same top-level package; the traced
    calls into the asking module when ``calls`` changed (any module may make them);
    the x64 questions when ``x64``. A question of a kind not known here: yes."""
    top = module.split(".")[0]
    for slot, answer in queries.items():
        kind, _, key = slot.partition(":")
        if kind == "callers":
            if calls:
                return True
            continue
        if kind == "x64":
            if x64:
                return True
            continue
        if kind not in ("function", "class", "value"):
            return True
        if not exports:
            continue
        if key == module or key.startswith(module + "."):
            return True
        if answer is None:
            if key.split(".")[0] == top:
                return True
            continue
        if any(where == w or where.endswith("/" + w) for w in _where_files(answer)):
            return True
    return False


def _where_files(value: Any) -> list[str]:
    """The files an answer names (its ``where`` values, ``path:line``), as POSIX paths."""
    out: list[str] = []
    if isinstance(value, dict):
        for k, v in value.items():
            if k == "where" and isinstance(v, str):
                out.append(Path(v.rpartition(":")[0] or v).as_posix())
            else:
                out += _where_files(v)
    elif isinstance(value, list):
        for v in value:
            out += _where_files(v)
    return out


def _module_name(path: Path) -> str | None:
    from jaxlint.analysis.project import module_id

    try:
        found = module_id(path)
    except (OSError, ValueError):
        return None
    return found.name if found is not None else None


def _disk_text(path: Path) -> str | None:
    from jaxlint.source import DecodeError, SourceError, read_source

    try:
        return read_source(path).text
    except (SourceError, DecodeError, OSError, ValueError):
        return None
