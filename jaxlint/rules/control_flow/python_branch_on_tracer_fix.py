"""JAX201's fix: ``y = a if c else b`` and a two-branch ``if`` assigning one name become
``y = jnp.where(c, a, b)`` (a mixin of ``PythonBranchOnTracer``, which holds ``ctx``
and ``_single_assign``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from jaxlint.fixers.spelling import spell
from jaxlint.rules.base import FixOp, ReplaceNode, short

if TYPE_CHECKING:
    from jaxlint.engine import FileContext


class BranchFixes:
    ctx: FileContext
    _single_assign: dict[int, cst.Assign]

    def _where(self, at: cst.CSTNode, test: cst.BaseExpression, a, b):  # type: ignore[no-untyped-def]
        return _where(self.ctx, at, test, a, b)

    def _ifexp_fix(self, node: cst.IfExp):  # type: ignore[no-untyped-def]
        assign = self._single_assign.get(id(node))
        if assign is None:
            return None

        def make() -> tuple[list[FixOp], str] | None:
            got = self._where(node, node.test, node.body, node.orelse)
            if got is None:
                return None
            text, ops = got
            return [ReplaceNode(node, text), *ops], f"Replace with `{short(text, 60)}`"

        return make

    def _if_fix(self, node: cst.If):  # type: ignore[no-untyped-def]
        if type(node.orelse) is not cst.Else:
            return None
        then = _only_assign(node.body)
        other = _only_assign(node.orelse.body)
        if then is None or other is None:
            return None
        target = then.targets[0].target
        if not isinstance(target, cst.Name) or self.ctx.code(other.targets[0].target) != (
            target.value
        ):
            return None
        if "#" in self.ctx.code(node.with_changes(leading_lines=())):
            return None  # a comment inside would be lost

        def make() -> tuple[list[FixOp], str] | None:
            got = self._where(node.test, node.test, then.value, other.value)
            if got is None:
                return None
            text, ops = got
            line = f"{target.value} = {text}"
            return [ReplaceNode(node, line), *ops], f"Replace with `{short(line, 60)}`"

        return make


def _selectable(ctx: FileContext, expr: cst.BaseExpression) -> bool:
    """``expr`` can be a branch of ``jnp.where``: an array or a number."""
    if isinstance(expr, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString)):
        return False
    if isinstance(expr, (cst.Lambda, cst.Dict, cst.Set, cst.Tuple, cst.List)):
        return False
    if isinstance(expr, (cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)):
        return False
    if isinstance(expr, cst.Name) and expr.value in ("None", "True", "False"):
        return expr.value != "None"
    val = ctx.trace.value(expr)
    return val is not None and not val.container


def _only_assign(block: cst.BaseSuite) -> cst.Assign | None:
    if not isinstance(block, cst.IndentedBlock) or len(block.body) != 1:
        return None
    line = block.body[0]
    if not isinstance(line, cst.SimpleStatementLine) or len(line.body) != 1:
        return None
    stmt = line.body[0]
    if isinstance(stmt, cst.Assign) and len(stmt.targets) == 1:
        return stmt
    return None


def _where(ctx: FileContext, at: cst.CSTNode, test: cst.BaseExpression, a, b):  # type: ignore[no-untyped-def]
    """``jnp.where(test, a, b)`` and its imports, when both sides are cheap and pure."""
    if not (_selectable(ctx, a) and _selectable(ctx, b)):
        return None
    spelled = spell(ctx.model, "jax.numpy.where", at)
    if spelled is None:
        return None
    func, ops = spelled
    code = ctx.code
    return f"{func}({code(test).strip()}, {code(a).strip()}, {code(b).strip()})", ops
