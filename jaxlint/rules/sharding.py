"""JAX5xx: pmap, legacy meshes and sharding APIs.

Facts these rules rely on were checked on jax 0.12.0.1 with 8 forced CPU devices
(``tests/test_sharding_runtime.py`` runs every fix):

* ``jax.pmap(f, axis_name='i')(x)`` gives the same numbers, shapes and output
  sharding as ``jax.jit(jax.shard_map(jax.vmap(f), mesh=jax.make_mesh((n,),
  ('i',), axis_types=(AxisType.Auto,)), in_specs=P('i'), out_specs=P('i'),
  check_vma=False))(x)``: the inner ``vmap`` over the size-1 per-device block
  restores pmap's rank reduction, collectives by axis name reach the mesh axis,
  and ``check_vma=False`` is what pmap itself passes (a ``fori_loop`` whose carry
  mixes device-invariant and device-varying values fails the check otherwise).
* ``pjit`` with bare ``PartitionSpec`` shardings works only under the legacy
  ``with mesh:`` context; ``jax.jit`` with bare specs works only under
  ``jax.set_mesh(mesh)``; ``with mesh:`` no longer sets the mesh that ``jax.jit``,
  ``jax.shard_map`` and ``jax.sharding.get_abstract_mesh()`` read.
* ``jax.set_mesh(mesh)`` entered with ``as m`` binds ``None``, not the mesh.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import libcst as cst

from jaxlint.analysis.names import Binding
from jaxlint.diagnostics import Applicability
from jaxlint.fixers.spelling import spell
from jaxlint.rules.base import (
    Examples,
    FixOp,
    Option,
    ReplaceNode,
    RequireImport,
    Rule,
)
from jaxlint.versions import Version, format_version

if TYPE_CHECKING:
    from jaxlint.analysis.names import SemanticModel
    from jaxlint.engine import FileContext

GUIDE = "https://docs.jax.dev/en/latest/migrate_pmap.html"

MESH_CONSTRUCTORS = frozenset({"jax.sharding.Mesh", "jax.make_mesh"})
MESH_ANNOTATIONS = frozenset({"jax.sharding.Mesh"})
SHARDING_CONSTRUCTORS = frozenset(
    {
        "jax.sharding.NamedSharding",
        "jax.NamedSharding",
        "jax.sharding.SingleDeviceSharding",
    }
)
PARTIAL = frozenset({"functools.partial"})


# -- small syntax helpers ------------------------------------------------------------------


def _keyword(call: cst.Call, name: str) -> cst.Arg | None:
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == name:
            return arg
    return None


def _positional(call: cst.Call) -> list[cst.Arg]:
    return [a for a in call.args if a.keyword is None and not a.star]


def _has_star(call: cst.Call) -> bool:
    return any(a.star for a in call.args)


def _walk_all(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """Every node under ``node``, trivia (comments) included."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(current.children)


def _has_comment(node: cst.CSTNode) -> bool:
    return any(isinstance(n, cst.Comment) for n in _walk_all(node))


def _is_int(expr: cst.BaseExpression, value: int) -> bool:
    return isinstance(expr, cst.Integer) and expr.evaluated_value == value


def _is_none(expr: cst.BaseExpression) -> bool:
    return isinstance(expr, cst.Name) and expr.value == "None"


def _is_string(expr: cst.BaseExpression) -> bool:
    return isinstance(expr, (cst.SimpleString, cst.ConcatenatedString))


def _is_reference(expr: cst.BaseExpression) -> bool:
    """A name or an attribute chain: evaluating it twice is harmless."""
    while isinstance(expr, cst.Attribute):
        expr = expr.value
    return isinstance(expr, cst.Name)


def _bare(expr: cst.BaseExpression) -> cst.BaseExpression:
    """``expr`` without its own redundant parentheses (node ranges exclude them)."""
    if getattr(expr, "lpar", None) and not isinstance(expr, (cst.Tuple, cst.GeneratorExp)):
        return expr.with_changes(lpar=[], rpar=[])
    return expr


class _Speller:
    """Spells qualified names at one place and gathers the imports they need."""

    def __init__(self, rule: Rule, at: cst.CSTNode) -> None:
        self.rule = rule
        self.at = at
        self.ops: list[FixOp] = []
        self.ok = True

    def __call__(self, qualname: str, *preferred: str) -> str:
        """Spell ``qualname``; an existing import of one of ``preferred`` wins."""
        anchor = self.at if isinstance(self.at, cst.Name) else None
        if anchor is None and isinstance(self.at, cst.BaseExpression):
            anchor = self.rule.model.leftmost_name(self.at)
        for other in preferred:
            written = self.rule.model.spelling(other, anchor)
            if written is not None and written != other:  # through its own import
                return written
        result = spell(self.rule.model, qualname, self.at)
        if result is None:
            self.ok = False
            return qualname
        for op in result[1]:
            if op not in self.ops:
                self.ops.append(op)
        return result[0]

    def partition_spec(self) -> str:
        return self("jax.P", "jax.sharding.PartitionSpec")


# -- what the file says: assignments, self attributes, name uses ------------------------------


class _Facts:
    """Mixin: per-file facts gathered during the walk (not a rule by itself).

    Records the value assigned to each local name and to each ``self.x`` in a
    class, the annotation of bare declarations, and every ``Name`` reference (not
    import aliases, keywords, parameters or definitions), so that a rule can ask,
    at the end of the file, whether an expression is a ``Mesh`` and where an
    imported name is used.
    """

    if TYPE_CHECKING:  # provided by ``Rule``, which every user of the mixin also is
        model: SemanticModel
        ctx: FileContext

    def __init__(self, ctx: FileContext) -> None:
        super().__init__(ctx)  # type: ignore[call-arg]
        self.assigned: dict[int, cst.BaseExpression] = {}
        self.declared: dict[int, cst.Annotation] = {}
        self.self_attrs: dict[tuple[int, str], list[cst.BaseExpression | cst.Annotation]] = {}
        self.containers: list[cst.ClassDef | cst.FunctionDef] = []
        self.class_of: dict[int, cst.ClassDef] = {}
        self.names: dict[str, list[cst.Name]] = {}
        self.in_collection: set[int] = set()
        """ids of expressions that are only named: elements of a tuple, list or set
        literal, operands of a comparison, the argument of ``functools.wraps``."""
        self._ignored: set[int] = set()
        self._import_depth = 0

    # containers
    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self._ignored.add(id(node.name))
        self.containers.append(node)

    def leave_ClassDef(self, node: cst.ClassDef) -> None:
        self.containers.pop()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._ignored.add(id(node.name))
        self.containers.append(node)

    def leave_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.containers.pop()

    def current_class(self) -> cst.ClassDef | None:
        for container in reversed(self.containers):
            if isinstance(container, cst.ClassDef):
                return container
        return None

    def visit_Element(self, node: cst.Element) -> None:
        self.in_collection.add(id(node.value))

    def visit_Comparison(self, node: cst.Comparison) -> None:
        self.in_collection.add(id(node.left))  # ``f is jax.pmap``: compared, not called
        for target in node.comparisons:
            self.in_collection.add(id(target.comparator))

    # names that are not references
    def visit_Param(self, node: cst.Param) -> None:
        self._ignored.add(id(node.name))

    def visit_Arg(self, node: cst.Arg) -> None:
        if node.keyword is not None:
            self._ignored.add(id(node.keyword))

    def visit_Import(self, node: cst.Import) -> None:
        self._import_depth += 1

    def leave_Import(self, node: cst.Import) -> None:
        self._import_depth -= 1

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        self._import_depth += 1
        self.import_from(node)

    def leave_ImportFrom(self, node: cst.ImportFrom) -> None:
        self._import_depth -= 1

    def import_from(self, node: cst.ImportFrom) -> None:
        """Hook for the rules."""

    def visit_Name(self, node: cst.Name) -> None:
        if self._import_depth or id(node) in self._ignored:
            return
        self.names.setdefault(node.value, []).append(node)

    # assignments
    def _record(
        self, target: cst.BaseExpression, value: cst.BaseExpression | cst.Annotation
    ) -> None:
        if isinstance(target, cst.Name):
            if isinstance(value, cst.Annotation):
                self.declared[id(target)] = value
            else:
                self.assigned[id(target)] = value
            if self.containers and isinstance(self.containers[-1], cst.ClassDef):
                key = (id(self.containers[-1]), target.value)
                self.self_attrs.setdefault(key, []).append(value)
        elif (
            isinstance(target, cst.Attribute)
            and isinstance(target.value, cst.Name)
            and target.value.value == "self"
        ):
            cls = self.current_class()
            if cls is not None:
                self.self_attrs.setdefault((id(cls), target.attr.value), []).append(value)

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            self._record(target.target, node.value)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._record(node.target, node.value if node.value is not None else node.annotation)

    def visit_WithItem(self, node: cst.WithItem) -> None:
        if node.asname is not None:
            self._record(node.asname.name, node.item)
        self.with_item(node)

    def with_item(self, node: cst.WithItem) -> None:
        """Hook for the rules."""

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._record(node.target, node.value)

    # questions
    def bindings_of(self, name: cst.Name) -> list[Binding]:
        model = self.model
        found = model.lookup(name.value, model.scope_for(name))
        return [] if found is None else list(found[1])

    def uses_of_import(self, node: cst.ImportFrom, local: str, qualname: str) -> list[cst.Name]:
        model = self.model
        out = []
        for name in self.names.get(local, []):
            if model.qualified_name(name) != qualname:
                continue
            if any(b.node is node for b in self.bindings_of(name)):
                out.append(name)
        return out

    def _values(self, expr: cst.BaseExpression) -> list[cst.BaseExpression | cst.Annotation] | None:
        """What a name or ``self.attr`` may hold: every value assigned to it, or None."""
        if isinstance(expr, cst.Name):
            bindings = self.bindings_of(expr)
            if not bindings:
                return None
            values: list[cst.BaseExpression | cst.Annotation] = []
            for b in bindings:
                if b.kind == "param" and isinstance(b.node, cst.Param):
                    if b.node.annotation is None:
                        return None
                    values.append(b.node.annotation)
                elif b.kind == "assign" and id(b.node) in self.assigned:
                    values.append(self.assigned[id(b.node)])
                elif b.kind == "annotation" and id(b.node) in self.declared:
                    values.append(self.declared[id(b.node)])
                else:
                    return None
            return values
        if (
            isinstance(expr, cst.Attribute)
            and isinstance(expr.value, cst.Name)
            and expr.value.value == "self"
        ):
            cls = self.class_of.get(id(expr))
            if cls is None:
                return None
            return self.self_attrs.get((id(cls), expr.attr.value)) or None
        return None

    def is_mesh(self, expr: cst.BaseExpression | cst.Annotation, depth: int = 0) -> bool:
        """``expr`` is certainly a ``jax.sharding.Mesh`` (built or annotated as one)."""
        model = self.model
        if depth > 6:
            return False
        if isinstance(expr, cst.Annotation):
            return model.qualified_name(expr.annotation) in MESH_ANNOTATIONS
        if isinstance(expr, cst.Call):
            return model.call_name(expr) in MESH_CONSTRUCTORS
        values = self._values(expr)
        return bool(values) and all(self.is_mesh(v, depth + 1) for v in values or [])

    def is_sharding(self, expr: cst.BaseExpression | cst.Annotation, depth: int = 0) -> bool:
        """``expr`` is certainly a ``Sharding`` object (or a tuple/list of them)."""
        model = self.model
        if depth > 6 or isinstance(expr, cst.Annotation):
            return False
        if isinstance(expr, cst.Call):
            return model.call_name(expr) in SHARDING_CONSTRUCTORS
        if isinstance(expr, cst.Attribute) and expr.attr.value == "sharding":
            return True
        if isinstance(expr, (cst.Tuple, cst.List)):
            return all(
                isinstance(el, cst.Element) and self.is_sharding(el.value, depth + 1)
                for el in expr.elements
            )
        if isinstance(expr, cst.Name):
            values = self._values(expr)
            return bool(values) and all(self.is_sharding(v, depth + 1) for v in values or [])
        return False


# -- import statements ------------------------------------------------------------------------


def _alias_local(alias: cst.ImportAlias) -> str | None:
    if not isinstance(alias.name, cst.Name):
        return None
    if alias.asname is not None:
        return alias.asname.name.value if isinstance(alias.asname.name, cst.Name) else None
    return alias.name.value


def _import_hits(
    rule: Rule, node: cst.ImportFrom, targets: Callable[[str], object | None]
) -> list[tuple[cst.ImportAlias, str, str]]:
    """``(alias, local name, qualified name)`` for each alias that ``targets`` knows.

    Skips a name bound twice in its scope (a ``try``/``except ImportError`` fallback).
    """
    if node.relative or isinstance(node.names, cst.ImportStar) or node.module is None:
        return []
    module = rule.ctx.code(node.module)
    hits = []
    for alias in node.names:
        local = _alias_local(alias)
        if local is None or not isinstance(alias.name, cst.Name):
            continue
        qualname = f"{module}.{alias.name.value}"
        if targets(qualname) is None:
            continue
        if rule.model.import_target(node, local) != qualname:
            continue
        hits.append((alias, local, qualname))
    return hits


def _rewrite_import(
    rule: Rule,
    node: cst.ImportFrom,
    moved: Sequence[cst.ImportAlias],
    new_statements: Sequence[str],
) -> str:
    """The import statement without ``moved``, followed by ``new_statements``.

    Returns ``""`` only when nothing is left and nothing is added; callers that may
    empty the statement pass a replacement statement instead.
    """
    assert not isinstance(node.names, cst.ImportStar)
    kept = [a for a in node.names if a not in moved]
    statements: list[str] = []
    if kept:
        if node.lpar is None:
            kept[-1] = kept[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        statements.append(rule.ctx.code(node.with_changes(names=kept)))
    statements.extend(new_statements)
    if rule.ctx.line_prefix(node).strip():
        separator = "; "  # not first on its line (``if x: from jax import ...``)
    else:
        separator = rule.ctx.module.default_newline + rule.ctx.line_indent(node)
    return separator.join(statements)


def _status(target: Version, deprecated: Version | None, removed: Version | None) -> str | None:
    """``deprecated since JAX x`` / ``removed in JAX y``, or None before ``deprecated``."""
    first = deprecated or removed
    if first is None or target < first:
        return None
    if removed is not None and target >= removed:
        return f"removed in JAX {format_version(removed)}"
    assert deprecated is not None
    return f"deprecated since JAX {format_version(deprecated)}"


# -- JAX501 pmap ------------------------------------------------------------------------------

_PMAP_MAINTENANCE_SINCE = (0, 8, 0)
_PMAP_OPTIONS = frozenset({"axis_name", "in_axes", "out_axes", "donate_argnums"})


@dataclass
class _Rewrite:
    """Replace ``node`` by ``text`` (with the imports in ``ops``)."""

    node: cst.CSTNode
    text: str
    ops: list[FixOp] = field(default_factory=list)


@dataclass
class _PmapCall:
    fun: cst.BaseExpression | None
    axis: cst.BaseExpression | None
    in_axes: cst.Tuple | None
    donate: cst.BaseExpression | None


_EXAMPLES_JAX501 = Examples(Path(__file__).parent / "sharding" / "pmap.py")


class Pmap(_Facts, Rule):
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
        _EXAMPLES_JAX501.valid(
            "valid_current_jax_shard_map.py", note="current jax.shard_map", runs=True
        ),
        _EXAMPLES_JAX501.valid("valid_p_step_jax_pmap_step_axis.py", target_jax="0.7.2"),
        _EXAMPLES_JAX501.valid("valid_flax_s_own_pmap.py", note="flax's own pmap"),
        _EXAMPLES_JAX501.valid("valid_mapped_jax_vmap_f_axis_name.py"),
        _EXAMPLES_JAX501.valid("valid_local_pmap.py", note="a local pmap"),
        _EXAMPLES_JAX501.valid("valid_y_jax_jit_lambda_x_x.py", runs=True),
        _EXAMPLES_JAX501.valid("valid_shadowed_module.py", note="shadowed module"),
        _EXAMPLES_JAX501.valid("valid_text_code.py", note="text, not code"),
        _EXAMPLES_JAX501.valid(
            "valid_two_bindings_certainly_jax_pmap.py", note="two bindings: not certainly jax.pmap"
        ),
        _EXAMPLES_JAX501.valid(
            "valid_listed_identity_check_equinox_nothing.py",
            note="listed for an identity check (equinox), nothing is mapped",
        ),
        _EXAMPLES_JAX501.valid("valid_only_use_tuple.py", note="the only use is in a tuple"),
        _EXAMPLES_JAX501.valid(
            "valid_chex_s_fake_pmap_copies.py", note="chex's fake_pmap copies pmap's metadata"
        ),
        _EXAMPLES_JAX501.valid(
            "valid_compared_called_haiku_tests.py", note="compared, not called (haiku tests)"
        ),
    ]
    INVALID = [
        _EXAMPLES_JAX501.invalid("invalid_jax_pmap.py", line=3, column=2, unsafe_fix=True),
        _EXAMPLES_JAX501.invalid(
            "invalid_return_jax_pmap_step_axis_name.py", line=4, column=12, unsafe_fix=True
        ),
        _EXAMPLES_JAX501.invalid(
            "invalid_partial_jax_pmap_axis_name_i.py", line=5, column=10, unsafe_fix=True
        ),
        _EXAMPLES_JAX501.invalid(
            "invalid_jax_import_jit_pmap.py", count=1, line=1, column=22, unsafe_fix=True
        ),
        _EXAMPLES_JAX501.invalid(
            "invalid_p_jax_pmap_f_axis_name.py",
            message_contains="no automatic rewrite: `static_broadcasted_argnums`",
            unsafe_fix=True,
        ),
        _EXAMPLES_JAX501.invalid(
            "invalid_outs_j_pmap_f_devices_d.py", message_contains="migrate_pmap.html"
        ),
        _EXAMPLES_JAX501.invalid(
            "invalid_scalar_per_device_vmap_keeps.py",
            line=8,
            unsafe_fix=True,
            note="a scalar per device: the vmap keeps pmap's output shape",
        ),
        _EXAMPLES_JAX501.invalid(
            "invalid_import_needed_list_fix.py",
            message_contains="no automatic rewrite: `pmap` is used as a value at line 6",
            note="the import is needed by the list: no fix",
        ),
        _EXAMPLES_JAX501.invalid("invalid_mapped_jax_pmap_step_axis_name.py", unsafe_fix=True),
    ]

    def __init__(self, ctx: FileContext) -> None:
        super().__init__(ctx)
        self.enabled = ctx.target_jax >= _PMAP_MAINTENANCE_SINCE
        self.rewrites: dict[int, _Rewrite | str] = {}
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
            pos = _positional(dec)
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
                self._is_pmap(n) for n in _walk_all(call.fun) if isinstance(n, cst.BaseExpression)
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
        if call.axis is not None and not (_is_string(call.axis) or _is_reference(call.axis)):
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
    ) -> _Rewrite | str:
        if _has_comment(replace):
            return "comments inside the call"
        s = _Speller(self, ref)
        code = self.ctx.code
        axis = code(_bare(call.axis)) if call.axis is not None else "'i'"
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
        return _Rewrite(replace, text, s.ops)

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
        for alias, local, _ in _import_hits(self, node, {"jax.pmap": 1}.get):
            self.imported.append((node, alias, local))

    def leave_Module(self, node: cst.Module) -> None:
        for imp, alias, local in self.imported:
            uses = self.uses_of_import(imp, local, "jax.pmap")
            if uses and all(id(u) in self.in_collection for u in uses):
                continue
            rewrites: list[_Rewrite] = []
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
                fix = _import_and_uses_fix(self, imp, alias, rewrites)
            self._report(alias, "jax.pmap", fix, reason)


# -- JAX502 legacy-mesh-context -----------------------------------------------------------------

_MESH_CONTEXT_DEPRECATED = (0, 10, 1)
_USE_MESH_REMOVED = (0, 7, 1)
_USE_MESH_ADDED = (0, 5, 0)
_EXAMPLES_JAX502 = Examples(Path(__file__).parent / "sharding" / "legacy_mesh_context.py")


class LegacyMeshContext(_Facts, Rule):
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
        _EXAMPLES_JAX502.valid("valid_y_jax_numpy_ones_4_2.py", runs=True),
        _EXAMPLES_JAX502.valid(
            "valid_variable_named_mesh_mesh.py", note="a variable named mesh that is not a Mesh"
        ),
        _EXAMPLES_JAX502.valid(
            "valid_unannotated_parameter_unknown.py", note="an unannotated parameter: unknown"
        ),
        _EXAMPLES_JAX502.valid("valid_other_context_managers.py", note="other context managers"),
        _EXAMPLES_JAX502.valid("valid_pass.py", target_jax="0.9.0"),
        _EXAMPLES_JAX502.valid(
            "valid_use_mesh_current_spelling_there.py",
            target_jax="0.6.0",
            note="use_mesh is the current spelling there",
        ),
        _EXAMPLES_JAX502.valid(
            "valid_assigned_something_else_too.py", note="assigned something else too"
        ),
        _EXAMPLES_JAX502.valid(
            "valid_self_mesh_unannotated_parameter.py",
            note="self.mesh from an unannotated parameter",
        ),
        _EXAMPLES_JAX502.valid("valid_pass_2.py", runs=True),
    ]
    INVALID = [
        _EXAMPLES_JAX502.invalid(
            "invalid_mesh.py",
            line=5,
            column=6,
            message_contains="`with mesh:` is deprecated since JAX 0.10.1",
        ),
        _EXAMPLES_JAX502.invalid(
            "invalid_jit_bare_specs_needs_new.py",
            raises="RuntimeError",
            note="jit with bare specs needs the new context",
        ),
        _EXAMPLES_JAX502.invalid(
            "invalid_y_jnp_ones_3.py",
            raises="AttributeError",
            message_contains="removed in JAX 0.7.1",
        ),
        _EXAMPLES_JAX502.invalid(
            "invalid_jax_sharding_import_mesh_use_mesh.py", count=1, line=1, column=32
        ),
        _EXAMPLES_JAX502.invalid("invalid_self_mesh_open_f_fh.py", line=8, column=14),
        _EXAMPLES_JAX502.invalid(
            "invalid_pjit_file_fix_unsafe.py", line=5, note="pjit in the file: the fix is unsafe"
        ),
        _EXAMPLES_JAX502.invalid("invalid_return_pjit_f_x.py", unsafe_fix=True),
        _EXAMPLES_JAX502.invalid(
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
            s = _Speller(self, node)
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
            for alias, local, _ in _import_hits(self, node, {"jax.sharding.use_mesh": 1}.get):
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
            text = _rewrite_import(self, imp, [alias], [new])
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
        s = _Speller(self, item.item)
        set_mesh = s("jax.set_mesh")
        expr = self.ctx.code(_bare(item.item))
        replace: cst.CSTNode = item.item
        text: str | None = f"{set_mesh}({expr})"
        if item.asname is not None:
            replace = item
            target = item.asname.name
            text = f"{set_mesh}({target.value} := {expr})" if isinstance(target, cst.Name) else None
        short = expr if len(expr) <= 40 else "mesh"
        fix = None
        if text is not None and s.ok and not _has_comment(item):
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


# -- JAX503 pjit ------------------------------------------------------------------------------

_PJIT = "jax.experimental.pjit.pjit"
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


@dataclass
class _ArgEdits:
    """Keyword edits that turn a call of the old API into one of the new."""

    edits: list[tuple[cst.CSTNode, str]]
    safe: bool = True
    removed: list[str] = field(default_factory=list)
    """Keywords that no longer exist (``in_axis_resources``)."""


_EXAMPLES_JAX503 = Examples(Path(__file__).parent / "sharding" / "pjit.py")


class Pjit(_Facts, Rule):
    code = "JAX503"
    required_names = frozenset({"pjit"})
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
from jax import jit as pjit

step = pjit(train_step, in_shardings=in_shardings, out_shardings=out_shardings, donate_argnums=0)
```
An import is rewritten to bind `jax.jit` under the old name, and each call's
positional options become keywords; `pjit.pjit(...)` becomes `jax.jit(...)`.

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
        _EXAMPLES_JAX503.valid(
            "valid_jax_jit_shardings.py", runs=True, note="jax.jit with in_shardings"
        ),
        _EXAMPLES_JAX503.valid("valid_step_pjit_pjit_f_shardings_s.py", target_jax="0.7.0"),
        _EXAMPLES_JAX503.valid("valid_jax_s_pjit.py", note="not JAX's pjit"),
        _EXAMPLES_JAX503.valid("valid_step_jax_jit_f_static_argnums.py"),
        _EXAMPLES_JAX503.valid("valid_version_compat_import.py", note="version-compat import"),
        _EXAMPLES_JAX503.valid("valid_step_pjit_g.py"),
        _EXAMPLES_JAX503.valid(
            "valid_before_deprecation_without_removed_keywords.py",
            target_jax="0.5.0",
            note="before the deprecation, without removed keywords",
        ),
        _EXAMPLES_JAX503.valid("valid_s_namedsharding_mesh_spec.py"),
    ]
    INVALID = [
        _EXAMPLES_JAX503.invalid(
            "invalid_jax_experimental_pjit_import_pjit.py",
            count=1,
            line=1,
            column=35,
            message_contains="deprecated since JAX 0.8.0",
            unsafe_fix=True,
        ),
        _EXAMPLES_JAX503.invalid(
            "invalid_namedshardings_safe.py", line=6, column=8, note="NamedShardings: safe"
        ),
        _EXAMPLES_JAX503.invalid(
            "invalid_y_f_jax_numpy_arange_2.py",
            raises="TypeError",
            message_contains="`in_axis_resources` was removed in JAX 0.4.14",
        ),
        _EXAMPLES_JAX503.invalid(
            "invalid_step_pjit_f_out_axis_resources.py",
            target_jax="0.4.20",
            message_contains="`out_axis_resources` was removed in JAX 0.4.14",
            unsafe_fix=True,
        ),
        _EXAMPLES_JAX503.invalid(
            "invalid_functools_partial_pj_pjit_static_argnums.py", line=4, column=20
        ),
        _EXAMPLES_JAX503.invalid(
            "invalid_make_pjit.py",
            message_contains="no automatic rewrite: `pjit` is used as a value at line 3",
        ),
        _EXAMPLES_JAX503.invalid(
            "invalid_step_pjit_pjit_f_abstracted_axes.py",
            message_contains="no automatic rewrite: `abstracted_axes`",
        ),
    ]

    def __init__(self, ctx: FileContext) -> None:
        super().__init__(ctx)
        self.deprecated = ctx.target_jax >= _PJIT_DEPRECATED
        self.enabled = ctx.target_jax >= _AXIS_RESOURCES_REMOVED
        self.plans: dict[int, _ArgEdits | str] = {}
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

    def visit_Decorator(self, node: cst.Decorator) -> None:
        if self.enabled and self._is_pjit(node.decorator):
            self.plans[id(node.decorator)] = _ArgEdits([])

    def _arg_edits(self, args: Sequence[cst.Arg]) -> _ArgEdits | str:
        if any(a.star for a in args):
            return "it passes `*args` or `**kwargs`"
        out = _ArgEdits([])
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
        plans: Sequence[_ArgEdits],
        fix: Callable[[], list[FixOp]] | None,
        reason: str | None,
    ) -> None:
        removed = sorted({k for p in plans for k in p.removed})
        if removed:
            what = f"`{removed[0]}` was removed in JAX 0.4.14"
            if self.deprecated:
                what += f", and `{used}` is deprecated since JAX 0.8.0"
            replacement = _AXIS_RESOURCES[removed[0]]
        else:
            what = f"`{used}` is deprecated since JAX 0.8.0"
            replacement = "jax.jit"
        safe = all(p.safe for p in plans) or not self.deprecated  # pjit stays pjit
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
        s = _Speller(self, node)
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
            for alias, local, _ in _import_hits(self, node, {_PJIT: 1}.get):
                self.imported.append((node, alias, local))

    def leave_Module(self, node: cst.Module) -> None:
        for imp, alias, local in self.imported:
            plans: list[_ArgEdits] = []
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
        self, imp: cst.ImportFrom, alias: cst.ImportAlias, local: str, plans: list[_ArgEdits]
    ) -> Callable[[], list[FixOp]]:
        def fix() -> list[FixOp]:
            ops: list[FixOp] = [ReplaceNode(n, t) for p in plans for n, t in p.edits]
            if self.deprecated:
                new = "from jax import jit" + ("" if local == "jit" else f" as {local}")
                ops.append(ReplaceNode(imp, _rewrite_import(self, imp, [alias], [new])))
            return ops

        return fix


# -- JAX504 experimental-shard-map --------------------------------------------------------------

_LEGACY_SHARD_MAP = "jax.experimental.shard_map.shard_map"
_LEGACY_SHARD_MAP_DEPRECATED = (0, 8, 0)
_LEGACY_SHARD_MAP_PARAMS = ("f", "mesh", "in_specs", "out_specs", "check_rep", "auto")
_EXAMPLES_JAX504 = Examples(Path(__file__).parent / "sharding" / "experimental_shard_map.py")


class ExperimentalShardMap(_Facts, Rule):
    code = "JAX504"
    required_names = frozenset({"shard_map"})
    name = "experimental-shard-map"
    message = "`{used}` is deprecated since JAX 0.8.0; use `jax.shard_map`{detail}"
    fix_availability = "sometimes"
    probe = "jaxlint probe compile FILE.py:FUNC"
    docs = """\
## What it does
Flags `jax.experimental.shard_map.shard_map` when the target JAX is 0.8.0 or
newer: attribute uses (`shard_map.shard_map(...)`) at each use, `from
jax.experimental.shard_map import shard_map` once, at the import.

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

## Fix safety
Safe when mechanical: on JAX 0.12 the experimental function is
`jax.shard_map` with `check_vma=check_rep` and no manual-axis subset (read
from its source, and checked for equal results with 8 CPU devices).
`auto=A` becomes `axis_names=frozenset(mesh.axis_names) - frozenset(A)` when
the mesh argument is a variable or attribute; with another mesh expression the
complement would evaluate it twice, so the fix is shown but not applied.
`*args`/`**kwargs` and `shard_map` used as a plain value get no fix.

## Verify at runtime
`jaxlint probe compile FILE.py:FUNC` on a function that calls the rewritten
`shard_map` traces, lowers and compiles it (use
`XLA_FLAGS=--xla_force_host_platform_device_count=8` on a CPU-only machine).
"""
    VALID = [
        _EXAMPLES_JAX504.valid(
            "valid_current_jax_shard_map.py", runs=True, note="current jax.shard_map"
        ),
        _EXAMPLES_JAX504.valid("valid_return.py"),
        _EXAMPLES_JAX504.valid("valid_f_shard_map_g_mesh_p.py", target_jax="0.7.0"),
        _EXAMPLES_JAX504.valid("valid_f_shard_map_g_mesh_p_2.py"),
        _EXAMPLES_JAX504.valid("valid_version_compat_import.py", note="version-compat import"),
        _EXAMPLES_JAX504.valid("valid_f_jax_smap_g_axes_0.py"),
        _EXAMPLES_JAX504.valid("valid_d_mesh_utils_create_device_mesh.py"),
        _EXAMPLES_JAX504.valid("valid_f_shard_map_g_mesh_m.py"),
    ]
    INVALID = [
        _EXAMPLES_JAX504.invalid(
            "invalid_jax_experimental_shard_map_import_shard.py", count=1, line=1, column=40
        ),
        _EXAMPLES_JAX504.invalid("invalid_return_shard_map_shard_map_body.py", line=5, column=12),
        _EXAMPLES_JAX504.invalid("invalid_return.py"),
        _EXAMPLES_JAX504.invalid(
            "invalid_auto_raises_typeerror_since_0.py",
            raises="TypeError",
            note="auto= raises TypeError since 0.8.0",
        ),
        _EXAMPLES_JAX504.invalid(
            "invalid_f_shm_shard_map_g_make.py",
            message_contains="the mesh expression would be evaluated twice",
        ),
        _EXAMPLES_JAX504.invalid(
            "invalid_wrappers_sm_shard_map.py",
            message_contains="no automatic rewrite: `shard_map` is used as a value at line 3",
        ),
    ]

    def __init__(self, ctx: FileContext) -> None:
        super().__init__(ctx)
        self.enabled = ctx.target_jax >= _LEGACY_SHARD_MAP_DEPRECATED
        self.plans: dict[int, _ArgEdits | str] = {}
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

    def _arg_edits(self, args: Sequence[cst.Arg]) -> _ArgEdits | str:
        if any(a.star for a in args):
            return "it passes `*args` or `**kwargs`"
        code = self.ctx.code
        out = _ArgEdits([])
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
                if not _is_reference(mesh.value):
                    out.safe = False  # shown, not applied
                auto = arg.value
                if not (
                    isinstance(auto, cst.Call)
                    and self.model.call_name(auto) in ("builtins.frozenset", "builtins.set")
                ):
                    value = f"frozenset({value})"
                out.edits.append(
                    (arg, f"axis_names=frozenset({code(mesh.value)}.axis_names) - {value}")
                )
            elif arg.keyword is None:
                out.edits.append((arg, f"{name}={value}"))
        return out

    def _report(
        self,
        node: cst.CSTNode,
        used: str,
        plans: Sequence[_ArgEdits],
        fix: Callable[[], list[FixOp]] | None,
        reason: str | None,
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
            used=used,
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
        s = _Speller(self, node)
        text = s("jax.shard_map")
        if not s.ok:
            self._report(node, self.ctx.code(node), [plan], None, "the name `jax` is taken here")
            return

        def fix() -> list[FixOp]:
            return [*(ReplaceNode(n, t) for n, t in plan.edits), ReplaceNode(node, text), *s.ops]

        self._report(node, self.ctx.code(node), [plan], fix, None)

    def import_from(self, node: cst.ImportFrom) -> None:
        if self.enabled:
            for alias, local, _ in _import_hits(self, node, {_LEGACY_SHARD_MAP: 1}.get):
                self.imported.append((node, alias, local))

    def leave_Module(self, node: cst.Module) -> None:
        for imp, alias, local in self.imported:
            plans: list[_ArgEdits] = []
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
                    ops.append(ReplaceNode(imp, _rewrite_import(self, imp, [alias], [new])))
                    return ops

            self._report(alias, _LEGACY_SHARD_MAP, plans, fix, reason)


# -- JAX505 legacy-sharding-api ----------------------------------------------------------------


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
}
_MAPS_MODULE = "jax.experimental.maps"
_MAPS = _Legacy((0, 4, 26), (0, 4, 31), "jax.shard_map and jax.sharding.Mesh")
_DEVICE_PUT = {
    "jax.device_put_replicated": ("x", "devices"),
    "jax.device_put_sharded": ("shards", "devices"),
}
_CREATE_DEVICE_MESH = "jax.experimental.mesh_utils.create_device_mesh"
_MAKE_MESH_SINCE = (0, 7, 0)


def _names_in(node: cst.CSTNode) -> set[str]:
    return {n.value for n in _walk_all(node) if isinstance(n, cst.Name)}


def _fresh(base: str, taken: set[str]) -> str:
    name = base
    while name in taken:
        name += "_"
    return name


_EXAMPLES_JAX505 = Examples(Path(__file__).parent / "sharding" / "legacy_sharding_api.py")


class LegacyShardingApi(_Facts, Rule):
    code = "JAX505"
    required_names = frozenset(
        {
            # anything under jax.experimental.maps spells "maps"
            "maps" if q.startswith(_MAPS_MODULE + ".") else q.rsplit(".", 1)[-1]
            for q in (*_LEGACY_SHARDING, _MAPS_MODULE, *_DEVICE_PUT, _CREATE_DEVICE_MESH)
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
with `xmap` and `maps.Mesh` (removed in 0.4.31). Attribute uses are reported at
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

replicated = jax.tree.map(lambda leaf: jax.device_put(jax.numpy.stack([leaf] * len(jax.local_devices())), jax.NamedSharding(jax.sharding.Mesh(jax.local_devices(), ('x',)), jax.P('x'))), params)
mesh = jax.make_mesh((4, 2), ("data", "model"), axis_types=(jax.sharding.AxisType.Auto,) * 2)
```
The `device_put_*` rewrites are JAX's own drop-in replacements from the pmap
migration guide: they build the same stacked arrays, sharded over their leading
axis (what `pmap` consumes). When the value is meant to be replicated, prefer
`jax.device_put(x, NamedSharding(mesh, P()))`, which does not stack copies.
`PositionalSharding`, `PmapSharding` and `xmap` get no fix: the replacement
depends on the mesh and specs you want (`NamedSharding(mesh, P(...))`,
`jax.shard_map`, or `jax.vmap(..., spmd_axis_name=...)`).

## Fix safety
`maps.Mesh` -> `jax.sharding.Mesh` is safe (the same class). The
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
        _EXAMPLES_JAX505.valid("valid_namedsharding.py", runs=True, note="NamedSharding"),
        _EXAMPLES_JAX505.valid("valid_r_jax_device_put_replicated_x.py", target_jax="0.5.0"),
        _EXAMPLES_JAX505.valid(
            "valid_create_device_mesh_off_default.py", note="create-device-mesh is off by default"
        ),
        _EXAMPLES_JAX505.valid(
            "valid_options_make_mesh_does_have.py",
            options={"create-device-mesh": True},
            note="options make_mesh does not have",
        ),
        _EXAMPLES_JAX505.valid(
            "valid_mesh_mesh_jax_devices_x.py", options={"create-device-mesh": True}
        ),
        _EXAMPLES_JAX505.valid("valid_another_library.py", note="another library"),
        _EXAMPLES_JAX505.valid(
            "valid_mesh_jax_make_mesh_2_4.py", options={"create-device-mesh": True}
        ),
        _EXAMPLES_JAX505.valid(
            "valid_s_jax_sharding_positionalsharding_devs.py", target_jax="0.5.3"
        ),
        _EXAMPLES_JAX505.valid("valid_y_device_put_replicated_1.py"),
    ]
    INVALID = [
        _EXAMPLES_JAX505.invalid(
            "invalid_replicated_jax_device_put_replicated_params.py",
            line=5,
            column=14,
            raises="AttributeError",
            message_contains="`jax.device_put_replicated` was removed in JAX 0.10.0",
            unsafe_fix=True,
        ),
        _EXAMPLES_JAX505.invalid(
            "invalid_jax_import_device_put_sharded.py", count=1, line=1, unsafe_fix=True
        ),
        _EXAMPLES_JAX505.invalid(
            "invalid_s_jax_sharding_positionalsharding_jax_devices.py",
            raises="AttributeError",
            message_contains="NamedSharding(mesh, PartitionSpec(...))",
        ),
        _EXAMPLES_JAX505.invalid(
            "invalid_return_isinstance_x_sharding_jax_sharding.py",
            message_contains="removed in JAX 0.10.0",
        ),
        _EXAMPLES_JAX505.invalid(
            "invalid_xmap_gets_fix.py",
            count=2,
            line=1,
            column=35,
            unsafe_fix=True,
            note="xmap gets no fix",
        ),
        _EXAMPLES_JAX505.invalid("invalid_mesh_mesh_devices_x.py"),
        _EXAMPLES_JAX505.invalid(
            "invalid_f_jax_experimental_maps_xmap_g.py",
            count=2,
            message_contains="`jax.experimental.maps` was removed in JAX 0.4.31",
        ),
        _EXAMPLES_JAX505.invalid(
            "invalid_mesh1_mesh_mesh_utils_create_device.py",
            options={"create-device-mesh": True},
            count=2,
            unsafe_fix=True,
            message_contains="defaults to Explicit axes since JAX 0.9",
        ),
        _EXAMPLES_JAX505.invalid(
            "invalid_return_mesh_mesh_utils_create_device.py",
            options={"create-device-mesh": True},
            unsafe_fix=True,
        ),
    ]

    def __init__(self, ctx: FileContext) -> None:
        super().__init__(ctx)
        self.target = ctx.target_jax
        self.rewrites: dict[int, _Rewrite | str] = {}
        self.imported: list[tuple[cst.ImportFrom, cst.ImportAlias, str, str]] = []

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
        if name in _DEVICE_PUT:
            self.rewrites[id(node.func)] = self._device_put(node, name)
        elif (
            name == "jax.sharding.Mesh"
            and self.settings["create-device-mesh"]
            and self.target >= _MAKE_MESH_SINCE
        ):
            self._mesh_of_device_mesh(node)

    def _device_put(self, call: cst.Call, name: str) -> _Rewrite | str:
        if _has_star(call):
            return "it passes `*args` or `**kwargs`"
        params = _DEVICE_PUT[name]
        given: dict[str, cst.BaseExpression] = {}
        for index, arg in enumerate(_positional(call)):
            if index >= len(params):
                return "too many arguments"
            given[params[index]] = arg.value
        for arg in call.args:
            if arg.keyword is not None:
                if arg.keyword.value not in params:
                    return f"`{arg.keyword.value}`"
                given[arg.keyword.value] = arg.value
        if len(given) != 2:
            return "missing arguments"
        if _has_comment(call):
            return "comments inside the call"
        data, devices = given[params[0]], given["devices"]
        code = self.ctx.code
        s = _Speller(self, call.func)
        leaf = _fresh("leaf", _names_in(devices))
        sharding = (
            f"{s('jax.NamedSharding', 'jax.sharding.NamedSharding')}"
            f"({s('jax.sharding.Mesh')}({code(_bare(devices))}, ('x',)), {s.partition_spec()}('x'))"
        )
        put, stack, tree_map = s("jax.device_put"), s("jax.numpy.stack"), s("jax.tree.map")
        if name == "jax.device_put_replicated":
            text = (
                f"{tree_map}(lambda {leaf}: {put}({stack}([{leaf}] * len({code(_bare(devices))})),"
                f" {sharding}), {code(_bare(data))})"
            )
        else:
            text = f"{tree_map}(lambda *{leaf}: {put}({stack}({leaf}), {sharding}), *{code(data)})"
        if not s.ok:
            return "the name `jax` is taken here"
        return _Rewrite(call, text, s.ops)

    def _mesh_of_device_mesh(self, node: cst.Call) -> None:
        if _has_star(node):
            return
        pos = _positional(node)
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
            and self.model.call_name(devices) == _CREATE_DEVICE_MESH
            and names is not None
        ):
            return
        inner = devices
        if _has_star(inner):
            return
        inner_pos = _positional(inner)
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
        code = self.ctx.code
        s = _Speller(self, node.func)
        applicability = Applicability.UNSAFE
        names_text = code(_bare(names))
        if axis_types is not None:
            types_text = code(_bare(axis_types))
        else:
            if _is_string(names):
                count = "1"
                names_text = f"({names_text},)"
            elif isinstance(names, (cst.Tuple, cst.List)) and all(
                isinstance(el, cst.Element) for el in names.elements
            ):
                count = str(len(names.elements))
            else:
                count = f"len({names_text})"
                if not _is_reference(names):
                    applicability = Applicability.DISPLAY_ONLY
            types_text = f"({s('jax.sharding.AxisType')}.Auto,) * {count}"
        extra = "" if devs is None else f", devices={code(_bare(devs))}"
        text = f"{s('jax.make_mesh')}({code(_bare(shape))}, {names_text}, axis_types={types_text}{extra})"
        fix = None
        if s.ok and not _has_comment(node):

            def fix() -> list[FixOp]:
                return [ReplaceNode(node, text), *s.ops]

        self.report(
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
            s = _Speller(self, node)
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
        if isinstance(plan, _Rewrite):
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
                    self._module_report(alias)
        for alias, local, qualname in _import_hits(self, node, _LEGACY_SHARDING.get):
            self.imported.append((node, alias, local, qualname))

    def _module_report(self, alias: cst.ImportAlias) -> None:
        status = _status(self.target, _MAPS.deprecated, _MAPS.removed)
        if status is not None:
            self._reference_report(alias, _MAPS_MODULE, _MAPS, status, None, None)

    def leave_Module(self, node: cst.Module) -> None:
        for imp, alias, local, qualname in self.imported:
            legacy = _LEGACY_SHARDING[qualname]
            status = _status(self.target, legacy.deprecated, legacy.removed)
            if status is None:
                continue
            if legacy.moved_to is not None:
                module, _, name = legacy.moved_to.rpartition(".")
                new = f"from {module} import {name}" + ("" if local == name else f" as {local}")
                text = _rewrite_import(self, imp, [alias], [new])
                self._reference_report(
                    alias,
                    qualname,
                    legacy,
                    status,
                    lambda imp=imp, text=text: [ReplaceNode(imp, text)],
                    Applicability.SAFE,
                )
                continue
            rewrites: list[_Rewrite] = []
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
            if reason is None and qualname in _DEVICE_PUT:
                fix = _import_and_uses_fix(self, imp, alias, rewrites)
            self._reference_report(
                alias, qualname, legacy, status, fix, Applicability.UNSAFE, reason
            )


def _import_and_uses_fix(
    rule: Rule, imp: cst.ImportFrom, alias: cst.ImportAlias, rewrites: Sequence[_Rewrite]
) -> Callable[[], list[FixOp]]:
    """Rewrite every use and drop the alias from the import (``import jax`` if it was alone)."""

    def fix() -> list[FixOp]:
        assert not isinstance(imp.names, cst.ImportStar)
        ops: list[FixOp] = []
        for r in rewrites:
            ops.append(ReplaceNode(r.node, r.text))
            ops.extend(op for op in r.ops if op not in ops)
        if len(imp.names) == 1:
            needs_jax = RequireImport("jax") in ops
            if not needs_jax and any(
                isinstance(st, cst.SimpleStatementLine) and len(st.body) == 1 and st.body[0] is imp
                for st in rule.ctx.module.body
            ):
                ops.append(ReplaceNode(imp, ""))  # a module-level line of its own: drop it
            else:
                # It becomes the import the rewrites need (a block must not end up empty).
                ops = [op for op in ops if op != RequireImport("jax")]
                ops.append(ReplaceNode(imp, "import jax"))
        else:
            ops.append(ReplaceNode(imp, _rewrite_import(rule, imp, [alias], [])))
        return ops

    return fix
