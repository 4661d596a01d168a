"""JAX504 experimental-shard-map: ``jax.experimental.shard_map.shard_map`` (deprecated since
JAX 0.8.0), rewritten to ``jax.shard_map`` with keyword options."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import libcst as cst

from jaxlint.diagnostics import Applicability
from jaxlint.rules.base import Examples, FixOp, ReplaceNode, Rule
from jaxlint.rules.sharding.helpers import (
    MESH_CONSTRUCTORS,
    PARTIAL,
    ArgEdits,
    Facts,
    Speller,
    import_hits,
    is_reference,
    rewrite_import,
)

if TYPE_CHECKING:
    from jaxlint.engine import FileContext

EXAMPLES = Examples(__file__)


_LEGACY_SHARD_MAP = "jax.experimental.shard_map.shard_map"
_SHARD_MAP = "jax.shard_map"
_LEGACY_KEYWORDS = {"check_rep": "check_vma", "auto": "axis_names"}
_LEGACY_SHARD_MAP_DEPRECATED = (0, 8, 0)
_LEGACY_SHARD_MAP_PARAMS = ("f", "mesh", "in_specs", "out_specs", "check_rep", "auto")


class ExperimentalShardMap(Facts, Rule):
    code = "JAX504"
    required_names = frozenset({"shard_map"})
    name = "experimental-shard-map"
    message = "{what}{detail}"
    fix_availability = "sometimes"
    probe = "jaxlint probe compile FILE.py:FUNC"
    docs = """\
## What it does
Flags `jax.experimental.shard_map.shard_map` when the target JAX is 0.8.0 or
newer: attribute uses (`shard_map.shard_map(...)`) at each use, `from
jax.experimental.shard_map import shard_map` once, at the import.
It also flags `jax.shard_map` (directly or through `functools.partial`) called
with the experimental function's `check_rep=` or `auto=` (a half-done
migration: `jax.shard_map` raises `TypeError` on both) and renames them as
below.

## Why is this bad
`jax.shard_map` is public since JAX 0.6.1 and the experimental one is
deprecated since 0.8.0 (`DeprecationWarning: jax.experimental.shard_map is
deprecated in v0.8.0. Used jax.shard_map instead.`). The new function takes
its options as keywords only (`mesh=`, `in_specs=`, `out_specs=`), renames
`check_rep` to `check_vma`, and replaces `auto=` (the axes that stay
automatic) by `axis_names=` (the axes that become manual: the complement).
`auto=` raises `TypeError` on both functions since 0.8.0.

## Example
```python
from jax.experimental.shard_map import shard_map

f = shard_map(body, mesh, P("x"), P(), check_rep=False, auto=frozenset({"y"}))
```

## Use instead
```python
from jax import shard_map

f = shard_map(body, mesh=mesh, in_specs=P("x"), out_specs=P(), check_vma=False, axis_names=frozenset(mesh.axis_names) - frozenset({"y"}))
```
(`axis_names=frozenset({"x"})` where the mesh is built in view with axis names
`("x", "y")`.)

## Fix safety
Safe when mechanical: on JAX 0.12 the experimental function is
`jax.shard_map` with `check_vma=check_rep` and no manual-axis subset (read
from its source, and checked for equal results with 8 CPU devices).
`auto=A` becomes the manual axes written out, `axis_names=frozenset({"data"})`,
when `A` is a set of strings and the mesh is a variable whose one assigned
value is `jax.make_mesh`/`Mesh` with its axis names written as strings (what a
maintainer writes); otherwise
`axis_names=frozenset(mesh.axis_names) - frozenset(A)` when the mesh argument
is a variable or attribute; with another mesh expression the complement would
evaluate it twice, so the fix is shown but not applied.
`*args`/`**kwargs` and `shard_map` used as a plain value get no fix.

## Verify at runtime
`jaxlint probe compile FILE.py:FUNC` on a function that calls the rewritten
`shard_map` traces, lowers and compiles it (use
`XLA_FLAGS=--xla_force_host_platform_device_count=8` on a CPU-only machine).
"""
    VALID = [
        EXAMPLES.valid(
            "valid_jax_shard_map_check_vma.py", runs=True, note="jax.shard_map with check_vma"
        ),
        EXAMPLES.valid("valid_current_jax_shard_map.py", runs=True, note="current jax.shard_map"),
        EXAMPLES.valid("valid_return.py"),
        EXAMPLES.valid("valid_f_shard_map_g_mesh_p.py", target_jax="0.7.0"),
        EXAMPLES.valid("valid_f_shard_map_g_mesh_p_2.py"),
        EXAMPLES.valid("valid_version_compat_import.py", note="version-compat import"),
        EXAMPLES.valid("valid_f_jax_smap_g_axes_0.py"),
        EXAMPLES.valid("valid_d_mesh_utils_create_device_mesh.py"),
        EXAMPLES.valid("valid_f_shard_map_g_mesh_m.py"),
    ]
    INVALID = [
        EXAMPLES.invalid(
            "invalid_jax_shard_map_check_rep.py",
            line=6,
            column=5,
            message_contains="`jax.shard_map` does not take `check_rep`",
            raises="TypeError",
            note="jax.shard_map with the experimental keyword check_rep: renamed check_vma",
        ),
        EXAMPLES.invalid(
            "invalid_partial_jax_shard_map_auto.py",
            line=10,
            raises="TypeError",
            note="through functools.partial; auto= becomes axis_names= (the complement)",
        ),
        EXAMPLES.invalid(
            "invalid_jax_experimental_shard_map_import_shard.py", count=1, line=1, column=40
        ),
        EXAMPLES.invalid("invalid_return_shard_map_shard_map_body.py", line=5, column=12),
        EXAMPLES.invalid("invalid_return.py"),
        EXAMPLES.invalid(
            "invalid_auto_raises_typeerror_since_0.py",
            raises="TypeError",
            note="auto= raises TypeError since 0.8.0",
        ),
        EXAMPLES.invalid(
            "invalid_auto_with_mesh_axes_from_a_variable.py",
            raises="TypeError",
            note="the mesh's axis names are not written out: the complement is computed",
        ),
        EXAMPLES.invalid(
            "invalid_f_shm_shard_map_g_make.py",
            message_contains="the mesh expression would be evaluated twice",
        ),
        EXAMPLES.invalid(
            "invalid_wrappers_sm_shard_map.py",
            message_contains="no automatic rewrite: `shard_map` is used as a value at line 3",
        ),
    ]

    def __init__(self, ctx: FileContext) -> None:
        super().__init__(ctx)
        self.enabled = ctx.target_jax >= _LEGACY_SHARD_MAP_DEPRECATED
        self.plans: dict[int, ArgEdits | str] = {}
        self.imported: list[tuple[cst.ImportFrom, cst.ImportAlias, str]] = []

    def _is_legacy(self, expr: cst.BaseExpression) -> bool:
        return self.model.qualified_name(expr) == _LEGACY_SHARD_MAP

    def visit_Call(self, node: cst.Call) -> None:
        if not self.enabled:
            return
        if self._is_legacy(node.func):
            self.plans[id(node.func)] = self._arg_edits(node.args)
        elif self.model.call_name(node) in PARTIAL and node.args and not node.args[0].keyword:
            first = node.args[0].value
            if not node.args[0].star and self._is_legacy(first):
                self.plans[id(first)] = self._arg_edits(node.args[1:])
            elif not node.args[0].star and self.model.qualified_name(first) == _SHARD_MAP:
                self._legacy_keywords(first, node.args[1:])
        elif self.model.call_name(node) == _SHARD_MAP:
            self._legacy_keywords(node.func, node.args)

    def _legacy_keywords(self, func: cst.BaseExpression, args: Sequence[cst.Arg]) -> None:
        """``jax.shard_map(f, ..., check_rep=...)``: a half-done migration. ``jax.shard_map``
        takes ``check_vma`` and ``axis_names``; ``check_rep``/``auto`` raise TypeError."""
        old = [a.keyword.value for a in args if a.keyword and a.keyword.value in _LEGACY_KEYWORDS]
        if not old:
            return
        plan = self._arg_edits(args)
        used = self.ctx.code(func)
        what = (
            f"`{used}` does not take `{old[0]}` (the experimental `shard_map`'s keyword): the"
            f" call raises TypeError; use `{_LEGACY_KEYWORDS[old[0]]}`"
        )
        if isinstance(plan, str):
            self._report(func, used, [], None, plan, what=what)
            return

        def fix() -> list[FixOp]:
            return [ReplaceNode(n, t) for n, t in plan.edits]

        self._report(func, used, [plan], fix, None, what=what)

    def _arg_edits(self, args: Sequence[cst.Arg]) -> ArgEdits | str:
        if any(a.star for a in args):
            return "it passes `*args` or `**kwargs`"
        code = self.ctx.code
        out = ArgEdits([])
        positional = [a for a in args if a.keyword is None]
        if len(positional) > len(_LEGACY_SHARD_MAP_PARAMS):
            return "too many positional arguments"
        given: dict[str, cst.Arg] = {}
        for index, arg in enumerate(positional):
            given[_LEGACY_SHARD_MAP_PARAMS[index]] = arg
        for arg in args:
            if arg.keyword is not None:
                if arg.keyword.value not in _LEGACY_SHARD_MAP_PARAMS:
                    return f"`{arg.keyword.value}`"
                given[arg.keyword.value] = arg
        for name, arg in given.items():
            value = code(arg.value)
            if name == "f":
                if arg.keyword is not None:
                    return "`f=` passed by keyword"
                continue
            if name == "check_rep":
                out.edits.append((arg, f"check_vma={value}"))
            elif name == "auto":
                mesh = given.get("mesh")
                if mesh is None:
                    return "`auto=` without a mesh"
                if not is_reference(mesh.value):
                    out.safe = False  # shown, not applied
                auto = arg.value
                if not (
                    isinstance(auto, cst.Call)
                    and self.model.call_name(auto) in ("builtins.frozenset", "builtins.set")
                ):
                    value = f"frozenset({value})"
                literal = self._literal_complement(mesh.value, auto)
                if literal is not None:
                    value = literal
                else:
                    value = f"frozenset({code(mesh.value)}.axis_names) - {value}"
                out.edits.append((arg, f"axis_names={value}"))
            elif arg.keyword is None:
                out.edits.append((arg, f"{name}={value}"))
        return out

    def _literal_complement(self, mesh: cst.BaseExpression, auto: cst.BaseExpression) -> str | None:
        """``frozenset({"data"})`` when the mesh is a name whose one value is
        ``jax.make_mesh``/``Mesh`` with axis names written as strings, and
        ``auto`` is a set of strings among them: the manual axes spelled out, as a
        maintainer writes them (the mesh's quotes, its order)."""
        names = self._mesh_axis_names(mesh)
        auto_names = _string_set(auto)
        if names is None or auto_names is None:
            return None
        values = [n.evaluated_value for n in names]
        if not auto_names <= set(values):
            return None
        manual = [
            self.ctx.code(n) for n, v in zip(names, values, strict=True) if v not in auto_names
        ]
        if not manual:
            return None
        body = "{" + ", ".join(manual) + "}"
        return body if isinstance(auto, cst.Set) else f"frozenset({body})"

    def _mesh_axis_names(self, mesh: cst.BaseExpression) -> list[cst.SimpleString] | None:
        """The axis names of the mesh a name certainly holds (one value, ``jax.make_mesh``
        or ``Mesh``), where they are written as strings."""
        values = self._values(mesh) if isinstance(mesh, cst.Name) else None
        if values is None or len(values) != 1:
            return None
        value = values[0]
        if not isinstance(value, cst.Call) or self.model.call_name(value) not in MESH_CONSTRUCTORS:
            return None
        names = next(
            (a.value for a in value.args if a.keyword and a.keyword.value == "axis_names"), None
        )
        positional = [a.value for a in value.args if a.keyword is None]
        if names is None and len(positional) >= 2:
            names = positional[1]
        if not isinstance(names, (cst.Tuple, cst.List)):
            return None
        out = [e.value for e in names.elements if isinstance(e, cst.Element)]
        if len(out) != len(names.elements) or not all(isinstance(n, cst.SimpleString) for n in out):
            return None
        return out  # type: ignore[return-value]

    def _report(
        self,
        node: cst.CSTNode,
        used: str,
        plans: Sequence[ArgEdits],
        fix: Callable[[], list[FixOp]] | None,
        reason: str | None,
        what: str | None = None,
    ) -> None:
        safe = all(p.safe for p in plans)
        if reason is not None:
            detail = f"; no automatic rewrite: {reason}"
        elif not safe:
            detail = (
                "; `auto=` becomes `axis_names=` (the complement), but the mesh expression"
                " would be evaluated twice: bind it to a variable first"
            )
        else:
            detail = ""
        self.report(
            node,
            what=what or f"`{used}` is deprecated since JAX 0.8.0; use `jax.shard_map`",
            detail=detail,
            fix=fix,
            applicability=(Applicability.SAFE if safe else Applicability.DISPLAY_ONLY)
            if fix is not None
            else None,
            fix_message="Use `jax.shard_map` with keyword options",
        )

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if not self.enabled or not self._is_legacy(node):
            return
        plan = self.plans.get(id(node), "`shard_map` is used as a value")
        if isinstance(plan, str):
            self._report(node, self.ctx.code(node), [], None, plan)
            return
        s = Speller(self, node)
        text = s("jax.shard_map")
        if not s.ok:
            self._report(node, self.ctx.code(node), [plan], None, "the name `jax` is taken here")
            return

        def fix() -> list[FixOp]:
            return [*(ReplaceNode(n, t) for n, t in plan.edits), ReplaceNode(node, text), *s.ops]

        self._report(node, self.ctx.code(node), [plan], fix, None)

    def import_from(self, node: cst.ImportFrom) -> None:
        if self.enabled:
            for alias, local, _ in import_hits(self, node, {_LEGACY_SHARD_MAP: 1}.get):
                self.imported.append((node, alias, local))

    def leave_Module(self, node: cst.Module) -> None:
        for imp, alias, local in self.imported:
            plans: list[ArgEdits] = []
            reason = None
            for use in self.uses_of_import(imp, local, _LEGACY_SHARD_MAP):
                plan = self.plans.get(
                    id(use),
                    f"`{local}` is used as a value at line {self.ctx.positions[use].start.line}",
                )
                if isinstance(plan, str):
                    reason = plan
                    break
                plans.append(plan)
            fix = None
            if reason is None:
                new = "from jax import shard_map" + ("" if local == "shard_map" else f" as {local}")

                def fix(imp=imp, alias=alias, new=new, plans=plans) -> list[FixOp]:
                    ops: list[FixOp] = [ReplaceNode(n, t) for p in plans for n, t in p.edits]
                    ops.append(ReplaceNode(imp, rewrite_import(self, imp, [alias], [new])))
                    return ops

            self._report(alias, _LEGACY_SHARD_MAP, plans, fix, reason)


def _string_set(expr: cst.BaseExpression) -> set[str] | None:
    """The strings of ``{"a"}``, ``frozenset({"a"})``, ``set(("a",))`` or ``frozenset()``."""
    if isinstance(expr, cst.Call):
        if not isinstance(expr.func, cst.Name) or expr.func.value not in ("set", "frozenset"):
            return None
        if not expr.args:
            return set()
        if len(expr.args) != 1 or expr.args[0].keyword or expr.args[0].star:
            return None
        expr = expr.args[0].value
    if not isinstance(expr, (cst.Set, cst.Tuple, cst.List)):
        return None
    out = set()
    for element in expr.elements:
        if not isinstance(element, cst.Element) or not isinstance(element.value, cst.SimpleString):
            return None
        out.add(element.value.evaluated_value)
    return out
