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
    if type(expr) is cst.BooleanOperation:
        yield from truth_leaves(expr.left)
        yield from truth_leaves(expr.right)
    elif type(expr) is cst.UnaryOperation and type(expr.operator) is cst.Not:
        yield from truth_leaves(expr.expression)
    else:
        yield expr


def _is_none(expr: cst.BaseExpression) -> bool:
    return type(expr) is cst.Name and expr.value == "None"


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


_CATCH_ALL = frozenset({"builtins.TypeError", "builtins.Exception", "builtins.BaseException"})
BOOL_ERRORS = _CATCH_ALL | {
    "jax.errors.ConcretizationTypeError",
    "jax.core.ConcretizationTypeError",
    "jax.errors.TracerBoolConversionError",
}
"""What ``bool(tracer)`` raises on jax 0.12 (``TracerBoolConversionError``, a
``ConcretizationTypeError``, a ``TypeError``), and its bases."""
INT_ERRORS = _CATCH_ALL | {"jax.errors.TracerIntegerConversionError"}
"""What ``range(tracer)`` raises (``TracerIntegerConversionError``, a ``TypeError``)."""


class TracerQueries:
    """Common queries of the JAX2xx rules (a mixin, not a rule: it does not subclass Rule).

    A rule that sets ``guard_errors`` is silent in the body of a ``try`` whose handler
    catches one of them (or everything): ``try: if x > 0: ... except TypeError:`` tests
    at runtime whether ``x`` is concrete, as ``isinstance(x, jax.core.Tracer)`` would.
    """

    ctx: FileContext
    guard_errors: frozenset[str] = frozenset()

    def visit_Try(self, node: cst.Try) -> None:
        if not self.guard_errors:
            return
        model = self.ctx.model
        for handler in node.handlers:
            kind = handler.type
            kinds = [e.value for e in kind.elements] if isinstance(kind, cst.Tuple) else [kind]
            if kind is None or any(model.qualified_name(k) in self.guard_errors for k in kinds):  # type: ignore[arg-type]
                self.__dict__.setdefault("_guarded_bodies", set()).add(id(node.body))
                return

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        if id(node) in self.__dict__.get("_guarded_bodies", ()):
            self.__dict__.setdefault("_guards", []).append(node)

    def leave_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        guards = self.__dict__.get("_guards")
        if guards and guards[-1] is node:
            guards.pop()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        # a function defined in a ``try`` body runs later, outside it
        if self.guard_errors:
            self.__dict__.setdefault("_guards", []).append(None)

    def leave_FunctionDef(self, node: cst.FunctionDef) -> None:
        guards = self.__dict__.get("_guards")
        if self.guard_errors and guards and guards[-1] is None:
            guards.pop()

    def visit_Lambda(self, node: cst.Lambda) -> None:
        self.visit_FunctionDef(node)  # type: ignore[arg-type]

    def leave_Lambda(self, node: cst.Lambda) -> None:
        self.leave_FunctionDef(node)  # type: ignore[arg-type]

    def guarded(self) -> bool:
        """Inside a ``try`` body of the current function that catches the tracer's error."""
        guards = self.__dict__.get("_guards")
        return bool(guards) and guards[-1] is not None

    def abstract(self, expr: cst.CSTNode) -> Val | None:
        """The value of ``expr`` when Python cannot know it while tracing."""
        trace = self.ctx.trace
        val = trace.value(expr)
        if val is None or not trace.is_abstract(val, expr):
            return None
        if self.guard_errors and self.guarded():
            return None
        return val

    def truth_tested(self, leaf: cst.BaseExpression) -> Val | None:
        """``bool(leaf)`` raises: ``leaf`` is definitely one traced array.

        A Python container (``if params:``) or a pytree parameter that may be a dict
        or ``None`` has a static truth value: only array results (comparisons,
        arithmetic, ``jnp`` calls, array methods, array-annotated parameters) count.
        """
        if type(leaf) is cst.Comparison and (
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
