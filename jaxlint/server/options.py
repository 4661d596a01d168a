"""The client's settings (``initializationOptions``, ``workspace/didChangeConfiguration``).

Besides ``index`` (``false``: no background index of the workspace), they go on top
of the document's ``[tool.jaxlint]`` exactly as the command line's
``--select``/``--ignore``/``--target-jax``/``--unsafe-fixes`` do (``ConfigResolver``
overrides). Keys are the config's (``extend-select``) or camelCase (``extendSelect``);
the settings may also sit in a ``{"jaxlint": {...}}`` wrapper. A bad value is
reported and left out; it never stops the server.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from jaxlint.config import ConfigError, check_selector
from jaxlint.versions import parse_version

_KEYS = {
    "select": "select",
    "extend-select": "extend_select",
    "extendSelect": "extend_select",
    "ignore": "ignore",
    "target-jax": "target_jax",
    "targetJax": "target_jax",
    "unsafe-fixes": "unsafe_fixes",
    "unsafeFixes": "unsafe_fixes",
    "index": "index",
}
SERVER_KEYS = ("index",)
"""Settings of the server itself, not of the lint (``index``: the background index of
the workspace, on unless false); the server takes them out of the overrides."""


def parse_options(raw: Any) -> tuple[dict[str, Any], list[str]]:
    """``(ConfigResolver overrides, problems)`` from the client's options object."""
    if raw is None:
        return {}, []
    if isinstance(raw, Mapping) and isinstance(raw.get("jaxlint"), Mapping):
        raw = raw["jaxlint"]
    if not isinstance(raw, Mapping):
        return {}, [f"jaxlint settings: expected an object, got {raw!r}"]
    out: dict[str, Any] = {}
    problems: list[str] = []
    for key, value in raw.items():
        where = f"jaxlint settings: key '{key}'"
        target = _KEYS.get(str(key))
        if target is None:
            known = ", ".join(k for k in _KEYS if "-" in k or k in ("select", "ignore", "index"))
            problems.append(f"{where}: unknown (known: {known}); ignored")
            continue
        try:
            out[target] = _value(target, value, where)
        except ConfigError as exc:
            problems.append(f"{exc}; ignored")
    return out, problems


def _value(target: str, value: Any, where: str) -> Any:
    if target in ("select", "extend_select", "ignore"):
        if isinstance(value, str):
            value = [s.strip() for s in value.split(",") if s.strip()]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"{where}: expected a list of rule selectors, got {value!r}")
        for sel in value:
            check_selector(sel, where)
        return list(value)
    if target == "target_jax":
        if not isinstance(value, str):
            raise ConfigError(f'{where}: expected a version string like "0.4.26", got {value!r}')
        try:
            return parse_version(value)
        except ValueError as exc:
            raise ConfigError(f"{where}: {exc}") from None
    if not isinstance(value, bool):
        raise ConfigError(f"{where}: expected true or false, got {value!r}")
    return value
