"""JAX505 legacy-sharding-api: sharding APIs JAX deprecated or removed (``PositionalSharding``,
``PmapSharding``, ``device_put_replicated``/``device_put_sharded``, ``jax.experimental.maps``)
and, with an option, ``Mesh(mesh_utils.create_device_mesh(...), names)``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import libcst as cst

from jaxlint.diagnostics import Applicability
from jaxlint.rules.base import Examples, FixOp, Option, ReplaceNode, Rule
from jaxlint.rules.sharding.helpers import (
    Facts,
    Rewrite,
    Speller,
    bare,
    has_comment,
    has_star,
    import_and_uses_fix,
    import_hits,
    is_reference,
    is_string,
    positional,
    rewrite_import,
)
from jaxlint.rules.sharding.legacy_sharding_api_fix import DEVICE_PUT, device_put_rewrite
from jaxlint.versions import Version, format_version

if TYPE_CHECKING:
    from jaxlint.engine import FileContext

EXAMPLES = Examples(__file__)


def _status(target: Version, deprecated: Version | None, removed: Version | None) -> str | None:
    """``deprecated since JAX x`` / ``removed in JAX y``, or None before ``deprecated``."""
    first = deprecated or removed
    if first is None or target < first:
        return None
    if removed is not None and target >= removed:
        return f"removed in JAX {format_version(removed)}"
    assert deprecated is not None
    return f"deprecated since JAX {format_version(deprecated)}"


@dataclass(frozen=True)
class _Legacy:
    deprecated: Version | None
    removed: Version | None
    replacement: str
    moved_to: str | None = None
    """A drop-in qualified name: the fix renames the reference (safe)."""


_LEGACY_SHARDING: dict[str, _Legacy] = {
    "jax.sharding.PositionalSharding": _Legacy(
        (0, 6, 0), (0, 7, 0), "NamedSharding(mesh, PartitionSpec(...))"
    ),
    "jax.sharding.PmapSharding": _Legacy((0, 8, 1), (0, 10, 0), "jax.NamedSharding"),
    "jax.device_put_replicated": _Legacy(
        (0, 8, 1), (0, 10, 0), "jax.device_put(x, NamedSharding(mesh, P()))"
    ),
    "jax.device_put_sharded": _Legacy(
        (0, 8, 1), (0, 10, 0), "jax.device_put(stacked, NamedSharding(mesh, P('x')))"
    ),
    "jax.experimental.maps.xmap": _Legacy(
        (0, 4, 26), (0, 4, 31), "jax.shard_map or jax.vmap(..., spmd_axis_name=...)"
    ),
    "jax.experimental.maps.Mesh": _Legacy(
        (0, 4, 1), (0, 4, 11), "jax.sharding.Mesh", moved_to="jax.sharding.Mesh"
    ),
    # jax/experimental/pjit.py of each release: deprecation shims added in 0.4.4
    # (PartitionSpec, NamedSharding) and 0.4.16 (with_sharding_constraint, the same
    # function as jax.lax's), gone in 0.4.11 and 0.4.24
    "jax.experimental.pjit.PartitionSpec": _Legacy(
        (0, 4, 4), (0, 4, 11), "jax.sharding.PartitionSpec", moved_to="jax.sharding.PartitionSpec"
    ),
    "jax.experimental.pjit.NamedSharding": _Legacy(
        (0, 4, 4), (0, 4, 11), "jax.sharding.NamedSharding", moved_to="jax.sharding.NamedSharding"
    ),
    "jax.experimental.pjit.with_sharding_constraint": _Legacy(
        (0, 4, 16),
        (0, 4, 24),
        "jax.lax.with_sharding_constraint",
        moved_to="jax.lax.with_sharding_constraint",
    ),
}
_PJIT_MODULE = "jax.experimental.pjit"
_MAPS_MODULE = "jax.experimental.maps"
_MAPS = _Legacy((0, 4, 26), (0, 4, 31), "jax.shard_map and jax.sharding.Mesh")
_CREATE_DEVICE_MESH = "jax.experimental.mesh_utils.create_device_mesh"
_MAKE_MESH_SINCE = (0, 7, 0)


class LegacyShardingApi(Facts, Rule):
    code = "JAX505"
    required_names = frozenset(
        {
            # anything under jax.experimental.maps (.pjit) spells "maps" ("pjit")
            "maps"
            if q.startswith(_MAPS_MODULE + ".")
            else "pjit"
            if q.startswith(_PJIT_MODULE + ".")
            else q.rsplit(".", 1)[-1]
            for q in (*_LEGACY_SHARDING, _MAPS_MODULE, *DEVICE_PUT, _CREATE_DEVICE_MESH)
        }
    )
    name = "legacy-sharding-api"
    message = "{what}; use `{replacement}`{detail}"
    fix_availability = "sometimes"
    probe = "jaxlint probe env"
    options = {
        "create-device-mesh": Option(
            bool,
            False,
            "also flag `Mesh(mesh_utils.create_device_mesh(shape), names)` (not deprecated;"
            " a modernisation to `jax.make_mesh` with Auto axis types)",
        ),
    }
    docs = """\
## What it does
Flags sharding APIs that JAX deprecated or removed, when the target JAX is at
or past the deprecation: `jax.sharding.PositionalSharding` (removed in 0.7.0),
`jax.sharding.PmapSharding` (removed in 0.10.0), `jax.device_put_replicated`
and `jax.device_put_sharded` (removed in 0.10.0), and `jax.experimental.maps`
with `xmap` and `maps.Mesh` (removed in 0.4.31), and the names that
`jax.experimental.pjit` re-exported: `PartitionSpec` and `NamedSharding` (removed
in 0.4.11), `with_sharding_constraint` (removed in 0.4.24). Attribute uses are reported at
each use, names imported from these modules once, at the import. With the
option `create-device-mesh` it also flags `Mesh(mesh_utils.create_device_mesh(
shape), names)`, which works but is the two-step spelling of `jax.make_mesh`.

## Why is this bad
On current JAX each of these raises as soon as the line runs:
`AttributeError: module 'jax.sharding' has no attribute 'PositionalSharding'`,
`AttributeError: jax.device_put_replicated is deprecated; use jax.device_put
instead.`, `ModuleNotFoundError: No module named 'jax.experimental.maps'`.

## Example
```python
import jax
from jax.experimental import mesh_utils
from jax.sharding import Mesh

replicated = jax.device_put_replicated(params, jax.local_devices())
mesh = Mesh(mesh_utils.create_device_mesh((4, 2)), ("data", "model"))
```

## Use instead
```python
import jax
from jax.experimental import mesh_utils
from jax.sharding import Mesh

devices = jax.local_devices()
replicated = jax.device_put(jax.tree.map(lambda leaf: jax.numpy.stack([leaf] * len(devices)), params), jax.NamedSharding(jax.sharding.Mesh(devices, ('x',)), jax.P('x')))
mesh = jax.make_mesh((4, 2), ("data", "model"), axis_types=(jax.sharding.AxisType.Auto,) * 2)
```
The `device_put_*` rewrites are JAX's own drop-in replacements from the pmap
migration guide: they build the same stacked arrays, sharded over their leading
axis (what `pmap` consumes), with one `device_put` of the stacked tree; a devices
expression that is not a name (`jax.local_devices()`) is bound once on a line of its
own above the statement (not in a class body, a lambda, a comprehension or a
conditional expression, where it stays inline), under a name no variable of the
file uses (`devices`; at module level it is a new module global). When the value
is meant to be replicated, prefer
`jax.device_put(x, NamedSharding(mesh, P()))`, which does not stack copies.
`PositionalSharding`, `PmapSharding` and `xmap` get no fix: the replacement
depends on the mesh and specs you want (`NamedSharding(mesh, P(...))`,
`jax.shard_map`, or `jax.vmap(..., spmd_axis_name=...)`).

## Fix safety
`maps.Mesh` -> `jax.sharding.Mesh` is safe (the same class), as are
`pjit.PartitionSpec`/`pjit.NamedSharding` -> `jax.sharding.*` and
`pjit.with_sharding_constraint` -> `jax.lax.with_sharding_constraint` (in the
releases that still had them, `jax/experimental/pjit.py` re-exported the same
objects with a deprecation warning), and so is removing
`from jax.experimental import maps` once nothing uses `maps` any more (the module is
gone, so that import can only fail; not done where it is the only statement of a
block, such as a `try:` body). The
`device_put_replicated`/`device_put_sharded` rewrites are unsafe: the result is
a `NamedSharding` array on a one-axis mesh `'x'` instead of the old
`PmapSharding` array (same values and shapes, checked with 8 CPU devices; `pmap`
accepts both). The `jax.make_mesh` rewrite is unsafe: it passes
`axis_types=(AxisType.Auto,) * n` to keep the old Auto axes (without it the
mesh would be Explicit since JAX 0.9, which changes how `shard_map` and
`with_sharding_constraint` behave), but `make_mesh` may order devices
differently on TPU v5e (it allows splitting physical axes there) and rejects
multi-slice device sets. When the axis names are neither literal nor a
variable, the fix is shown and not applied (the names would be evaluated twice).
`create_device_mesh` with `contiguous_submeshes` or `allow_split_physical_axes`
is left alone.

## Verify at runtime
`jaxlint probe env` prints the installed JAX version (the APIs above are gone
from the versions named) and the devices the new mesh will span.
"""
    VALID = [
        EXAMPLES.valid("valid_namedsharding.py", runs=True, note="NamedSharding"),
        EXAMPLES.valid("valid_r_jax_device_put_replicated_x.py", target_jax="0.5.0"),
        EXAMPLES.valid(
            "valid_create_device_mesh_off_default.py", note="create-device-mesh is off by default"
        ),
        EXAMPLES.valid(
            "valid_options_make_mesh_does_have.py",
            options={"create-device-mesh": True},
            note="options make_mesh does not have",
        ),
        EXAMPLES.valid("valid_mesh_mesh_jax_devices_x.py", options={"create-device-mesh": True}),
        EXAMPLES.valid("valid_another_library.py", note="another library"),
        EXAMPLES.valid("valid_mesh_jax_make_mesh_2_4.py", options={"create-device-mesh": True}),
        EXAMPLES.valid("valid_s_jax_sharding_positionalsharding_devs.py", target_jax="0.5.3"),
        EXAMPLES.valid("valid_y_device_put_replicated_1.py"),
        EXAMPLES.valid(
            "valid_pjit_module_with_current_names.py",
            runs=True,
            note="`pjit.pjit` is JAX503's; the sharding names come from jax.sharding",
        ),
        EXAMPLES.valid(
            "valid_pjit_partition_spec_before_its_deprecation.py",
            target_jax="0.4.3",
            note="`pjit.PartitionSpec` before its deprecation (0.4.4)",
        ),
    ]
    INVALID = [
        EXAMPLES.invalid(
            "invalid_replicated_jax_device_put_replicated_params.py",
            line=5,
            column=14,
            raises="AttributeError",
            message_contains="`jax.device_put_replicated` was removed in JAX 0.10.0",
            unsafe_fix=True,
        ),
        EXAMPLES.invalid(
            "invalid_jax_import_device_put_sharded.py", count=1, line=1, unsafe_fix=True
        ),
        EXAMPLES.invalid(
            "invalid_s_jax_sharding_positionalsharding_jax_devices.py",
            raises="AttributeError",
            message_contains="NamedSharding(mesh, PartitionSpec(...))",
        ),
        EXAMPLES.invalid(
            "invalid_return_isinstance_x_sharding_jax_sharding.py",
            message_contains="removed in JAX 0.10.0",
        ),
        EXAMPLES.invalid(
            "invalid_xmap_gets_fix.py",
            count=2,
            line=1,
            column=35,
            unsafe_fix=True,
            note="xmap gets no fix",
        ),
        EXAMPLES.invalid("invalid_mesh_mesh_devices_x.py"),
        EXAMPLES.invalid(
            "invalid_device_put_replicated_devices_bound_once.py",
            count=5,
            unsafe_fix=True,
            raises="AttributeError",
            note="`jax.local_devices()` bound once above the statement (a multi-line one"
            " keeps its layout); inline in a conditional expression and in a class body",
        ),
        EXAMPLES.invalid(
            "invalid_pjit_module_partition_spec.py",
            count=3,
            raises="AttributeError",
            note="`pjit.PartitionSpec` (gone in 0.4.11) and `pjit.with_sharding_constraint`"
            " (gone in 0.4.24) renamed to their public homes",
        ),
        EXAMPLES.invalid(
            "invalid_maps_module_import_then_mesh.py",
            count=2,
            raises="ImportError",
            note="the import goes once maps.Mesh is rewritten",
        ),
        EXAMPLES.invalid(
            "invalid_f_jax_experimental_maps_xmap_g.py",
            count=2,
            message_contains="`jax.experimental.maps` was removed in JAX 0.4.31",
        ),
        EXAMPLES.invalid(
            "invalid_mesh1_mesh_mesh_utils_create_device.py",
            options={"create-device-mesh": True},
            count=2,
            unsafe_fix=True,
            message_contains="defaults to Explicit axes since JAX 0.9",
        ),
        EXAMPLES.invalid(
            "invalid_return_mesh_mesh_utils_create_device.py",
            options={"create-device-mesh": True},
            unsafe_fix=True,
        ),
    ]

    def __init__(self, ctx: FileContext) -> None:
        super().__init__(ctx)
        self.target = ctx.target_jax
        self.rewrites: dict[int, Rewrite | str] = {}
        self.imported: list[tuple[cst.ImportFrom, cst.ImportAlias, str, str]] = []
        self._maps_imports: list[tuple[cst.ImportFrom, cst.ImportAlias]] = []
        self._line: cst.SimpleStatementLine | None = None

    def _legacy(self, expr: cst.BaseExpression) -> tuple[str, _Legacy, str] | None:
        qualname = self.model.qualified_name(expr)
        if qualname is None:
            return None
        legacy = _LEGACY_SHARDING.get(qualname)
        if legacy is None:
            return None
        status = _status(self.target, legacy.deprecated, legacy.removed)
        return None if status is None else (qualname, legacy, status)

    # -- Mesh(mesh_utils.create_device_mesh(...), names)

    def visit_Call(self, node: cst.Call) -> None:
        name = self.model.call_name(node)
        if name in DEVICE_PUT:
            self.rewrites[id(node.func)] = device_put_rewrite(self, node, name, self._line)
        elif (
            name == "jax.sharding.Mesh"
            and self.settings["create-device-mesh"]
            and self.target >= _MAKE_MESH_SINCE
        ):
            _mesh_of_device_mesh(self, node)

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        self._line = node

    def leave_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        self._line = None

    # -- references

    def _reference_report(
        self,
        node: cst.CSTNode,
        used: str,
        legacy: _Legacy,
        status: str,
        fix: Callable[[], list[FixOp]] | None,
        applicability: Applicability | None,
        reason: str | None = None,
    ) -> None:
        self.report(
            node,
            what=f"`{used}` was {status}"
            if status.startswith("removed")
            else f"`{used}` is {status}",
            replacement=legacy.replacement,
            detail="" if reason is None else f"; no automatic rewrite: {reason}",
            fix=fix,
            applicability=applicability if fix is not None else None,
            fix_message=f"Use `{legacy.replacement}`",
        )

    def visit_Attribute(self, node: cst.Attribute) -> None:
        found = self._legacy(node)
        if found is None:
            return
        qualname, legacy, status = found
        used = self.ctx.code(node)
        if legacy.moved_to is not None:
            s = Speller(self, node)
            text = s(legacy.moved_to)
            if s.ok:
                self._reference_report(
                    node,
                    used,
                    legacy,
                    status,
                    lambda: [ReplaceNode(node, text), *s.ops],
                    Applicability.SAFE,
                )
                return
        plan = self.rewrites.get(id(node))
        if isinstance(plan, Rewrite):
            rewrite = plan
            self._reference_report(
                node,
                used,
                legacy,
                status,
                lambda: [ReplaceNode(rewrite.node, rewrite.text), *rewrite.ops],
                Applicability.UNSAFE,
            )
            return
        self._reference_report(node, used, legacy, status, None, None, plan)

    def visit_Import(self, node: cst.Import) -> None:
        super().visit_Import(node)
        for alias in node.names:
            dotted = self.ctx.code(alias.name)
            if dotted == _MAPS_MODULE or dotted.startswith(_MAPS_MODULE + "."):
                self._module_report(alias)

    def import_from(self, node: cst.ImportFrom) -> None:
        if node.module is None or node.relative or isinstance(node.names, cst.ImportStar):
            return
        module = self.ctx.code(node.module)
        if module == "jax.experimental":
            for alias in node.names:
                if isinstance(alias.name, cst.Name) and alias.name.value == "maps":
                    self._maps_imports.append((node, alias))  # reported at the end
        for alias, local, qualname in import_hits(self, node, _LEGACY_SHARDING.get):
            self.imported.append((node, alias, local, qualname))

    def _module_report(self, alias: cst.ImportAlias) -> None:
        status = _status(self.target, _MAPS.deprecated, _MAPS.removed)
        if status is not None:
            self._reference_report(alias, _MAPS_MODULE, _MAPS, status, None, None)

    def _unused_maps_import_fix(
        self, imp: cst.ImportFrom, alias: cst.ImportAlias
    ) -> Callable[[], list[FixOp]] | None:
        """Drop ``from jax.experimental import maps`` once nothing uses ``maps`` (after the
        ``maps.Mesh`` rewrites): the module is gone, so the import can only fail. Only
        where removing it leaves valid code: other names stay, or the statement is a
        module-level line of its own."""
        local = alias.asname.name if alias.asname is not None else alias.name
        if not isinstance(local, cst.Name) or self.names.get(local.value):
            return None
        text = rewrite_import(self, imp, [alias], [])
        if text:
            return lambda: [ReplaceNode(imp, text)]
        for line in self.ctx.module.body:
            if isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1:
                if line.body[0] is imp:
                    return lambda: [ReplaceNode(line, "")]
        return None

    def leave_Module(self, node: cst.Module) -> None:
        for imp, alias in self._maps_imports:
            status = _status(self.target, _MAPS.deprecated, _MAPS.removed)
            if status is None:
                continue
            fix = self._unused_maps_import_fix(imp, alias)
            if fix is None:
                self._reference_report(alias, _MAPS_MODULE, _MAPS, status, None, None)
                continue
            self.report(
                alias,
                what=f"`{_MAPS_MODULE}` was {status}",
                replacement=_MAPS.replacement,
                detail="",
                fix=fix,
                applicability=Applicability.SAFE,
                fix_message="Remove the import (nothing uses it any more)",
            )
        for imp, alias, local, qualname in self.imported:
            legacy = _LEGACY_SHARDING[qualname]
            status = _status(self.target, legacy.deprecated, legacy.removed)
            if status is None:
                continue
            if legacy.moved_to is not None:
                module, _, name = legacy.moved_to.rpartition(".")
                new = f"from {module} import {name}" + ("" if local == name else f" as {local}")
                text = rewrite_import(self, imp, [alias], [new])
                self._reference_report(
                    alias,
                    qualname,
                    legacy,
                    status,
                    lambda imp=imp, text=text: [ReplaceNode(imp, text)],
                    Applicability.SAFE,
                )
                continue
            rewrites: list[Rewrite] = []
            reason: str | None = None
            for use in self.uses_of_import(imp, local, qualname):
                plan = self.rewrites.get(
                    id(use),
                    f"`{local}` is used as a value at line {self.ctx.positions[use].start.line}",
                )
                if isinstance(plan, str):
                    reason = plan
                    break
                rewrites.append(plan)
            fix = None
            if reason is None and qualname in DEVICE_PUT:
                fix = import_and_uses_fix(self, imp, alias, rewrites)
            self._reference_report(
                alias, qualname, legacy, status, fix, Applicability.UNSAFE, reason
            )


def _mesh_of_device_mesh(rule: LegacyShardingApi, node: cst.Call) -> None:
    """The ``create-device-mesh`` option: ``Mesh(mesh_utils.create_device_mesh(...), names)``."""
    if has_star(node):
        return
    pos = positional(node)
    devices = pos[0].value if pos else None
    names = pos[1].value if len(pos) > 1 else None
    axis_types: cst.BaseExpression | None = pos[2].value if len(pos) > 2 else None
    for arg in node.args:
        if arg.keyword is None:
            continue
        key = arg.keyword.value
        if key == "devices":
            devices = arg.value
        elif key == "axis_names":
            names = arg.value
        elif key == "axis_types":
            axis_types = arg.value
        else:
            return
    if not (
        isinstance(devices, cst.Call)
        and rule.model.call_name(devices) == _CREATE_DEVICE_MESH
        and names is not None
    ):
        return
    inner = devices
    if has_star(inner):
        return
    inner_pos = positional(inner)
    shape = inner_pos[0].value if inner_pos else None
    devs = inner_pos[1].value if len(inner_pos) > 1 else None
    for arg in inner.args:
        if arg.keyword is None:
            continue
        if arg.keyword.value == "mesh_shape":
            shape = arg.value
        elif arg.keyword.value == "devices":
            devs = arg.value
        else:
            return  # contiguous_submeshes / allow_split_physical_axes: keep create_device_mesh
    if shape is None or len(inner_pos) > 2:
        return
    code = rule.ctx.code
    s = Speller(rule, node.func)
    applicability = Applicability.UNSAFE
    names_text = code(bare(names))
    if axis_types is not None:
        types_text = code(bare(axis_types))
    else:
        if is_string(names):
            count = "1"
            names_text = f"({names_text},)"
        elif isinstance(names, (cst.Tuple, cst.List)) and all(
            isinstance(el, cst.Element) for el in names.elements
        ):
            count = str(len(names.elements))
        else:
            count = f"len({names_text})"
            if not is_reference(names):
                applicability = Applicability.DISPLAY_ONLY
        types_text = f"({s('jax.sharding.AxisType')}.Auto,) * {count}"
    extra = "" if devs is None else f", devices={code(bare(devs))}"
    text = (
        f"{s('jax.make_mesh')}({code(bare(shape))}, {names_text}, axis_types={types_text}{extra})"
    )
    fix = None
    if s.ok and not has_comment(node):

        def fix() -> list[FixOp]:
            return [ReplaceNode(node, text), *s.ops]

    rule.report(
        node,
        what="`Mesh(mesh_utils.create_device_mesh(...), ...)` builds the mesh in two steps",
        replacement="jax.make_mesh(shape, names, axis_types=...)",
        detail=(
            "; keep `axis_types=(AxisType.Auto,) * n`: `jax.make_mesh` defaults to"
            " Explicit axes since JAX 0.9"
        ),
        fix=fix,
        applicability=applicability if fix is not None else None,
        fix_message="Use `jax.make_mesh` with Auto axis types",
    )
