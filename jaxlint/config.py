"""``[tool.jaxlint]`` in ``pyproject.toml`` (or a ``jaxlint.toml``): loading and validation.

Every key is checked: an unknown key or a bad value raises :class:`ConfigError`
naming the file and the key, and the CLI turns it into exit code 2.
"""

from __future__ import annotations

import difflib
import os
import re
import sys
from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from jaxlint.settings import DEFAULT_EXCLUDE as DEFAULT_EXCLUDE
from jaxlint.settings import DEFAULT_MAX_FILE_SIZE as DEFAULT_MAX_FILE_SIZE
from jaxlint.settings import Selection as Selection
from jaxlint.settings import Settings
from jaxlint.versions import parse_version

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib


CONFIG_NAMES = ("pyproject.toml", "jaxlint.toml")
"""The files jaxlint reads its settings from (``jaxlint.toml``, else ``[tool.jaxlint]``)."""


class ConfigError(Exception):
    """A bad configuration file, key or value (exit code 2)."""


_SELECTOR_RE = re.compile(r"^(ALL|JAX\d{0,3})$")


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
    """``[rules.<code-or-name>]`` tables; ``where`` names the file (and table)."""
    from jaxlint.rules import find_rule

    if not isinstance(value, Mapping):
        raise ConfigError(f"{where}: key 'rules': expected a table of rule tables")
    out = []
    keys_of: dict[str, str] = {}
    for key, options in value.items():
        loc = f"{where}: key 'rules.{key}'"
        rule = find_rule(key)
        if rule is None:
            raise ConfigError(f"{loc}: unknown rule {key!r}")
        if rule.code in keys_of:  # [rules.JAX104] and [rules.side-effect-in-traced]
            raise ConfigError(
                f"{loc}: rule {rule.code} ({rule.name}) already has options in"
                f" 'rules.{keys_of[rule.code]}'; set them in one table"
            )
        keys_of[rule.code] = str(key)
        if not isinstance(options, Mapping):
            raise ConfigError(f"{loc}: expected a table of options, got {options!r}")
        items = []
        for opt, val in options.items():
            spec = rule.options.get(opt)
            if spec is None:
                known = ", ".join(sorted(rule.options)) or "none"
                raise ConfigError(
                    f"{loc}: unknown option {opt!r} for {rule.code} ({rule.name});"
                    f" known options: {known}"
                )
            ok = isinstance(val, spec.type) and not (spec.type is int and isinstance(val, bool))
            if not ok:
                raise ConfigError(
                    f"{where}: key 'rules.{key}.{opt}': expected {spec.type.__name__}, got {val!r}"
                )
            items.append((opt, val))
        out.append((rule.code, tuple(items)))
    return tuple(out)


_SIZE_RE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*(b|kb|mb|gb|kib|mib|gib)?\s*", re.IGNORECASE)
_SIZE_UNITS = {
    None: 1,
    "b": 1,
    "kb": 1000,
    "mb": 1000**2,
    "gb": 1000**3,
    "kib": 1024,
    "mib": 1024**2,
    "gib": 1024**3,
}


def parse_size(value: Any, where: str) -> int:
    """``max-file-size``: a number of bytes, or a string such as "2MB" or "500 kB"; 0 is no limit."""
    if isinstance(value, bool):
        raise ConfigError(f'{where}: expected a size like 2000000 or "2MB", got {value!r}')
    if isinstance(value, int):
        if value < 0:
            raise ConfigError(f"{where}: expected a size of 0 or more bytes, got {value}")
        return value
    if isinstance(value, str):
        match = _SIZE_RE.fullmatch(value)
        if match is not None:
            unit = match.group(2).lower() if match.group(2) else None
            return int(float(match.group(1)) * _SIZE_UNITS[unit])
    raise ConfigError(
        f'{where}: expected a size like 2000000 or "2MB" (units B, kB, MB, GB, KiB, MiB,'
        f" GiB; 0 for no limit), got {value!r}"
    )


def above_max_file_size(size: int, limit: int) -> str | None:
    """Why ``size`` bytes of source are not checked under ``max-file-size`` = ``limit``
    (``None``: they are). The one guard of ``jaxlint check`` and ``jaxlint server``:
    linting needs about 900 bytes of memory per byte of source (docs/performance.md)."""
    if not limit or size <= limit:
        return None
    return (
        f"{_size_text(size)} is above max-file-size ({_size_text(limit)});"
        " set max-file-size in the configuration (0: no limit) to check it"
    )


def _size_text(size: int) -> str:
    return f"{size / 1e6:.1f} MB" if size >= 100_000 else f"{size:,} bytes"


CONFIG_KEYS = (
    "select",
    "extend-select",
    "ignore",
    "per-file-ignores",
    "exclude",
    "extend-exclude",
    "respect-gitignore",
    "unsafe-fixes",
    "target-jax",
    "traced-decorators",
    "traced-wrappers",
    "max-file-size",
    "memory-budget",
    "docs-url",
    "rules",
)


# ruff's key names that users carry over, and what jaxlint calls them (or why it has none).
RUFF_KEY_HINTS = {
    "target-version": "did you mean 'target-jax'? jaxlint checks against a JAX version,"
    ' e.g. target-jax = "0.4.30"',
    "extend-ignore": "did you mean 'ignore'? jaxlint's 'ignore' already adds to the defaults",
    "extend-per-file-ignores": "did you mean 'per-file-ignores'?",
    "lint": "jaxlint's keys sit directly in [tool.jaxlint]: write select = [...], not lint.select",
    "fixable": "jaxlint has no 'fixable'; use --fix with --select, or # noqa",
    "unfixable": "jaxlint has no 'unfixable'; a finding silenced with # noqa is never fixed",
    "extend-fixable": "jaxlint has no 'extend-fixable'",
    "extend-unfixable": "jaxlint has no 'extend-unfixable'",
    "line-length": "jaxlint has no line length setting",
    "indent-width": "jaxlint has no indent width setting",
    "src": "jaxlint has no 'src'; it resolves imports by name",
    "include": "jaxlint checks *.py, *.pyi and *.ipynb; name other files on the command line",
    "extend-include": (
        "jaxlint checks *.py, *.pyi and *.ipynb; name other files on the command line"
    ),
    "force-exclude": "use the --force-exclude option",
    "fix": "use the --fix option",
    "unsafe-fix": "did you mean 'unsafe-fixes'?",
    "show-fixes": "use the --show-fixes option",
    "output-format": "use the --output-format option",
    "cache-dir": "use the --cache-dir option or $JAXLINT_CACHE_DIR",
    "preview": "jaxlint has no preview mode",
    "extend": "jaxlint does not merge config files; the nearest one applies",
    "required-version": "jaxlint has no 'required-version'",
    "builtins": "jaxlint has no 'builtins'",
    "namespace-packages": "jaxlint has no 'namespace-packages'",
}


def settings_from_table(table: Mapping[str, Any], source: Path | None, where: str) -> Settings:
    """Validate one ``[tool.jaxlint]`` table (or a whole ``jaxlint.toml``)."""
    kwargs = table_settings(table, where)
    root = source.parent if source is not None else None
    return Settings(root=root, source=source, **kwargs)


def table_settings(table: Mapping[str, Any], where: str) -> dict[str, Any]:
    """The :class:`Settings` fields one validated table sets (``where`` names it in errors)."""
    if not isinstance(table, Mapping):
        raise ConfigError(f"{where}: expected a table, got {table!r}")
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
                (str(glob), _selectors(codes, f"{where}: key 'per-file-ignores.\"{glob}\"'"))
                for glob, codes in value.items()
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
        elif key in ("traced-decorators", "traced-wrappers"):
            names = _str_list(value, loc)
            for name in names:
                if not all(part.isidentifier() for part in name.split(".")):
                    raise ConfigError(f"{loc}: {name!r} is not a dotted name like 'mylib.my_jit'")
            kwargs[key.replace("-", "_")] = names
        elif key == "max-file-size":
            kwargs["max_file_size"] = parse_size(value, loc)
        elif key == "memory-budget":
            kwargs["memory_budget"] = parse_size(value, loc)
        elif key == "docs-url":
            from jaxlint.output.urls import parse_docs_url

            try:
                kwargs["docs_url"] = parse_docs_url(value)
            except ValueError as exc:
                raise ConfigError(f"{loc}: {exc}") from None
        elif key == "rules":
            kwargs["rule_options"] = _rule_options(value, where)
        else:
            if key in RUFF_KEY_HINTS:
                hint = f" ({RUFF_KEY_HINTS[key]})"
            else:
                close = difflib.get_close_matches(str(key), CONFIG_KEYS, n=1)
                hint = f" (did you mean '{close[0]}'?)" if close else ""
            raise ConfigError(f"{where}: unknown key '{key}'{hint}")
    return kwargs


def inline_config(text: str) -> dict[str, Any]:
    """``--config 'KEY = VALUE'`` (a TOML pair, as ruff takes it): the settings it sets."""
    where = f"--config {text!r}"
    try:
        table = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(
            f"{where}: neither an existing file nor a TOML 'KEY = VALUE' pair ({exc})"
        ) from None
    return table_settings(table, where)


def _merge_rule_options(
    base: tuple[tuple[str, tuple[tuple[str, Any], ...]], ...],
    extra: tuple[tuple[str, tuple[tuple[str, Any], ...]], ...],
) -> tuple[tuple[str, tuple[tuple[str, Any], ...]], ...]:
    merged: dict[str, dict[str, Any]] = {code: dict(values) for code, values in base}
    for code, values in extra:
        merged.setdefault(code, {}).update(values)
    return tuple((code, tuple(values.items())) for code, values in merged.items())


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: not UTF-8 ({exc.reason})") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror or exc}") from None


def load_config_file(path: Path) -> Settings:
    """Settings from an explicit file (``--config``): a jaxlint.toml or a pyproject.toml."""
    if not path.is_file():
        raise ConfigError(f"{path}: config file not found")
    data = _read_toml(path)
    if path.name == "pyproject.toml":
        tool = data.get("tool", {})
        table = tool.get("jaxlint", {}) if isinstance(tool, Mapping) else {}
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

    def __init__(
        self,
        explicit: Path | None = None,
        overrides: dict[str, Any] | None = None,
        inline: Iterable[dict[str, Any]] = (),
    ):
        """``inline``: the settings of ``--config KEY=VALUE`` pairs, applied over every
        config file in order; ``overrides``: the other command-line options, on top."""
        self.overrides = overrides or {}
        self.inline = list(inline)
        self._explicit = load_config_file(explicit) if explicit is not None else None
        self._by_dir: dict[Path, Settings] = {}
        self._default = Settings()
        self._applied: dict[int, tuple[Settings, Settings]] = {}
        """id(config settings) -> (them, them with the overrides): one object per config."""

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
        cached = self._applied.get(id(settings))
        if cached is not None and cached[0] is settings:
            return cached[1]
        o = self.overrides
        changes: dict[str, Any] = {}
        for values in self.inline:
            for key, value in values.items():
                if key == "rule_options":
                    value = _merge_rule_options(changes.get(key, settings.rule_options), value)
                changes[key] = value
        select = o.get("select")
        extend_select = tuple(o.get("extend_select") or ())
        ignore = tuple(o.get("ignore") or ())
        if select is not None or extend_select or ignore:
            changes["cli_selection"] = (
                tuple(select) if select is not None else None,
                extend_select,
                ignore,
            )
        if o.get("target_jax") is not None:
            changes["target_jax"] = o["target_jax"]
        if o.get("unsafe_fixes") is not None:
            changes["unsafe_fixes"] = bool(o["unsafe_fixes"])
        if o.get("exclude") is not None:
            changes["exclude"] = tuple(o["exclude"])
        if o.get("extend_exclude"):
            extend_exclude = changes.get("extend_exclude", settings.extend_exclude)
            changes["extend_exclude"] = extend_exclude + tuple(o["extend_exclude"])
        if o.get("per_file_ignores"):
            changes["cli_per_file_ignores"] = tuple(o["per_file_ignores"])
            changes["cli_root"] = Path.cwd()
        applied = replace(settings, **changes) if changes else settings
        self._applied[id(settings)] = (settings, applied)
        return applied
