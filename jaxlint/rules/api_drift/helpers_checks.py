"""JAX701 and JAX702's checks: attribute uses, calls and imports of the table's entries,
each reported by the rule whose status (deprecated or removed) the entry has."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

import libcst as cst

from jaxlint.analysis.arrays import ArrayEvidence
from jaxlint.diagnostics import Applicability
from jaxlint.rules.api_drift.helpers import DOTTED_RE, DriftBase, Plan, dotted_name, worst
from jaxlint.rules.api_drift.table import Drift
from jaxlint.rules.base import FixOp, ReplaceNode


class DriftChecks(DriftBase):
    """The checks JAX701 and JAX702 share; each keeps the entries of its own status."""

    _array_evidence: ArrayEvidence | None = None

    def _import_entry(self, qualname: str) -> bool:
        """An import of ``qualname`` is itself reported (by JAX701 or JAX702)."""
        target = self.ctx.target_jax
        drift = self._table.names.get(qualname) or self._table.module_entry(qualname)
        return drift is not None and drift.status(target) is not None

    def _via_reported_import(self, expr: cst.BaseExpression) -> bool:
        head = self.model.leftmost_name(expr)
        if head is None:
            return False
        bound = self.model.qualified_name(head)
        return bound is not None and self._import_entry(bound)

    def _cover_inner(self, node: cst.BaseExpression) -> None:
        inner = node.value if isinstance(node, cst.Attribute) else None
        while isinstance(inner, cst.Attribute):
            self._covered.add(id(inner))
            inner = inner.value

    def _advice(self, drift: Drift, shown: str | None) -> str:
        if shown is None:
            return drift.note
        return f"use `{shown}` ({drift.note})" if drift.note else f"use `{shown}`"

    def _report(
        self,
        node: cst.CSTNode,
        drift: Drift,
        used: str,
        shown: str | None,
        fix: Callable[[], Sequence[FixOp]] | None,
        applicability: Applicability | None,
        fix_message: str,
    ) -> None:
        self.report(
            node,
            used=used,
            status=drift.describe(self.ctx.target_jax),
            advice=self._advice(drift, shown),
            fix=fix if applicability is not None else None,
            applicability=applicability if fix is not None else None,
            fix_message=fix_message,
        )

    # -- attribute uses -------------------------------------------------------------------

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self._attr_of_value[id(node.value)] = node
        if id(node) in self._covered or self._import_depth:
            return
        if node.attr.value not in self._tails:
            return  # neither an entry (its qualified name ends with the attribute) nor a method
        qualname = self.model.qualified_name(node)
        if qualname is None:
            self._check_array_attribute(node)
            return
        drift = self._table.names.get(qualname)
        if drift is None:
            return
        if _assigned_to(node, self.model.parents.get(id(node))):
            return  # ``jax.random.KeyArray = jax.Array``: a shim defines the name, reads nothing
        self._cover_inner(node)
        if self._via_reported_import(node):
            return
        if drift.status(self.ctx.target_jax) is None:
            return
        applicability = self._applicability(drift)
        planned = self._use_ops(drift, node) if applicability is not None else None
        if id(node) in self._absorbed:
            planned = None  # the fix of the ``index_*`` call around it writes ``.at[i]``
        if drift.kind == "module":
            self._module_uses.setdefault(drift.old, []).append(
                applicability if planned is not None else None
            )
        elif (module := self._table.module_entry(qualname)) is not None:
            self._module_uses.setdefault(module.old, []).append(
                applicability if planned is not None else None
            )
        if not self._wanted(drift):
            return
        shown = planned[1] if planned is not None else drift.replacement
        self._report(
            node,
            drift,
            used=self.ctx.code(node),
            shown=shown,
            fix=(lambda: planned[0]) if planned is not None else None,
            applicability=applicability,
            fix_message=f"Replace with `{shown}`",
        )

    def _is_array(self, expr: cst.BaseExpression) -> bool:
        """``expr`` is known to be one JAX array (``jnp``/``lax``/``jax.random`` result,
        array arithmetic, a traced parameter annotated ``jax.Array``, ...: the JAX6xx
        rules' :class:`ArrayEvidence`). A value that is merely traced is not enough: a
        traced parameter may be any pytree (a ``flax.nnx.State``, a dict, an Equinox
        module), whose ``split``/``device``/``broadcast`` are its own methods, so the
        method is neither reported nor rewritten there (see the docs' Fix safety)."""
        if self._array_evidence is None:
            self._array_evidence = ArrayEvidence(self)  # type: ignore[arg-type]
        return self._array_evidence.of(expr) is not None

    def _check_array_attribute(self, node: cst.Attribute) -> None:
        drift = self._table.methods.get(node.attr.value)
        if drift is None or drift.call or not self._wanted(drift):
            return
        if not self._is_array(node.value):
            return
        applicability = self._applicability(drift)
        rendered = self._render(drift.template, node, obj=node.value) if drift.template else None
        planned = None
        if rendered is not None and applicability is not None:
            target: cst.CSTNode = node
            text = rendered[0]
            outer = self._attr_of_value.get(id(node))
            if outer is not None and outer.attr.value in drift.now_properties:
                call = self._call_of_func.get(id(outer))
                if call is None or call.args:
                    text = None  # ``obj.old.NAME`` not called as ``NAME()``: no fix
                else:
                    target, text = call, f"{text}.{outer.attr.value}"
            if text is not None:
                planned = [ReplaceNode(target, self._placed(text, target)), *rendered[1]]
        self._report(
            node,
            drift,
            used=f"x.{drift.attr}",
            shown=drift.replacement,
            fix=(lambda: planned) if planned is not None else None,
            applicability=applicability,
            fix_message=f"Replace with `{drift.replacement}`",
        )

    # -- calls: call templates, array methods, keywords, positional arguments, flags ---

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        self._call_of_func[id(func)] = node
        if type(func) is cst.Attribute and func.attr.value not in self._spelled:
            return  # ``x.m(...)``: no entry, keyword, positional, flag or method ends in ``m``
        qualname = self.model.call_name(node)
        if qualname is None:
            if type(func) is cst.Attribute:
                self._check_array_method(node, func)
            return
        drift = self._table.names.get(qualname)
        if drift is not None and drift.call and isinstance(func, cst.Attribute):
            # reported here, at the callee, so that the fix can rewrite the whole call
            self._covered.add(id(func))
            self._cover_inner(func)
            if not self._via_reported_import(func) and self._wanted(drift):
                self._report_call_template(node, func, drift)
        for kw_drift in self._table.keywords.get(qualname, ()):
            if self._wanted(kw_drift):
                self._check_keyword(node, kw_drift)
        pos_drift = self._table.positional.get(qualname)
        if pos_drift is not None and self._wanted(pos_drift):
            self._check_positional(node, pos_drift)
        if qualname == "jax.config.update":
            self._check_config_flag(node)

    def _report_call_template(self, node: cst.Call, func: cst.Attribute, drift: Drift) -> None:
        applicability = self._applicability(drift)
        planned = self._use_ops(drift, func) if applicability is not None else None
        if planned is not None and drift.template is not None and "[{" in drift.template:
            for arg in node.args:
                if self._ops_index(arg.value) is not None:
                    self._absorbed.add(id(arg.value.value))  # type: ignore[attr-defined]
        shown = planned[1] if planned is not None else drift.replacement
        self._report(
            func,
            drift,
            used=self.ctx.code(func),
            shown=shown,
            fix=(lambda: planned[0]) if planned is not None else None,
            applicability=applicability,
            fix_message=f"Replace with `{shown}`",
        )

    def _check_array_method(self, node: cst.Call, func: cst.Attribute) -> None:
        drift = self._table.methods.get(func.attr.value)
        if drift is None or not drift.call or not self._wanted(drift):
            return
        if not self._is_array(func.value):
            return
        self._covered.add(id(func))
        applicability = self._applicability(drift)
        planned = None
        if applicability is not None and drift.template and self._call_shape_ok(drift, node):
            rendered = self._render(drift.template, func, call=node, obj=func.value)
            if rendered is not None:
                text = self._placed(rendered[0], node)
                planned = [ReplaceNode(node, text), *rendered[1]]
        self._report(
            func,
            drift,
            used=f"x.{drift.attr}()",
            shown=drift.replacement,
            fix=(lambda: planned) if planned is not None else None,
            applicability=applicability,
            fix_message=f"Replace with `{drift.replacement}`",
        )

    def _check_keyword(self, node: cst.Call, drift: Drift) -> None:
        for arg in node.args:
            if arg.keyword is None or arg.keyword.value != drift.keyword:
                continue
            applicability = self._applicability(drift)
            ops: list[FixOp] | None = None
            new_kw: str | None = drift.replacement
            new_value: str | None = None
            if drift.value_map:
                mapped = drift.value_map.get(self.ctx.code(arg.value))
                if mapped is None:
                    new_kw = None
                else:
                    new_kw, _, new_value = mapped.partition("=")
            taken = {a.keyword.value for a in node.args if a.keyword is not None}
            if applicability is not None and new_kw is not None and new_kw not in taken:
                ops = [ReplaceNode(arg.keyword, new_kw)]
                if new_value is not None:
                    ops.append(ReplaceNode(arg.value, new_value))
            callee = self.ctx.code(node.func)
            shown = (
                f"{new_kw}=" if new_kw else (f"{drift.replacement}=" if drift.replacement else None)
            )
            self._report(
                arg,
                drift,
                used=f"{callee}({drift.keyword}=...)",
                shown=shown,
                fix=(lambda ops=ops: ops) if ops is not None else None,
                applicability=applicability,
                fix_message=f"Pass `{shown}` instead of `{drift.keyword}=`",
            )

    def _check_positional(self, node: cst.Call, drift: Drift) -> None:
        if any(a.star for a in node.args):
            return
        assert drift.max_positional is not None
        positional = [a for a in node.args if a.keyword is None]
        extra = positional[drift.max_positional :]
        if not extra:
            return
        names = drift.parameters[drift.max_positional : drift.max_positional + len(extra)]
        taken = {a.keyword.value for a in node.args if a.keyword is not None}
        applicability = self._applicability(drift)
        planned: list[FixOp] | None = None
        if applicability is not None and len(names) == len(extra) and not taken & set(names):
            planned = [
                ReplaceNode(a.value, f"{n}={self.ctx.code(a.value)}")
                for a, n in zip(extra, names, strict=True)
            ]
        self._report(
            extra[0].value,
            drift,
            used=f"{self.ctx.code(node.func)}(...) with {len(positional)} positional arguments",
            shown=", ".join(f"{n}=" for n in names) if names else None,
            fix=(lambda: planned) if planned is not None else None,
            applicability=applicability,
            fix_message="Pass the extra arguments by keyword",
        )

    def _check_config_flag(self, node: cst.Call) -> None:
        if not node.args or node.args[0].keyword is not None:
            return
        first = node.args[0].value
        if not isinstance(first, cst.SimpleString):
            return
        flag = first.evaluated_value
        drift = self._table.flags.get(flag) if isinstance(flag, str) else None
        if drift is None or not self._wanted(drift):
            return
        stmt = self._expr_stmt.get(id(node))
        applicability = self._applicability(drift)
        self._report(
            first,
            drift,
            used=f"jax.config.update({first.value}, ...)",
            shown=None,
            fix=(lambda: [ReplaceNode(stmt, "pass")]) if stmt is not None else None,
            applicability=applicability,
            fix_message="Delete the call",
        )

    # -- imports ---------------------------------------------------------------------------

    def leave_Import(self, node: cst.Import) -> None:
        self._import_depth -= 1

    def leave_ImportFrom(self, node: cst.ImportFrom) -> None:
        self._import_depth -= 1

    def visit_Import(self, node: cst.Import) -> None:
        self._import_depth += 1
        for alias in node.names:
            dotted = dotted_name(alias.name)
            if dotted is None:
                continue
            only_import = self._table.imports.get(dotted)
            if only_import is not None:
                if self._wanted(only_import):
                    self._pending.append(
                        functools.partial(
                            self._report_plain_import, node, alias, only_import, dotted
                        )
                    )
                continue
            drift = self._table.module_entry(dotted)
            if drift is None or not self._wanted(drift):
                continue
            local = alias.asname.name.value if alias.asname is not None else None  # type: ignore[union-attr]
            if local is not None and self.model.import_target(node, local) != dotted:
                continue
            self._pending.append(
                functools.partial(self._report_module_import, node, alias, drift, dotted, local)
            )

    def _bound_elsewhere(self, top: str, node: cst.Import, alias: cst.ImportAlias) -> bool:
        """``top`` is also bound at module level by another ``import top...``."""
        for other_alias in node.names:
            dotted = dotted_name(other_alias.name) or ""
            if (
                other_alias is not alias
                and other_alias.asname is None
                and (dotted == top or dotted.startswith(top + "."))
            ):
                return True
        for other, binding in self.model.imports:
            if (
                other is not node
                and binding.name == top
                and binding.qualname == top
                and isinstance(other, cst.Import)
                and self.model.scope_of_import.get(id(other)) is self.model.module_scope
            ):
                return True
        return False

    def _report_plain_import(
        self, node: cst.Import, alias: cst.ImportAlias, drift: Drift, dotted: str
    ) -> None:
        applicability = self._applicability(drift)
        replacement = drift.replacement
        fix = None
        if alias.asname is None and replacement is not None:
            fix = lambda: [ReplaceNode(alias.name, replacement)]  # noqa: E731
        self._report(
            alias,
            drift,
            used=f"import {dotted}",
            shown=f"import {replacement}" if replacement else None,
            fix=fix,
            applicability=applicability,
            fix_message=f"Import `{replacement}` instead",
        )

    def _report_module_import(
        self,
        node: cst.Import,
        alias: cst.ImportAlias,
        drift: Drift,
        dotted: str,
        local: str | None,
    ) -> None:
        applicability = self._applicability(drift)
        shown = drift.replacement
        fix: Callable[[], Sequence[FixOp]] | None = None
        app: Applicability | None = applicability
        if drift.replacement is not None and DOTTED_RE.match(drift.replacement):
            new = drift.replacement + dotted[len(drift.old) :]
            fix = lambda: [ReplaceNode(alias.name, new)]  # noqa: E731
        elif local is not None:
            plan = self._module_plan(node, dotted, local)
            if plan is not None:
                fix = lambda: self._remove_import_alias(node, alias, plan)  # noqa: E731
                app = plan.applicability
        else:
            # ``import jax.lib.xla_bridge`` binds ``jax``; its uses are reported one by one
            top = dotted.split(".")[0]

            def fix() -> list[FixOp]:
                uses = self._module_uses.get(drift.old, [])
                if any(u is None for u in uses):
                    return []
                if not self._bound_elsewhere(top, node, alias):
                    return [ReplaceNode(alias.name, top)]
                return self._remove_import_alias(node, alias, Plan([], [], Applicability.SAFE))

            uses = self._module_uses.get(drift.old, [])
            app = worst([u for u in uses if u is not None]) if uses else Applicability.SAFE
            if any(u is None for u in uses):
                fix = None  # a use without a fix keeps the module: nothing to rewrite
        self._report(
            alias,
            drift,
            used=dotted,
            shown=shown,
            fix=fix,
            applicability=app,
            fix_message=f"Import `{shown}`" if shown else "Rewrite the import and its uses",
        )

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        self._import_depth += 1
        if node.relative or type(node.names) is cst.ImportStar or node.module is None:
            return
        module = dotted_name(node.module)
        if module is None:
            return
        hits: list[tuple[cst.ImportAlias, Drift, str, bool]] = []
        for alias in node.names:
            if not isinstance(alias.name, cst.Name):
                continue
            full = f"{module}.{alias.name.value}"
            local = alias.name.value
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                local = alias.asname.name.value
            if self.model.import_target(node, local) != full:
                continue  # e.g. a try/except ImportError fallback binds it twice
            drift = self._table.names.get(full)
            via_module = False
            if drift is None:
                drift = self._table.module_entry(module)
                via_module = True
            if drift is None or not self._wanted(drift):
                continue
            hits.append((alias, drift, local, via_module))
        if hits:
            self._pending.append(functools.partial(self._report_from_import, node, module, hits))

    def _report_from_import(
        self,
        node: cst.ImportFrom,
        module: str,
        hits: list[tuple[cst.ImportAlias, Drift, str, bool]],
    ) -> None:
        plans: dict[int, Plan] = {}
        for alias, drift, local, via_module in hits:
            plan = self._from_import_plan(node, module, alias, drift, local, via_module)
            if plan is not None:
                plans[id(alias)] = plan
        groups: dict[Applicability, list[cst.ImportAlias]] = {}
        for alias, *_ in hits:
            if id(alias) in plans:
                groups.setdefault(plans[id(alias)].applicability, []).append(alias)
        for alias, drift, _local, _via_module in hits:
            plan = plans.get(id(alias))
            fix = None
            if plan is not None:
                group = groups[plan.applicability]
                fix = self._from_import_fix(node, group, plans)
            name = alias.name.value  # type: ignore[union-attr]
            used = f"{module}.{name}"
            self._report(
                alias,
                drift,
                used=used,
                shown=drift.replacement if drift.replacement else None,
                fix=fix,
                applicability=plan.applicability if plan is not None else None,
                fix_message=f"Rewrite the import of `{name}`"
                + (" and its uses" if plan is not None and plan.ops else ""),
            )


def _assigned_to(node: cst.Attribute, parent: cst.CSTNode | None) -> bool:
    """``node`` is the target of an assignment or a ``del`` (a compatibility shim that
    puts a removed name back, ``jax.random.KeyArray = jax.Array``): nothing reads the
    removed API there, and rewriting the target would assign to another name."""
    if type(parent) is cst.AssignTarget or type(parent) is cst.AnnAssign:
        return parent.target is node
    return type(parent) is cst.Del and parent.target is node
