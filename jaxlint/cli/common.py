"""What the subcommands share: exit codes, usage errors, argument types, the rule registry."""

from __future__ import annotations

import argparse
import re
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from jaxlint.rules.base import Rule

# The linting machinery (libcst, the rules) is imported when a file is linted, so a
# run that the cache answers entirely starts in a fraction of the time.

EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


class UsageError(Exception):
    pass


class Parser(argparse.ArgumentParser):
    def error(self, message: str):  # type: ignore[override]
        raise UsageError(f"{self.prog}: {message}")


def selector_list(text: str) -> list[str]:
    return [s.strip() for s in text.split(",") if s.strip()]


def per_file_ignores(text: str) -> list[tuple[str, tuple[str, ...]]]:
    """``--per-file-ignores``: ``GLOB:CODES`` pairs, in ruff's spelling
    (``'tests/*:JAX302,*_test.py:JAX6'``) or flake8's (``'tests/*:JAX302,JAX6 other.py:JAX7'``):
    an item with a colon starts a glob, an item without one adds a code to it."""
    pairs: list[tuple[str, list[str]]] = []
    for item in re.split(r"[,\s]+", text):
        if not item:
            continue
        if ":" in item:
            glob, _, code = item.rpartition(":")
            if not glob:
                raise argparse.ArgumentTypeError(f"{item!r}: no glob before ':'")
            pairs.append((glob, [code] if code else []))
        elif pairs:
            pairs[-1][1].append(item)
        else:
            raise argparse.ArgumentTypeError(
                f"expected GLOB:CODES pairs such as 'tests/*:JAX302', got {text!r}"
            )
    for glob, codes in pairs:
        if not codes:
            raise argparse.ArgumentTypeError(f"{glob!r}: no codes after ':'")
    return [(glob, tuple(codes)) for glob, codes in pairs]


def cache_dir(text: str) -> Path:
    """``--cache-dir``: a folder name (an empty one would mean the current folder)."""
    if not text:
        raise argparse.ArgumentTypeError("needs a folder name, not an empty string")
    return Path(text)


def jobs_count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of processes, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError("must be 0 (all available cores) or more")
    return value


def all_rules() -> tuple[type[Rule], ...]:
    """Every rule (imported on first use: a run the cache answers never loads them)."""
    from jaxlint.rules import all_rules as load_rules

    return load_rules()


def find_rule(code_or_name: str) -> type[Rule] | None:
    from jaxlint.rules import find_rule as find

    return find(code_or_name)


def one_line(message: str) -> str:
    """``message`` with its line breaks and runs of whitespace folded to single spaces."""
    return " ".join(message.split())
