"""Colours for the text output on a terminal (ANSI escapes; none unless asked for).

``--color auto`` (the default) colours when the stream is a terminal whose
``TERM`` is not ``dumb``, unless ``NO_COLOR`` is set (to anything but the empty
string, https://no-color.org); ``FORCE_COLOR`` (set and not empty) colours even
when the output is piped. ``--color always`` and ``--color never`` beat both.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TextIO

_RESET = "\x1b[0m"
_CODES = {
    "bold": "1",
    "red": "31",
    "green": "32",
    "yellow": "33",
    "blue": "34",
    "cyan": "36",
}


def use_color(mode: str, stream: TextIO, environ: Mapping[str, str] | None = None) -> bool:
    env = os.environ if environ is None else environ
    if mode == "always":
        return True
    if mode == "never":
        return False
    if env.get("NO_COLOR"):
        return False
    if env.get("FORCE_COLOR"):
        return True
    isatty = getattr(stream, "isatty", None)
    try:
        tty = bool(isatty is not None and isatty())
    except (OSError, ValueError):
        tty = False
    return tty and env.get("TERM") != "dumb"


class Style:
    """``style.paint(text, "bold", "red")``: ``text`` in those colours, or as is when off."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def paint(self, text: str, *styles: str) -> str:
        if not self.enabled or not text:
            return text
        return f"\x1b[{';'.join(_CODES[s] for s in styles)}m{text}{_RESET}"


PLAIN = Style(False)
