"""``# noqa`` comments, flake8-compatible, and the file-level ``# jaxlint: noqa``."""

from __future__ import annotations

import re

# flake8's own pattern (flake8/defaults.py), accepting prefixes such as ``JAX3``.
_NOQA_INLINE = re.compile(
    r"# noqa(?::[\s]?(?P<codes>([A-Z]+[0-9]+(?:[,\s]+)?)+))?",
    re.IGNORECASE,
)
NOQA_INLINE = _NOQA_INLINE
_CODE_SPLIT = re.compile(r"[,\s]+")
_NOQA_FILE = re.compile(
    r"^\s*#\s*jaxlint\s*:\s*noqa(?::\s?(?P<codes>([A-Z]+[0-9]+(?:[,\s]+)?)+))?\s*$",
    re.IGNORECASE | re.MULTILINE,
)

ALL = "*"


def noqa_codes(line: str) -> tuple[str, ...] | None:
    """Codes suppressed on ``line``: ``None`` if no noqa, ``("*",)`` for a bare ``# noqa``."""
    if "#" not in line:
        return None
    match = _NOQA_INLINE.search(line)
    if match is None:
        return None
    codes = match.group("codes")
    if not codes:
        return (ALL,)
    # Codes are compared as written, as flake8 does: a noqa comment naming `jax602`
    # names no code jaxlint reports, so (as in flake8) it silences nothing.
    return tuple(c for c in _CODE_SPLIT.split(codes.strip()) if c)


def file_noqa_codes(text: str) -> tuple[str, ...] | None:
    """Codes suppressed for the whole file by a ``# jaxlint: noqa[: codes]`` line."""
    if "jaxlint" not in text:
        return None
    out: list[str] = []
    for match in _NOQA_FILE.finditer(text):
        codes = match.group("codes")
        if not codes:
            return (ALL,)
        out.extend(c for c in _CODE_SPLIT.split(codes.strip()) if c)
    return tuple(out) if out else None


def suppresses(codes: tuple[str, ...] | None, code: str) -> bool:
    if codes is None:
        return False
    return any(c == ALL or code.startswith(c) for c in codes)
