"""The effective configuration of one file (:class:`Settings`): plain data that the engine,
the cache and the rules read. Loading and validating it (``[tool.jaxlint]``, which reads
the rule registry) is :mod:`jaxlint.config`, above the rules; this module is below them."""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jaxlint.versions import Version, default_target_jax

if TYPE_CHECKING:
    from jaxlint.rules.base import Rule

DEFAULT_EXCLUDE = (
    ".bzr",
    ".direnv",
    ".eggs",
    ".git",
    ".git-rewrite",
    ".hg",
    ".jaxlint_cache",
    ".mypy_cache",
    ".nox",
    ".pants.d",
    ".pytype",
    ".ruff_cache",
    ".svn",
    ".tox",
    ".venv",
    "__pypackages__",
    "_build",
    "buck-out",
    "build",
    "dist",
    "node_modules",
    "site-packages",
    "venv",
)


Selection = tuple[tuple[str, ...] | None, tuple[str, ...], tuple[str, ...]]
"""(select or None, extend-select, ignore)."""


DEFAULT_MAX_FILE_SIZE = 2_000_000
"""2 MB. Linting needs about 900 bytes of memory per byte of source (libcst's nodes,
positions, the semantic model; measured in docs/performance.md): a 2 MB file peaks
near 2 GB, per worker with ``-j``. The largest file in the pinned corpus of real JAX
projects is 0.43 MB (``jax/_src/lax/lax.py``)."""


@dataclass(frozen=True)
class Settings:
    """The effective configuration for one file."""

    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    exclude: tuple[str, ...] = DEFAULT_EXCLUDE
    extend_exclude: tuple[str, ...] = ()
    respect_gitignore: bool = True
    target_jax: Version = field(default_factory=default_target_jax)
    unsafe_fixes: bool = False
    rule_options: tuple[tuple[str, tuple[tuple[str, Any], ...]], ...] = ()
    traced_decorators: tuple[str, ...] = ()
    """Qualified names of a project's own decorators that trace (``mylib.my_jit``)."""
    traced_wrappers: tuple[str, ...] = ()
    """Qualified names of a project's own wrappers that trace (``step = mylib.compile(f)``)."""
    cli_per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """``--per-file-ignores``: globs relative to ``cli_root`` (the current folder)."""
    cli_root: Path | None = None
    cli_selection: Selection | None = None
    """``--select``/``--extend-select``/``--ignore``: a second layer on top of the config's.

    As in ruff, a more specific selector beats a broader one within a layer (and
    ``ignore`` wins a tie), while across layers the command line wins.
    """
    max_file_size: int = DEFAULT_MAX_FILE_SIZE
    """Files larger than this many bytes are skipped with a warning (0: no limit)."""
    memory_budget: int | None = None
    """Bytes the worker processes of one run may use together (``None``: half of the
    physical memory; 0: no limit): ``-j`` is lowered to fit (see cli/check.py)."""
    docs_url: str | None = None
    """``docs-url``: where the rule pages are published (checked, no trailing slash), for
    the links of JSON, SARIF and the language server (``jaxlint/output/urls.py``); None:
    the pages on disk. Not part of a file's findings, so not of the cache's key."""
    root: Path | None = None
    """The folder of the config file (globs are relative to it), or None."""
    source: Path | None = None
    """The config file these settings came from."""

    # -- rule selection -------------------------------------------------------------

    def is_enabled(self, rule: type[Rule]) -> bool:
        code = rule.code
        enabled = _layer_enables(
            code, self.select, self.extend_select, self.ignore, rule.default_enabled
        )
        if self.cli_selection is not None:
            enabled = _layer_enables(code, *self.cli_selection, enabled)
        return enabled

    def enabled_rules(self, rules: Iterable[type[Rule]]) -> list[type[Rule]]:
        return [r for r in rules if self.is_enabled(r)]

    def file_ignores(self, path: Path | None) -> tuple[str, ...]:
        if path is None or not (self.per_file_ignores or self.cli_per_file_ignores):
            return ()
        out: list[str] = []
        for table, root in (
            (self.per_file_ignores, self.root),
            (self.cli_per_file_ignores, self.cli_root),
        ):
            if not table:
                continue
            rel, inside = _relative(path, root)
            for pattern, codes in table:
                if _glob_match(rel, inside, pattern, folders=True):
                    out.extend(codes)
        return tuple(out)

    @property
    def prefilter_words(self) -> tuple[str, ...]:
        """Words besides JAX's names that make a file worth parsing: the last part of
        each configured traced decorator or wrapper (``my_jit`` for ``mylib.my_jit``),
        which any use of it spells."""
        names = (*self.traced_decorators, *self.traced_wrappers)
        return tuple(sorted({name.rsplit(".", 1)[-1] for name in names}))

    def is_excluded(self, path: Path, *, parents: bool = False) -> bool:
        """Whether ``exclude``/``extend-exclude`` match ``path`` itself.

        A bare pattern (``build``) matches a file or folder name, a pattern with a
        slash (``src/gen/*.py``) the path relative to the config's folder. Folders
        above ``path`` are not looked at (a walk stops at excluded folders anyway)
        unless ``parents`` is true, and then only those below the config's folder
        (or the current folder): a project inside ``~/build`` is still checked.
        """
        rel, inside = _relative(path, self.root)
        patterns = (*self.exclude, *self.extend_exclude)
        candidates = [rel]
        if parents and inside:
            parts = rel.split("/")
            candidates += ["/".join(parts[:i]) for i in range(1, len(parts))]
        return any(
            _glob_match(candidate, inside, pattern, folders=False)
            for candidate in candidates
            for pattern in patterns
        )

    def rule_option(self, rule: Rule | type[Rule], key: str) -> Any:
        for code, values in self.rule_options:
            if code == rule.code:
                for k, v in values:
                    if k == key:
                        return v
        return rule.options[key].default

    def with_overrides(self, **changes: Any) -> Settings:
        return replace(self, **{k: v for k, v in changes.items() if v is not None})


def _longest_match(code: str, selectors: Iterable[str] | None) -> int | None:
    best: int | None = None
    for sel in selectors or ():
        prefix = "JAX" if sel == "ALL" else sel
        if code.startswith(prefix):
            length = len(prefix)
            best = length if best is None else max(best, length)
    return best


def _layer_enables(
    code: str,
    select: Iterable[str] | None,
    extend_select: Iterable[str],
    ignore: Iterable[str],
    carried: bool,
) -> bool:
    """One layer of rule selection (ruff's semantics).

    ``select`` starts afresh; without it the rule keeps its state from the layer
    below (``carried``). The most specific matching selector decides; ``ignore``
    wins a tie.
    """
    if select is not None:
        selected = _longest_match(code, select)
    else:
        selected = 0 if carried else None
    extended = _longest_match(code, extend_select)
    if extended is not None and (selected is None or extended > selected):
        selected = extended
    if selected is None:
        return False
    ignored = _longest_match(code, ignore)
    return ignored is None or ignored < selected


def _relative(path: Path, root: Path | None) -> tuple[str, bool]:
    """``path`` relative to ``root`` (or the current folder) as posix, and whether it is inside."""
    path = Path(os.path.abspath(path))
    base = Path(os.path.abspath(root)) if root is not None else Path.cwd()
    try:
        return path.relative_to(base).as_posix(), True
    except ValueError:
        return path.as_posix(), False


def _glob_match(rel: str, inside: bool, pattern: str, *, folders: bool) -> bool:
    """ruff-like glob matching of one path.

    A pattern with a slash matches the relative path (absolute for paths outside the
    config's folder) or, like ``tests/*``, a folder prefix of it. A bare pattern
    matches the basename and, when ``folders`` is true, any folder name between the
    config's folder and the file (never folders above the config's folder).
    """
    pattern = pattern.rstrip("/")
    if not pattern:
        return False
    if pattern.startswith("./"):
        pattern = pattern[2:]
    if fnmatch.fnmatchcase(rel, pattern):
        return True
    parts = rel.split("/")
    if "/" in pattern:
        return any(fnmatch.fnmatchcase("/".join(parts[:i]), pattern) for i in range(1, len(parts)))
    if fnmatch.fnmatchcase(parts[-1], pattern):
        return True
    if folders and inside:
        return any(fnmatch.fnmatchcase(part, pattern) for part in parts[:-1])
    return False
