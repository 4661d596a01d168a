"""The autofix machinery: text edits, conflicts, the fix loop, and safe spellings."""

from jaxlint.fixers.edits import apply_fixes, edit_text
from jaxlint.fixers.fixpoint import FixOutcome, fix_text
from jaxlint.fixers.spelling import spell

__all__ = ["FixOutcome", "apply_fixes", "edit_text", "fix_text", "spell"]
