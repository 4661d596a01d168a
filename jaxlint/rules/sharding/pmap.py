"""JAX501 pmap: uses of ``jax.pmap`` (in maintenance mode since JAX 0.8.0), rewritten to
``jax.jit`` of ``jax.shard_map`` of ``jax.vmap`` over all devices."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import libcst as cst

from jaxlint.diagnostics import Applicability
from jaxlint.rules.base import Examples, FixOp, ReplaceNode, Rule
from jaxlint.rules.sharding.helpers import (
    PARTIAL,
    Facts,
    Rewrite,
    Speller,
    bare,
    has_comment,
    import_and_uses_fix,
    import_hits,
    is_reference,
    is_string,
    positional,
    walk_all,
)

if TYPE_CHECKING:
    from jaxlint.engine import FileContext

EXAMPLES = Examples(__file__)


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


class Pmap(Facts, Rule):
    code = "JAX501"
    required_names = frozenset({"pmap"})
    name = "pmap"
    message = (
        "`{used}` is in maintenance mode since JAX 0.8.0 (it runs as `jit` of `shard_map`);"
        " use `jax.jit` + `jax.shard_map` over a mesh, see " + GUIDE + "{detail}"
    )
    fix_availability = "sometimes"
    probe = "jaxlint probe compile FILE.py:FUNC"
    docs = f"""\
## What it does
Flags every use of `jax.pmap` when the target JAX is 0.8.0 or newer: attribute
uses (`jax.pmap(...)`, `@jax.pmap`, `partial(jax.pmap, ...)`) at each use, and
`from jax import pmap` once, at the import.

## Why is this bad
Since JAX 0.8.0 `jax.pmap` is in maintenance mode: it is implemented as
`jax.jit` of `jax.shard_map` over a one-axis mesh (the old implementation was
removed in 0.10.0), and JAX recommends migrating to `jax.shard_map`, which can
map over several mesh axes, composes with `jax.jit` and sharded arrays, and
does not convert between host-local and global arrays on every call. Nested
`pmap`s no longer work at all. JAX's guide: {GUIDE}.

## Example
```python
import jax

@jax.pmap
def scale(x):
    return x * 2

p_step = jax.pmap(train_step, axis_name="batch", in_axes=(0, None))
```

## Use instead
```python
import jax

@jax.jit
@jax.shard_map(mesh=jax.make_mesh((jax.device_count(),), ('i',), axis_types=(jax.sharding.AxisType.Auto,)), in_specs=jax.P('i'), out_specs=jax.P('i'), check_vma=False)
@jax.vmap
def scale(x):
    return x * 2

p_step = jax.jit(jax.shard_map(jax.vmap(train_step, in_axes=(0, None)), mesh=jax.make_mesh((jax.device_count(),), ("batch",), axis_types=(jax.sharding.AxisType.Auto,)), in_specs=(jax.P("batch"), jax.P()), out_specs=jax.P("batch"), check_vma=False))
```
This is the simple pattern the fix rewrites: a decorator or a call with the
function, `axis_name` (a string or a variable), `in_axes` of `0` or a tuple of
`0`/`None`, `out_axes=0` and `donate_argnums` (moved to `jax.jit`). The mesh
axis keeps the pmap axis name, so `psum`/`pmean`/`all_gather`/`axis_index` by
name are unchanged. `shard_map` is rank-preserving (the function sees a block
of shape `(1, ...)` per device); the inner `jax.vmap` maps over that block so
the function still sees pmap's per-device shapes and its outputs get the
leading axis back. `check_vma=False` is what `pmap` itself passes. Once the
code works, drop the `vmap` and write the body for blocks, and prefer
`jax.set_mesh` with explicit shardings where it fits.

Anything else (`static_broadcasted_argnums`, `devices`, `backend`,
`axis_size`, `out_axes=None`, pytree `in_axes`, nested `pmap`) is reported
with a pointer to the guide and no fix.

## Fix safety
Unsafe. Checked on JAX 0.12 with 8 CPU devices for `psum`, `pmean`, `pmax`,
`all_gather`, `ppermute`, `axis_index`, pytree and scalar outputs,
`in_axes=(0, None)`, `fori_loop` bodies and decorators (same numbers, shapes
and output sharding as `pmap`). The differences: the mesh spans all
`jax.device_count()` devices, while `pmap` uses as many devices as the mapped
axis is long (an input with 4 rows on 8 devices worked with `pmap` and fails
with `shard_map`); the rewritten function takes positional arguments only
(`pmap` also mapped keyword arguments); multi-process programs need global
arrays (`jax.make_array_from_process_local_data`) instead of host-local ones.

## Verify at runtime
Run `jaxlint probe compile FILE.py:FUNC` on the rewritten function (with
`XLA_FLAGS=--xla_force_host_platform_device_count=8` on a CPU-only machine):
it traces, lowers and compiles it, and the `eval_shape` stage shows the output
shapes, which match what `pmap` returned.
"""
    VALID = [
        EXAMPLES.valid("valid_current_jax_shard_map.py", note="current jax.shard_map", runs=True),
        EXAMPLES.valid("valid_p_step_jax_pmap_step_axis.py", target_jax="0.7.2"),
        EXAMPLES.valid("valid_flax_s_own_pmap.py", note="flax's own pmap"),
        EXAMPLES.valid("valid_mapped_jax_vmap_f_axis_name.py"),
        EXAMPLES.valid("valid_local_pmap.py", note="a local pmap"),
        EXAMPLES.valid("valid_y_jax_jit_lambda_x_x.py", runs=True),
        EXAMPLES.valid("valid_shadowed_module.py", note="shadowed module"),
        EXAMPLES.valid("valid_text_code.py", note="text, not code"),
        EXAMPLES.valid(
            "valid_two_bindings_certainly_jax_pmap.py", note="two bindings: not certainly jax.pmap"
        ),
        EXAMPLES.valid(
            "valid_listed_identity_check_equinox_nothing.py",
            note="listed for an identity check (equinox), nothing is mapped",
        ),
        EXAMPLES.valid("valid_only_use_tuple.py", note="the only use is in a tuple"),
        EXAMPLES.valid(
            "valid_chex_s_fake_pmap_copies.py", note="chex's fake_pmap copies pmap's metadata"
        ),
        EXAMPLES.valid(
            "valid_compared_called_haiku_tests.py", note="compared, not called (haiku tests)"
        ),
    ]
    INVALID = [
        EXAMPLES.invalid("invalid_jax_pmap.py", line=3, column=2, unsafe_fix=True),
        EXAMPLES.invalid(
            "invalid_return_jax_pmap_step_axis_name.py", line=4, column=12, unsafe_fix=True
        ),
        EXAMPLES.invalid(
            "invalid_partial_jax_pmap_axis_name_i.py", line=5, column=10, unsafe_fix=True
        ),
        EXAMPLES.invalid(
            "invalid_jax_import_jit_pmap.py", count=1, line=1, column=22, unsafe_fix=True
        ),
        EXAMPLES.invalid(
            "invalid_p_jax_pmap_f_axis_name.py",
            message_contains="no automatic rewrite: `static_broadcasted_argnums`",
            unsafe_fix=True,
        ),
        EXAMPLES.invalid(
            "invalid_outs_j_pmap_f_devices_d.py", message_contains="migrate_pmap.html"
        ),
        EXAMPLES.invalid(
            "invalid_scalar_per_device_vmap_keeps.py",
            line=8,
            unsafe_fix=True,
            note="a scalar per device: the vmap keeps pmap's output shape",
        ),
        EXAMPLES.invalid(
            "invalid_import_needed_list_fix.py",
            message_contains="no automatic rewrite: `pmap` is used as a value at line 6",
            note="the import is needed by the list: no fix",
        ),
        EXAMPLES.invalid("invalid_mapped_jax_pmap_step_axis_name.py", unsafe_fix=True),
    ]

    def __init__(self, ctx: FileContext) -> None:
        super().__init__(ctx)
        self.enabled = ctx.target_jax >= _PMAP_MAINTENANCE_SINCE
        self.rewrites: dict[int, Rewrite | str] = {}
        """id of a pmap reference -> its rewrite, or why there is none."""
        self.imported: list[tuple[cst.ImportFrom, cst.ImportAlias, str]] = []

    # -- finding the patterns

    def _is_pmap(self, expr: cst.BaseExpression) -> bool:
        return self.model.qualified_name(expr) == "jax.pmap"

    def visit_Decorator(self, node: cst.Decorator) -> None:
        if not self.enabled:
            return
        dec = node.decorator
        if self._is_pmap(dec):
            self.rewrites[id(dec)] = self._plan(
                dec, _PmapCall(None, None, None, None), replace=dec, decorator=node
            )
            return
        if isinstance(dec, cst.Call) and self.model.call_name(dec) in PARTIAL:
            pos = positional(dec)
            if pos and pos[0] is dec.args[0] and self._is_pmap(pos[0].value):
                ref = pos[0].value
                opts = self._options(dec.args[1:], has_fun=False)
                if isinstance(opts, str):
                    self.rewrites[id(ref)] = opts
                else:
                    self.rewrites[id(ref)] = self._plan(
                        ref, opts, replace=dec, decorator=node, partial=dec.func
                    )

    def visit_Call(self, node: cst.Call) -> None:
        if not self.enabled:
            return
        if self.model.call_name(node) == "functools.wraps" and node.args:
            self.in_collection.add(id(node.args[0].value))  # copies metadata only
        if not self._is_pmap(node.func):
            return
        if id(node.func) in self.rewrites:
            return
        opts = self._options(node.args, has_fun=True)
        if isinstance(opts, str):
            self.rewrites[id(node.func)] = opts
        else:
            self.rewrites[id(node.func)] = self._plan(node.func, opts, replace=node)

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
        for arg in args:
            if arg.keyword is None:
                continue
            key = arg.keyword.value
            if key not in _PMAP_OPTIONS:
                return f"`{key}`"
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

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if not self.enabled or not self._is_pmap(node) or id(node) in self.in_collection:
            return  # ``(jax.vmap, jax.pmap)``: a list of transforms, nothing is mapped
        plan = self.rewrites.get(id(node), "`jax.pmap` is used as a value")
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

    def leave_Module(self, node: cst.Module) -> None:
        for imp, alias, local in self.imported:
            uses = self.uses_of_import(imp, local, "jax.pmap")
            if uses and all(id(u) in self.in_collection for u in uses):
                continue
            rewrites: list[Rewrite] = []
            reason: str | None = None
            for use in uses:
                plan = self.rewrites.get(
                    id(use),
                    f"`{local}` is used as a value at line {self.ctx.positions[use].start.line}",
                )
                if isinstance(plan, str):
                    reason = plan
                    break
                rewrites.append(plan)
            fix = None
            if reason is None:
                fix = import_and_uses_fix(self, imp, alias, rewrites)
            self._report(alias, "jax.pmap", fix, reason)
