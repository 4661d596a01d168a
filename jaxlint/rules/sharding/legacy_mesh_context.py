"""JAX502 legacy-mesh-context: a ``Mesh`` entered as a context manager (``with mesh:``) and
``jax.sharding.use_mesh``, both replaced by ``jax.set_mesh``."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from jaxlint.diagnostics import Applicability
from jaxlint.rules.base import Examples, ReplaceNode, Rule
from jaxlint.rules.sharding.helpers import (
    MESH_CONSTRUCTORS,
    Facts,
    Speller,
    bare,
    has_comment,
    import_hits,
    rewrite_import,
)

if TYPE_CHECKING:
    from jaxlint.engine import FileContext

EXAMPLES = Examples(__file__)


_MESH_CONTEXT_DEPRECATED = (0, 10, 1)
_USE_MESH_REMOVED = (0, 7, 1)
_USE_MESH_ADDED = (0, 5, 0)


class LegacyMeshContext(Facts, Rule):
    code = "JAX502"
    required_names = frozenset({"Mesh", "make_mesh", "use_mesh"})
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
The fix changes only the context. It is safe when nothing in the file uses
`jax.experimental.pjit` (a `pjit` function defined in another module and
called inside the block is not seen), and unsafe otherwise: `pjit` with bare
`PartitionSpec` shardings works only under the legacy `with mesh:` and raises
`RuntimeError: pjit requires a non-empty mesh in context` under
`jax.set_mesh`, so fix JAX503 (`pjit` -> `jax.jit`) in the same run.
Checked on JAX 0.12 with 8 CPU devices: `with_sharding_constraint` with a
`PartitionSpec` and `jax.jit` with `NamedSharding`s give the same numbers and
shardings in both contexts; `jax.jit` with `PartitionSpec`s and
`jax.shard_map` without `mesh=` start working. One more difference remains
even where the fix is called safe: eager operations inside `jax.set_mesh`
on arrays placed on one device return arrays replicated over the mesh (same
values, `NamedSharding(mesh, P())` instead of `SingleDeviceSharding`).
`use_mesh` -> `set_mesh` is safe inside `with` (both are context managers) and
unsafe as a bare call (`jax.set_mesh(mesh)` then sets the mesh globally).

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
        EXAMPLES.invalid("invalid_self_mesh_open_f_fh.py", line=8, column=14),
        EXAMPLES.invalid(
            "invalid_pjit_file_fix_unsafe.py", line=5, note="pjit in the file: the fix is unsafe"
        ),
        EXAMPLES.invalid("invalid_return_pjit_f_x.py", unsafe_fix=True),
        EXAMPLES.invalid(
            "invalid_module_level_mesh_used_function.py",
            note="a module-level mesh used in a function; adds import jax",
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

    def with_item(self, node: cst.WithItem) -> None:
        if isinstance(node.item, cst.Call):
            self.context_funcs.add(id(node.item.func))
        item = node.item
        if self.mesh_enabled and not (
            isinstance(item, cst.Call) and self.model.call_name(item) not in MESH_CONSTRUCTORS
        ):
            self.items.append(node)
            cls = self.current_class()
            if cls is not None and isinstance(item, cst.Attribute):
                self.class_of[id(item)] = cls

    def visit_Attribute(self, node: cst.Attribute) -> None:
        qualname = self.model.qualified_name(node)
        if qualname is None:
            return
        if qualname.startswith("jax.experimental.pjit"):
            self.pjit_used = True
        if qualname == "jax.sharding.use_mesh" and self.use_mesh_enabled:
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

    def import_from(self, node: cst.ImportFrom) -> None:
        module = self.ctx.code(node.module) if node.module is not None else ""
        if module == "jax.experimental.pjit" or (
            module == "jax.experimental"
            and not isinstance(node.names, cst.ImportStar)
            and any(isinstance(a.name, cst.Name) and a.name.value == "pjit" for a in node.names)
        ):
            self.pjit_used = True
        if self.use_mesh_enabled:
            for alias, local, _ in import_hits(self, node, {"jax.sharding.use_mesh": 1}.get):
                self.use_mesh_imports.append((node, alias, local))

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

    def _check_item(self, item: cst.WithItem) -> None:
        if not self.is_mesh(item.item):
            return
        s = Speller(self, item.item)
        set_mesh = s("jax.set_mesh")
        expr = self.ctx.code(bare(item.item))
        replace: cst.CSTNode = item.item
        text: str | None = f"{set_mesh}({expr})"
        if item.asname is not None:
            replace = item
            target = item.asname.name
            text = f"{set_mesh}({target.value} := {expr})" if isinstance(target, cst.Name) else None
        short = expr if len(expr) <= 40 else "mesh"
        fix = None
        if text is not None and s.ok and not has_comment(item):
            fix_text = text
            fix = lambda: [ReplaceNode(replace, fix_text), *s.ops]  # noqa: E731
        self.report(
            item.item,
            what=f"`with {short}:` is deprecated since JAX 0.10.1 and no longer sets the mesh"
            " that `jax.jit` and `jax.shard_map` read",
            replacement=f"with jax.set_mesh({short}):",
            detail=(
                "; this file uses `pjit`, which needs the old context: migrate it too (JAX503)"
                if self.pjit_used
                else ""
            ),
            fix=fix,
            applicability=(Applicability.UNSAFE if self.pjit_used else Applicability.SAFE)
            if fix is not None
            else None,
            fix_message=f"Enter the mesh with `{set_mesh}(...)`",
        )
