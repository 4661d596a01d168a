"""Fix to a fixed point: apply, re-lint, repeat; never keep a fix that breaks the parse."""

from __future__ import annotations

import ast
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field

import libcst as cst

from jaxlint.diagnostics import FIX_WITHHELD, Applicability, Diagnostic, Fix
from jaxlint.fixers.edits import apply_fixes

MAX_ITERATIONS = 10

LintFn = Callable[[str], list[Diagnostic]]
"""Lints a text with fixes materialised, returning its diagnostics."""


@dataclass
class DroppedFix:
    code: str
    row: int
    column: int
    reason: str


@dataclass
class FixOutcome:
    text: str
    applied: dict[str, int] = field(default_factory=dict)
    """Fixes applied, per code."""
    applied_messages: list[tuple[str, int, int, str]] = field(default_factory=list)
    dropped: list[DroppedFix] = field(default_factory=list)
    iterations: int = 0
    converged: bool = True

    @property
    def total_applied(self) -> int:
        return sum(self.applied.values())


def python_parses(text: str) -> bool:
    """Python's own parser accepts ``text`` (what the fix loop requires of fixed code)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def _cst_parses(text: str) -> bool:
    try:
        cst.parse_module(text)
    except Exception:
        return False
    return True


def is_applicable(diag: Diagnostic, unsafe: bool) -> bool:
    if diag.fix is None:
        return False
    if diag.fix.applicability is Applicability.SAFE:
        return True
    return unsafe and diag.fix.applicability is Applicability.UNSAFE


def _withheld(diags: list[Diagnostic], unsafe: bool) -> list[DroppedFix]:
    """The fixes ``--fix`` would apply but jaxlint cannot place in the text, and why."""
    out = []
    for d in diags:
        withheld = d.extra.get(FIX_WITHHELD)
        if withheld is None:
            continue
        applicability, why = withheld  # type: ignore[misc]
        if applicability is Applicability.SAFE or (
            unsafe and applicability is Applicability.UNSAFE
        ):
            out.append(DroppedFix(d.code, d.start.row, d.start.column, why))
    return out


def _key(diag: Diagnostic) -> tuple:
    assert diag.fix is not None
    return (diag.code, diag.fix.edits)


def fix_text(text: str, lint: LintFn, *, unsafe: bool) -> FixOutcome:
    """Apply applicable fixes until nothing changes (at most ``MAX_ITERATIONS`` passes).

    The result must parse: with :mod:`ast` when the input did (so it also compiles
    on this interpreter), else with libcst. A fix whose output does not parse is
    dropped and reported, and the other fixes of that pass are kept.
    """
    parses = python_parses if python_parses(text) else _cst_parses
    outcome = FixOutcome(text=text)
    rejected: set[tuple] = set()
    withheld: list[DroppedFix] = []
    while True:
        linted = lint(outcome.text)
        withheld = _withheld(linted, unsafe)  # of the last text linted: the final one
        diags = [d for d in linted if is_applicable(d, unsafe)]
        diags = [d for d in diags if _key(d) not in rejected]
        if not diags:
            break
        if outcome.iterations == MAX_ITERATIONS:
            outcome.converged = False
            break
        outcome.iterations += 1
        by_fix = {id(d.fix): d for d in diags}
        fixes: list[Fix] = [d.fix for d in diags if d.fix is not None]
        new_text, applied = apply_fixes(outcome.text, fixes)
        dropped_before = len(outcome.dropped)
        if not parses(new_text):
            # Keep each fix that still parses together with the ones kept before it;
            # drop (and report) the others. The kept set parses by construction.
            kept: list[Fix] = []
            for fix in applied:
                candidate, _ = apply_fixes(outcome.text, [*kept, fix])
                if parses(candidate):
                    kept.append(fix)
                    continue
                diag = by_fix[id(fix)]
                rejected.add(_key(diag))
                outcome.dropped.append(
                    DroppedFix(
                        diag.code,
                        diag.start.row,
                        diag.start.column,
                        "the fixed code would not parse",
                    )
                )
            new_text, applied = apply_fixes(outcome.text, kept)
        if new_text == outcome.text:
            if len(outcome.dropped) > dropped_before:
                continue  # every fix of this pass was dropped: lint again without them
            break  # the fixes change nothing: stop rather than loop
        for fix in applied:
            diag = by_fix[id(fix)]
            outcome.applied[diag.code] = outcome.applied.get(diag.code, 0) + 1
            outcome.applied_messages.append(
                (diag.code, diag.start.row, diag.start.column, fix.message)
            )
        outcome.text = new_text
    outcome.dropped.extend(withheld)
    return outcome
