"""JAX503 pjit: ``jax.experimental.pjit.pjit`` (deprecated since JAX 0.8.0) and its removed
``in_axis_resources``/``out_axis_resources`` keywords; the fix is ``jax.jit``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import libcst as cst

from jaxlint.diagnostics import Applicability
from jaxlint.rules.base import Examples, FixOp, ReplaceNode, RequireImport, Rule
from jaxlint.rules.sharding.helpers import (
    PARTIAL,
    ArgEdits,
    Facts,
    Speller,
    import_hits,
    rewrite_import,
)

if TYPE_CHECKING:
    from jaxlint.engine import FileContext

EXAMPLES = Examples(__file__)


_PJIT = "jax.experimental.pjit.pjit"
_JIT = "jax.jit"
_PJIT_DEPRECATED = (0, 8, 0)
_AXIS_RESOURCES_REMOVED = (0, 4, 14)
_PJIT_PARAMS = (
    "fun",
    "in_shardings",
    "out_shardings",
    "static_argnums",
    "static_argnames",
    "donate_argnums",
    "donate_argnames",
    "keep_unused",
    "device",
    "backend",
    "inline",
    "compiler_options",
)
_AXIS_RESOURCES = {"in_axis_resources": "in_shardings", "out_axis_resources": "out_shardings"}


class Pjit(Facts, Rule):
    code = "JAX503"
    required_names = frozenset({"pjit", *_AXIS_RESOURCES})
    name = "pjit"
    message = "{what}; use `{replacement}`{detail}"
    fix_availability = "sometimes"
    probe = "jaxlint probe compile FILE.py:FUNC"
    docs = """\
## What it does
Flags `jax.experimental.pjit.pjit` when the target JAX is 0.8.0 or newer:
attribute uses (`pjit.pjit(...)`) at each use, `from jax.experimental.pjit
import pjit` once, at the import. For older targets it flags the
`in_axis_resources`/`out_axis_resources` keywords (removed in 0.4.14).
The same keywords passed to `jax.jit` (directly or through
`functools.partial(jax.jit, ...)`) are flagged for every target: `jax.jit`
never took them, and the fix renames them to `in_shardings`/`out_shardings`.

## Why is this bad
`pjit` was merged into `jax.jit` in JAX 0.4.14 and is deprecated since 0.8.0
(`DeprecationWarning: jax.experimental.pjit.pjit has been deprecated. Please
use jax.jit instead.`). `in_axis_resources=`/`out_axis_resources=` raise
`TypeError: pjit() got an unexpected keyword argument 'in_axis_resources'`
since 0.4.14. `jax.jit` takes the same options, but only as keywords after the
function.

## Example
```python
from jax.experimental.pjit import pjit

step = pjit(train_step, in_shardings, out_shardings, donate_argnums=0)
```

## Use instead
```python
import jax

step = jax.jit(train_step, in_shardings=in_shardings, out_shardings=out_shardings, donate_argnums=0)
```
Each use of an imported `pjit` becomes `jax.jit` (spelled through an existing
`import jax`, else one is added) and the import is dropped; each call's
positional options become keywords; `pjit.pjit(...)` becomes `jax.jit(...)`.
This is the spelling a maintainer writes by hand after the migration, and what a
reader of the fixed file expects (issue 14 decision). Where `jax.jit` cannot be
spelled at a use (the name `jax` is taken there) or the import is not a statement
of its own at module level, the import is rewritten instead to
`from jax import jit as pjit`, which leaves the rest of the file unchanged.

## Fix safety
Safe when every sharding passed is certainly a `Sharding` object
(`NamedSharding(...)`, `x.sharding`, a tuple of those, or a variable assigned
one) or none is passed: `pjit` is then `jax.jit`. Unsafe when a sharding is a
bare `PartitionSpec`, `None` or unknown: checked on JAX 0.12, `pjit` resolves
those against the legacy `with mesh:` context (and `None` there means
replicated), while `jax.jit` resolves them against `jax.set_mesh(mesh)` and
raises `RuntimeError: jit requires a non-empty mesh in context` under `with
mesh:`. Fix the `with mesh:` blocks that call the function in the same run
(JAX502). Options `jax.jit` does not take (`abstracted_axes`), `*args`, and
`pjit` used as a plain value are reported without a fix.

## Verify at runtime
`jaxlint probe compile FILE.py:FUNC` on the rewritten function traces and
compiles it under `jax.jit`; a bare `PartitionSpec` with no `jax.set_mesh`
context fails there with the `RuntimeError` above.
"""
    VALID = [
        EXAMPLES.valid("valid_jax_jit_shardings.py", runs=True, note="jax.jit with in_shardings"),
        EXAMPLES.valid("valid_step_pjit_pjit_f_shardings_s.py", target_jax="0.7.0"),
        EXAMPLES.valid("valid_jax_s_pjit.py", note="not JAX's pjit"),
        EXAMPLES.valid("valid_step_jax_jit_f_static_argnums.py"),
        EXAMPLES.valid("valid_version_compat_import.py", note="version-compat import"),
        EXAMPLES.valid("valid_step_pjit_g.py"),
        EXAMPLES.valid(
            "valid_before_deprecation_without_removed_keywords.py",
            target_jax="0.5.0",
            note="before the deprecation, without removed keywords",
        ),
        EXAMPLES.valid("valid_s_namedsharding_mesh_spec.py"),
        EXAMPLES.valid(
            "valid_axis_resources_as_dict_keys.py",
            runs=True,
            note="the old keyword names as strings; jax.jit with in_shardings",
        ),
    ]
    INVALID = [
        EXAMPLES.invalid(
            "invalid_jax_experimental_pjit_import_pjit.py",
            count=1,
            line=1,
            column=35,
            message_contains="deprecated since JAX 0.8.0",
            unsafe_fix=True,
        ),
        EXAMPLES.invalid(
            "invalid_namedshardings_safe.py", line=6, column=8, note="NamedShardings: safe"
        ),
        EXAMPLES.invalid(
            "invalid_jax_jit_axis_resources_keywords.py",
            line=6,
            column=5,
            message_contains="`jax.jit` does not take `in_axis_resources`",
            raises="TypeError",
            note="pjit's removed keywords passed to jax.jit; NamedShardings: safe",
        ),
        EXAMPLES.invalid(
            "invalid_partial_jax_jit_out_axis_resources.py",
            line=10,
            raises="TypeError",
            unsafe_fix=True,
            note="through functools.partial; a bare PartitionSpec: unsafe",
        ),
        EXAMPLES.invalid(
            "invalid_jax_name_taken_keeps_pjit_name.py",
            unsafe_fix=True,
            note="`jax` is a parameter where pjit is used: the import binds jax.jit as pjit",
        ),
        EXAMPLES.invalid(
            "invalid_y_f_jax_numpy_arange_2.py",
            raises="TypeError",
            message_contains="`in_axis_resources` was removed in JAX 0.4.14",
        ),
        EXAMPLES.invalid(
            "invalid_step_pjit_f_out_axis_resources.py",
            target_jax="0.4.20",
            message_contains="`out_axis_resources` was removed in JAX 0.4.14",
            unsafe_fix=True,
        ),
        EXAMPLES.invalid("invalid_functools_partial_pj_pjit_static_argnums.py", line=4, column=20),
        EXAMPLES.invalid(
            "invalid_make_pjit.py",
            message_contains="no automatic rewrite: `pjit` is used as a value at line 3",
        ),
        EXAMPLES.invalid(
            "invalid_step_pjit_pjit_f_abstracted_axes.py",
            message_contains="no automatic rewrite: `abstracted_axes`",
        ),
    ]

    def __init__(self, ctx: FileContext) -> None:
        super().__init__(ctx)
        self.deprecated = ctx.target_jax >= _PJIT_DEPRECATED
        self.enabled = ctx.target_jax >= _AXIS_RESOURCES_REMOVED
        self.plans: dict[int, ArgEdits | str] = {}
        self.imported: list[tuple[cst.ImportFrom, cst.ImportAlias, str]] = []

    def _is_pjit(self, expr: cst.BaseExpression) -> bool:
        return self.model.qualified_name(expr) == _PJIT

    def visit_Call(self, node: cst.Call) -> None:
        if not self.enabled:
            return
        if self._is_pjit(node.func):
            self.plans[id(node.func)] = self._arg_edits(node.args)
        elif self.model.call_name(node) in PARTIAL and node.args and not node.args[0].keyword:
            first = node.args[0].value
            if not node.args[0].star and self._is_pjit(first):
                self.plans[id(first)] = self._arg_edits(node.args[1:])
            elif not node.args[0].star and self.model.qualified_name(first) == _JIT:
                self._jit_axis_resources(first, node.args[1:])
        elif self.model.call_name(node) == _JIT:
            self._jit_axis_resources(node.func, node.args)

    def _jit_axis_resources(self, jit: cst.BaseExpression, args: Sequence[cst.Arg]) -> None:
        """``jax.jit(f, in_axis_resources=...)``: the keywords pjit had until 0.4.14;
        ``jax.jit`` raises ``TypeError: jit() got an unexpected keyword argument``."""
        hits = [a for a in args if a.keyword is not None and a.keyword.value in _AXIS_RESOURCES]
        if not hits:
            return
        plan = ArgEdits([(a.keyword, _AXIS_RESOURCES[a.keyword.value]) for a in hits])
        plan.removed = [a.keyword.value for a in hits]
        plan.safe = all(self.is_sharding(a.value) for a in hits)
        used = self.ctx.code(jit)

        def fix() -> list[FixOp]:
            return [ReplaceNode(n, t) for n, t in plan.edits]

        self._report(jit, used, [plan], fix, None, jit_call=True)

    def visit_Decorator(self, node: cst.Decorator) -> None:
        if self.enabled and self._is_pjit(node.decorator):
            self.plans[id(node.decorator)] = ArgEdits([])

    def _arg_edits(self, args: Sequence[cst.Arg]) -> ArgEdits | str:
        if any(a.star for a in args):
            return "it passes `*args` or `**kwargs`"
        out = ArgEdits([])
        shardings: list[cst.BaseExpression] = []
        positional = [a for a in args if a.keyword is None]
        if len(positional) > len(_PJIT_PARAMS):
            return "too many positional arguments"
        for index, arg in enumerate(positional):
            if index == 0:
                continue
            param = _PJIT_PARAMS[index]
            if param in ("in_shardings", "out_shardings"):
                shardings.append(arg.value)
            out.edits.append((arg, f"{param}={self.ctx.code(arg.value)}"))
        for arg in args:
            if arg.keyword is None:
                continue
            key = arg.keyword.value
            if key in _AXIS_RESOURCES:
                out.edits.append((arg.keyword, _AXIS_RESOURCES[key]))
                out.removed.append(key)
                shardings.append(arg.value)
            elif key in ("in_shardings", "out_shardings"):
                shardings.append(arg.value)
            elif key == "fun" or key not in _PJIT_PARAMS:
                return f"`{key}`"
        out.safe = all(self.is_sharding(s) for s in shardings)
        return out

    # -- reporting

    def _report(
        self,
        node: cst.CSTNode,
        used: str,
        plans: Sequence[ArgEdits],
        fix: Callable[[], list[FixOp]] | None,
        reason: str | None,
        jit_call: bool = False,
    ) -> None:
        removed = sorted({k for p in plans for k in p.removed})
        if removed and jit_call:
            what = (
                f"`{used}` does not take `{removed[0]}` (a `pjit` keyword removed in JAX"
                " 0.4.14): it raises TypeError"
            )
            replacement = _AXIS_RESOURCES[removed[0]]
        elif removed:
            what = f"`{removed[0]}` was removed in JAX 0.4.14"
            if self.deprecated:
                what += f", and `{used}` is deprecated since JAX 0.8.0"
            replacement = _AXIS_RESOURCES[removed[0]]
        else:
            what = f"`{used}` is deprecated since JAX 0.8.0"
            replacement = "jax.jit"
        safe = all(p.safe for p in plans) or (not self.deprecated and not jit_call)
        if reason is not None:
            detail = f"; no automatic rewrite: {reason}"
        elif not safe:
            detail = (
                "; with bare `PartitionSpec`s or `None` it needs `with jax.set_mesh(mesh):`"
                " instead of `with mesh:`"
            )
        else:
            detail = ""
        self.report(
            node,
            what=what,
            replacement=replacement,
            detail=detail,
            fix=fix,
            applicability=(Applicability.SAFE if safe else Applicability.UNSAFE)
            if fix is not None
            else None,
            fix_message="Use `jax.jit` with keyword options",
        )

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if not self.enabled or not self._is_pjit(node):
            return
        plan = self.plans.get(id(node), "`pjit` is used as a value")
        if isinstance(plan, str):
            if self.deprecated:
                self._report(node, self.ctx.code(node), [], None, plan)
            return
        if not self.deprecated and not plan.removed:
            return
        s = Speller(self, node)
        text = s("jax.jit") if self.deprecated else None
        if not s.ok:
            self._report(node, self.ctx.code(node), [plan], None, "the name `jax` is taken here")
            return

        def fix() -> list[FixOp]:
            ops: list[FixOp] = [ReplaceNode(n, t) for n, t in plan.edits]
            if text is not None:
                ops += [ReplaceNode(node, text), *s.ops]
            return ops

        self._report(node, self.ctx.code(node), [plan], fix, None)

    def import_from(self, node: cst.ImportFrom) -> None:
        if self.enabled:
            for alias, local, _ in import_hits(self, node, {_PJIT: 1}.get):
                self.imported.append((node, alias, local))

    def leave_Module(self, node: cst.Module) -> None:
        for imp, alias, local in self.imported:
            plans: list[ArgEdits] = []
            reason = None
            for use in self.uses_of_import(imp, local, _PJIT):
                plan = self.plans.get(
                    id(use),
                    f"`{local}` is used as a value at line {self.ctx.positions[use].start.line}",
                )
                if isinstance(plan, str):
                    reason = plan
                    break
                plans.append(plan)
            if not self.deprecated and not any(p.removed for p in plans):
                continue
            fix = None
            if reason is None:
                fix = self._import_fix(imp, alias, local, plans)
            self._report(alias, _PJIT, plans, fix, reason)

    def _import_fix(
        self, imp: cst.ImportFrom, alias: cst.ImportAlias, local: str, plans: list[ArgEdits]
    ) -> Callable[[], list[FixOp]]:
        renames = self._renames(imp, alias, local) if self.deprecated else None

        def fix() -> list[FixOp]:
            ops: list[FixOp] = [ReplaceNode(n, t) for p in plans for n, t in p.edits]
            if renames is not None:
                ops.extend(renames)
            elif self.deprecated:
                new = "from jax import jit" + ("" if local == "jit" else f" as {local}")
                ops.append(ReplaceNode(imp, rewrite_import(self, imp, [alias], [new])))
            return ops

        return fix

    def _renames(
        self, imp: cst.ImportFrom, alias: cst.ImportAlias, local: str
    ) -> list[FixOp] | None:
        """Each use of the imported ``pjit`` spelled ``jax.jit`` (what a maintainer
        writes after the migration) and the import dropped; ``None`` when a use cannot
        spell ``jax.jit`` (the name ``jax`` is taken there) or the import cannot be
        dropped (it is not a statement of its own at module level): the import is then
        rewritten to ``from jax import jit as pjit``."""
        ops: list[FixOp] = []
        for use in self.uses_of_import(imp, local, _PJIT):
            s = Speller(self, use)
            text = s("jax.jit")
            if not s.ok:
                return None
            ops.append(ReplaceNode(use, text))
            ops.extend(op for op in s.ops if op not in ops)
        rest = rewrite_import(self, imp, [alias], [])
        if rest:
            ops.append(ReplaceNode(imp, rest))
            return ops
        line = next(
            (
                stmt
                for stmt in self.ctx.module.body
                if isinstance(stmt, cst.SimpleStatementLine)
                and len(stmt.body) == 1
                and stmt.body[0] is imp
            ),
            None,
        )
        if line is None:
            return None
        if RequireImport("jax") in ops:  # the import becomes the ``import jax`` it needs
            ops = [op for op in ops if op != RequireImport("jax")]
            ops.append(ReplaceNode(line, "import jax"))
        else:
            ops.append(ReplaceNode(line, ""))
        return ops
