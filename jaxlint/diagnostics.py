"""The data every part of jaxlint exchanges: positions, edits, fixes, diagnostics."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field


class Applicability(str, enum.Enum):
    """How far a fix may be trusted (ruff's three levels)."""

    SAFE = "safe"
    """Keeps behaviour; applied by ``--fix``."""
    UNSAFE = "unsafe"
    """May change behaviour; applied only with ``--unsafe-fixes``."""
    DISPLAY_ONLY = "display-only"
    """Shown to the user, never applied (e.g. it depends on a runtime value)."""


@dataclass(frozen=True, order=True)
class Position:
    """A 1-based row and a 1-based column counted in characters (ruff's convention)."""

    row: int
    column: int


@dataclass(frozen=True)
class Edit:
    """Replace the text between ``start`` and ``end`` (end exclusive) by ``content``."""

    start: Position
    end: Position
    content: str

    def to_json(self) -> dict[str, object]:
        return {
            "content": self.content,
            "location": {"row": self.start.row, "column": self.start.column},
            "end_location": {"row": self.end.row, "column": self.end.column},
        }


@dataclass(frozen=True)
class Fix:
    applicability: Applicability
    message: str
    edits: tuple[Edit, ...]

    def to_json(self) -> dict[str, object]:
        return {
            "applicability": self.applicability.value,
            "message": self.message,
            "edits": [e.to_json() for e in self.edits],
        }


@dataclass
class Diagnostic:
    """One finding in one file."""

    code: str
    name: str
    message: str
    filename: str
    start: Position
    end: Position
    fix_applicability: Applicability | None = None
    fix_message: str | None = None
    fix: Fix | None = None
    probe: str | None = None
    severity: str = "error"
    extra: dict[str, object] = field(default_factory=dict)

    @property
    def fixable(self) -> bool:
        return self.fix_applicability in (Applicability.SAFE, Applicability.UNSAFE)

    def sort_key(self) -> tuple[str, int, int, str]:
        return (self.filename, self.start.row, self.start.column, self.code)


FIX_WITHHELD = "fix_withheld"
"""``Diagnostic.extra`` key: ``(applicability, why)`` of a fix the rule offers that jaxlint
cannot apply to this text. Such a finding is not marked fixable, and ``--fix`` says why
rather than leave it silently."""

# Codes that do not belong to a rule class.
PARSE_ERROR_CODE = "JAX000"
"""The file could not be decoded or parsed as Python."""
INTERNAL_ERROR_CODE = "JAX900"
"""A rule crashed (used by the flake8 plugin, which can only speak in diagnostics)."""
