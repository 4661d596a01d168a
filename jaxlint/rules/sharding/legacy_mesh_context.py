"""JAX502 legacy-mesh-context: a ``Mesh`` entered as a context manager (``with mesh:``) and
``jax.sharding.use_mesh``, both replaced by ``jax.set_mesh``."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from jaxlint.diagnostics import Applicability
from jaxlint.rules.api_drift.guards import jax_hasattr
from jaxlint.rules.base import Examples, ReplaceNode, Rule
from jaxlint.rules.sharding.helpers import (
    Speller,
    rewrite_import,
)
from jaxlint.rules.sharding.legacy_mesh_context_analysis import (
    _MESH_CONTEXT_DEPRECATED,
    _USE_MESH_REMOVED,
    LegacyMeshContextChecks,
)

if TYPE_CHECKING:
    from jaxlint.engine import FileContext


EXAMPLES = Examples(__file__)


class LegacyMeshContext(LegacyMeshContextChecks, Rule):
    code = "JAX502"
    required_names = frozenset({"Mesh", "make_mesh", "use_mesh"})
    project_names = r"^[ \t]*(?:async[ \t]+)?with\b"
    name = "legacy-mesh-context"
    message = "{what}; use `{replacement}`{detail}"
    fix_availability = "sometimes"
    probe = "jaxlint probe env"
    docs = """\
## What it does
Flags a `Mesh` entered as a context manager (`with mesh:`, `with Mesh(...) as
m:`, `with self.mesh:`) when the target JAX is 0.10.1 or newer, and
`jax.sharding.use_mesh(...)` when it is 0.7.1 or newer. The expression must
certainly be a mesh: a `Mesh(...)`/`jax.make_mesh(...)` call, a variable or
`self` attribute assigned only such calls, or a parameter or field annotated
`jax.sharding.Mesh`. Anything else named `mesh` is left alone.

## Why is this bad
`with mesh:` is deprecated since JAX 0.10.1 (`DeprecationWarning: `with mesh:`
context manager has been deprecated. Please use `with jax.set_mesh(mesh):`
instead.`), and on current JAX it no longer sets the mesh that `jax.jit` with
`PartitionSpec` shardings, `jax.shard_map` without `mesh=`,
`jax.sharding.get_abstract_mesh()` (read by Flax NNX) and explicit sharding
read: `jax.jit(f, in_shardings=P('x'))` called inside `with mesh:` raises
`RuntimeError: jit requires a non-empty mesh in context`. `jax.sharding.use_mesh`
existed only in JAX 0.5.0-0.7.0 and raises `AttributeError` on later versions.

## Example
```python
import jax
from jax.sharding import Mesh

mesh = Mesh(jax.devices(), ("x",))
with mesh:
    y = step(x)
with Mesh(jax.devices(), ("x",)) as m:
    y = step(x)
```

## Use instead
```python
import jax
from jax.sharding import Mesh

mesh = Mesh(jax.devices(), ("x",))
with jax.set_mesh(mesh):
    y = step(x)
with jax.set_mesh(m := Mesh(jax.devices(), ("x",))):
    y = step(x)
```
`jax.set_mesh(mesh)` binds `None` with `as`, so `with Mesh(...) as m:` keeps
its name through an assignment expression.

## Fix safety
`with mesh:` sets JAX's legacy thread-local mesh (`jax._src.mesh.thread_resources`);
`jax.set_mesh` sets only the new context mesh. Checked on JAX 0.12 with 8 CPU
devices: under `jax.set_mesh`, `thread_resources.env.physical_mesh` is empty, so
whatever finds the mesh there loses it: `pjit` with bare `PartitionSpec`s raises
`RuntimeError: pjit requires a non-empty mesh in context`, an eager
`jax.lax.with_sharding_constraint(x, P('x'))` on an array on one device raises
`TypeError` (it worked under `with mesh:`), `custom_partitioning` reads it
(JAX's source), and so do older third-party libraries.

So the fix is safe only when nothing the block runs can read the legacy
context: every call in the block (and in the other items of the `with`) is a
JAX or NumPy function that does not (not `pjit`, `with_sharding_constraint`
outside `jit`, `custom_partitioning`, `jax.experimental.*` mesh APIs, or a
function that runs a callable it is given, such as `lax.scan`), a builtin, an
array method such as `.block_until_ready()`, or a function of this file
(a `def` or `lambda`, maybe wrapped in `jax.jit`/`jax.vmap`...) whose body
passes the same test; a block with no calls is safe. Anything else (a function
imported from another module, a method of an object, a `yield` that runs the
caller's code under the mesh, any use of `jax.experimental.pjit` in the file) makes
the fix unsafe, and the fix message names the call. `with_sharding_constraint`
inside a jitted function of this file is fine: under `jit` it reads the new
context first, with the same numbers and shardings.

Where the fix is applied, `jax.jit` with `PartitionSpec`s and `jax.shard_map`
without `mesh=` start working, and `jax.jit` with `NamedSharding`s is unchanged.
One more difference remains even where the fix is called safe: eager operations
inside `jax.set_mesh` on arrays placed on one device return arrays replicated
over the mesh (same values, `NamedSharding(mesh, P())` instead of
`SingleDeviceSharding`). `use_mesh` -> `set_mesh` is safe inside `with` (both
are context managers) and unsafe as a bare call (`jax.set_mesh(mesh)` then sets
the mesh globally).

## Verify at runtime
`jaxlint probe env` prints the installed JAX version and the devices: `with
mesh:` warns from 0.10.1 on, and `jax.sharding.use_mesh` is missing outside
0.5.0-0.7.0.
"""
    VALID = [
        EXAMPLES.valid("valid_y_jax_numpy_ones_4_2.py", runs=True),
        EXAMPLES.valid(
            "valid_variable_named_mesh_mesh.py", note="a variable named mesh that is not a Mesh"
        ),
        EXAMPLES.valid(
            "valid_unannotated_parameter_unknown.py", note="an unannotated parameter: unknown"
        ),
        EXAMPLES.valid("valid_other_context_managers.py", note="other context managers"),
        EXAMPLES.valid("valid_pass.py", target_jax="0.9.0"),
        EXAMPLES.valid(
            "valid_use_mesh_feature_detection.py",
            note='`if hasattr(jax.sharding, "use_mesh")`: the branch never runs on JAX 0.12',
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_use_mesh_current_spelling_there.py",
            target_jax="0.6.0",
            note="use_mesh is the current spelling there",
        ),
        EXAMPLES.valid("valid_assigned_something_else_too.py", note="assigned something else too"),
        EXAMPLES.valid(
            "valid_self_mesh_unannotated_parameter.py",
            note="self.mesh from an unannotated parameter",
        ),
        EXAMPLES.valid("valid_pass_2.py", runs=True),
    ]
    INVALID = [
        EXAMPLES.invalid(
            "invalid_mesh.py",
            line=5,
            column=6,
            message_contains="`with mesh:` is deprecated since JAX 0.10.1",
        ),
        EXAMPLES.invalid(
            "invalid_jit_bare_specs_needs_new.py",
            raises="RuntimeError",
            note="jit with bare specs needs the new context",
        ),
        EXAMPLES.invalid(
            "invalid_y_jnp_ones_3.py",
            raises="AttributeError",
            message_contains="removed in JAX 0.7.1",
        ),
        EXAMPLES.invalid(
            "invalid_jax_sharding_import_mesh_use_mesh.py", count=1, line=1, column=32
        ),
        EXAMPLES.invalid(
            "invalid_self_mesh_open_f_fh.py",
            line=8,
            column=14,
            unsafe_fix=True,
            note="`fh.read()` is a call the rule cannot see into: the fix is unsafe",
        ),
        EXAMPLES.invalid(
            "invalid_pjit_file_fix_unsafe.py", line=5, note="pjit in the file: the fix is unsafe"
        ),
        EXAMPLES.invalid("invalid_return_pjit_f_x.py", unsafe_fix=True),
        EXAMPLES.invalid(
            "invalid_module_level_mesh_used_function.py",
            note="a module-level mesh used in a function; adds import jax",
        ),
        EXAMPLES.invalid(
            "invalid_block_calls_unseen_function.py",
            line=7,
            unsafe_fix=True,
            note="the block calls an imported function that may read the legacy context",
        ),
        EXAMPLES.invalid(
            "invalid_unseen_call_fix_unsafe.py",
            raises="RuntimeError",
            unsafe_fix=True,
            note="jit with bare specs needs the new context; the logging call keeps it unsafe",
        ),
        EXAMPLES.invalid(
            "invalid_local_jit_shard_map_safe.py",
            raises="ValueError",
            note="a jitted function of this file that reads only the new context: safe",
        ),
        EXAMPLES.invalid(
            "invalid_eager_constraint_fix_unsafe.py",
            unsafe_fix=True,
            note="an eager with_sharding_constraint reads the legacy context: unsafe",
        ),
        EXAMPLES.invalid(
            "invalid_legacy_library_reader_unsafe.py",
            unsafe_fix=True,
            note="a function that reads thread_resources: unsafe (tests/test_sharding_runtime.py"
            " runs it: the fixed program loses the mesh)",
        ),
        EXAMPLES.invalid(
            "invalid_contextmanager_yield_unsafe.py",
            unsafe_fix=True,
            note="the block yields: the caller's code runs under the mesh, unseen",
        ),
    ]

    def __init__(self, ctx: FileContext) -> None:
        super().__init__(ctx)
        self.mesh_enabled = ctx.target_jax >= _MESH_CONTEXT_DEPRECATED
        self.use_mesh_enabled = ctx.target_jax >= _USE_MESH_REMOVED
        self.items: list[cst.WithItem] = []
        self.context_funcs: set[int] = set()
        """ids of the callee expressions of calls entered by ``with``."""
        self.use_mesh_imports: list[tuple[cst.ImportFrom, cst.ImportAlias, str]] = []
        self.pjit_used = False
        self.with_of: dict[int, cst.With] = {}
        """id of a ``with`` item -> its statement."""

    def visit_With(self, node: cst.With) -> None:
        for item in node.items:
            self.with_of[id(item)] = node

    def visit_Attribute(self, node: cst.Attribute) -> None:
        qualname = self.model.qualified_name(node)
        if qualname is None:
            return
        if qualname.startswith("jax.experimental.pjit"):
            self.pjit_used = True
        if qualname == "jax.sharding.use_mesh" and self.use_mesh_enabled:
            if self._under_own_feature_test(node):
                return
            s = Speller(self, node)
            text = s("jax.set_mesh")
            safe = id(node) in self.context_funcs
            self.report(
                node,
                what=f"`{self.ctx.code(node)}` was removed in JAX 0.7.1",
                replacement="jax.set_mesh",
                detail="",
                fix=(lambda: [ReplaceNode(node, text), *s.ops]) if s.ok else None,
                applicability=(Applicability.SAFE if safe else Applicability.UNSAFE)
                if s.ok
                else None,
                fix_message=f"Replace with `{text}`",
            )

    def _under_own_feature_test(self, node: cst.Attribute) -> bool:
        """``if hasattr(jax.sharding, "use_mesh"): <here>``: feature detection for an
        older JAX; on a JAX without ``use_mesh`` the branch never runs."""
        parents = self.model.parents
        child: cst.CSTNode = node
        current = parents.get(id(node))
        while current is not None:
            if type(current) is cst.If and child is current.body:
                if jax_hasattr(self.model, current.test) == "jax.sharding.use_mesh":
                    return True
            child = current
            current = parents.get(id(current))
        return False

    def visit_Import(self, node: cst.Import) -> None:
        super().visit_Import(node)
        if any(self.ctx.code(a.name).startswith("jax.experimental.pjit") for a in node.names):
            self.pjit_used = True

    def leave_Module(self, node: cst.Module) -> None:
        for item in self.items:
            self._check_item(item)
        for imp, alias, local in self.use_mesh_imports:
            uses = self.uses_of_import(imp, local, "jax.sharding.use_mesh")
            safe = all(id(u) in self.context_funcs for u in uses)
            new = "from jax.sharding import set_mesh" + (
                "" if local == "set_mesh" else f" as {local}"
            )
            text = rewrite_import(self, imp, [alias], [new])
            self.report(
                alias,
                what="`jax.sharding.use_mesh` was removed in JAX 0.7.1",
                replacement="jax.set_mesh",
                detail="",
                fix=lambda imp=imp, text=text: [ReplaceNode(imp, text)],
                applicability=Applicability.SAFE if safe else Applicability.UNSAFE,
                fix_message=f"Import `set_mesh` from `jax.sharding` as `{local}`",
            )
