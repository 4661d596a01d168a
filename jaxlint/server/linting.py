"""A document's settings and its full lint, as ``jaxlint check`` would do it.

The settings come from the nearest ``[tool.jaxlint]`` (or ``jaxlint.toml``) above the
document, with the client's settings on top (``options.py``). Fixes are always
materialised: code actions need their edits. A rule that crashes, or a configuration
that cannot be read, becomes one ``JAX900`` diagnostic at line 1 (as in the flake8
plugin): the server never stops for it.
"""

from __future__ import annotations

import functools
import os
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jaxlint.analysis.project import ProjectFacts, answers_changed
from jaxlint.cache import (
    CACHE_ENV,
    Cache,
    CachedResult,
    NotACacheError,
    default_cache_dir,
    entry_key,
    settings_fingerprint,
)
from jaxlint.config import ConfigError, ConfigResolver, Settings, above_max_file_size
from jaxlint.diagnostics import INTERNAL_ERROR_CODE, PARSE_ERROR_CODE, Diagnostic, Position

if TYPE_CHECKING:
    from jaxlint.engine import InternalError
    from jaxlint.rules.base import Rule

_MEMO_SIZE = 32


@dataclass
class LintResult:
    """The diagnostics of one text (fixes materialised) and the settings used."""

    diagnostics: list[Diagnostic]
    settings: Settings | None
    exact: bool = True
    """False for the fast pass after an edit (``incremental.py``), until the full lint."""
    extra: dict[str, Any] = field(default_factory=dict)


def internal_error_diagnostic(filename: str, error: InternalError) -> Diagnostic:
    return Diagnostic(
        code=INTERNAL_ERROR_CODE,
        name="internal-error",
        message=(
            f"jaxlint internal error in rule {error.rule_code} ({error.rule_name}):"
            f" {_one_line(error.error)} (the other rules still ran; please report this bug)"
        ),
        filename=filename,
        start=Position(1, 1),
        end=Position(1, 1),
    )


def config_error_diagnostic(filename: str, message: str) -> Diagnostic:
    return Diagnostic(
        code=INTERNAL_ERROR_CODE,
        name="config-error",
        message=f"jaxlint config error: {_one_line(message)}",
        filename=filename,
        start=Position(1, 1),
        end=Position(1, 1),
    )


TOO_LARGE_NAME = "file-too-large"


def too_large_diagnostic(text: str, filename: str, settings: Settings) -> Diagnostic | None:
    """The one diagnostic of a document above ``max-file-size`` (its UTF-8 size, as the
    file would be saved), which is then never parsed: the guard of ``jaxlint check``
    (a 2.5 MB buffer took 2.5 GiB, a 5 MB one had no result after 300 s)."""
    limit = settings.max_file_size
    if not limit or len(text) * 4 <= limit:  # a character is at most 4 bytes
        return None
    size = len(text) if len(text) > limit else len(text.encode("utf-8", "surrogatepass"))
    why = above_max_file_size(size, limit)
    if why is None:
        return None
    return Diagnostic(
        code=PARSE_ERROR_CODE,
        name=TOO_LARGE_NAME,
        message=f"jaxlint: not checked: {why}",
        filename=filename,
        start=Position(1, 1),
        end=Position(1, 1),
    )


def cache_folder(settings: Settings, path: Path | None) -> Path | None:
    """Where the server and its index keep a document's results and summaries:
    ``$JAXLINT_CACHE_DIR``, else ``.jaxlint_cache`` in the folder of the document's
    ``[tool.jaxlint]`` (or ``jaxlint.toml``), else in its project root (the nearest
    folder with ``pyproject.toml``, ``setup.cfg``, ``setup.py`` or ``.git``: where
    ``jaxlint check`` run at the root keeps it). A document outside any project has
    none: no ``.jaxlint_cache`` wherever the editor runs."""
    if os.environ.get(CACHE_ENV):
        return default_cache_dir(None)
    root = settings.root
    if root is None and path is not None:
        root = _project_root(os.path.dirname(os.path.abspath(path)))
    return default_cache_dir(root) if root is not None else None


@functools.lru_cache(maxsize=4096)
def _project_root(folder: str) -> Path | None:
    from jaxlint.analysis.project import find_project_root

    return find_project_root(Path(folder))


def _digest(value: Any) -> str:
    import hashlib
    import json

    data = json.dumps(value, sort_keys=True, default=str).encode("utf-8", "surrogatepass")
    return hashlib.sha256(data).hexdigest()[:24]


def _one_line(text: str) -> str:
    return " ".join(text.split())


class DocumentLinter:
    """Settings per document and full lints, remembered by text (undo is free)."""

    def __init__(self, overrides: dict[str, Any] | None = None, use_disk_cache: bool = True):
        self.overrides = dict(overrides or {})
        self.use_disk_cache = use_disk_cache
        self.buffers: dict[str, str] = {}
        """Absolute path -> the text of an open document (its editor buffer, saved or
        not): what the project view reads for that module instead of the file."""
        self.reset()

    def reset(self, overrides: dict[str, Any] | None = None) -> None:
        """Forget every config read and every result (a config file or a setting changed)."""
        if overrides is not None:
            self.overrides = dict(overrides)
        self.resolver = ConfigResolver(overrides=self.overrides)
        self._memo: OrderedDict[tuple, LintResult] = OrderedDict()
        self._rules: dict[int, tuple[Settings, list[type[Rule]]]] = {}
        self._caches: dict[Path, Cache | None] = {}
        self._facts: dict[str, tuple[Settings, ProjectFacts | None]] = {}
        """Path -> the project view of its last full lint (``lint_with(reuse_facts=)``)."""
        self.last_source = ""
        """How the last :meth:`lint` got its result: ``memo``, ``cache`` (the on-disk
        results cache), ``lint``, ``partial``, ``too-large`` or ``config-error``."""

    def settings_for(self, path: Path | None) -> Settings:
        """The document's settings; raises :class:`ConfigError` for a bad config."""
        return self.resolver.for_path(path)

    def rules_for(self, settings: Settings) -> list[type[Rule]]:
        cached = self._rules.get(id(settings))
        if cached is None or cached[0] is not settings:
            from jaxlint.rules import all_rules

            cached = (settings, settings.enabled_rules(all_rules()))
            self._rules[id(settings)] = cached
        return cached[1]

    def lint(
        self,
        text: str,
        path: Path | None,
        name: str,
        *,
        persist: bool = False,
        partial: bool = False,
    ) -> LintResult:
        """Every enabled rule on ``text``. ``persist``: also use the on-disk results cache
        (for opened and saved documents; not for every keystroke). ``partial``: on a
        miss, lint without what the project's other modules say of this one's functions
        (reading them all took seconds in a 500-module project) and with only the
        summaries the cache holds of the modules it imports (none is parsed now): the
        result is marked ``exact=False``, neither remembered nor stored, and the full
        lint must follow."""
        try:
            settings = self.settings_for(path)
        except ConfigError as exc:
            self.last_source = "config-error"
            return LintResult([config_error_diagnostic(name, str(exc))], None)
        big = too_large_diagnostic(text, name, settings)
        if big is not None:
            self.last_source = "too-large"
            return LintResult([big], settings, extra={"too_large": True})
        key = (text, str(path), name, id(settings))
        hit = self._memo.get(key)
        if hit is not None and hit.settings is settings and self._still_holds(hit, path, settings):
            self._memo.move_to_end(key)
            self.last_source = "memo"
            return hit
        result = self._disk_get(text, path, name, settings) if persist else None
        self.last_source = "cache"
        if result is None and partial and path is not None:
            result = self.lint_with(text, path, name, settings, callers=False, cached_only=True)
            result.exact = False
            result.extra["partial"] = True
            self.last_source = "partial"
            return result
        if result is None:
            result = self.lint_with(text, path, name, settings)
            self.last_source = "lint"
            if persist and not result.extra.get("crashed"):
                self._disk_put(text, path, settings, result)
        elif path is not None and "summary" not in result.extra:
            # a cache hit: the module's summary, as its lint left it in the cache
            result.extra["summary"] = self._summary_digest(text, path, settings)
        self._memo[key] = result
        if len(self._memo) > _MEMO_SIZE:
            self._memo.popitem(last=False)
        return result

    def lint_with(
        self,
        text: str,
        path: Path | None,
        name: str,
        settings: Settings,
        *,
        callers: bool = True,
        reuse_facts: bool = False,
        cached_only: bool = False,
    ) -> LintResult:
        """Lint ``text`` with ``settings`` (no memo, no disk cache). ``callers=False``:
        without the summaries of the modules that import this one (``lint(partial=)``).
        ``reuse_facts``: the project view of this path's last full lint, when there is
        one, rather than a fresh one (which reads every module of the project again:
        0.2-0.4 s in a 500-module project); for the fast pass after an edit, which the
        full lint with a fresh view follows. ``cached_only``: other modules are known
        only from the summaries in the cache (``lint(partial=)``)."""
        big = too_large_diagnostic(text, name, settings)
        if big is not None:
            return LintResult([big], settings, extra={"too_large": True})
        from jaxlint.engine import lint_text
        from jaxlint.gc_pause import gc_paused

        held = self._facts.get(str(path)) if reuse_facts and callers else None
        fresh = held is None or held[0] is not settings
        if not fresh:
            assert held is not None
            facts = held[1]
        else:
            facts = self._project_facts(
                path, settings, final=callers, cached_only=cached_only, own=text
            )
            if callers and path is not None:
                self._facts[str(path)] = (settings, facts)
        with gc_paused():
            found = lint_text(
                text,
                name,
                settings,
                self.rules_for(settings),
                want_fixes=True,
                path=path,
                project=facts,
            )
        diagnostics = list(found.diagnostics)
        diagnostics += [internal_error_diagnostic(name, e) for e in found.internal_errors]
        diagnostics.sort(key=Diagnostic.sort_key)
        result = LintResult(diagnostics, settings)
        if found.internal_errors:
            result.extra["crashed"] = True
        if not found.parsed:
            result.extra["syntax_error"] = True
        if facts is not None and facts.queries:
            result.extra["queries"] = facts.queries
        if facts is not None and fresh and callers and not reuse_facts and found.parsed:
            # what this module now tells the others (the lint published it)
            result.extra["summary"] = self._summary_digest(text, path, settings, facts)
        return result

    # -- what the project's other modules say -------------------------------------------------

    def warm_facts(self, path: Path | None, settings: Settings) -> None:
        """Read the project view the fast pass will reuse (``reuse_facts``) now, while the
        document is idle, rather than at the first edit."""
        if path is None or str(path) in self._facts:
            return
        facts = self._project_facts(path, settings)
        if facts is not None:
            # the view reads the other modules on its first question: ask it now (the
            # calls into this module from their traced code; 0.3 s at the first edit)
            facts.traced_calls()
        self._facts[str(path)] = (settings, facts)

    def forget(self, path: Path | None) -> None:
        """The document was closed: drop the project view kept for its fast pass."""
        self._facts.pop(str(path), None)

    def _project_facts(
        self,
        path: Path | None,
        settings: Settings,
        final: bool = True,
        cached_only: bool = False,
        own: str | None = None,
    ) -> ProjectFacts | None:
        """A fresh view of the document's project for each full lint (other files may have
        changed since the last one): their summaries come from the project's cache when
        their text has not changed, else from a parse (see analysis/project.py). Not
        ``final``: the modules this one imports only, not the ones that import it.
        ``cached_only``: a summary the cache does not hold is not made (no parse).
        The open documents' texts (:attr:`buffers`) stand for their files, and ``own``
        (the text linted) for the document's."""
        if path is None:
            return None
        from jaxlint.cli.project_run import ProjectRun

        cache = self._cache_for(settings, path) if self.use_disk_cache else None
        run = ProjectRun(cache, (), settings)
        run.store.parse_missing = not cached_only
        if own is not None:
            run.store.remember_text(path, own)
        for where, text in self.buffers.items():
            run.store.remember_text(Path(where), text)
        if final:
            run.finalize()
        return run.facts(path)

    def _summary_digest(
        self, text: str, path: Path, settings: Settings, facts: ProjectFacts | None = None
    ) -> tuple[str, str] | None:
        """What the module of ``path`` with ``text`` tells the project's other modules (its
        summary, analysis/summary.py), as two digests: its exports (functions, classes,
        values, re-exports: what ``function``/``class``/``value`` questions read) and
        its calls (what the ``callers`` questions of the modules it calls read). None:
        no summary (not a module of a project, a syntax error)."""
        if facts is None:
            facts = self._project_facts(path, settings, final=False, own=text)
        if facts is None:
            return None
        try:
            summary = facts.project.store.get(path, facts.module, True, facts.project)
        except (RecursionError, OSError, ValueError):
            summary = None
        if not isinstance(summary, dict):
            return None
        exports = {k: v for k, v in summary.items() if k != "calls"}
        return _digest(exports), _digest(summary.get("calls"))

    def _still_holds(self, result: LintResult, path: Path | None, settings: Settings) -> bool:
        """What the result's text asked of other modules has the same answers now."""
        queries = result.extra.get("queries")
        if not queries:
            return True
        facts = self._project_facts(path, settings)
        return facts is not None and not answers_changed(facts, queries)

    # -- the on-disk results cache (the one ``jaxlint check`` uses) -------------------------

    def _cache_for(self, settings: Settings, path: Path | None) -> Cache | None:
        """The project's cache (:func:`cache_folder`)."""
        root = cache_folder(settings, path)
        if root is None:
            return None
        if root not in self._caches:
            try:
                self._caches[root] = Cache.open(root)
            except NotACacheError:  # not a folder jaxlint may write into: no cache
                self._caches[root] = None
        return self._caches[root]

    def _disk_key(self, text: str, path: Path, settings: Settings) -> str:
        return entry_key(text, path, settings_fingerprint(settings, path, True))

    def _disk_get(
        self, text: str, path: Path | None, name: str, settings: Settings
    ) -> LintResult | None:
        if path is None or not self.use_disk_cache:
            return None
        cache = self._cache_for(settings, path)
        if cache is None:
            return None
        hit = cache.get(self._disk_key(text, path, settings), name)
        if hit is None:
            return None
        result = LintResult(sorted(hit.diagnostics, key=Diagnostic.sort_key), settings)
        if hit.queries:
            result.extra["queries"] = hit.queries
            if not self._still_holds(result, path, settings):
                return None  # another module changed what it says: lint again
        return result

    def _disk_put(self, text: str, path: Path | None, settings: Settings, result: LintResult):
        if path is None or not self.use_disk_cache or result.extra.get("syntax_error"):
            return
        cache = self._cache_for(settings, path)
        if cache is not None:
            cache.put(
                self._disk_key(text, path, settings),
                CachedResult(result.diagnostics, result.extra.get("queries")),
            )
