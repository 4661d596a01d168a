"""JAX versions: parsing, and the default ``target-jax`` (read without importing jax)."""

from __future__ import annotations

import re

NEWEST_KNOWN_JAX = "0.12.0"
"""The newest JAX release the rules were checked against."""

_VERSION_RE = re.compile(r"^\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:\.(\d+))?\s*$")

Version = tuple[int, int, int]


def parse_version(text: str) -> Version:
    """``"0.4.26"`` -> ``(0, 4, 26)``. Raises ``ValueError`` for anything else."""
    match = _VERSION_RE.match(str(text))
    if match is None:
        raise ValueError(f"not a JAX version: {text!r} (expected e.g. '0.4.26')")
    major, minor, patch, _ = match.groups()
    return (int(major), int(minor or 0), int(patch or 0))


def format_version(version: Version) -> str:
    return ".".join(str(p) for p in version)


def installed_jax_version() -> str | None:
    """The installed ``jax`` distribution's version from its metadata, or ``None``."""
    from importlib import metadata  # 30-60 ms: only when a setting needs the default

    try:
        raw = metadata.version("jax")
    except metadata.PackageNotFoundError:
        return None
    match = re.match(r"\d+(\.\d+){0,3}", raw)
    return match.group(0) if match else None


def default_target_jax() -> Version:
    installed = installed_jax_version()
    if installed is not None:
        try:
            return parse_version(installed)
        except ValueError:
            pass
    return parse_version(NEWEST_KNOWN_JAX)
