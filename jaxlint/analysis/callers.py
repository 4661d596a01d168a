"""Which traced functions of other modules call a module's functions, kept up to date
as summaries arrive.

A module's ``callers`` question is answered from the ``calls`` of every summary the run
holds, each call's target followed through re-exports (``pkg.train.helper`` defined in
``pkg.train.ops``). Rebuilding that index whenever a lint publishes a summary made a
run's cost grow with the square of its modules (every module asks, and every publish
changed the index); here only the summaries that changed are read again, and the calls
whose target resolution went through a module whose summary changed.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from jaxlint.analysis.testcode import is_test_path

if TYPE_CHECKING:
    from jaxlint.analysis.project import ProjectContext


class CallersIndex:
    """Module -> the traced calls into its functions, from the summaries the run holds."""

    def __init__(self, context: ProjectContext) -> None:
        self.context = context
        self._final: bool | None = None
        self._generation = -1
        """The index's generation when everything was last read."""
        self._seen = 0
        """How much of the store's change log has been read."""
        self._by_module: dict[str, dict[str, list[dict[str, Any]]]] = {}
        """module -> path of the calling module -> its calls into that module."""
        self._modules_of: dict[str, list[str]] = {}
        """path -> the modules its calls land in (to take them back)."""
        self._readers: dict[str, set[str]] = {}
        """module -> the paths whose call targets were resolved through its summary."""

    def calls_into(self, module: str) -> list[dict[str, Any]]:
        self._update()
        found = self._by_module.get(module)
        if not found:
            return []
        return [call for calls in found.values() for call in calls]

    def _update(self) -> None:
        context = self.context
        store = context.store
        generation = context.index.generation
        if self._final != context.final or self._generation != generation:
            # complete now, or a folder was added to the index (a target not found before
            # may be found now): everything is read once more
            self._final = context.final
            self._generation = generation
            self._by_module.clear()
            self._modules_of.clear()
            self._readers.clear()
            self._seen = len(store.log)
            for path in list(store.by_path):
                self._read(path)
            return
        if self._seen == len(store.log):
            return
        changed = store.log[self._seen :]
        self._seen = len(store.log)
        dirty: dict[str, None] = {}
        for path in changed:
            dirty[path] = None
            held = store.by_path.get(path)
            module = held[1].get("module") if held is not None else None
            if isinstance(module, str):
                for reader in self._readers.get(module, ()):
                    dirty[reader] = None
        for path in dirty:  # summaries made while reading are read at the next call
            self._read(path)

    def _read(self, path: str) -> None:
        """(Re)index the calls of the summary held for ``path``."""
        for module in self._modules_of.pop(path, ()):
            self._by_module.get(module, {}).pop(path, None)
        context = self.context
        held = context.store.by_path.get(path)
        if held is None:
            return
        summary = held[1]
        host = [{"target": t, "host": True, "line": 0} for t in summary.get("host_calls", ())]
        if not (summary.get("calls") or host) or not context.within(path):
            return
        display = context.display(Path(path))
        if is_test_path(display):
            return
        modules: list[str] = []
        for call in [*summary.get("calls", ()), *host]:
            consulted: list[str] = []
            real = context.real_target(call.get("target", ""), consulted)
            for module in consulted:
                self._readers.setdefault(module, set()).add(path)
            if real is None or "." not in real:
                continue
            module, _, name = real.rpartition(".")
            self._by_module.setdefault(module, {}).setdefault(path, []).append(
                {**call, "name": name, "where": f"{display}:{call['line']}", "path": path}
            )
            modules.append(module)
        self._modules_of[path] = modules
