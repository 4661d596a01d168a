"""What the other modules of a project say about a name: module summaries and imports.

A file is linted alone, but ``train_step`` may be jitted in another module, a class
may be a Flax module through a base class defined elsewhere, and a helper may be
called from a jitted function of another module. Each linted module leaves a
:mod:`summary <jaxlint.analysis.summary>` (its exports and what jaxlint knows of
each); :class:`ProjectFacts` answers the analyses' questions about imported names
from the summaries of the modules they come from.

- **Where modules are.** A file's module name comes from the packages around it
  (folders with ``__init__.py``): ``src/pkg/train/step.py`` is ``pkg.train.step``
  found from ``src/``; a file outside any package is a top-level module found from
  its own folder (research scripts importing a sibling ``utils.py``). Modules are
  looked for only in those folders (and the project root and its ``src/``), never
  in installed packages: third-party code is known only through the small,
  versioned tables below, never imported.
- **When a summary is there.** A summary comes from the lint of its module (the
  same single walk) or, for a module of the project that this run does not lint,
  from the cache or a parse of that module (summary only, no rules). A module
  that is missing or cannot be parsed answers nothing: the analyses fall back to
  one-file behaviour. Import chains (``__init__.py`` re-exports) are followed a
  few steps; cycles stop there.
- **Correct invalidation.** Every question a file asks is recorded with its
  answer. A run that lints several files answers from the summaries it has so far
  and, at the end, re-lints each file whose recorded answers differ from the
  complete ones; a cached result is kept only while its recorded answers still
  hold. So a module's change re-checks the files that used what it says.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import libcst as cst

from jaxlint.analysis.host_reach import host_reached_by
from jaxlint.analysis.names import SemanticModel, dotted
from jaxlint.analysis.summary_check import is_summary
from jaxlint.analysis.testcode import is_test_path

if TYPE_CHECKING:
    from jaxlint.analysis.callers import CallersIndex

PROJECT_MARKERS = ("pyproject.toml", "setup.cfg", "setup.py", ".git")
SUMMARY_FORMAT = 3
MAX_SUMMARY_SOURCE = 4 * 1024 * 1024
"""A module larger than this is not parsed for its summary (generated code)."""
_MAX_CHAIN = 8
"""How many re-exports (``from .step import train_step`` in ``__init__.py``) are followed."""
_SKIP_DIRS = frozenset(
    {".git", ".hg", ".svn", ".tox", ".nox", ".venv", "venv", "env", "__pycache__", "build",
     "dist", "node_modules", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".jaxlint_cache",
     "site-packages", ".eggs"}
)  # fmt: skip

# Third-party base classes that make a class a neural-network module whose ``init``
# derives every stream from the key it is given, and whose ``__call__`` runs inside the
# user's transforms (checked against flax 0.12, equinox 0.13, dm-haiku 0.0.17; the
# names the libraries use for them inside their own packages too). Installed packages
# are never imported: this table is what jaxlint knows of them.
FRAMEWORK_BASES: dict[str, str] = {
    "flax.linen.Module": "flax.linen",
    "flax.linen.module.Module": "flax.linen",
    "flax.nnx.Module": "flax.nnx",
    "flax.nnx.module.Module": "flax.nnx",
    "equinox.Module": "equinox",
    "equinox._module.Module": "equinox",
    "equinox._module._module.Module": "equinox",
    "haiku.Module": "haiku",
    "haiku._src.module.Module": "haiku",
    "flax.nn.Module": "flax.nn",  # the pre-Linen API (flax < 0.4): ``apply`` is traced
}


def find_project_root(path: Path) -> Path | None:
    """The nearest folder above ``path`` with ``pyproject.toml``, ``setup.cfg``,
    ``setup.py`` or ``.git``."""
    try:
        current = Path(os.path.abspath(path))
    except (OSError, ValueError):
        return None
    if not current.is_dir():
        current = current.parent
    for folder in (current, *current.parents):
        for marker in PROJECT_MARKERS:
            try:
                if os.path.lexists(folder / marker):
                    return folder
            except (OSError, ValueError):
                return None
    return None


@dataclass(frozen=True)
class ModuleId:
    """A module's dotted name, the folder it is found from, and whether it is a package."""

    name: str
    search_root: Path
    package: bool


def module_id(path: Path) -> ModuleId | None:
    """``src/pkg/train/step.py`` -> ``pkg.train.step`` found from ``src``."""
    try:
        return _module_id(os.path.abspath(path))
    except (OSError, ValueError):
        return None


@functools.lru_cache(maxsize=65536)
def _module_id(abspath: str) -> ModuleId | None:
    """The packages around the file: the highest folder with ``__init__.py`` above it
    decides, also through folders without one between (namespace packages, PEP 420:
    ``optax/_src/`` has no ``__init__.py``); the walk stops at a folder that is not an
    identifier or that holds a project marker. A file with no package above it is a
    top-level module found from its own folder (a script beside its ``utils.py``)."""
    path = Path(abspath)
    if path.suffix not in (".py", ".pyi"):
        return None
    package = path.stem == "__init__"
    chain = [] if package else [path.stem]
    best: tuple[list[str], Path] | None = None
    folder = path.parent
    try:
        for _ in range(16):
            if folder.parent == folder or not folder.name.isidentifier():
                break
            chain.insert(0, folder.name)
            if _is_package(str(folder)):
                best = (list(chain), folder.parent)
            if _has_marker(str(folder)):
                break
            folder = folder.parent
    except (OSError, ValueError):
        return None
    if best is None:
        if package or not path.stem.isidentifier():
            return None
        return ModuleId(path.stem, path.parent, False)
    parts, root = best
    if not all(p.isidentifier() for p in parts):
        return None
    return ModuleId(".".join(parts), root, package)


@functools.lru_cache(maxsize=65536)
def _has_marker(folder: str) -> bool:
    return any(os.path.lexists(os.path.join(folder, m)) for m in PROJECT_MARKERS)


@functools.lru_cache(maxsize=65536)
def _is_package(folder: str) -> bool:
    return os.path.isfile(os.path.join(folder, "__init__.py"))


def clear_caches() -> None:
    """Forget which folders are packages (a new run may see new ``__init__.py`` files)."""
    _module_id.cache_clear()
    _is_package.cache_clear()
    _has_marker.cache_clear()


def absolute_module(module: ModuleId, level: int, target: str | None) -> str | None:
    """The module that ``from <dots><target> import ...`` in ``module`` names."""
    base = module.name.split(".")
    if not module.package:
        base = base[:-1]
    if level > 1:
        if level - 1 > len(base):
            return None
        base = base[: len(base) - (level - 1)]
    parts = [*base, *(target.split(".") if target else [])]
    return ".".join(parts) if parts else None


class ProjectIndex:
    """Finds the file of a module among the project's folders (never installed packages)."""

    def __init__(self, root: Path | None = None) -> None:
        self.root = root
        self.search_roots: list[Path] = []
        self._known: set[Path] = set()
        self.generation = 0
        """How many times a folder was added (what an earlier ``locate`` could not find
        may be found now)."""
        self._found: dict[str, Path | None] = {}
        self._files: list[Path] | None = None
        if root is not None:
            self.add_search_root(root)
            if (root / "src").is_dir():
                self.add_search_root(root / "src")

    def add_search_root(self, folder: Path) -> None:
        if folder not in self._known:  # asked for every file: a set, not the list
            self._known.add(folder)
            self.search_roots.append(folder)
            self.generation += 1
            self._found = {k: v for k, v in self._found.items() if v is not None}

    def find_module(self, name: str) -> Path | None:
        try:
            return self._found[name]
        except KeyError:
            pass
        found: Path | None = None
        rel = os.path.join(*name.split("."))
        for root in self.search_roots:
            base = os.path.join(root, rel)
            for candidate in (base + ".py", os.path.join(base, "__init__.py")):
                try:
                    if os.path.isfile(candidate):
                        found = Path(candidate)
                        break
                except (OSError, ValueError):
                    continue
            if found is not None:
                break
        self._found[name] = found
        return found

    def locate(self, qualname: str) -> tuple[str, list[str]] | None:
        """``pkg.train.step.train_step`` -> (``pkg.train.step``, [``train_step``]): the
        longest prefix that is a module of the project, and the names after it."""
        parts = qualname.split(".")
        for i in range(len(parts) - 1, 0, -1):
            module = ".".join(parts[:i])
            if self.find_module(module) is not None:
                return module, parts[i:]
        return None

    def project_files(self) -> list[Path]:
        """The project's Python files (for the modules that import a given one).

        Without a project marker the folder of the checked file stands in for the
        project, and only its own files and its packages (folders with ``__init__.py``,
        all the way down) are read: a script checked in a home folder or ``/tmp`` must
        not read every file below it."""
        if self._files is None:
            files: list[Path] = []
            marked = self.root is not None
            roots = [self.root] if marked else self.search_roots[:1]
            for root in roots:
                for folder, dirs, names in os.walk(root):
                    dirs[:] = sorted(
                        d
                        for d in dirs
                        if d not in _SKIP_DIRS
                        and not d.endswith(".egg-info")
                        and (marked or os.path.isfile(os.path.join(folder, d, "__init__.py")))
                    )
                    files.extend(Path(folder, n) for n in sorted(names) if n.endswith(".py"))
            self._files = files
        return self._files


def _read_text(path: Path) -> str | None:
    from jaxlint.source import DecodeError, SourceError, read_source

    try:
        if os.path.getsize(path) > MAX_SUMMARY_SOURCE:
            return None
        return read_source(path).text
    except (SourceError, DecodeError, OSError, ValueError, MemoryError):
        return None


def summary_key(text: str, module: ModuleId, settings_fp: str, engine_fp: str) -> str:
    """``engine_fp``: the linter's own fingerprint (the cache's ``engine_fingerprint``)."""
    digest = hashlib.sha256()
    digest.update(f"summary{SUMMARY_FORMAT}\0{engine_fp}\0{settings_fp}\0".encode())
    digest.update(f"{module.name}\0{module.package}\0".encode())
    digest.update(text.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


Summarize = Callable[[str, Path, ModuleId, Any, Any], Any]
"""``(text, path, module, settings, facts: ProjectFacts | None) -> summary dict or None``:
a module's summary made by parsing it and running the analyses, which the engine does
(``engine.summarize_module``); this layer never imports the engine."""


class SummaryStore:
    """Module summaries by file: in memory for the run, on disk in the cache folder.

    What it needs from the layers above comes in as data: ``summarize`` (the engine's
    parse and analyses), ``engine_fingerprint`` (the cache's fingerprint of the linter,
    part of every summary key) and ``cache`` (``get_blob``/``put_blob``)."""

    def __init__(
        self,
        cache: Any = None,
        settings: Any = None,
        *,
        summarize: Summarize,
        engine_fingerprint: Callable[[], str],
    ) -> None:
        self.cache = cache
        self.settings = settings
        self.summarize = summarize
        self.engine_fingerprint = engine_fingerprint
        self.by_path: dict[str, tuple[str, dict[str, Any]]] = {}
        """abspath -> (summary key, summary)."""
        self._keys: dict[str, str | None] = {}
        """abspath -> the key of the file's current text (read once per run)."""
        self._texts: dict[str, str | None] = {}
        self.run_files: set[str] = set()
        """Files this run lints: their summaries come from their lint, not a parse."""
        self.log: list[str] = []
        """The paths whose held summary was set, in order (the callers index reads what
        changed since it last looked)."""
        self.changes = 0
        """How many times a held summary was set to another one, or one was added: while it
        stays the same, every answer the summaries give stays the same (a lint again that
        publishes the summary its module had does not count)."""
        self.made: dict[str, None] = {}
        """The paths whose held summary this process made (a lint or a parse), not yet
        sent to the parent process (:meth:`jaxlint.cli.project_run.ProjectRun.new_summaries`)."""
        self.parse_missing = True
        """False: a summary neither held nor in the cache is not made (the language
        server's first lint of an opened document answers from what is known)."""
        self._settings_fp: tuple[list[list[str]], str] | None = None
        self.pending = 0
        """How many questions found a module of the run not linted yet (no answer for
        now: the file that asked is likely linted again at the end of the run)."""

    def settings_fp(self) -> str:
        s = self.settings
        if s is None:
            return ""
        parts = [list(s.traced_decorators), list(s.traced_wrappers), list(s.prefilter_words)]
        # asked for every summary key: the digest is remembered for the same three lists
        known = self._settings_fp
        if known is not None and known[0] == parts:
            return known[1]
        digest = hashlib.sha256(json.dumps(parts).encode()).hexdigest()[:16]
        self._settings_fp = (parts, digest)
        return digest

    def text_of(self, path: Path) -> str | None:
        key = os.path.abspath(path)
        if key not in self._texts:
            self._texts[key] = _read_text(path)
        return self._texts[key]

    def remember_text(self, path: Path, text: str) -> None:
        """The text of ``path`` as the run read it (not read again)."""
        self._texts.setdefault(os.path.abspath(path), text)

    def key_of(self, path: Path, module: ModuleId) -> str | None:
        abspath = os.path.abspath(path)
        if abspath not in self._keys:
            text = self.text_of(path)
            self._keys[abspath] = (
                None
                if text is None
                else summary_key(text, module, self.settings_fp(), self.engine_fingerprint())
            )
        return self._keys[abspath]

    def publish(self, path: Path, text: str, module: ModuleId, summary: dict[str, Any]) -> None:
        """A summary made by the lint of ``path`` (``text`` is what was linted)."""
        key = summary_key(text, module, self.settings_fp(), self.engine_fingerprint())
        abspath = os.path.abspath(path)
        if self.by_path.get(abspath) != (key, summary):
            self.changes += 1
        self.by_path[abspath] = (key, summary)
        self.log.append(abspath)
        self.made[abspath] = None
        self._texts[abspath] = text  # what was linted (the fixed text, when fixing)
        self._keys[abspath] = key
        if self.cache is not None:
            self.cache.put_blob("s" + key, summary)

    def retract(self, path: Path, text: str, module: ModuleId) -> None:
        """``path`` never mentions JAX and no traced code calls it now: the summary an
        earlier lint made while traced code called it (what its functions call, traced)
        is replaced by its re-exports alone, as :func:`compute_summary` makes them."""
        key = summary_key(text, module, self.settings_fp(), self.engine_fingerprint())
        held = self.by_path.get(os.path.abspath(path))
        summary = held[1] if held is not None and held[0] == key else None
        if summary is None and self.cache is not None:
            summary = self.cache.get_blob("s" + key)
        if not is_summary(summary, SUMMARY_FORMAT):
            return
        plain = _imports_only(text, module)
        if plain is not None and plain != summary:
            self.publish(path, text, module, plain)

    def get(
        self,
        path: Path,
        module: ModuleId,
        compute: bool,
        context: ProjectContext | None = None,
    ) -> dict[str, Any] | None:
        """The summary of the module in ``path``: the run's, the cache's, or (when
        ``compute``) made now by parsing it."""
        abspath = os.path.abspath(path)
        key = self.key_of(path, module)
        if key is None:
            return None
        held = self.by_path.get(abspath)
        if held is not None and held[0] in (key, "p" + key):
            return held[1]
        if self.cache is not None:
            # "s": made by the module's lint; "p": made for another file's question
            for kind in ("s", "p"):
                blob = self.cache.get_blob(kind + key)
                if is_summary(blob, SUMMARY_FORMAT):  # a checksum proves no shape
                    self.by_path[abspath] = (key if kind == "s" else "p" + key, blob)
                    self.changes += 1
                    self.log.append(abspath)
                    return blob
        if not self.parse_missing:
            return None
        text = self.text_of(path)
        if text is None:
            return None
        if abspath in self.run_files and not compute and _mentions_jax(text, self.settings):
            self.pending += 1
            return None  # its own lint makes it (or the final check asks again)
        facts = None
        if context is not None:  # its calls into other modules, not what they say of it
            facts = ProjectFacts(context, path, module, callers=False)
        summary = compute_summary(text, path, module, self.settings, facts, self.summarize)
        if summary is None:
            return None
        self.by_path[abspath] = ("p" + key, summary)
        self.changes += 1
        self.log.append(abspath)
        self.made[abspath] = None
        if self.cache is not None:
            self.cache.put_blob("p" + key, summary)
        return summary

    def merge(self, other: dict[str, tuple[str, dict[str, Any]]]) -> None:
        """Summaries made in a worker process."""
        for path, held in other.items():
            self.by_path[path] = held
            self.changes += 1
            self._keys.setdefault(path, held[0])
            self.log.append(path)


def _mentions_jax(text: str, settings: Any) -> bool:
    from jaxlint.prefilter import mentions_jax

    words = settings.prefilter_words if settings is not None else None
    return mentions_jax(text, words) if words is not None else mentions_jax(text)


def compute_summary(
    text: str,
    path: Path,
    module: ModuleId,
    settings: Any,
    facts: ProjectFacts | None,
    summarize: Summarize,
) -> dict[str, Any] | None:
    """A module's summary without linting it: a libcst parse and the same analyses for
    code that mentions JAX (``summarize``), Python's own parser for the imports of the rest."""
    if not _mentions_jax(text, settings):
        return _imports_only(text, module)
    return summarize(text, path, module, settings, facts)


def _imports_only(text: str, module: ModuleId) -> dict[str, Any] | None:
    """The re-exports of a module that never mentions JAX (a package's ``__init__.py``)."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    imports: dict[str, str | None] = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.Import):
            for alias in stmt.names:
                if alias.asname:
                    _bind(imports, alias.asname, alias.name)
                else:
                    top = alias.name.split(".")[0]
                    _bind(imports, top, top)
        elif isinstance(stmt, ast.ImportFrom):
            base = absolute_module(module, stmt.level, stmt.module) if stmt.level else stmt.module
            for alias in stmt.names:
                if alias.name == "*":
                    continue
                _bind(imports, alias.asname or alias.name, f"{base}.{alias.name}" if base else None)
        elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            imports[stmt.name] = None  # a definition shadows an import of the name
        elif isinstance(stmt, ast.Assign):
            for target in stmt.targets:
                if isinstance(target, ast.Name):
                    imports[target.id] = None
    return empty_summary(module) | {"imports": {k: v for k, v in imports.items() if v}}


def _bind(imports: dict[str, str | None], local: str, target: str | None) -> None:
    if local in imports and imports[local] != target:
        imports[local] = None  # bound twice (a try/except ImportError fallback): unknown
    else:
        imports[local] = target


def empty_summary(module: ModuleId) -> dict[str, Any]:
    return {
        "format": SUMMARY_FORMAT,
        "module": module.name,
        "imports": {},
        "functions": {},
        "classes": {},
        "values": {},
        "calls": [],
    }


@dataclass
class ProjectContext:
    """One run's view of a project: where modules are and their summaries."""

    index: ProjectIndex
    store: SummaryStore
    final: bool = False
    """Every summary of the run is known (the end-of-run check, or a one-file run)."""

    _jax_files: list[tuple[Path, str, str]] | None = None
    _prefix: str | None = None

    _callers: CallersIndex | None = None
    _importers: tuple[int, list[tuple[Path, str, str]]] | None = None
    x64_sources: Any = None
    """Where the project switches x64 on (``analysis/x64.py``), made on first ask."""

    def module_of(self, path: Path) -> ModuleId | None:
        """The module ``path`` holds (for the modules below this one that read files)."""
        return module_id(path)

    def absolute(self, module: ModuleId, level: int, target: str | None) -> str | None:
        """What ``from <level dots><target> import ...`` in ``module`` names."""
        return absolute_module(module, level, target) if level else target

    def calls_into(self, module: str) -> list[dict[str, Any]]:
        """The traced calls into ``module``'s functions recorded in the summaries the run
        holds (kept up to date as summaries arrive: :mod:`jaxlint.analysis.callers`)."""
        if self._callers is None:
            from jaxlint.analysis.callers import CallersIndex

            self._callers = CallersIndex(self)
        return self._callers.calls_into(module)

    def summary_of(self, module: str) -> dict[str, Any] | None:
        path = self.index.find_module(module)
        if path is None:
            return None
        mid = module_id(path)
        if mid is None or mid.name != module:
            mid = ModuleId(module, path.parent, path.name == "__init__.py")
        return self.store.get(path, mid, self.final, self)

    def real_target(self, qualname: str, consulted: list[str] | None = None) -> str | None:
        """Where the name ``qualname`` is defined, through re-exports (``pkg.train.X``
        re-exported from ``pkg.train.step``); a module without a summary ends the chain.
        ``consulted`` gets the modules whose summaries were read."""
        current = qualname
        for _ in range(_MAX_CHAIN):
            located = self.index.locate(current)
            if located is None:
                return None
            module, rest = located
            if consulted is not None:
                consulted.append(module)
            summary = self.summary_of(module)
            if summary is None:
                return current
            target = summary.get("imports", {}).get(rest[0])
            if not target:
                return current
            current = ".".join([target, *rest[1:]])
        return None

    _displayed: dict[str, str] | None = None

    def display(self, path: Path) -> str:
        """``path`` as messages show it: relative to the project root."""
        if self._displayed is None:
            self._displayed = {}
        key = str(path)
        found = self._displayed.get(key)
        if found is None:
            root = self.index.root
            try:
                found = Path(os.path.relpath(path, root)).as_posix() if root else path.name
            except ValueError:
                found = path.as_posix()
            self._displayed[key] = found
        return found

    def within(self, path: str) -> bool:
        """``path`` (absolute) is a file of this project."""
        if self._prefix is None:
            root = self.index.root
            self._prefix = os.path.join(os.path.abspath(root), "") if root is not None else ""
        return path.startswith(self._prefix)

    def jax_files(self) -> list[tuple[Path, str, str]]:
        """The project's files that mention JAX and import something, with their text
        (read once): the only ones whose traced code can call another module."""
        if self._jax_files is None:
            found = []
            for path in self.index.project_files():
                text = self.store.text_of(path)
                if (
                    text is not None
                    and "import" in text
                    and _mentions_jax(text, self.store.settings)
                ):
                    found.append((path, os.path.abspath(path), text))
            self._jax_files = found
        return self._jax_files

    def unheld_jax_files(self) -> list[tuple[Path, str, str]]:
        """:meth:`jax_files` whose summaries the run does not hold (the run's own files
        are held once linted: a whole-project run has none left; read once per change
        of the held set, which only grows, not once per question)."""
        held = self.store.by_path
        if self._importers is None or self._importers[0] != len(held):
            files = [f for f in self.jax_files() if f[1] not in held]
            self._importers = (len(held), files)
        return self._importers[1]

    def for_file(self, path: Path | None) -> ProjectFacts | None:
        if path is None:
            return None
        module = module_id(path)
        if module is None:
            return None
        self.index.add_search_root(module.search_root)
        return ProjectFacts(self, path, module)


@dataclass(eq=False)
class ProjectFacts:
    """What other modules of the project say, as one file's analyses ask it; every
    question and its answer is recorded (``queries``) to know when the file must be
    checked again."""

    project: ProjectContext
    path: Path
    module: ModuleId
    callers: bool = True
    """Ask which traced functions of other modules call this one's (not when a
    summary is made for another file's question: that would chase every importer)."""
    queries: dict[str, Any] = field(default_factory=dict)
    _imports_project: bool | None = None

    # -- names -------------------------------------------------------------------------

    def qualified_name(self, model: SemanticModel, expr: cst.BaseExpression) -> str | None:
        """``model.qualified_name`` plus relative imports (``from .step import f``)."""
        found = model.qualified_name(expr)
        if found is not None:
            return found
        if type(expr) is cst.Attribute:
            base = self.qualified_name(model, expr.value)
            return None if base is None else f"{base}.{expr.attr.value}"
        if type(expr) is not cst.Name:
            return None
        hit = model.lookup(expr.value, model.scope_for(expr))
        if hit is None or len(hit[1]) != 1:
            return None
        binding = hit[1][0]
        node = binding.node
        if binding.kind != "import" or type(node) is not cst.ImportFrom or not node.relative:
            return None
        if isinstance(node.names, cst.ImportStar):
            return None
        target = dotted(node.module) if node.module is not None else None
        base = absolute_module(self.module, len(node.relative), target)
        for alias in node.names:
            local = alias.asname.name if alias.asname is not None else alias.name
            if isinstance(local, cst.Name) and local.value == binding.name:
                name = dotted(alias.name)
                return f"{base}.{name}" if base and name else None
        return None

    @functools.cached_property
    def in_test_file(self) -> bool:
        """The file is test code by its path inside the project (tests/, test_*.py)."""
        return is_test_path(self._display(self.path))

    def imports_project(self, model: SemanticModel) -> bool:
        """The module imports something from another module of its project."""
        if self._imports_project is None:
            self._imports_project = False
            for _, binding in model.imports:
                node = binding.node
                if type(node) is cst.ImportFrom and node.relative:
                    self._imports_project = True
                    break
                qn = binding.qualname
                if qn and self.project.index.locate(qn + ".x") is not None:
                    self._imports_project = True
                    break
        return self._imports_project

    # -- questions ---------------------------------------------------------------------

    def function(self, qualname: str) -> dict[str, Any] | None:
        """What the project says of the function ``qualname`` (a ``def`` or a name bound
        to a transformed function): its transform and static arguments, whether it
        loops, the parameters it draws keys from, its return annotation, and where."""
        return self._ask("function", qualname, lambda: self._entry(qualname, "functions"))

    def class_(self, qualname: str) -> dict[str, Any] | None:
        """What the project says of the class ``qualname``: its framework (a Flax, NNX,
        Equinox or Haiku module through its bases, across modules) and its annotated
        attributes and properties."""
        return self._ask("class", qualname, lambda: self._class(qualname, 0))

    def value(self, qualname: str) -> dict[str, Any] | None:
        """A module-level value of another module (``MESH = jax.make_mesh(...)``)."""
        return self._ask("value", qualname, lambda: self._entry(qualname, "values"))

    def traced_calls(self) -> list[dict[str, Any]]:
        """Calls from traced functions of other modules into this module's functions (the
        uses outside staged traces, ``host``, are :meth:`host_reached`'s own question)."""
        if not self.callers:
            return []
        # an answer that failed (a module the run could not summarise) is ``None``: no calls
        return self._ask("callers", self.module.name, self._callers) or []

    def _callers(self) -> list[dict[str, Any]]:
        return [c for c in self.callers_of(self.module.name, self.path) if not c.get("host")]

    def host_reached(self, name: str) -> bool:
        """Whether this module's function ``name`` may run outside a staged trace, as far
        as the project shows: another module names it there (``host_calls``), a caller
        only a framework's contract presumes traced or no transform stages calls it, or a
        traced caller may itself run there (followed through other modules, a few
        levels; a method as caller is taken to). Its own module's uses are the caller's
        to check. ``True`` when unknown."""
        key = f"{self.module.name}.{name}"
        return self._ask("host", key, lambda: host_reached_by(self, key)) is not False

    def x64_enabled(self, key: str) -> str | None:
        """Where x64 is switched on for this file outside it (``file:line``): ``key`` is
        ``test:`` for a test module (its ``conftest.py`` files and pytest configuration
        count) or ``run:``, followed by the qualified names the file imports at its top
        level, joined by commas (the project's modules among them whose import switches
        it on count), ``:`` and the project functions the file calls (those that switch
        it on count)."""

        def answer() -> str | None:
            from jaxlint.analysis.x64 import sources

            kind, _, rest = key.partition(":")
            names, _, called = rest.partition(":")
            imports = [n for n in names.split(",") if n]
            calls = [n for n in called.split(",") if n]
            return sources(self.project).enabled_for(
                self.path, self.module, kind == "test", imports, calls
            )

        return self._ask("x64", key, answer)

    # -- answers -----------------------------------------------------------------------

    def _ask(self, kind: str, key: str, answer: Any) -> Any:
        slot = f"{kind}:{key}"
        if slot in self.queries:
            return self.queries[slot]
        try:
            found = answer()
        except (RecursionError, OSError, ValueError):
            found = None
        self.queries[slot] = found
        return found

    def _summary(self, module: str) -> tuple[dict[str, Any], str] | None:
        summary = self.project.summary_of(module)
        if summary is None:
            return None
        path = self.project.index.find_module(module)
        assert path is not None  # summary_of found it
        return summary, self._display(path)

    def _display(self, path: Path) -> str:
        return self.project.display(path)

    def _sibling(self, qualname: str) -> tuple[dict[str, Any], str, list[str]] | None:
        """A top-level import that no folder of the project holds, found beside this file
        (``import transformer as transformer_lib`` in ``examples/gemma/sampler.py``):
        Python puts a script's own folder first on ``sys.path``, so that is the module it
        imports when run from there. (summary, display path, names after the module)."""
        parts = qualname.split(".")
        folder = self.path.parent
        for i in range(len(parts) - 1, 0, -1):
            base = os.path.join(folder, *parts[:i])
            for candidate in (base + ".py", os.path.join(base, "__init__.py")):
                try:
                    if not os.path.isfile(candidate):
                        continue
                except (OSError, ValueError):
                    continue
                path = Path(candidate)
                if path == self.path:
                    return None
                name = ".".join(parts[:i])
                mid = ModuleId(name, folder, path.name == "__init__.py")
                summary = self.project.store.get(path, mid, self.project.final, self.project)
                if summary is None:
                    return None
                return summary, self._display(path), parts[i:]
        return None

    def _resolve(self, qualname: str) -> tuple[dict[str, Any], str, str, list[str]] | None:
        """Follow re-exports to (summary, display path, name, attributes after it)."""
        seen: set[str] = set()
        current = qualname
        for _ in range(_MAX_CHAIN):
            if current in seen:
                return None  # an import cycle
            seen.add(current)
            located = self.project.index.locate(current)
            if located is None:
                # ``import transformer`` beside a script: only the file's own imports
                sibling = self._sibling(current) if current == qualname else None
                if sibling is None:
                    return None
                summary, where, rest = sibling
            else:
                module, rest = located
                if module == self.module.name:
                    return None  # this module: its own analyses know it better
                held = self._summary(module)
                if held is None:
                    return None
                summary, where = held
            name = rest[0]
            target = summary.get("imports", {}).get(name)
            if target:
                current = ".".join([target, *rest[1:]])
                continue
            return summary, where, name, rest[1:]
        return None

    def _entry(self, qualname: str, table: str) -> dict[str, Any] | None:
        found = self._resolve(qualname)
        if found is None:
            return None
        summary, where, name, rest = found
        if rest:
            return None
        entry = summary.get(table, {}).get(name)
        if not isinstance(entry, dict):
            return None
        return {**entry, "name": name, "where": f"{where}:{entry.get('line', 1)}"}

    def _class(self, qualname: str, depth: int) -> dict[str, Any] | None:
        if qualname in FRAMEWORK_BASES:
            return {"name": qualname.rsplit(".", 1)[-1], "framework": FRAMEWORK_BASES[qualname],
                    "attrs": {}, "where": qualname}  # fmt: skip
        if depth > 4:
            return None
        found = self._resolve(qualname)
        if found is None or found[3]:
            return None
        summary, where, name, _ = found
        entry = summary.get("classes", {}).get(name)
        if not isinstance(entry, dict):
            return None
        framework = None
        attrs: dict[str, str] = {}
        init = bool(entry.get("init"))
        reads = set(entry.get("post_init_reads", ()))
        properties = set(entry.get("properties", ()))
        for base in entry.get("bases", []):
            if base in FRAMEWORK_BASES:
                framework = framework or FRAMEWORK_BASES[base]
                continue
            inherited = self._class(base, depth + 1)
            if inherited is not None:
                framework = framework or inherited.get("framework")
                attrs.update(inherited.get("attrs", {}))
                init = init or bool(inherited.get("init"))
                reads.update(inherited.get("post_init_reads", ()))
                properties.update(inherited.get("properties", ()))
        attrs.update(entry.get("attrs", {}))
        out = {
            "name": name,
            "framework": framework,
            "attrs": attrs,
            "init": init,
            "post_init_reads": sorted(reads),
            "where": f"{where}:{entry.get('line', 1)}",
        }
        if properties:
            out["properties"] = sorted(properties)
        return out

    def callers_of(self, me: str, path: Path) -> list[dict[str, Any]]:
        """Every recorded traced call into module ``me``'s functions (at ``path``), and
        every use of them outside staged traces (``host``): from the summaries the run
        holds and, when the run is complete, from the project's other files."""
        mine = os.path.abspath(path)
        out = []
        for c in self.project.calls_into(me):
            if c["path"] != mine:
                caller = module_id(Path(c["path"]))
                entry = {k: v for k, v in c.items() if k != "path"}
                out.append({**entry, "from": caller.name} if caller is not None else entry)
        for path, summary in self._importer_summaries(me, mine):
            mid = module_id(path)
            host = [{"target": t, "host": True, "line": 0} for t in summary.get("host_calls", ())]
            for call in [*summary.get("calls", []), *host]:
                target = self.project.real_target(call.get("target", ""))
                if target is None or not target.startswith(me + "."):
                    continue
                name = target[len(me) + 1 :]
                if "." in name:
                    continue
                entry = {**call, "name": name, "where": f"{self._display(path)}:{call['line']}"}
                out.append({**entry, "from": mid.name} if mid is not None else entry)
        out.sort(key=lambda c: (c["where"], c["name"], c.get("caller") or "", "host" in c))
        return out

    def _importer_summaries(self, module: str, mine: str) -> Iterator[tuple[Path, dict[str, Any]]]:
        """When the run is complete, the summaries of the project's files the run does not
        hold that may call this module's functions from traced code: those that mention
        JAX and spell this module's name. Test files do not count: they jit library
        functions on purpose to check how they fail under a trace (``assertRaises``
        around ``jax.jit(validate)``)."""
        if not self.project.final:
            return
        store = self.project.store
        last = module.rsplit(".", 1)[-1]
        for path, abspath, text in self.project.unheld_jax_files():
            if abspath == mine or last not in text:
                continue
            if is_test_path(self._display(path)):
                continue
            mid = module_id(path)
            if mid is None:
                continue
            self.project.index.add_search_root(mid.search_root)
            summary = store.get(path, mid, True, self.project)
            if summary is not None and (summary.get("calls") or summary.get("host_calls")):
                yield path, summary


def answers_changed(facts: ProjectFacts, recorded: dict[str, Any]) -> bool:
    """Whether any question ``recorded`` holds has another answer now."""
    asks = {
        "function": facts.function,
        "class": facts.class_,
        "value": facts.value,
        "callers": lambda _key: facts.traced_calls(),
        "host": lambda key: host_reached_by(facts, key),
        "x64": facts.x64_enabled,
    }
    for slot, answer in recorded.items():
        kind, _, key = slot.partition(":")
        ask = asks.get(kind)
        if ask is None:
            return True
        now = ask(key)
        if now is answer:
            continue  # the same object the question was answered with (most answers)
        if _normal(now) != _normal(answer):
            return True
    return False


def _normal(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)
