"""Shared queries of the JAX2xx rules (Python control flow on traced values): the
truth-tested leaves of a condition, the static hint, and the :class:`TracerQueries` mixin."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import libcst as cst

from jaxlint.analysis.tracing import Val
from jaxlint.analysis.transforms import TRANSFORMS

if TYPE_CHECKING:
    from jaxlint.engine import FileContext

PROBE = "jaxlint probe compile FILE.py:FUNC"


def truth_leaves(expr: cst.BaseExpression) -> Iterator[cst.BaseExpression]:
    """The expressions whose truth value Python computes when ``expr`` is tested."""
    if isinstance(expr, cst.BooleanOperation):
        yield from truth_leaves(expr.left)
        yield from truth_leaves(expr.right)
    elif isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Not):
        yield from truth_leaves(expr.expression)
    else:
        yield expr


def _is_none(expr: cst.BaseExpression) -> bool:
    return isinstance(expr, cst.Name) and expr.value == "None"


def short(text: str, limit: int = 40) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def static_hint(val: Val) -> str:
    """How to make the value static, in the user's names."""
    origin = val.origin
    if origin is not None and origin.func is not None:
        fn = origin.func
        if (
            origin.role == f"parameter of `{fn.name}`"
            and fn.caller is None
            and any(t in TRANSFORMS and TRANSFORMS[t].has_static_args for t in fn.transforms)
            and origin.name in fn.param_levels
        ):
            return f"mark it static with static_argnames=('{origin.name}',)"
    return "make it a Python value known at trace time (a static argument, a shape)"


class TracerQueries:
    """Common queries of the JAX2xx rules (a mixin, not a rule: it does not subclass Rule)."""

    ctx: FileContext

    def abstract(self, expr: cst.CSTNode) -> Val | None:
        """The value of ``expr`` when Python cannot know it while tracing."""
        trace = self.ctx.trace
        val = trace.value(expr)
        if val is None or not trace.is_abstract(val, expr):
            return None
        return val

    def truth_tested(self, leaf: cst.BaseExpression) -> Val | None:
        """``bool(leaf)`` raises: ``leaf`` is definitely one traced array.

        A Python container (``if params:``) or a pytree parameter that may be a dict
        or ``None`` has a static truth value: only array results (comparisons,
        arithmetic, ``jnp`` calls, array methods, array-annotated parameters) count.
        """
        if isinstance(leaf, cst.Comparison) and (
            _is_none(leaf.left) or any(_is_none(c.comparator) for c in leaf.comparisons)
        ):
            return None
        val = self.abstract(leaf)
        if val is None or val.container or not val.computed:
            return None
        return val

    def once(self, node: cst.CSTNode) -> bool:
        """True the first time it is asked about ``node``."""
        reported: set[int] = self.__dict__.setdefault("_reported", set())
        if id(node) in reported:
            return False
        reported.add(id(node))
        return True

    def why(self, val: Val) -> object:
        return self.ctx.trace.why(val)
