"""Pmap's analysis: the helper methods and tables of the rule in `pmap.py`,
kept apart from its docs and examples (a mixin of the rule class)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import libcst as cst

from jaxlint.analysis.names import Binding
from jaxlint.diagnostics import Applicability
from jaxlint.rules.base import FixOp, ReplaceNode
from jaxlint.rules.sharding.helpers import (
    Facts,
    Rewrite,
    Speller,
    bare,
    has_comment,
    import_hits,
    is_reference,
    is_string,
    walk_all,
)

GUIDE = "https://docs.jax.dev/en/latest/migrate_pmap.html"


def _is_int(expr: cst.BaseExpression, value: int) -> bool:
    return isinstance(expr, cst.Integer) and expr.evaluated_value == value


def _is_none(expr: cst.BaseExpression) -> bool:
    return isinstance(expr, cst.Name) and expr.value == "None"


_PMAP_MAINTENANCE_SINCE = (0, 8, 0)
_PMAP_OPTIONS = frozenset({"axis_name", "in_axes", "out_axes", "donate_argnums"})


@dataclass
class _PmapCall:
    fun: cst.BaseExpression | None
    axis: cst.BaseExpression | None
    in_axes: cst.Tuple | None
    donate: cst.BaseExpression | None


class PmapChecks(Facts):
    """The analysis behind :class:`Pmap`."""

    # -- finding the patterns

    def _is_pmap(self, expr: cst.BaseExpression) -> bool:
        return self.model.qualified_name(expr) == "jax.pmap"

    def _at_import(self, skip: int = 0) -> bool:
        """The current code runs when the module is imported (inside no ``def``)."""
        inside = self.containers[: len(self.containers) - skip]
        return not any(isinstance(c, cst.FunctionDef) for c in inside)

    def _options(self, args: Sequence[cst.Arg], *, has_fun: bool) -> _PmapCall | str:
        if any(a.star for a in args):
            return "it passes `*args` or `**kwargs`"
        positional = [a.value for a in args if a.keyword is None]
        call = _PmapCall(None, None, None, None)
        if has_fun:
            if not positional:
                return "no function is passed positionally"
            call.fun = positional.pop(0)
            if any(
                self._is_pmap(n) for n in walk_all(call.fun) if isinstance(n, cst.BaseExpression)
            ):
                return "nested `pmap`"
        if positional:
            call.axis = positional.pop(0)
        if positional:
            return "more positional arguments than `fun, axis_name`"
        # an option with no `shard_map` spelling is the reason, wherever it stands
        for arg in args:
            if arg.keyword is not None and arg.keyword.value not in _PMAP_OPTIONS:
                return f"`{arg.keyword.value}`"
        for arg in args:
            if arg.keyword is None:
                continue
            key = arg.keyword.value
            if key == "axis_name":
                call.axis = arg.value
            elif key == "in_axes":
                if _is_int(arg.value, 0):
                    continue
                value = arg.value
                if not (
                    isinstance(value, cst.Tuple)
                    and value.elements
                    and all(
                        isinstance(el, cst.Element) and (_is_int(el.value, 0) or _is_none(el.value))
                        for el in value.elements
                    )
                ):
                    if not isinstance(value, (cst.Tuple, cst.Integer)):
                        return "`in_axes` not written out as 0 or a tuple of 0/None"
                    return "`in_axes` other than 0 or a tuple of 0/None"
                call.in_axes = value
            elif key == "out_axes":
                if not _is_int(arg.value, 0):
                    return "`out_axes` other than 0"
            else:
                call.donate = arg.value
        if call.axis is not None and _is_none(call.axis):
            call.axis = None
        if call.axis is not None and not (is_string(call.axis) or is_reference(call.axis)):
            return "an `axis_name` that is not a string or a variable"
        return call

    def _plan(
        self,
        ref: cst.BaseExpression,
        call: _PmapCall,
        *,
        replace: cst.CSTNode,
        decorator: cst.Decorator | None = None,
        partial: cst.BaseExpression | None = None,
    ) -> Rewrite | str:
        if has_comment(replace):
            return "comments inside the call"
        s = Speller(self, ref)
        code = self.ctx.code
        axis = code(bare(call.axis)) if call.axis is not None else "'i'"
        spec = s.partition_spec()
        mesh = (
            f"{s('jax.make_mesh')}(({s('jax.device_count')}(),), ({axis},),"
            f" axis_types=({s('jax.sharding.AxisType')}.Auto,))"
        )
        if call.in_axes is None:
            in_specs = f"{spec}({axis})"
        else:
            specs = [
                f"{spec}({axis})" if _is_int(el.value, 0) else f"{spec}()"
                for el in call.in_axes.elements
                if isinstance(el, cst.Element)
            ]
            in_specs = "(" + ", ".join(specs) + ("," if len(specs) == 1 else "") + ")"
        shard_kw = f"mesh={mesh}, in_specs={in_specs}, out_specs={spec}({axis}), check_vma=False"
        jit, shard_map, vmap = s("jax.jit"), s("jax.shard_map"), s("jax.vmap")
        in_axes = "" if call.in_axes is None else f", in_axes={code(call.in_axes)}"
        donate = "" if call.donate is None else f", donate_argnums={code(call.donate)}"
        if decorator is None:
            assert call.fun is not None
            text = f"{jit}({shard_map}({vmap}({code(call.fun)}{in_axes}), {shard_kw}){donate})"
        else:
            partial_text = code(partial) if partial is not None else None
            if (donate or in_axes) and partial_text is None:
                return "no `functools.partial` to spell the options"
            jit_line = f"{partial_text}({jit}{donate})" if donate else jit
            vmap_line = f"{partial_text}({vmap}{in_axes})" if in_axes else vmap
            at = self.ctx.module.default_newline + self.ctx.line_indent(decorator) + "@"
            text = at.join([jit_line, f"{shard_map}({shard_kw})", vmap_line])
        if not s.ok:
            return "the name `jax` is taken here"
        return Rewrite(replace, text, s.ops)

    # -- reporting

    def _report(
        self,
        node: cst.CSTNode,
        used: str,
        fix: Callable[[], list[FixOp]] | None,
        reason: str | None,
    ) -> None:
        self.report(
            node,
            used=used,
            detail="" if reason is None else f"; no automatic rewrite: {reason}",
            fix=fix,
            applicability=Applicability.UNSAFE if fix is not None else None,
            fix_message="Rewrite as `jax.jit(jax.shard_map(jax.vmap(f), ...))` over all devices",
        )

    def _plan_for(self, ref: cst.BaseExpression, fallback: str) -> Rewrite | str:
        """The rewrite of one pmap reference, or why there is none: its own options, then
        where the result runs and who calls it."""
        plan = self.rewrites.get(id(ref), fallback)
        if isinstance(plan, str):
            return plan
        node, at_import = self.sites[id(ref)]
        if isinstance(node, cst.Call):
            outer = self.callee_of.get(id(node))
            if outer is not None:  # ``jax.pmap(f)(x)``: the one call site is right here
                return self._call_site_reason("the pmapped function", outer) or plan
            target = self.bound_to.get(id(node))
            if target is None:
                return (
                    "the pmapped function is not bound to a name here (it is returned,"
                    " passed or stored), so its call sites (which may pass keyword"
                    " arguments) cannot be seen"
                )
            binding: cst.CSTNode = target
        else:
            assert isinstance(node, cst.FunctionDef)
            target, binding = node.name, node
            if id(node) in self.methods:
                return (
                    f"`{target.value}` is a method, so its call sites (which may pass keyword"
                    " arguments) cannot be seen"
                )
        if at_import:
            return (
                "it runs at import, and the mesh the rewrite builds (`jax.make_mesh`) would"
                " initialise the backend on import, before any `jax.distributed.initialize()`;"
                " move it into a function"
            )
        name = target.value
        built = self.ctx.positions[node].end
        for use in self.names.get(name, []):
            bindings = self.bindings_of(use)
            if any(b.node is use for b in bindings) or not any(b.node is binding for b in bindings):
                continue  # a binding (``f = ...``), or another ``f``
            where = self.ctx.positions[use].start
            if (where.line, where.column) < (built.line, built.column):
                continue  # ``f = jax.pmap(f)``: the old ``f``, or a use before it is built
            if self._rebinds(use, bindings):
                continue  # ``f = jax.jit(f)`` in another branch: that ``f`` is not ours
            call = self.callee_of.get(id(use))
            line = self.ctx.positions[use].start.line
            if call is None:
                return (
                    f"`{name}` is used as a value at line {line}, so its call sites (which may"
                    " pass keyword arguments) cannot be seen"
                )
            reason = self._call_site_reason(f"`{name}`", call)
            if reason is not None:
                return reason
        return plan

    def _rebinds(self, use: cst.Name, bindings: list[Binding]) -> bool:
        """``use`` is inside the value assigned to another binding of its own name."""
        at = self.ctx.positions[use].start
        for b in bindings:
            value = self.assigned.get(id(b.node)) if b.kind == "assign" else None
            if value is None:
                continue
            span = self.ctx.positions[value]
            if (
                (span.start.line, span.start.column)
                <= (at.line, at.column)
                < (
                    span.end.line,
                    span.end.column,
                )
            ):
                return True
        return False

    def _call_site_reason(self, what: str, call: cst.Call) -> str | None:
        for arg in call.args:
            if arg.keyword is not None or arg.star == "**":
                line = self.ctx.positions[call].start.line
                return (
                    f"{what} is called with keyword arguments at line {line}, which the"
                    " `shard_map`-wrapped function does not accept"
                )
        return None

    def _report_use(self, node: cst.Attribute) -> None:
        plan = self._plan_for(node, "`jax.pmap` is used as a value")
        if isinstance(plan, str):
            self._report(node, self.ctx.code(node), None, plan)
            return
        rewrite = plan
        self._report(
            node,
            self.ctx.code(node),
            lambda: [ReplaceNode(rewrite.node, rewrite.text), *rewrite.ops],
            None,
        )

    def import_from(self, node: cst.ImportFrom) -> None:
        if not self.enabled:
            return
        for alias, local, _ in import_hits(self, node, {"jax.pmap": 1}.get):
            self.imported.append((node, alias, local))
