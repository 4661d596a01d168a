"""``[tool.jaxlint]`` in ``pyproject.toml`` (or a ``jaxlint.toml``): loading and validation.

Every key is checked: an unknown key or a bad value raises :class:`ConfigError`
naming the file and the key, and the CLI turns it into exit code 2.
"""

from __future__ import annotations

import fnmatch
import os
import re
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jaxlint.versions import Version, default_target_jax, parse_version

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

if TYPE_CHECKING:
    from jaxlint.rules.base import Rule


class ConfigError(Exception):
    """A bad configuration file, key or value (exit code 2)."""


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

_SELECTOR_RE = re.compile(r"^(ALL|JAX\d{0,3})$")


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
    root: Path | None = None
    """The folder of the config file (globs are relative to it), or None."""
    source: Path | None = None
    """The config file these settings came from."""

    # -- rule selection -------------------------------------------------------------

    def is_enabled(self, rule: type[Rule]) -> bool:
        code = rule.code
        selected = _longest_match(code, self.select) if self.select is not None else None
        if self.select is None and rule.default_enabled:
            selected = 0
        extended = _longest_match(code, self.extend_select)
        if extended is not None and (selected is None or extended > selected):
            selected = extended
        if selected is None:
            return False
        ignored = _longest_match(code, self.ignore)
        return ignored is None or ignored < selected

    def enabled_rules(self, rules: Iterable[type[Rule]]) -> list[type[Rule]]:
        return [r for r in rules if self.is_enabled(r)]

    def file_ignores(self, path: Path | None) -> tuple[str, ...]:
        if path is None or not self.per_file_ignores:
            return ()
        rel = _relative(path, self.root)
        out: list[str] = []
        for pattern, codes in self.per_file_ignores:
            if _glob_match(rel, pattern):
                out.extend(codes)
        return tuple(out)

    def is_excluded(self, path: Path) -> bool:
        rel = _relative(path, self.root)
        for pattern in (*self.exclude, *self.extend_exclude):
            if _glob_match(rel, pattern):
                return True
        return False

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


def _relative(path: Path, root: Path | None) -> str:
    path = Path(os.path.abspath(path))
    base = Path(os.path.abspath(root)) if root is not None else Path.cwd()
    try:
        return path.relative_to(base).as_posix()
    except ValueError:
        return path.as_posix()


def _glob_match(rel: str, pattern: str) -> bool:
    """ruff-like matching: the whole relative path, any parent folder, or the basename."""
    pattern = pattern.rstrip("/")
    if fnmatch.fnmatchcase(rel, pattern):
        return True
    if "/" in pattern:
        # ``tests/*`` style: a folder prefix also matches everything under it.
        parts = rel.split("/")
        return any(fnmatch.fnmatchcase("/".join(parts[:i]), pattern) for i in range(1, len(parts)))
    return any(fnmatch.fnmatchcase(part, pattern) for part in rel.split("/"))


# -- reading files ---------------------------------------------------------------------------


def _str_list(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where}: expected a list of strings, got {value!r}")
    return tuple(value)


def _selectors(value: Any, where: str) -> tuple[str, ...]:
    sels = _str_list(value, where)
    for sel in sels:
        check_selector(sel, where)
    return sels


def check_selector(sel: str, where: str) -> None:
    from jaxlint.rules import all_rules

    if not _SELECTOR_RE.match(sel):
        raise ConfigError(
            f"{where}: invalid rule selector {sel!r} (expected e.g. 'JAX2', 'JAX301')"
        )
    prefix = "JAX" if sel == "ALL" else sel
    if not any(r.code.startswith(prefix) for r in all_rules()):
        raise ConfigError(f"{where}: selector {sel!r} matches no jaxlint rule")


def _bool(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise ConfigError(f"{where}: expected true or false, got {value!r}")
    return value


def _rule_options(value: Any, where: str) -> tuple[tuple[str, tuple[tuple[str, Any], ...]], ...]:
    from jaxlint.rules import find_rule

    if not isinstance(value, Mapping):
        raise ConfigError(f"{where}: expected a table of rule tables")
    out = []
    for key, options in value.items():
        rule = find_rule(key)
        if rule is None:
            raise ConfigError(f"{where}.{key}: unknown rule {key!r}")
        if not isinstance(options, Mapping):
            raise ConfigError(f"{where}.{key}: expected a table of options")
        items = []
        for opt, val in options.items():
            spec = rule.options.get(opt)
            if spec is None:
                known = ", ".join(sorted(rule.options)) or "none"
                raise ConfigError(
                    f"{where}.{key}: unknown option {opt!r} for {rule.code} (known: {known})"
                )
            ok = isinstance(val, spec.type) and not (spec.type is int and isinstance(val, bool))
            if not ok:
                raise ConfigError(
                    f"{where}.{key}.{opt}: expected {spec.type.__name__}, got {val!r}"
                )
            items.append((opt, val))
        out.append((rule.code, tuple(items)))
    return tuple(out)


def settings_from_table(table: Mapping[str, Any], source: Path | None, where: str) -> Settings:
    """Validate one ``[tool.jaxlint]`` table (or a whole ``jaxlint.toml``)."""
    kwargs: dict[str, Any] = {}
    for key, value in table.items():
        loc = f"{where}: key '{key}'"
        if key == "select":
            kwargs["select"] = _selectors(value, loc)
        elif key == "extend-select":
            kwargs["extend_select"] = _selectors(value, loc)
        elif key == "ignore":
            kwargs["ignore"] = _selectors(value, loc)
        elif key == "per-file-ignores":
            if not isinstance(value, Mapping):
                raise ConfigError(f"{loc}: expected a table of glob = [codes]")
            kwargs["per_file_ignores"] = tuple(
                (str(glob), _selectors(codes, f"{loc}.{glob}")) for glob, codes in value.items()
            )
        elif key == "exclude":
            kwargs["exclude"] = _str_list(value, loc)
        elif key == "extend-exclude":
            kwargs["extend_exclude"] = _str_list(value, loc)
        elif key == "respect-gitignore":
            kwargs["respect_gitignore"] = _bool(value, loc)
        elif key == "unsafe-fixes":
            kwargs["unsafe_fixes"] = _bool(value, loc)
        elif key == "target-jax":
            if not isinstance(value, str):
                raise ConfigError(f'{loc}: expected a version string like "0.4.26"')
            try:
                kwargs["target_jax"] = parse_version(value)
            except ValueError as exc:
                raise ConfigError(f"{loc}: {exc}") from None
        elif key == "rules":
            kwargs["rule_options"] = _rule_options(value, f"{where}: [rules]")
        else:
            raise ConfigError(f"{where}: unknown key '{key}'")
    root = source.parent if source is not None else None
    return Settings(root=root, source=source, **kwargs)


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror or exc}") from None


def load_config_file(path: Path) -> Settings:
    """Settings from an explicit file (``--config``): a jaxlint.toml or a pyproject.toml."""
    if not path.is_file():
        raise ConfigError(f"{path}: config file not found")
    data = _read_toml(path)
    if path.name == "pyproject.toml":
        table = data.get("tool", {}).get("jaxlint", {})
        return settings_from_table(table, path, f"{path} [tool.jaxlint]")
    return settings_from_table(data, path, str(path))


def _config_in(directory: Path) -> Settings | None:
    jt = directory / "jaxlint.toml"
    if jt.is_file():
        return settings_from_table(_read_toml(jt), jt, str(jt))
    pp = directory / "pyproject.toml"
    if pp.is_file():
        data = _read_toml(pp)
        tool = data.get("tool", {})
        if isinstance(tool, Mapping) and "jaxlint" in tool:
            table = tool["jaxlint"]
            if not isinstance(table, Mapping):
                raise ConfigError(f"{pp}: [tool.jaxlint] must be a table")
            return settings_from_table(table, pp, f"{pp} [tool.jaxlint]")
    return None


class ConfigResolver:
    """Finds the nearest config above each file, with CLI overrides on top."""

    def __init__(self, explicit: Path | None = None, overrides: dict[str, Any] | None = None):
        self.overrides = overrides or {}
        self._explicit = load_config_file(explicit) if explicit is not None else None
        self._by_dir: dict[Path, Settings] = {}
        self._default = Settings()

    def for_path(self, path: Path | None) -> Settings:
        if self._explicit is not None:
            return self._apply(self._explicit)
        if path is None:
            directory = Path.cwd()
        else:
            directory = Path(os.path.abspath(path))
            if not directory.is_dir():
                directory = directory.parent
        return self._apply(self._find(directory))

    def _find(self, directory: Path) -> Settings:
        chain: list[Path] = []
        found: Settings | None = None
        current = directory
        while True:
            if current in self._by_dir:
                found = self._by_dir[current]
                break
            chain.append(current)
            settings = _config_in(current)
            if settings is not None:
                found = settings
                break
            if current.parent == current:
                break
            current = current.parent
        result = found if found is not None else self._default
        for d in chain:
            self._by_dir[d] = result
        return result

    def _apply(self, settings: Settings) -> Settings:
        o = self.overrides
        changes: dict[str, Any] = {}
        if o.get("select") is not None:
            changes["select"] = tuple(o["select"])
        if o.get("extend_select"):
            changes["extend_select"] = settings.extend_select + tuple(o["extend_select"])
        if o.get("ignore"):
            changes["ignore"] = settings.ignore + tuple(o["ignore"])
        if o.get("target_jax") is not None:
            changes["target_jax"] = o["target_jax"]
        if o.get("unsafe_fixes"):
            changes["unsafe_fixes"] = True
        if o.get("extend_exclude"):
            changes["extend_exclude"] = settings.extend_exclude + tuple(o["extend_exclude"])
        return replace(settings, **changes) if changes else settings
