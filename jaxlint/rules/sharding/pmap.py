"""JAX501 pmap: uses of ``jax.pmap`` (in maintenance mode since JAX 0.8.0), rewritten to
``jax.jit`` of ``jax.shard_map`` of ``jax.vmap`` over all devices."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from jaxlint.rules.base import Examples, Rule
from jaxlint.rules.sharding.helpers import (
    PARTIAL,
    Rewrite,
    import_and_uses_fix,
    positional,
)
from jaxlint.rules.sharding.pmap_analysis import (
    _PMAP_MAINTENANCE_SINCE,
    GUIDE,
    PmapChecks,
    _PmapCall,
)

if TYPE_CHECKING:
    from jaxlint.engine import FileContext


EXAMPLES = Examples(__file__)


class Pmap(PmapChecks, Rule):
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
`from jax import pmap` once, at the import (only when the imported name is used: an
unused import maps nothing and has nothing to migrate).

**In tests.** Silent in test files (`tests/`, `test_*.py`, `*_test.py`,
`conftest.py`): there `pmap` is almost always the subject of the test (the
library checks that its code still works for users who run `pmap`), which still
works on JAX 0.12; the library's own `pmap` code is reported, and migrating it is
what moves its tests.

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

def train(train_step, state, batch):
    p_step = jax.pmap(train_step, axis_name="batch", in_axes=(0, None))
    return p_step(state, batch)
```

## Use instead
```python
import jax

def train(train_step, state, batch):
    p_step = jax.jit(jax.shard_map(jax.vmap(train_step, in_axes=(0, None)), mesh=jax.make_mesh((jax.device_count(),), ("batch",), axis_types=(jax.sharding.AxisType.Auto,)), in_specs=(jax.P("batch"), jax.P()), out_specs=jax.P("batch"), check_vma=False))
    return p_step(state, batch)
```
This is the simple pattern the fix rewrites (a `@jax.pmap` decorator becomes
`@jax.jit`, `@jax.shard_map(...)` and `@jax.vmap`): a decorator or a call with the
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

The fix is also withheld, with the reason in the message, where it would
break code it can see or cannot see the code it affects:
- a call site passes keyword arguments (`p_step(state, batch=b)`) or
  `**kwargs`: `pmap` maps keyword arguments, but the `shard_map`-wrapped
  function raises `TypeError: ... got an unexpected keyword argument`;
- the pmapped function's call sites cannot be seen: it is returned, passed,
  stored in a container or an attribute, used as a value anywhere in the file,
  or it is a method (called through `self.`);
- it is built at import time (module or class level) and not called right
  there: the rewrite builds its mesh with `jax.make_mesh`, which initialises
  the backend on import, and a later `jax.distributed.initialize()` then
  raises `RuntimeError` (checked on JAX 0.12; `jax.pmap(f)` itself starts
  nothing until it is called). Move the `pmap` into the function that sets
  up training, then fix it. `jax.pmap(f)(x)` at module level keeps its fix:
  the call starts the backend there anyway.

## Fix safety
Unsafe. Checked on JAX 0.12 with 8 CPU devices for `psum`, `pmean`, `pmax`,
`all_gather`, `ppermute`, `axis_index`, pytree and scalar outputs,
`in_axes=(0, None)`, `fori_loop` bodies and decorators (same numbers, shapes
and output sharding as `pmap`). The differences: the mesh spans all
`jax.device_count()` devices, while `pmap` uses as many devices as the mapped
axis is long (an input with 4 rows on 8 devices worked with `pmap` and fails
with `shard_map`); the rewritten function takes positional arguments only
(`pmap` also mapped keyword arguments), which is why the fix is offered only
where every call site is in view and positional; multi-process programs need global
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
            "valid_test_of_pmap_support.py",
            filename="tests/test_buffer.py",
            note="a test file: `pmap` is what the test checks",
        ),
        EXAMPLES.valid(
            "valid_unused_import_nothing_to_migrate.py",
            note="an imported `pmap` that is never used maps nothing: no use to migrate",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_chex_s_fake_pmap_copies.py", note="chex's fake_pmap copies pmap's metadata"
        ),
        EXAMPLES.valid(
            "valid_compared_called_haiku_tests.py", note="compared, not called (haiku tests)"
        ),
    ]
    INVALID = [
        EXAMPLES.invalid("invalid_jax_pmap.py", line=4, column=6, unsafe_fix=True),
        EXAMPLES.invalid(
            "invalid_module_level_decorator_no_fix.py",
            line=3,
            unsafe_fix=True,
            message_contains="no automatic rewrite: it runs at import",
            note="a module-level rewrite would build the mesh at import: no fix",
        ),
        EXAMPLES.invalid(
            "invalid_return_jax_pmap_step_axis_name.py", line=4, column=14, unsafe_fix=True
        ),
        EXAMPLES.invalid(
            "invalid_returned_pmap_no_fix.py",
            unsafe_fix=True,
            message_contains="its call sites (which may pass keyword arguments) cannot be seen",
            note="returned: the callers are elsewhere, no fix",
        ),
        EXAMPLES.invalid(
            "invalid_keyword_call_site_no_fix.py",
            line=5,
            unsafe_fix=True,
            message_contains="`p_mul` is called with keyword arguments at line 6",
            note="a keyword call site: the shard_map-wrapped function would raise TypeError",
        ),
        EXAMPLES.invalid(
            "invalid_partial_jax_pmap_axis_name_i.py", line=6, column=14, unsafe_fix=True
        ),
        EXAMPLES.invalid(
            "invalid_jax_import_jit_pmap.py", count=1, line=1, column=22, unsafe_fix=True
        ),
        EXAMPLES.invalid(
            "invalid_rebound_same_name.py",
            unsafe_fix=True,
            note="`f = jax.pmap(f)`: the argument is the old `f`, the other branch another",
        ),
        EXAMPLES.invalid(
            "invalid_module_level_called_at_once.py",
            unsafe_fix=True,
            note="called where it is built: the backend starts there anyway, so the fix stays",
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
            "invalid_named_in_axes_static_broadcast_no_fix.py",
            line=8,
            message_contains="no automatic rewrite: `static_broadcasted_argnums`",
            note="the option with no `shard_map` spelling is the reason, not the `in_axes`"
            " given through a name (jact's solvers)",
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
        EXAMPLES.invalid(
            "invalid_mapped_jax_pmap_step_axis_name.py",
            unsafe_fix=True,
            message_contains="not bound to a name",
        ),
    ]

    def __init__(self, ctx: FileContext) -> None:
        super().__init__(ctx)
        # test files: a test of the code's pmap support is kept while users run pmap
        self.enabled = ctx.target_jax >= _PMAP_MAINTENANCE_SINCE and not ctx.is_test_file
        self.rewrites: dict[int, Rewrite | str] = {}
        """id of a pmap reference -> its rewrite, or why there is none."""
        self.imported: list[tuple[cst.ImportFrom, cst.ImportAlias, str]] = []
        self.uses: list[cst.Attribute] = []
        """``jax.pmap`` attribute uses, reported at the end of the file (call sites first)."""
        self.sites: dict[int, tuple[cst.CSTNode, bool]] = {}
        """id of a pmap reference -> (its ``pmap(...)`` call or decorated def, whether that
        runs at import time)."""
        self.callee_of: dict[int, cst.Call] = {}
        """id of a callee expression -> its call."""
        self.bound_to: dict[int, cst.Name] = {}
        """id of an assigned value -> its single plain-name target."""
        self.methods: set[int] = set()

    def visit_Assign(self, node: cst.Assign) -> None:
        super().visit_Assign(node)
        if len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Name):
            self.bound_to[id(node.value)] = node.targets[0].target

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        super().visit_AnnAssign(node)
        if node.value is not None and isinstance(node.target, cst.Name):
            self.bound_to[id(node.value)] = node.target

    def visit_Decorator(self, node: cst.Decorator) -> None:
        if not self.enabled:
            return
        fn = self.containers[-1]  # the decorated def: entered before its decorators
        site = (fn, self._at_import(skip=1))
        if len(self.containers) > 1 and isinstance(self.containers[-2], cst.ClassDef):
            self.methods.add(id(fn))
        dec = node.decorator
        if self._is_pmap(dec):
            self.sites[id(dec)] = site
            self.rewrites[id(dec)] = self._plan(
                dec, _PmapCall(None, None, None, None), replace=dec, decorator=node
            )
            return
        if isinstance(dec, cst.Call) and self.model.call_name(dec) in PARTIAL:
            pos = positional(dec)
            if pos and pos[0] is dec.args[0] and self._is_pmap(pos[0].value):
                ref = pos[0].value
                self.sites[id(ref)] = site
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
        self.callee_of[id(node.func)] = node
        if self.model.call_name(node) == "functools.wraps" and node.args:
            self.in_collection.add(id(node.args[0].value))  # copies metadata only
        if not self._is_pmap(node.func):
            return
        if id(node.func) in self.rewrites:
            return
        self.sites[id(node.func)] = (node, self._at_import())
        opts = self._options(node.args, has_fun=True)
        if isinstance(opts, str):
            self.rewrites[id(node.func)] = opts
        else:
            self.rewrites[id(node.func)] = self._plan(node.func, opts, replace=node)

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if not self.enabled or not self._is_pmap(node) or id(node) in self.in_collection:
            return  # ``(jax.vmap, jax.pmap)``: a list of transforms, nothing is mapped
        self.uses.append(node)

    def leave_Module(self, node: cst.Module) -> None:
        for use in self.uses:
            self._report_use(use)
        for imp, alias, local in self.imported:
            uses = self.uses_of_import(imp, local, "jax.pmap")
            if not uses or all(id(u) in self.in_collection for u in uses):
                continue  # nothing maps: an unused import, or a list of transforms
            rewrites: list[Rewrite] = []
            reason: str | None = None
            for use in uses:
                plan = self._plan_for(
                    use,
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
