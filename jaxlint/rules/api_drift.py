"""JAX7xx: APIs that moved, were deprecated or were removed, and inert config calls.

JAX701 and JAX702 read one table, ``jaxlint/data/api_drift.toml`` (see
``api_drift_table.py``): a symbol is JAX701 when the target JAX deprecates it and
still has it, JAX702 once the target JAX has removed it. Attribute uses
(``jax.tree_map(...)``) are reported at each use; a name bound by an import
(``from jax import tree_map``, ``from jax.lib import xla_bridge``) is reported once,
at the import, whose fix rewrites the import together with the uses it needs.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

import libcst as cst

from jaxlint.analysis.walk import children
from jaxlint.diagnostics import Applicability
from jaxlint.fixers.spelling import spell
from jaxlint.rules.api_drift_table import EXPLICIT_IMPORTS, Drift, load_table, spelled_names
from jaxlint.rules.base import Examples, FixOp, ReplaceNode, RequireImport, Rule
from jaxlint.versions import format_version

if TYPE_CHECKING:
    from jaxlint.analysis.names import SemanticModel
    from jaxlint.engine import FileContext

_DOTTED_RE = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$")
_PLACEHOLDER_RE = re.compile(r"\{([^{}]+)\}")
_COMPAT_ERRORS = frozenset(
    {"builtins.AttributeError", "builtins.ImportError", "builtins.ModuleNotFoundError"}
)
_ORDER = {Applicability.SAFE: 0, Applicability.UNSAFE: 1, Applicability.DISPLAY_ONLY: 2}

# Expressions that bind tighter than any operator: a template that renders to one of
# these replaces an expression anywhere without parentheses.
_ATOMS = (
    cst.Name,
    cst.Attribute,
    cst.Call,
    cst.Subscript,
    cst.Integer,
    cst.Float,
    cst.Imaginary,
    cst.SimpleString,
    cst.ConcatenatedString,
    cst.FormattedString,
    cst.List,
    cst.Dict,
    cst.Set,
    cst.ListComp,
    cst.SetComp,
    cst.DictComp,
    cst.GeneratorExp,
)


def _worst(apps: Sequence[Applicability]) -> Applicability:
    return max(apps, key=lambda a: _ORDER[a], default=Applicability.SAFE)


def _dotted(expr: cst.BaseExpression) -> str | None:
    if isinstance(expr, cst.Name):
        return expr.value
    if isinstance(expr, cst.Attribute):
        base = _dotted(expr.value)
        return None if base is None else f"{base}.{expr.attr.value}"
    return None


@dataclass(frozen=True)
class _AddImport(ReplaceNode):
    """``import jax`` -> ``import jax, jax.extend``: loads ``module`` where no statement
    of the fix's own can (an import statement that a fix rewrites takes it instead)."""

    module: str = ""


@dataclass
class _Plan:
    """How one imported name is rewritten: new import statements plus edits of its uses."""

    statements: list[str]
    ops: list[FixOp]
    applicability: Applicability


_VALUE_SLOTS = frozenset({cst.Arg, cst.Element, cst.Assign, cst.AnnAssign, cst.Return, cst.Index})
"""Nodes whose ``value`` sits in a slot that needs no parentheses."""


class _DriftChecks:
    """The checks JAX701 and JAX702 share; each keeps the entries of its own status."""

    _STATUS: ClassVar[str]
    ctx: FileContext
    model: SemanticModel
    report: Callable[..., None]

    def __init__(self, ctx: FileContext) -> None:
        super().__init__(ctx)  # type: ignore[call-arg]
        self._table = load_table()
        self._covered: set[int] = set()
        self._names_index: dict[str, list[cst.Name]] | None = None
        self._free_slots_index: set[int] | None = None
        self._import_depth = 0
        self._call_of_func: dict[int, cst.Call] = {}
        self._attr_of_value: dict[int, cst.Attribute] = {}
        self._expr_stmt: dict[int, cst.Expr] = {}
        self._module_uses: dict[str, list[Applicability | None]] = {}
        """Per module entry: the fix applicability of each attribute use reported in it."""
        self._compat_depth = 0
        self._compat_nodes: set[int] = set()
        self._alone_at_top: dict[int, cst.SimpleStatementLine] = {}
        """Module-level statements alone on their line (which a fix may empty)."""
        self._pending: list[Callable[[], None]] = []
        """Import reports, made once the whole file (every use of the names) has been seen."""

    def visit_Module(self, node: cst.Module) -> None:
        if len(node.body) < 2:
            return
        for line in node.body:
            if (
                isinstance(line, cst.SimpleStatementLine)
                and len(line.body) == 1
                and line.trailing_whitespace.comment is None
            ):
                self._alone_at_top[id(line.body[0])] = line

    def leave_Module(self, node: cst.Module) -> None:
        for report in self._pending:
            report()

    # -- structure the fixes need: built from the model's events when a fix first asks
    # (findings are rare; recording it during the walk cost a call per name) -------------

    @property
    def _names(self) -> dict[str, list[cst.Name]]:
        """Every ``Name`` outside import statements, by its text, in source order."""
        if self._names_index is None:
            self._index_structure()
        assert self._names_index is not None
        return self._names_index

    @property
    def _free_slots(self) -> set[int]:
        """ids of expressions in slots that need no parentheses (arguments, elements,
        right-hand sides, returns, subscripts)."""
        if self._free_slots_index is None:
            self._index_structure()
        assert self._free_slots_index is not None
        return self._free_slots_index

    def _index_structure(self) -> None:
        names: dict[str, list[cst.Name]] = {}
        slots: set[int] = set()
        depth = 0
        for node, entering in self.model.events:
            cls = type(node)
            if cls is cst.Import or cls is cst.ImportFrom:
                depth += 1 if entering else -1
            elif not entering:
                continue
            elif cls is cst.Name:
                if depth == 0:
                    names.setdefault(node.value, []).append(node)
            elif cls in _VALUE_SLOTS:
                value = node.value
                if value is not None and not (cls is cst.Arg and node.star):
                    slots.add(id(value))
            elif cls is cst.DictElement:
                slots.update((id(node.key), id(node.value)))
        self._names_index, self._free_slots_index = names, slots

    def visit_Expr(self, node: cst.Expr) -> None:
        self._expr_stmt[id(node.value)] = node

    # -- what is reported where ---------------------------------------------------------

    def _wanted(self, drift: Drift) -> bool:
        if self._compat_depth:
            return False  # version-compatibility code: the old spelling is a fallback
        return drift.status(self.ctx.target_jax) == self._STATUS

    # -- version-compatibility code: ``if hasattr(jax, "typeof"): ... else: <old>``,
    # ``try: <old> except AttributeError: ...`` and version comparisons guard the old
    # spelling, which then never runs on a JAX that lacks it --------------------------------

    def _is_version_test(self, test: cst.BaseExpression) -> bool:
        stack: list[cst.CSTNode] = [test]
        while stack:
            node = stack.pop()
            if isinstance(node, cst.Call) and node.args:
                if self.model.call_name(node) in ("builtins.hasattr", "builtins.getattr"):
                    target = self.model.qualified_name(node.args[0].value) or ""
                    if target == "jax" or target.startswith("jax."):
                        return True
            if isinstance(node, cst.Name) and "version" in node.value.lower():
                return True
            if isinstance(node, cst.Attribute) and "version" in node.attr.value.lower():
                return True
            stack.extend(children(node))
        return False

    def _enter_guard(self, node: cst.CSTNode, guarded: bool) -> None:
        if guarded:
            self._compat_nodes.add(id(node))
            self._compat_depth += 1

    def _leave_guard(self, node: cst.CSTNode) -> None:
        if id(node) in self._compat_nodes:
            self._compat_depth -= 1

    def visit_If(self, node: cst.If) -> None:
        self._enter_guard(node, self._is_version_test(node.test))

    def leave_If(self, node: cst.If) -> None:
        self._leave_guard(node)

    def visit_IfExp(self, node: cst.IfExp) -> None:
        self._enter_guard(node, self._is_version_test(node.test))

    def leave_IfExp(self, node: cst.IfExp) -> None:
        self._leave_guard(node)

    def visit_Try(self, node: cst.Try) -> None:
        caught: set[str] = set()
        for handler in node.handlers:
            if handler.type is None:
                continue
            types = (
                [e.value for e in handler.type.elements]
                if isinstance(handler.type, cst.Tuple)
                else [handler.type]
            )
            caught.update(self.model.qualified_name(t) or "" for t in types)
        self._enter_guard(node, bool(caught & _COMPAT_ERRORS))

    def leave_Try(self, node: cst.Try) -> None:
        self._leave_guard(node)

    def _applicability(self, drift: Drift) -> Applicability | None:
        return drift.applicability(self.ctx.target_jax)

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

    # -- spelling replacements ------------------------------------------------------------

    def _imports_module(self, module: str) -> bool:
        """``module`` is imported at module level (so its attributes are loaded)."""
        for node, _binding in self.model.imports:
            if self.model.scope_of_import.get(id(node)) is not self.model.module_scope:
                continue
            if isinstance(node, cst.Import):
                for alias in node.names:
                    dotted = _dotted(alias.name) or ""
                    if dotted == module or dotted.startswith(module + "."):
                        return True
            elif isinstance(node, cst.ImportFrom) and node.module is not None:
                mod = _dotted(node.module) or ""
                if not node.relative and (mod == module or mod.startswith(module + ".")):
                    return True
        return False

    def _spell(self, qualname: str, at: cst.CSTNode) -> tuple[str, list[FixOp]] | None:
        """Text for ``qualname`` at ``at`` plus the imports it needs (``import jax.extend``
        for the subpackages ``import jax`` does not load)."""
        spelled = spell(self.model, qualname, at)
        if spelled is None:
            return None
        text, ops = spelled
        need = next(
            (m for m in EXPLICIT_IMPORTS if qualname == m or qualname.startswith(m + ".")), None
        )
        if need is None or self._imports_module(need):
            return spelled
        top = need.split(".")[0]
        if ops:  # spelled in full from the top package, which nothing binds here
            return text, [RequireImport(need)]
        head = text.split(".")[0]
        bound = self.model.resolve_name(head, self.model.module_scope)
        if bound is not None and (bound == need or bound.startswith(need + ".")):
            return spelled
        if self.model.resolve_name(top, self.model.module_scope) is None:
            return text, [RequireImport(need)]
        candidates: list[tuple[str, cst.ImportAlias]] = []
        for node, binding in self.model.imports:
            if (
                binding.name == top
                and isinstance(node, cst.Import)
                and self.model.scope_of_import.get(id(node)) is self.model.module_scope
            ):
                for alias in node.names:
                    dotted = _dotted(alias.name) or ""
                    if alias.asname is None and (dotted == top or dotted.startswith(top + ".")):
                        candidates.append((dotted, alias))
        if not candidates:
            return None
        # ``import jax`` itself if there is one, else the first ``import jax.<sub>``
        dotted, alias = min(candidates, key=lambda c: (c[0] != top,))
        return text, [_AddImport(alias.name, f"{dotted}, {need}", need)]

    def _render(
        self,
        template: str,
        at: cst.CSTNode,
        call: cst.Call | None = None,
        obj: cst.BaseExpression | None = None,
    ) -> tuple[str, list[FixOp]] | None:
        ops: list[FixOp] = []
        failed = False
        positional = [a for a in call.args if a.keyword is None] if call is not None else []

        def sub(match: re.Match[str]) -> str:
            nonlocal failed
            key = match.group(1)
            if key.isdigit():
                if int(key) >= len(positional):
                    failed = True
                    return ""
                return self.ctx.code(positional[int(key)].value)
            if key == "args":
                assert call is not None
                return ", ".join(
                    self.ctx.code(a.with_changes(comma=cst.MaybeSentinel.DEFAULT))
                    for a in call.args
                )
            if key == "obj":
                assert obj is not None
                return self.ctx.code(obj)
            spelled = self._spell(key, at)
            if spelled is None:
                failed = True
                return ""
            ops.extend(op for op in spelled[1] if op not in ops)
            return spelled[0]

        text = _PLACEHOLDER_RE.sub(sub, template)
        if failed:
            return None
        return text, ops

    def _placed(self, text: str, replaced: cst.CSTNode) -> str:
        """``text`` in parentheses unless it is atomic or fills a slot that needs none."""
        if id(replaced) in self._free_slots:
            return text
        try:
            expr = cst.parse_expression(text)
        except cst.ParserSyntaxError:
            return f"({text})"
        if isinstance(expr, _ATOMS) and not expr.lpar:
            return text
        if expr.lpar:
            return text
        return f"({text})"

    def _call_shape_ok(self, drift: Drift, call: cst.Call) -> bool:
        if any(a.star for a in call.args):
            return False
        if drift.arity is None or drift.arity < 0:
            return True
        return len(call.args) == drift.arity and all(a.keyword is None for a in call.args)

    def _use_ops(self, drift: Drift, node: cst.BaseExpression) -> tuple[list[FixOp], str] | None:
        """Edits that replace the use ``node`` of ``drift.old`` (and what it becomes)."""
        if drift.template is not None and drift.call:
            call = self._call_of_func.get(id(node))
            if call is None or not self._call_shape_ok(drift, call):
                return None
            rendered = self._render(drift.template, node, call=call)
            if rendered is None:
                return None
            text = self._placed(rendered[0], call)
            return [ReplaceNode(call, text), *rendered[1]], text
        if drift.template is not None:
            rendered = self._render(drift.template, node)
            if rendered is None:
                return None
            text = self._placed(rendered[0], node)
            return [ReplaceNode(node, text), *rendered[1]], text
        if drift.replacement is None or not _DOTTED_RE.match(drift.replacement):
            return None
        spelled = self._spell(drift.replacement, node)
        if spelled is None:
            return None
        return [ReplaceNode(node, spelled[0]), *spelled[1]], spelled[0]

    # -- attribute uses -------------------------------------------------------------------

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self._attr_of_value[id(node.value)] = node
        if id(node) in self._covered or self._import_depth:
            return
        qualname = self.model.qualified_name(node)
        if qualname is None:
            self._check_array_attribute(node)
            return
        drift = self._table.names.get(qualname)
        if drift is None:
            return
        self._cover_inner(node)
        if self._via_reported_import(node):
            return
        if drift.status(self.ctx.target_jax) is None:
            return
        applicability = self._applicability(drift)
        planned = self._use_ops(drift, node) if applicability is not None else None
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
        val = self.ctx.trace.value(expr)
        return val is not None and val.array

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
            text = self._placed(rendered[0], node)
            planned = [ReplaceNode(node, text), *rendered[1]]
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
        qualname = self.model.call_name(node)
        if qualname is None:
            if isinstance(func, cst.Attribute):
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
            dotted = _dotted(alias.name)
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
            dotted = _dotted(other_alias.name) or ""
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
        if drift.replacement is not None and _DOTTED_RE.match(drift.replacement):
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
                return self._remove_import_alias(node, alias, _Plan([], [], Applicability.SAFE))

            uses = self._module_uses.get(drift.old, [])
            app = _worst([u for u in uses if u is not None]) if uses else Applicability.SAFE
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
        if node.relative or isinstance(node.names, cst.ImportStar) or node.module is None:
            return
        module = _dotted(node.module)
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
        plans: dict[int, _Plan] = {}
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

    def _from_import_plan(
        self,
        node: cst.ImportFrom,
        module: str,
        alias: cst.ImportAlias,
        drift: Drift,
        local: str,
        via_module: bool,
    ) -> _Plan | None:
        applicability = self._applicability(drift)
        name = alias.name.value  # type: ignore[union-attr]
        replacement = drift.replacement
        plain = replacement is not None and drift.template is None and _DOTTED_RE.match(replacement)
        if via_module:
            if not plain or applicability is None:
                return None
            assert replacement is not None
            new_module = replacement + module[len(drift.old) :]
            return _Plan([_from_statement(new_module, name, local)], [], applicability)
        if plain and applicability is not None:
            assert replacement is not None
            new_mod, _, new_name = replacement.rpartition(".")
            if not new_mod:
                return None
            return _Plan([_from_statement(new_mod, new_name, local)], [], applicability)
        if drift.template is not None and applicability is not None:
            return self._uses_plan(
                node, local, lambda use: self._use_ops(drift, use), applicability
            )
        if drift.kind == "module" and replacement is None:
            return self._module_plan(node, drift.old, local)
        return None

    def _uses_of(self, import_node: cst.CSTNode, local: str) -> list[cst.Name]:
        out = []
        for name in self._names.get(local, []):
            found = self.model.lookup(local, self.model.scope_for(name))
            if found is not None and any(b.node is import_node for b in found[1]):
                out.append(name)
        return out

    def _uses_plan(
        self,
        import_node: cst.CSTNode,
        local: str,
        rewrite: Callable[[cst.Name], tuple[list[FixOp], str] | None],
        applicability: Applicability,
    ) -> _Plan | None:
        ops: list[FixOp] = []
        for use in self._uses_of(import_node, local):
            done = rewrite(use)
            if done is None:
                return None
            ops.extend(op for op in done[0] if op not in ops)
        return _Plan([], ops, applicability)

    def _module_plan(self, import_node: cst.CSTNode, module: str, local: str) -> _Plan | None:
        """Uses ``local.member`` of a removed module rewritten to each member's replacement."""
        apps: list[Applicability] = []

        def rewrite(use: cst.Name) -> tuple[list[FixOp], str] | None:
            attr = self._attr_of_value.get(id(use))
            if attr is None:
                return None
            member = self._table.names.get(f"{module}.{attr.attr.value}")
            if member is None:
                return None
            app = self._applicability(member)
            if app is None:
                return None
            apps.append(app)
            return self._use_ops(member, attr)

        plan = self._uses_plan(import_node, local, rewrite, Applicability.SAFE)
        if plan is None:
            return None
        plan.applicability = _worst(apps)
        return plan

    def _from_import_fix(
        self, node: cst.ImportFrom, moved: list[cst.ImportAlias], plans: dict[int, _Plan]
    ) -> Callable[[], Sequence[FixOp]]:
        def fix() -> list[FixOp]:
            assert not isinstance(node.names, cst.ImportStar)
            kept = [a for a in node.names if a not in moved]
            statements: list[str] = []
            if kept:
                if node.lpar is None:
                    kept[-1] = kept[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
                statements.append(self.ctx.code(node.with_changes(names=kept)))
            ops: list[FixOp] = []
            for alias in moved:
                plan = plans[id(alias)]
                statements.extend(plan.statements)
                ops.extend(op for op in plan.ops if op not in ops)
            return self._rewrite_statement(node, statements, ops)

        return fix

    def _remove_import_alias(self, node: cst.Import, alias: cst.ImportAlias, plan: _Plan):
        kept = [a for a in node.names if a is not alias]
        statements: list[str] = []
        if kept:
            kept[-1] = kept[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
            statements.append(self.ctx.code(node.with_changes(names=kept)))
        statements.extend(plan.statements)
        return self._rewrite_statement(node, statements, plan.ops)

    def _rewrite_statement(
        self, node: cst.CSTNode, statements: list[str], ops: Sequence[FixOp]
    ) -> list[FixOp]:
        """Replace the import ``node`` by ``statements``; the imports the rewritten uses
        need go in its place rather than at the top of the file."""
        rest: list[FixOp] = []
        for op in ops:
            if isinstance(op, (RequireImport, _AddImport)):
                line = f"import {op.module}"
                if line not in statements:
                    statements.append(line)
            else:
                rest.append(op)
        return [self._replace_statement(node, statements), *rest]

    def _replace_statement(self, node: cst.CSTNode, statements: list[str]) -> ReplaceNode:
        if not statements:
            line = self._alone_at_top.get(id(node))
            if line is not None:
                return ReplaceNode(line, "")  # leaves an empty line
            return ReplaceNode(node, "pass")
        before = self.ctx.line_prefix(node)
        if before.strip():
            separator = "; "  # not first on its line (``if x: from jax import ...``)
        else:
            separator = self.ctx.module.default_newline + self.ctx.line_indent(node)
        return ReplaceNode(node, separator.join(statements))


def _from_statement(module: str, name: str, local: str) -> str:
    if local == name:
        return f"from {module} import {name}"
    return f"from {module} import {name} as {local}"


# -- the rules ----------------------------------------------------------------------------


def _table_markdown(status: str) -> str:
    """The table's entries as markdown, for the docs (``status``: which column comes first)."""
    rows = [
        "| Symbol | Deprecated | Removed | Use instead | Fix |",
        "|---|---|---|---|---|",
    ]
    for d in load_table().entries:
        if status == "deprecated" and d.removed_in is not None:
            continue
        if status == "removed" and d.removed_in is None:
            continue
        symbol = d.old
        if d.kind == "keyword":
            symbol = f"{d.old}({d.keyword}=)"
        elif d.kind == "positional":
            symbol = f"{d.old} with over {d.max_positional} positional arguments"
        elif d.kind == "method":
            symbol = f"x.{d.attr}" + ("()" if d.call else "")
        elif d.kind == "config-flag":
            symbol = f'jax.config.update("{d.old}", ...)'
        elif d.kind == "import":
            symbol = f"import {d.old}"
        dep = format_version(d.deprecated_in) if d.deprecated_in else "–"
        rem = format_version(d.removed_in) if d.removed_in else "–"
        use = f"`{d.replacement}`" if d.replacement else d.note.replace("|", "\\|")
        if d.kind == "keyword" and d.replacement:
            use = f"`{d.replacement}=`"
        rows.append(f"| `{symbol}` | {dep} | {rem} | {use} | {d.fix} |")
    return "\n".join(rows)


_TABLE_NOTE = """\
The table lives in `jaxlint/data/api_drift.toml` (one entry per symbol: old name,
deprecated-in, removed-in, replacement, fix safety, note) and is checked against
the installed JAX by `tests/test_api_drift_table.py`.
"""
_EXAMPLES_JAX701 = Examples(Path(__file__).parent / "api_drift" / "deprecated_api.py")


class DeprecatedApi(_DriftChecks, Rule):
    code = "JAX701"
    required_names = spelled_names()
    name = "deprecated-api"
    message = "`{used}` is {status}; {advice}"
    fix_availability = "sometimes"
    probe = "jaxlint probe env"
    _STATUS = "deprecated"
    docs = (
        """\
## What it does
Flags JAX APIs that the target JAX version (`target-jax`, by default the installed
JAX) deprecates but still provides: the top-level `jax.host_id`/`jax.host_count`/
`jax.host_ids` aliases, `jax.scipy.special.lpmn`, `jax.lax.psend`/`precv`, keyword
aliases such as `jnp.linalg.matrix_rank(tol=)` and `jax.jit(device=)`, and, for an
older `target-jax`, every symbol of JAX702's table in the releases between its
deprecation and its removal (`jax.tree_map` on JAX 0.4.26-0.5.x, ...).
Attribute uses are reported at each use; a name imported with
`from ... import ...` is reported once, at its import.

## Why is this bad
A deprecated API warns today (`DeprecationWarning`, or a `UserWarning` for the
`host_*` aliases) and raises `AttributeError`, `ImportError` or `TypeError` in a
later release: JAX removes deprecated symbols after about three months.

## Example
```python
import jax

if jax.host_id() == 0:
    print("main process")
```

## Use instead
```python
import jax

if jax.process_index() == 0:
    print("main process")
```

## Fix safety
Per entry, as the table says: renames to the same function (`host_id` ->
`process_index`, `tol=` -> `rtol=`, `jax.tree_map` -> `jax.tree.map`) are safe;
replacements that differ in a corner (`jax.random.KeyArray` -> `jax.Array` outside
annotations) are unsafe; entries without a mechanical replacement have no fix and
the message says what to do. An import is rewritten to import the replacement
under the old local name, so the rest of the file is untouched.

## Verify at runtime
`jaxlint probe env` prints the installed JAX version; run the flagged line with
`python -W error::DeprecationWarning` to see JAX's own warning.

## The deprecated symbols in the table
"""
        + _TABLE_NOTE
        + "\n"
        + _table_markdown("deprecated")
        + "\n"
    )
    VALID = [
        _EXAMPLES_JAX701.valid("valid_out_jax_tree_map_f_tree.py", target_jax="0.5.0"),
        _EXAMPLES_JAX701.valid("valid_out_jax_tree_map_f_t.py", target_jax="0.4.20"),
        _EXAMPLES_JAX701.valid(
            "valid_removed_jax702_s_finding.py", note="removed: JAX702's finding"
        ),
        _EXAMPLES_JAX701.valid("valid_idx_jax_process_index.py", runs=True),
        _EXAMPLES_JAX701.valid("valid_out_optax_tree_map_f_t.py"),
        _EXAMPLES_JAX701.valid(
            "valid_parameter_shadows_module.py", note="parameter shadows the module"
        ),
        _EXAMPLES_JAX701.valid(
            "valid_version_compat_import_two_bindings.py",
            target_jax="0.5.0",
            note="version-compat import: two bindings, ambiguous",
        ),
        _EXAMPLES_JAX701.valid("valid_fn_getattr_jax_host_id_none.py"),
        _EXAMPLES_JAX701.valid("valid_r_jnp_linalg_matrix_rank_jnp.py", runs=True),
        _EXAMPLES_JAX701.valid("valid_r_jnp_linalg_matrix_rank_jnp_2.py"),
        _EXAMPLES_JAX701.valid("valid_f_jax_jit_lambda_x_x.py"),
    ]
    INVALID = [
        _EXAMPLES_JAX701.invalid(
            "invalid_if_jax_host_id_0.py",
            line=2,
            column=4,
            message_contains="deprecated since JAX 0.2.13",
        ),
        _EXAMPLES_JAX701.invalid(
            "invalid_out_jax_tree_map_f_t.py",
            target_jax="0.5.0",
            message_contains="deprecated since JAX 0.4.26",
        ),
        _EXAMPLES_JAX701.invalid(
            "invalid_jax_import_tree_map.py", target_jax="0.5.0", count=1, line=1
        ),
        _EXAMPLES_JAX701.invalid("invalid_jax_import_jit_host_count_nproc.py", count=2),
        _EXAMPLES_JAX701.invalid(
            "invalid_r_jnp_linalg_matrix_rank_jnp.py", column=40, message_contains="use `rtol=`"
        ),
        _EXAMPLES_JAX701.invalid(
            "invalid_vals_jss_lpmn_values_2_2.py", message_contains="JAX plans no replacement"
        ),
        _EXAMPLES_JAX701.invalid(
            "invalid_f_jax_jit_g_backend_cpu.py", message_contains="`jax.device_put` the inputs"
        ),
        _EXAMPLES_JAX701.invalid(
            "invalid_module_fine_0_4_33.py",
            target_jax="0.4.33",
            count=1,
            line=2,
            note="the module is fine in 0.4.33, its function is deprecated: reported at the use",
        ),
        _EXAMPLES_JAX701.invalid(
            "invalid_deprecated_module_imported_name_import.py",
            target_jax="0.8.1",
            count=1,
            line=1,
            message_contains="deprecated since JAX 0.8.0 and removed in JAX 0.9.0",
            note="a deprecated module imported by name: the import and its uses rewritten together",
        ),
    ]


_EXAMPLES_JAX702 = Examples(Path(__file__).parent / "api_drift" / "removed_api.py")


class RemovedApi(_DriftChecks, Rule):
    code = "JAX702"
    required_names = spelled_names()
    name = "removed-api"
    message = "`{used}` was {status}; {advice}"
    fix_availability = "sometimes"
    probe = "jaxlint probe env"
    _STATUS = "removed"
    docs = (
        """\
## What it does
Flags JAX APIs that the target JAX version (`target-jax`, by default the installed
JAX) no longer has: the top-level `jax.tree_*` aliases, `host_callback`,
`jax.random.KeyArray`, removed `jax.numpy` aliases (`round_`, `product`, `alltrue`,
`in1d`, `trapz`, `NINF`, ...), `jax.lib.xla_bridge`, `jax.linear_util`, `jax.core`
internals that moved to `jax.extend.core`, array methods (`x.device()`,
`x.device_buffer`), removed keyword arguments (`jnp.clip(a_min=)`,
`jnp.reshape(newshape=)`, `pure_callback(vectorized=)`), extra positional
arguments (`jnp.array(x, dtype, copy)`), removed config options, and more (the
full table is below). Attribute uses are reported at each use; a name imported
with `from ... import ...` (or `import ... as ...`) is reported once, at its
import, and its fix rewrites the import together with its uses.

## Why is this bad
The code fails on the target JAX: `AttributeError: module 'jax' has no attribute
'tree_map'`, `ImportError: cannot import name 'xla_bridge' from 'jax.lib'`,
`TypeError: clip() got an unexpected keyword argument 'a_min'`. A removed keyword
can also fail far from its cause: since JAX 0.6.0 `pure_callback(...,
vectorized=True)` passes `vectorized` on to the callback, which then fails inside
the compiled program.

## Example
```python
import jax
import jax.numpy as jnp
from jax.lib import xla_bridge

params = jax.tree_map(lambda p: p * 2, params)
y = jnp.clip(x, a_min=0.0)
backend = xla_bridge.get_backend()
```

## Use instead
```python
import jax
import jax.extend
import jax.numpy as jnp

params = jax.tree.map(lambda p: p * 2, params)
y = jnp.clip(x, min=0.0)
backend = jax.extend.backend.get_backend()
```

## Fix safety
Per entry, as the table says. Renames to the same function or class, import path
moves and keyword renames are safe; so are the rewrites that JAX's changelog gives
as equivalent (`jnp.msort(a)` -> `jnp.sort(a, axis=0)`, `jnp.in1d(a, b)` ->
`jnp.isin(a, b).ravel()`, `x.device_buffer` -> `x.addressable_data(0)`,
`jax.lax.tie_in(a, b)` -> `b`). Unsafe: replacements that differ in a corner
(`x.device()` -> `x.device`, `jax.random.KeyArray` -> `jax.Array`,
`jax.linear_util` -> `jax.extend.linear_util`) and deleting a
`jax.config.update` of a removed option. No fix where the replacement takes other
arguments (`host_callback`, `sph_harm`, `build_tree`): the message says what to
use. A fix that needs `import jax` (or `import jax.extend`, which `import jax`
does not load) adds it once.

## Verify at runtime
`jaxlint probe env` prints the installed JAX version; on a JAX at or past the
removal version the flagged line raises as soon as it runs.

## The removed symbols in the table
"""
        + _TABLE_NOTE
        + "\n"
        + _table_markdown("removed")
        + "\n"
    )
    VALID = [
        _EXAMPLES_JAX702.valid("valid_out_jax_tree_map_f_tree.py"),
        _EXAMPLES_JAX702.valid("valid_leaves_jax_tree_util_tree_leaves.py"),
        _EXAMPLES_JAX702.valid("valid_out_tree_map_f_t.py"),
        _EXAMPLES_JAX702.valid("valid_out_jax_tree_map_f_t.py", target_jax="0.5.0"),
        _EXAMPLES_JAX702.valid("valid_out_optax_tree_map_f_t.py"),
        _EXAMPLES_JAX702.valid(
            "valid_parameter_shadows_module.py", note="parameter shadows the module"
        ),
        _EXAMPLES_JAX702.valid(
            "valid_version_compat_import_two_bindings.py",
            note="version-compat import: two bindings, ambiguous",
        ),
        _EXAMPLES_JAX702.valid("valid_fn_getattr_jax_tree_map_none.py"),
        _EXAMPLES_JAX702.valid("valid_y_jnp_clip_jnp_arange_5.py", runs=True),
        _EXAMPLES_JAX702.valid("valid_numpy_still_has_min.py", note="NumPy still has a_min"),
        _EXAMPLES_JAX702.valid(
            "valid_property_current.py", runs=True, note="the property is current"
        ),
        _EXAMPLES_JAX702.valid("valid_jax_array.py", note="not a JAX array"),
        _EXAMPLES_JAX702.valid("valid_b_jax_extend_backend_get_backend.py", runs=True),
        _EXAMPLES_JAX702.valid("valid_config_update_jax_enable_x64_false.py"),
        _EXAMPLES_JAX702.valid("valid_jax_config_update_jax_enable_x64.py", runs=True),
        _EXAMPLES_JAX702.valid("valid_x_jnp_array_1_0_2.py", runs=True),
        _EXAMPLES_JAX702.valid("valid_y_permutation_key_x_independent_true.py"),
        _EXAMPLES_JAX702.valid("valid_low_np_ninf_if_hasattr_np.py"),
        _EXAMPLES_JAX702.valid(
            "valid_version_compatibility_branch_equinox_old.py",
            note="version-compatibility branch (equinox): the old spelling never runs here",
        ),
        _EXAMPLES_JAX702.valid(
            "valid_fallback_older_jax_except_attributeerror.py",
            note="fallback for older JAX in `except AttributeError`",
        ),
        _EXAMPLES_JAX702.valid("valid_tree_map_jax_tree_map.py", runs=True),
        _EXAMPLES_JAX702.valid("valid_tree_map_jax_tree_map_if.py"),
    ]
    INVALID = [
        _EXAMPLES_JAX702.invalid(
            "invalid_out_jax_tree_map_lambda_x.py",
            line=2,
            column=7,
            message_contains="removed in JAX 0.6.0",
            raises="AttributeError",
        ),
        _EXAMPLES_JAX702.invalid(
            "invalid_jax_import_tree_map.py", count=1, line=1, raises="ImportError"
        ),
        _EXAMPLES_JAX702.invalid(
            "invalid_jax_import_jit_tree_leaves_tl.py", count=2, raises="ImportError"
        ),
        _EXAMPLES_JAX702.invalid("invalid_return_j_tree_leaves_t_j.py", count=2),
        _EXAMPLES_JAX702.invalid("invalid_pass.py"),
        _EXAMPLES_JAX702.invalid("invalid_mapper_jax_tree_transpose.py"),
        _EXAMPLES_JAX702.invalid("invalid_return_tree_unflatten_td_t.py"),
        _EXAMPLES_JAX702.invalid(
            "invalid_removed_module_imported_name_import.py",
            count=1,
            line=2,
            raises="ImportError",
            note="a removed module imported by name: the import and every use rewritten",
        ),
        _EXAMPLES_JAX702.invalid(
            "invalid_y_jnp_full_2_jnp_ninf.py", count=2, raises="AttributeError"
        ),
        _EXAMPLES_JAX702.invalid(
            "invalid_parenthesized_where_precedence_needs.py",
            note="parenthesized where precedence needs it",
        ),
        _EXAMPLES_JAX702.invalid(
            "invalid_y_jnp_clip_jnp_arange_5.py", count=2, column=31, raises="TypeError"
        ),
        _EXAMPLES_JAX702.invalid(
            "invalid_import_jax_does_load_jax.py",
            line=3,
            raises="AttributeError",
            note="`import jax` does not load jax.extend: the fix imports it",
        ),
        _EXAMPLES_JAX702.invalid("invalid_assert_x_device_buffer_none.py", raises="AttributeError"),
        _EXAMPLES_JAX702.invalid("invalid_d_x_device.py", unsafe_fix=True, raises="TypeError"),
        _EXAMPLES_JAX702.invalid(
            "invalid_jax_config_update_jax_enable_memories.py",
            unsafe_fix=True,
            raises="AttributeError",
        ),
        _EXAMPLES_JAX702.invalid(
            "invalid_y_jax_random_shuffle_jax_random.py", raises="AttributeError"
        ),
        _EXAMPLES_JAX702.invalid("invalid_x_jnp_array_1_0_2.py", column=40, raises="TypeError"),
        _EXAMPLES_JAX702.invalid(
            "invalid_hasattr_something_else_than_jax.py",
            note="`hasattr` on something else than JAX is no version guard",
        ),
        _EXAMPLES_JAX702.invalid(
            "invalid_mechanical_fix_callback_apis_differ.py",
            count=1,
            message_contains="use `jax.debug.print`",
            note="no mechanical fix: the callback APIs differ",
        ),
    ]


# -- JAX703 ---------------------------------------------------------------------------

_CONFIG_CONTEXTS: dict[str, tuple[str, str, bool]] = {
    # qualified name: (config option, name of the value parameter, the option is a bool)
    "jax.enable_x64": ("jax_enable_x64", "new_val", True),
    "jax.log_compiles": ("jax_log_compiles", "new_val", True),
    "jax.explain_cache_misses": ("jax_explain_cache_misses", "new_val", True),
    "jax.disable_jit": ("jax_disable_jit", "disable", True),
    "jax.debug_nans": ("jax_debug_nans", "new_val", True),
    "jax.debug_infs": ("jax_debug_infs", "new_val", True),
    "jax.debug_key_reuse": ("jax_debug_key_reuse", "new_val", True),
    "jax.check_tracer_leaks": ("jax_check_tracer_leaks", "new_val", True),
    "jax.enable_checks": ("jax_enable_checks", "new_val", True),
    "jax.no_tracing": ("jax_no_tracing", "new_val", True),
    "jax.no_execution": ("jax_no_execution", "new_val", True),
    "jax.thread_guard": ("jax_thread_guard", "new_val", True),
    "jax.softmax_custom_jvp": ("jax_softmax_custom_jvp", "new_val", True),
    "jax.enable_custom_prng": ("jax_enable_custom_prng", "new_val", True),
    "jax.threefry_partitionable": ("jax_threefry_partitionable", "new_val", True),
    "jax.allow_f16_reductions": ("jax_allow_f16_reductions", "new_val", True),
    "jax.default_matmul_precision": ("jax_default_matmul_precision", "new_val", False),
    "jax.numpy_rank_promotion": ("jax_numpy_rank_promotion", "new_val", False),
    "jax.numpy_dtype_promotion": ("jax_numpy_dtype_promotion", "new_val", False),
    "jax.legacy_prng_key": ("jax_legacy_prng_key", "new_val", False),
    "jax.default_prng_impl": ("jax_default_prng_impl", "new_val", False),
    "jax.default_device": ("jax_default_device", "new_val", False),
    "jax.transfer_guard": ("jax_transfer_guard", "new_val", False),
    "jax.transfer_guard_host_to_device": ("jax_transfer_guard_host_to_device", "new_val", False),
    "jax.transfer_guard_device_to_host": ("jax_transfer_guard_device_to_host", "new_val", False),
    "jax.transfer_guard_device_to_device": (
        "jax_transfer_guard_device_to_device",
        "new_val",
        False,
    ),
}
"""JAX's config context managers: called outside ``with`` they build a context
manager and drop it, changing nothing (each checked on the installed JAX by
tests/test_api_drift_table.py). ``jax.set_mesh`` is not one: it also sets the
mesh when called as a statement."""
_EXAMPLES_JAX703 = Examples(Path(__file__).parent / "api_drift" / "inert_config_call.py")


class InertConfigCall(Rule):
    code = "JAX703"
    name = "inert-config-call"
    message = (
        "`{call}` builds a context manager and drops it: `{option}` stays unchanged;"
        " use `with {call}:` or `jax.config.update({option_repr}, ...)`"
    )
    fix_availability = "sometimes"
    probe = "jaxlint probe env"
    docs = """\
## What it does
Flags a JAX config context manager called as a bare statement:
`jax.enable_x64(True)`, `jax.log_compiles(True)`, `jax.disable_jit(True)`,
`jax.debug_nans(True)`, `jax.default_matmul_precision("highest")`,
`jax.numpy_rank_promotion("raise")`, `jax.transfer_guard("disallow")`, and the
other options JAX exposes this way.

## Why is this bad
These functions return a context manager; the option changes only inside a
`with` block. Called as a statement, the context manager is built and thrown
away: `jax.config.values["jax_enable_x64"]` stays `False` after
`jax.enable_x64(True)`, with no warning, so the program silently runs in 32-bit,
without NaN checks or with jit still on. (`jax.set_mesh(mesh)` is different: it
also works as a global setter, and is not flagged.)

## Example
```python
import jax

jax.enable_x64(True)
jax.debug_nans(True)
```

## Use instead
```python
import jax

jax.config.update("jax_enable_x64", True)
jax.config.update("jax_debug_nans", True)
```
or, for a scoped change, `with jax.enable_x64(True): ...`.

## Fix safety
Unsafe: `jax.config.update` changes the option for the rest of the program, which
is what a bare call looks meant to do but is not what it did. The fix is offered
when the value is given (`jax.enable_x64(True)`, `new_val=`) or, for on/off
options, when the call has no argument (which means `True`).

## Verify at runtime
`jaxlint probe env` prints the config options the program starts with; print
`jax.config.values["jax_enable_x64"]` right after the bare call to see that it did
not change.
"""
    VALID = [
        _EXAMPLES_JAX703.valid("valid_pass.py", runs=True),
        _EXAMPLES_JAX703.valid("valid_jax_config_update_jax_enable_x64.py", runs=True),
        _EXAMPLES_JAX703.valid("valid_pass_2.py", runs=True),
        _EXAMPLES_JAX703.valid(
            "valid_set_mesh_acts_global_setter.py",
            runs=True,
            note="set_mesh acts as a global setter when not used in `with`",
        ),
        _EXAMPLES_JAX703.valid("valid_stack_enter_context_jax_log_compiles.py", runs=True),
        _EXAMPLES_JAX703.valid("valid_decorator_statement.py", note="a decorator, not a statement"),
        _EXAMPLES_JAX703.valid("valid_jax_s.py", note="not JAX's"),
        _EXAMPLES_JAX703.valid("valid_flag_jax_config_jax_enable_x64.py"),
        _EXAMPLES_JAX703.valid("valid_call.py", note="no call"),
    ]
    INVALID = [
        _EXAMPLES_JAX703.invalid(
            "invalid_jax_enable_x64_true.py",
            line=2,
            column=1,
            unsafe_fix=True,
            message_contains="`jax_enable_x64` stays unchanged",
        ),
        _EXAMPLES_JAX703.invalid("invalid_jax_log_compiles_true.py", count=2, unsafe_fix=True),
        _EXAMPLES_JAX703.invalid("invalid_default_matmul_precision_highest.py", unsafe_fix=True),
        _EXAMPLES_JAX703.invalid("invalid_jax_numpy_rank_promotion_new_val.py", unsafe_fix=True),
        _EXAMPLES_JAX703.invalid("invalid_jax_debug_nans_true_catch_nans.py", unsafe_fix=True),
        _EXAMPLES_JAX703.invalid(
            "invalid_value_error_time_so_fix.py",
            note="no value: an error at `with` time, so no fix",
        ),
    ]

    def visit_Expr(self, node: cst.Expr) -> None:
        call = node.value
        if not isinstance(call, cst.Call):
            return
        qualname = self.model.call_name(call)
        entry = _CONFIG_CONTEXTS.get(qualname or "")
        if entry is None:
            return
        option, param, is_bool = entry
        value: str | None = None
        args = list(call.args)
        if not args:
            value = "True" if is_bool else None
        elif len(args) == 1 and not args[0].star:
            arg = args[0]
            if arg.keyword is None or arg.keyword.value == param:
                value = self.ctx.code(arg.value)
        spelled = spell(self.model, "jax.config.update", call) if value is not None else None

        def fix() -> list[FixOp]:
            assert spelled is not None and value is not None
            text, ops = spelled
            return [ReplaceNode(call, f"{text}({option!r}, {value})"), *ops]

        self.report(
            call,
            call=self.ctx.code(call),
            option=option,
            option_repr=repr(option),
            fix=fix if spelled is not None else None,
            applicability=Applicability.UNSAFE if spelled is not None else None,
            fix_message=f"Replace with `jax.config.update({option!r}, {value})`",
        )
