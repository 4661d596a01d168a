"""JAX701 and JAX702's shared base: the table queries, what the walk records (the
structure fixes need, version-compatibility guards) and how fixes are built.

``helpers_checks.py`` adds the checks themselves (:class:`DriftChecks`).
"""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

import libcst as cst

from jaxlint.analysis.names import dotted as dotted_name
from jaxlint.analysis.walk import children
from jaxlint.diagnostics import Applicability
from jaxlint.fixers.spelling import ATOMS, spell
from jaxlint.rules.api_drift.guards import VersionGuards
from jaxlint.rules.api_drift.table import (
    EXPLICIT_IMPORTS,
    Drift,
    attribute_tails,
    load_table,
    spelled_names,
)
from jaxlint.rules.base import FixOp, ReplaceNode, RequireImport

if TYPE_CHECKING:
    from jaxlint.analysis.names import SemanticModel
    from jaxlint.engine import FileContext

DOTTED_RE = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$")
_PLACEHOLDER_RE = re.compile(r"\{([^{}]+)\}")
_COMPAT_ERRORS = frozenset(
    {"builtins.AttributeError", "builtins.ImportError", "builtins.ModuleNotFoundError"}
)
_ORDER = {Applicability.SAFE: 0, Applicability.UNSAFE: 1, Applicability.DISPLAY_ONLY: 2}


ARRAY_METHOD_RECEIVERS = """\
Array methods (`x.split(2)`, `x.device()`, `x.device_buffer`, ...) are reported and
rewritten only where `x` is known to be one JAX array: made by a `jax.numpy`,
`jax.lax` or `jax.random` function that returns one array, an `.at[]` update, array
arithmetic or an array method on such a value, a traced parameter annotated
`jax.Array` (or jaxtyping) or used by its function as only one array allows
(`x - 1`, `x.sum()`), or a local jitted function whose every `return` is one (the
evidence JAX601 uses). A value that is only traced is not enough: a traced
parameter or the result of a jitted call may be any pytree, a `flax.nnx.State`, a
dict, an Equinox module, whose `split` or `device` is its own method
(`state.split(nnx.Param, ...)` is not `jnp.split(state, nnx.Param, ...)`). Such a
use is not reported at all, rather than reported with a weaker message: the method
names in the table (`split`, `device`, `broadcast`) are common on pytrees, so the
finding would be a likely false alarm, and an unannotated array parameter can be
annotated `jax.Array` to have it checked.
"""
"""The Fix safety paragraph of JAX701 and JAX702 on which receivers an array method is
reported for (both rules read the table's method entries through this module)."""


def worst(apps: Sequence[Applicability]) -> Applicability:
    return max(apps, key=lambda a: _ORDER[a], default=Applicability.SAFE)


@dataclass(frozen=True)
class _AddImport(ReplaceNode):
    """``import jax`` -> ``import jax, jax.extend``: loads ``module`` where no statement
    of the fix's own can (an import statement that a fix rewrites takes it instead)."""

    module: str = ""


@dataclass
class Plan:
    """How one imported name is rewritten: new import statements plus edits of its uses."""

    statements: list[str]
    ops: list[FixOp]
    applicability: Applicability


_VALUE_SLOTS = frozenset({cst.Arg, cst.Element, cst.Assign, cst.AnnAssign, cst.Return, cst.Index})
"""Nodes whose ``value`` sits in a slot that needs no parentheses."""


class DriftBase(VersionGuards):
    """What JAX701 and JAX702 record during the walk and the fixes they build from it;
    :class:`DriftChecks` adds the checks."""

    _STATUS: ClassVar[str]
    ctx: FileContext
    model: SemanticModel
    report: Callable[..., None]

    def __init__(self, ctx: FileContext) -> None:
        super().__init__(ctx)  # type: ignore[call-arg]
        self._table = load_table()
        self._tails = attribute_tails()
        self._spelled = spelled_names()
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
        self._version_flags: dict[str, cst.BaseExpression] = {}
        """Module-level names bound to a version test (``JAX_GE_0_8 = jax.__version__ >= ...``),
        with the test."""
        self._jax_version_names: dict[str, str] = {}
        """Module-level names bound to JAX's version (``jax_version = version.parse(jax.__version__)``)."""
        self._dead: set[int] = set()
        """Branches (blocks, ``else``/``elif`` clauses) that cannot run on the target JAX."""
        self._absorbed: set[int] = set()
        """``jax.ops.index`` nodes inside an ``index_*`` call whose fix drops them."""
        self._alone_at_top: dict[int, cst.SimpleStatementLine] = {}
        """Module-level statements alone on their line (which a fix may empty)."""
        self._pending: list[Callable[[], None]] = []
        """Import reports, made once the whole file (every use of the names) has been seen."""

    def visit_Module(self, node: cst.Module) -> None:
        if len(node.body) < 2:
            return
        for line in node.body:
            if type(line) is cst.SimpleStatementLine:
                for stmt in line.body:
                    if (
                        type(stmt) is cst.Assign
                        and len(stmt.targets) == 1
                        and type(stmt.targets[0].target) is cst.Name
                    ):
                        name = stmt.targets[0].target.value  # type: ignore[attr-defined]
                        read = self._read_version(stmt.value)
                        if read is not None and read[0] == "target":
                            self._jax_version_names[name] = read[1]  # type: ignore[assignment]
                        elif self._is_version_test(stmt.value):
                            self._version_flags[name] = stmt.value
            if (
                type(line) is cst.SimpleStatementLine
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
            # ``type() is``: concrete libcst classes have no subclasses, and ``isinstance``
            # goes through ABCMeta (this runs for every node of every ``if`` test)
            kind = type(node)
            if kind is cst.Call and node.args:  # type: ignore[attr-defined]
                if self.model.call_name(node) in ("builtins.hasattr", "builtins.getattr"):  # type: ignore[arg-type]
                    target = self.model.qualified_name(node.args[0].value) or ""  # type: ignore[attr-defined]
                    if target == "jax" or target.startswith("jax."):
                        return True
            elif kind is cst.Name:
                value = node.value  # type: ignore[attr-defined]
                if (
                    "version" in value.lower()
                    or value in self._version_flags
                    or value in self._jax_version_names
                ):
                    return True
                continue  # a leaf
            elif kind is cst.Attribute and "version" in node.attr.value.lower():  # type: ignore[attr-defined]
                return True
            stack.extend(children(node))
        return False

    # -- what a version test is worth on the target JAX: ``if jax_version >= (0, 3, 1):``
    # is true on JAX 0.12, so its body runs (and is checked) and only its ``else`` is
    # skipped; a test jaxlint cannot read skips every branch ---------------------------------

    def _enter_guard(self, node: cst.CSTNode, guarded: bool) -> None:
        if guarded:
            self._compat_nodes.add(id(node))
            self._compat_depth += 1

    def _leave_guard(self, node: cst.CSTNode) -> None:
        if id(node) in self._compat_nodes:
            self._compat_depth -= 1

    def _enter_dead(self, node: cst.CSTNode) -> None:
        if id(node) in self._dead:
            self._compat_depth += 1

    def _leave_dead(self, node: cst.CSTNode) -> None:
        if id(node) in self._dead:
            self._compat_depth -= 1

    def visit_If(self, node: cst.If) -> None:
        self._enter_dead(node)  # an ``elif`` that cannot run
        if not self._is_version_test(node.test):
            fallback = self._feature_test(node.test)
            if fallback is not None:
                # ``if hasattr(aval, "to_tangent_aval"): <new> else: <old>``: the branch
                # taken when the feature is missing is a fallback for an older JAX
                branch = node.orelse if fallback else node.body
                if branch is not None:
                    self._dead.add(id(branch))
            return
        truth = self._truth(node.test)
        if truth is None:
            self._enter_guard(node, True)
        elif truth:
            if node.orelse is not None:
                self._dead.add(id(node.orelse))
        else:
            self._dead.add(id(node.body))

    def leave_If(self, node: cst.If) -> None:
        self._leave_guard(node)
        self._leave_dead(node)

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        self._enter_dead(node)
        self._mark_dead_tail(node.body)

    def _mark_dead_tail(self, body: Sequence[cst.BaseStatement]) -> None:
        """The statements after ``if <taken on the target JAX>: return ...`` cannot run."""
        for i, stmt in enumerate(body[:-1]):
            if type(stmt) is cst.If and self._exits_when_taken(stmt):
                self._dead.update(id(s) for s in body[i + 1 :])
                return

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        self._enter_dead(node)

    def leave_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        self._leave_dead(node)

    def visit_For(self, node: cst.For) -> None:
        self._enter_dead(node)

    def leave_For(self, node: cst.For) -> None:
        self._leave_dead(node)

    def visit_While(self, node: cst.While) -> None:
        self._enter_dead(node)

    def leave_While(self, node: cst.While) -> None:
        self._leave_dead(node)

    def visit_With(self, node: cst.With) -> None:
        self._enter_dead(node)

    def leave_With(self, node: cst.With) -> None:
        self._leave_dead(node)

    def leave_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        self._leave_dead(node)

    def visit_SimpleStatementSuite(self, node: cst.SimpleStatementSuite) -> None:
        self._enter_dead(node)

    def leave_SimpleStatementSuite(self, node: cst.SimpleStatementSuite) -> None:
        self._leave_dead(node)

    def visit_Else(self, node: cst.Else) -> None:
        self._enter_dead(node)

    def leave_Else(self, node: cst.Else) -> None:
        self._leave_dead(node)

    def visit_BooleanOperation(self, node: cst.BooleanOperation) -> None:
        # ``hasattr(jax, "pxla") and isinstance(x, jax.pxla.ShardedDeviceArray)``
        self._enter_guard(node, self._is_version_test(node.left))

    def leave_BooleanOperation(self, node: cst.BooleanOperation) -> None:
        self._leave_guard(node)

    def visit_IfExp(self, node: cst.IfExp) -> None:
        self._enter_guard(node, self._is_version_test(node.test))

    def leave_IfExp(self, node: cst.IfExp) -> None:
        self._leave_guard(node)

    def visit_Try(self, node: cst.Try) -> None:
        self._enter_dead(node)
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
        self._leave_dead(node)

    def _applicability(self, drift: Drift) -> Applicability | None:
        return drift.applicability(self.ctx.target_jax)

    # -- spelling replacements ------------------------------------------------------------

    def _imports_module(self, module: str) -> bool:
        """``module`` is imported at module level (so its attributes are loaded)."""
        for node, _binding in self.model.imports:
            if self.model.scope_of_import.get(id(node)) is not self.model.module_scope:
                continue
            if isinstance(node, cst.Import):
                for alias in node.names:
                    dotted = dotted_name(alias.name) or ""
                    if dotted == module or dotted.startswith(module + "."):
                        return True
            elif isinstance(node, cst.ImportFrom) and node.module is not None:
                mod = dotted_name(node.module) or ""
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
                    dotted = dotted_name(alias.name) or ""
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
                value = positional[int(key)].value
                in_brackets = template[match.start() - 1 : match.start()] == "[" and (
                    template[match.end() : match.end() + 1] == "]"
                )
                if in_brackets:
                    index = self._ops_index(value)
                    if index is not None:
                        return index  # ``.at[jax.ops.index[i]]`` is ``.at[i]``
                return self.ctx.code(value)
            if key == "args":
                assert call is not None
                return ", ".join(
                    self.ctx.code(a.with_changes(comma=cst.MaybeSentinel.DEFAULT))
                    for a in call.args
                )
            if key == "obj":
                assert obj is not None
                return self.ctx.code(obj)
            if key.startswith("kw:"):
                assert call is not None
                for a in call.args:
                    if a.keyword is not None and a.keyword.value == key[3:]:
                        return self.ctx.code(a.value)
                return "None"
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

    def _ops_index(self, value: cst.BaseExpression) -> str | None:
        """The text inside the brackets of ``jax.ops.index[...]`` (removed with the
        ``index_*`` functions: it returned its index unchanged), else ``None``."""
        if not isinstance(value, cst.Subscript) or value.lpar:
            return None
        if self.model.qualified_name(value.value) != "jax.ops.index":
            return None
        full = self.ctx.code(value)
        start = len(self.ctx.code(value.value)) + len(self.ctx.code(value.lbracket))
        return full[start : len(full) - len(self.ctx.code(value.rbracket))]

    def _placed(self, text: str, replaced: cst.CSTNode) -> str:
        """``text`` in parentheses unless it is atomic or fills a slot that needs none."""
        if id(replaced) in self._free_slots:
            return text
        try:
            expr = cst.parse_expression(text)
        except cst.ParserSyntaxError:
            return f"({text})"
        if isinstance(expr, ATOMS) and not expr.lpar:
            return text
        if expr.lpar:
            return text
        return f"({text})"

    def _visibly_flat(self, call: cst.Call) -> bool:
        """Whether the call's first positional argument is visibly one-dimensional: a
        ``arange``/``linspace`` call, or ``array``/``asarray`` of a list or tuple display of
        numbers (``jax.numpy`` or ``numpy``). Names are not followed."""
        first = next((a.value for a in call.args if a.keyword is None), None)
        if first is None:
            return False
        if not isinstance(first, cst.Call):
            return False
        qualname = self.model.qualified_name(first.func)
        module, _, function = (qualname or "").rpartition(".")
        if module not in ("jax.numpy", "numpy"):
            return False
        if function in ("arange", "linspace"):
            return True
        if function not in ("array", "asarray"):
            return False
        args = [a for a in first.args if a.keyword is None]
        keywords = {a.keyword.value for a in first.args if a.keyword is not None}
        return (
            len(args) == 1
            and keywords <= {"dtype"}
            and isinstance(args[0].value, (cst.List, cst.Tuple))
            and _plain_elements(args[0].value)
        )

    def _first_is_array(self, call: cst.Call) -> bool:
        first = next((a.value for a in call.args if a.keyword is None), None)
        return first is not None and self._is_array(first)  # type: ignore[attr-defined]

    def _call_shape_ok(self, drift: Drift, call: cst.Call) -> bool:
        if any(a.star for a in call.args):
            return False
        if drift.statement and id(call) not in self._expr_stmt:
            return False  # the call's value is used: the template does not return it
        if drift.arity is None or drift.arity < 0:
            return True
        positional = [a for a in call.args if a.keyword is None]
        keywords = [a.keyword.value for a in call.args if a.keyword is not None]
        return len(positional) == drift.arity and all(k in drift.call_keywords for k in keywords)

    def _use_ops(self, drift: Drift, node: cst.BaseExpression) -> tuple[list[FixOp], str] | None:
        """Edits that replace the use ``node`` of ``drift.old`` (and what it becomes)."""
        if drift.template is not None and drift.call:
            call = self._call_of_func.get(id(node))
            if call is None or not self._call_shape_ok(drift, call):
                return None
            if drift.template.startswith("{0}.") and not self._first_is_array(call):
                # ``jax.ops.index_update(w, i, v)`` -> ``w.at[i].set(v)``: the old function
                # also took a NumPy array or a list, which has no ``.at``: no fix unless
                # ``w`` is known to be one JAX array (the message still says what to write)
                return None
            template = drift.template
            if drift.flat_template is not None and self._visibly_flat(call):
                template = drift.flat_template
            rendered = self._render(template, node, call=call)
            if rendered is None or not _keeps_comments(self.ctx.code(call), rendered[0]):
                return None
            text = self._placed(rendered[0], call)
            return [ReplaceNode(call, text), *rendered[1]], text
        if drift.template is not None:
            rendered = self._render(drift.template, node)
            if rendered is None:
                return None
            text = self._placed(rendered[0], node)
            return [ReplaceNode(node, text), *rendered[1]], text
        if drift.replacement is None or not DOTTED_RE.match(drift.replacement):
            return None
        spelled = self._spell(drift.replacement, node)
        if spelled is None:
            return None
        return [ReplaceNode(node, spelled[0]), *spelled[1]], spelled[0]

    # -- import rewrites -------------------------------------------------------------------

    def _from_import_plan(
        self,
        node: cst.ImportFrom,
        module: str,
        alias: cst.ImportAlias,
        drift: Drift,
        local: str,
        via_module: bool,
    ) -> Plan | None:
        applicability = self._applicability(drift)
        name = alias.name.value  # type: ignore[union-attr]
        replacement = drift.replacement
        plain = replacement is not None and drift.template is None and DOTTED_RE.match(replacement)
        if via_module:
            if not plain or applicability is None:
                return None
            assert replacement is not None
            new_module = replacement + module[len(drift.old) :]
            return Plan([_from_statement(new_module, name, local)], [], applicability)
        if plain and applicability is not None:
            assert replacement is not None
            new_mod, _, new_name = replacement.rpartition(".")
            if not new_mod:
                return None
            return Plan([_from_statement(new_mod, new_name, local)], [], applicability)
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
    ) -> Plan | None:
        ops: list[FixOp] = []
        for use in self._uses_of(import_node, local):
            done = rewrite(use)
            if done is None:
                return None
            ops.extend(op for op in done[0] if op not in ops)
        return Plan([], ops, applicability)

    def _module_plan(self, import_node: cst.CSTNode, module: str, local: str) -> Plan | None:
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
        plan.applicability = worst(apps)
        return plan

    def _from_import_fix(
        self, node: cst.ImportFrom, moved: list[cst.ImportAlias], plans: dict[int, Plan]
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

    def _remove_import_alias(self, node: cst.Import, alias: cst.ImportAlias, plan: Plan):
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

    def _alone_in_block(self, node: cst.CSTNode) -> cst.SimpleStatementLine | None:
        """The line of ``node`` when ``node`` is alone on it (no comment) in an indented
        block with other statements: the line can go, the block keeps a statement."""
        parents = self.model.parents
        line = parents.get(id(node))
        if type(line) is not cst.SimpleStatementLine or len(line.body) != 1:
            return None
        if line.trailing_whitespace.comment is not None:
            return None
        block = parents.get(id(line))
        if type(block) is not cst.IndentedBlock or len(block.body) < 2:
            return None
        return line

    def _replace_statement(self, node: cst.CSTNode, statements: list[str]) -> ReplaceNode:
        if not statements:
            line = self._alone_at_top.get(id(node)) or self._alone_in_block(node)
            if line is not None:
                return ReplaceNode(line, "")  # leaves an empty line
            return ReplaceNode(node, "pass")
        before = self.ctx.line_prefix(node)
        if before.strip():
            separator = "; "  # not first on its line (``if x: from jax import ...``)
        else:
            separator = self.ctx.module.default_newline + self.ctx.line_indent(node)
        return ReplaceNode(node, separator.join(statements))


def _keeps_comments(old: str, new: str) -> bool:
    """Whether every comment of the replaced code ``old`` is in its replacement ``new``
    (a call rebuilt from a template keeps only its arguments)."""
    if "#" not in old:
        return True
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(old).readline))
    except (tokenize.TokenError, SyntaxError):
        return False
    return all(t.string in new for t in tokens if t.type == tokenize.COMMENT)


def _from_statement(module: str, name: str, local: str) -> str:
    if local == name:
        return f"from {module} import {name}"
    return f"from {module} import {name} as {local}"


def _plain_elements(display: cst.List | cst.Tuple) -> bool:
    """A non-empty display of number literals (``-1`` included): a one-dimensional array.
    Names are not enough: ``jnp.array([a, b])`` of arrays has more dimensions."""

    def number(value: cst.BaseExpression) -> bool:
        if isinstance(value, cst.UnaryOperation):
            value = value.expression
        return isinstance(value, (cst.Integer, cst.Float))

    return bool(display.elements) and all(
        isinstance(e, cst.Element) and number(e.value) for e in display.elements
    )
