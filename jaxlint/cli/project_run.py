"""One ``jaxlint check`` run's view of the projects its files belong to.

Each file is linted with the :class:`~jaxlint.analysis.project.ProjectFacts` of its
project (the nearest folder with ``pyproject.toml``, ``setup.cfg``, ``setup.py`` or
``.git``, else the file's own packages). While the run lints, a question about a
module of the run that has not been linted yet has no answer (the run lints the
modules a file imports first, so that is rare for what a module asks of its imports);
at the end (:mod:`jaxlint.cli.project_order`), every file's recorded answers are
compared with the complete ones and the files whose answers changed are linted again,
importers first, until nothing changes.
A cached result carries its answers and is checked the same way, so a changed
module re-checks the files that used what it said.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from jaxlint.analysis.project import (
    ModuleId,
    ProjectContext,
    ProjectFacts,
    ProjectIndex,
    SummaryStore,
    absolute_module,
    answers_changed,
    clear_caches,
    find_project_root,
    module_id,
)


def _run_only() -> str:
    return "no cache"


class ProjectRun:
    def __init__(self, cache: Any, run_files: Iterable[Path], settings: Any) -> None:
        from jaxlint.cache import engine_fingerprint
        from jaxlint.engine import summarize_module

        clear_caches()
        self.store = SummaryStore(
            cache,
            settings,
            summarize=summarize_module,
            # with no cache folder, summary keys only have to agree within this run (and
            # its workers, which have no cache either): no digest of jaxlint's 1,200 files
            engine_fingerprint=engine_fingerprint if cache is not None else _run_only,
        )
        self.store.run_files = {os.path.abspath(p) for p in run_files}
        self.contexts: dict[str | None, ProjectContext] = {}
        self.final = False
        self._roots: dict[str, Path | None] = {}
        self._run_roots: dict[str | None, list[Path]] | None = None
        self.summary_root: Path | None = None
        """A private folder where worker processes share summaries (no results cache)."""
        self.keep_trees = False
        """Lints run in this process, and so does the end-of-run re-check: the parse tree
        of a file that asked about a module not linted yet is kept for its second lint."""
        self._trees: dict[tuple[str, str], Any] = {}
        self._tree_chars = 0
        self.imports: dict[str, list[str]] = {}
        """File -> the modules its import lines name, read once per run (the run's order
        and the re-check's order both need them)."""

    def _root(self, path: Path) -> Path | None:
        folder = os.path.dirname(os.path.abspath(path))
        if folder not in self._roots:
            self._roots[folder] = find_project_root(Path(folder))
        return self._roots[folder]

    def facts(self, path: Path | None) -> ProjectFacts | None:
        if path is None or path.suffix not in (".py", ".pyi"):
            return None
        root = self._root(path)
        key = str(root) if root is not None else None
        context = self.contexts.get(key)
        if context is None:
            context = self.contexts[key] = ProjectContext(
                ProjectIndex(root), self.store, final=self.final
            )
            for folder in self._search_roots().get(key, ()):
                context.index.add_search_root(folder)
        return context.for_file(path)

    def _search_roots(self) -> dict[str | None, list[Path]]:
        """Project root -> the folders the run's files are found from, in one order.

        A project's index knows a folder once a file found from it asks (``for_file``):
        which modules an answer could find then depended on the order the files were
        linted in, and so on the number of jobs (a call into ``src/pkg`` not resolved
        while only ``cuda/`` was known). Every folder of the run is known from the start."""
        if self._run_roots is None:
            roots: dict[str | None, dict[Path, None]] = {}
            for abspath in sorted(self.store.run_files):
                path = Path(abspath)
                if path.suffix not in (".py", ".pyi"):
                    continue
                mid = module_id(path)
                if mid is None:
                    continue
                root = self._root(path)
                key = str(root) if root is not None else None
                roots.setdefault(key, {})[mid.search_root] = None
            self._run_roots = {k: list(v) for k, v in roots.items()}
        return self._run_roots

    def share(self) -> None:
        """The run uses worker processes: they exchange summaries through the cache, or,
        without one (``--no-cache``), a private temporary folder (removed by :func:`end`)."""
        if self.store.cache is None and self.summary_root is None:
            import tempfile

            from jaxlint.cache import Cache

            self.summary_root = Path(tempfile.mkdtemp(prefix="jaxlint-summaries-"))
            self.store.cache = Cache(self.summary_root)

    def preload(self, path: Path, text: str) -> None:
        """A file answered by the cache: its summary, from the cache too (the end-of-run
        check and the other files' questions need it; its text is already read)."""
        facts = self.facts(path)
        if facts is None:
            return
        self.store.remember_text(path, text)
        self.store.get(path, facts.module, False, facts.project)

    def finalize(self) -> None:
        """From now on every summary may be computed: the run's own lints are done."""
        self.final = True
        for context in self.contexts.values():
            context.final = True

    def take_tree(self, name: str, text: str) -> Any:
        """The parse tree kept from an earlier lint of this very text, if any (once)."""
        if not self._trees:
            return None
        tree = self._trees.pop((name, text), None)
        if tree is not None:
            self._tree_chars -= len(text)
        return tree

    def tree_keeper(self, name: str, text: str) -> Callable[[Any], None] | None:
        """For the lint of ``text`` about to start: what keeps its tree if the lint asks
        about a module of the run that is not linted yet (the re-check at the end of the
        run then lints it again; the parse would build the same tree). At most
        :data:`KEEP_TREES_CHARS` characters of source are kept (a tree takes about 115
        bytes per character)."""
        if not self.keep_trees:
            return None
        store = self.store
        before = store.pending

        def keep(tree: Any) -> None:
            if store.pending != before and self._tree_chars + len(text) <= KEEP_TREES_CHARS:
                self._trees[(name, text)] = tree
                self._tree_chars += len(text)

        return keep

    def new_summaries(self) -> dict[str, tuple[str, dict[str, Any]]]:
        """Summaries this process made since the last call (sent from a worker to the
        parent). Not those it read from the cache folder: one read there before another
        worker's lint wrote the module's newer summary would replace that one in the
        parent (the summary's key is the module's text, and what another module says of
        it can differ), and the parent would answer from a summary the cache no longer
        holds."""
        store = self.store
        out = {p: store.by_path[p] for p in store.made if p in store.by_path}
        store.made.clear()
        return out


KEEP_TREES_CHARS = 1_000_000


_CURRENT: ProjectRun | None = None
_CURRENT_ID: object | None = None


def begin(
    cache: Any, run_files: Iterable[Path], settings: Any, run_id: object = None
) -> ProjectRun:
    global _CURRENT, _CURRENT_ID
    end()
    _CURRENT = ProjectRun(cache, run_files, settings)
    _CURRENT_ID = run_id
    return _CURRENT


def current() -> ProjectRun | None:
    return _CURRENT


def ensure(run_id: object, make: Callable[[], ProjectRun]) -> ProjectRun:
    """The run of this process for ``run_id`` (a worker process makes its own once)."""
    global _CURRENT, _CURRENT_ID
    if _CURRENT is None or _CURRENT_ID != run_id:
        _CURRENT = make()
        _CURRENT_ID = run_id
    return _CURRENT


def end() -> None:
    global _CURRENT, _CURRENT_ID
    if _CURRENT is not None and _CURRENT.summary_root is not None:
        import shutil

        shutil.rmtree(_CURRENT.summary_root, ignore_errors=True)
    _CURRENT = None
    _CURRENT_ID = None


def stale_files(run: ProjectRun, recorded: dict[str, dict[str, Any]]) -> list[str]:
    """The files whose recorded answers differ from the complete ones."""
    run.finalize()
    out = []
    for name, queries in recorded.items():
        if not queries:
            continue
        try:
            facts = run.facts(Path(name))
            changed = facts is None or answers_changed(facts, queries)
        except Exception:  # linted again: a failure there is reported for this file alone
            changed = True
        if changed:
            out.append(name)
    return out


_STANDALONE: ProjectRun | None = None


def standalone_facts(path: Path | None, settings: Any) -> ProjectFacts | None:
    """The project view of one file linted on its own (the flake8 plugin, stdin with
    ``--stdin-filename``): every other module's summary is read from the project's
    jaxlint cache when there is one, else made by parsing it, once per process."""
    global _STANDALONE
    if path is None or path.suffix not in (".py", ".pyi"):
        return None
    if _STANDALONE is None:
        from jaxlint.cache import Cache, default_cache_dir, is_jaxlint_cache

        root = find_project_root(path)
        folder = default_cache_dir(root) if root is not None else None
        cache = Cache(folder) if folder is not None and is_jaxlint_cache(folder) else None
        _STANDALONE = ProjectRun(cache, (), settings)
        _STANDALONE.finalize()
    return _STANDALONE.facts(path)


_IMPORT_RE = re.compile(
    r"^[ \t]*(?:from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]*(?:\(([^)]*)\)|([\w., \t]+))"
    r"|import[ \t]+([\w., \t]+))",
    re.MULTILINE,
)
"""``from a import b, c``, ``from a import (`` names over several lines ``)``, and
``import a, b``."""
_COMMENT_RE = re.compile(r"#[^\n]*")
_TRIPLE_QUOTED_RE = re.compile(r'"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'')
"""A triple-quoted string: an ``import pkg`` line in a docstring's or a message's example is
not an import (equinox's ``_module.py`` holds one in a message, which made a cycle)."""


def dependency_order(tasks: list[tuple[Path, ...]]) -> list[tuple[Path, ...]]:
    """``tasks`` with the modules a file imports before the file (an import cycle is
    ordered by :func:`cycles_in_order`), so that a run has most summaries when they are
    asked: fewer files are linted again at the end. Reads each file's import lines only."""
    return [tasks[i] for i in dependency_indices(tasks)]


def dependency_indices(tasks: list[tuple[Path, ...]]) -> list[int]:
    """The indices of ``tasks`` in dependency order (see :func:`dependency_order`)."""
    deps = import_graph(tasks)
    if deps is None:
        return list(range(len(tasks)))
    return cycles_in_order(tasks, deps)


def cycles_in_order(tasks: list[tuple[Path, ...]], deps: list[list[int]]) -> list[int]:
    """Every task after the tasks it imports, the import cycles (strongly connected
    components) in dependency order, and inside a cycle the package's ``__init__``
    before its submodules.

    A package and its submodules commonly import each other: ``pkg/__init__.py``
    re-exports ``from pkg.sub import f`` and ``pkg/other.py`` writes ``from pkg import
    f``. Broken where a depth-first walk meets it, the cycle often put ``other`` first,
    whose questions about ``pkg.f`` were then answered without ``pkg``'s summary, and
    ``other`` was linted again at the end. A package's ``__init__`` mostly names what
    its submodules define, which askers follow to the submodule's own summary; it
    rarely asks about them itself. Inside a cycle the imports an ``__init__`` makes are
    therefore the ones left out, and the rest is ordered depth first as before."""
    comp = strongly_connected(deps)
    members: dict[int, list[int]] = {}
    for i, c in enumerate(comp):
        members.setdefault(c, []).append(i)
    order: list[int] = []
    for c in sorted(members):  # Tarjan numbers a component after those it imports
        nodes = members[c]
        if len(nodes) == 1:
            order.append(nodes[0])
            continue
        local = {node: k for k, node in enumerate(nodes)}
        inner = [
            []
            if tasks[node][0].name == "__init__.py"
            else [local[j] for j in deps[node] if j in local]
            for node in nodes
        ]
        order.extend(nodes[k] for k in postorder(inner))
    return order


def strongly_connected(deps: list[list[int]]) -> list[int]:
    """For each node, the number of its strongly connected component (Tarjan's
    algorithm, without recursion)."""
    n = len(deps)
    index = [-1] * n
    low = [0] * n
    on_stack = [False] * n
    comp = [-1] * n
    stack: list[int] = []
    counter = 0
    comps = 0
    for start in range(n):
        if index[start] != -1:
            continue
        work = [(start, 0)]
        while work:
            node, at = work[-1]
            if at == 0:
                index[node] = low[node] = counter
                counter += 1
                stack.append(node)
                on_stack[node] = True
            edges = deps[node]
            if at < len(edges):
                work[-1] = (node, at + 1)
                nxt = edges[at]
                if index[nxt] == -1:
                    work.append((nxt, 0))
                elif on_stack[nxt]:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                while True:
                    member = stack.pop()
                    on_stack[member] = False
                    comp[member] = comps
                    if member == node:
                        break
                comps += 1
    return comp


def import_graph(tasks: list[tuple[Path, ...]]) -> list[list[int]] | None:
    """For each task, the tasks whose modules its file imports (from its import lines);
    ``None`` when fewer than two tasks are modules."""
    modules: dict[str, int] = {}
    ids: list[ModuleId | None] = []
    for i, paths in enumerate(tasks):
        mid = module_id(paths[0]) if paths[0].suffix in (".py", ".pyi") else None
        ids.append(mid)
        if mid is not None:
            modules.setdefault(mid.name, i)
    if len(modules) < 2:
        return None
    deps: list[list[int]] = []
    known = _CURRENT.imports if _CURRENT is not None else {}
    for i, paths in enumerate(tasks):
        mid = ids[i]
        found: list[int] = []
        if mid is not None:
            key = str(paths[0])
            names = known.get(key)
            if names is None:
                names = known[key] = _imported_modules(_head(paths[0]), mid)
            for name in names:
                j = modules.get(name)
                if j is not None and j != i:
                    found.append(j)
        deps.append(found)
    return deps


def postorder(deps: list[list[int]]) -> list[int]:
    """Every node after the nodes it depends on (depth first; a cycle is broken where it
    is met)."""
    order: list[int] = []
    state = [0] * len(deps)  # 0 new, 1 on the stack, 2 done
    for start in range(len(deps)):
        if state[start]:
            continue
        stack = [(start, iter(deps[start]))]
        state[start] = 1
        while stack:
            node, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                stack.pop()
                state[node] = 2
                order.append(node)
            elif not state[nxt]:
                state[nxt] = 1
                stack.append((nxt, iter(deps[nxt])))
    return order


def _head(path: Path, limit: int = 1 << 20) -> str:
    """The first ``limit`` bytes of a regular file as text; ``""`` for anything else (a
    FIFO named ``x.py`` must not block the run: it is opened without waiting)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except (OSError, ValueError):
        return ""
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return ""
        return os.read(fd, limit).decode("utf-8", "replace")
    except OSError:
        return ""
    finally:
        os.close(fd)


def _imported_modules(text: str, mid: ModuleId) -> list[str]:
    out: list[str] = []
    if '"""' in text or "'''" in text:
        text = _TRIPLE_QUOTED_RE.sub('""', text)
    for match in _IMPORT_RE.finditer(text):
        source, parenthesized, names, plain = match.groups()
        if parenthesized is not None:
            names = _COMMENT_RE.sub("", parenthesized)
        if plain is not None:
            out.extend(p.split()[0] for p in plain.split(",") if p.strip())
            continue
        level = len(source) - len(source.lstrip("."))
        base = absolute_module(mid, level, source.lstrip(".") or None) if level else source
        if not base:
            continue
        out.append(base)
        out.extend(f"{base}.{n.split()[0]}" for n in names.split(",") if n.strip())
    return out


def dependency_plan(tasks: list[tuple[Path, ...]]) -> tuple[list[int], list[list[int]] | None]:
    """How a pool hands out ``tasks``: their indices in dependency order, and for each
    task the tasks it waits for (those it imports that come before it in that order;
    see :func:`cycles_in_order` for a cycle), so that a worker lints a module once the modules
    it imports have published their summaries. ``None``: nothing to wait for."""
    deps = import_graph(tasks)
    if deps is None:
        return list(range(len(tasks))), None
    order = cycles_in_order(tasks, deps)
    position = [0] * len(tasks)
    for at, index in enumerate(order):
        position[index] = at
    waits = [[j for j in deps[i] if position[j] < position[i]] for i in range(len(tasks))]
    return order, waits
