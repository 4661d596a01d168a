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

import libcst as cst

from jaxlint.analysis.names import Binding
from jaxlint.diagnostics import Applicability
from jaxlint.fixers.spelling import spell
from jaxlint.rules.base import FixOp, Invalid, ReplaceNode, RequireImport, Rule, Valid
from jaxlint.versions import Version

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
    """``expr`` without its own parentheses (node ranges exclude them)."""
    if getattr(expr, "lpar", None):
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

    model: object
    ctx: object

    def __init__(self, ctx) -> None:  # type: ignore[no-untyped-def]
        super().__init__(ctx)  # type: ignore[call-arg]
        self.assigned: dict[int, cst.BaseExpression] = {}
        self.declared: dict[int, cst.Annotation] = {}
        self.self_attrs: dict[tuple[int, str], list[cst.BaseExpression | cst.Annotation]] = {}
        self.containers: list[cst.ClassDef | cst.FunctionDef] = []
        self.class_of: dict[int, cst.ClassDef] = {}
        self.names: dict[str, list[cst.Name]] = {}
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
        model = self.model  # type: ignore[attr-defined]
        found = model.lookup(name.value, model.scope_for(name))
        return [] if found is None else list(found[1])

    def uses_of_import(self, node: cst.ImportFrom, local: str, qualname: str) -> list[cst.Name]:
        model = self.model  # type: ignore[attr-defined]
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
        model = self.model  # type: ignore[attr-defined]
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
        model = self.model  # type: ignore[attr-defined]
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
        return f"removed in JAX {_v(removed)}"
    assert deprecated is not None
    return f"deprecated since JAX {_v(deprecated)}"


def _v(version: Version) -> str:
    return ".".join(str(p) for p in version)


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


class Pmap(_Facts, Rule):
    code = "JAX501"
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
        Valid(
            "import jax\n"
            "mesh = jax.make_mesh((jax.device_count(),), ('i',),"
            " axis_types=(jax.sharding.AxisType.Auto,))\n"
            "f = jax.jit(jax.shard_map(lambda x: x * 2, mesh=mesh, in_specs=jax.P('i'),"
            " out_specs=jax.P('i')))\n"
            "y = f(jax.numpy.arange(float(jax.device_count())))\n",
            note="current jax.shard_map",
            runs=True,
        ),
        Valid("import jax\np_step = jax.pmap(step, axis_name='i')\n", target_jax="0.7.2"),
        Valid(
            "from flax import nnx\n\n@nnx.pmap(axis_size=1)\ndef f(x):\n    return x\n",
            note="flax's own pmap",
        ),
        Valid("import jax\nmapped = jax.vmap(f, axis_name='i')\n"),
        Valid("def pmap(f):\n    return f\n\nstep = pmap(lambda x: x)\n", note="a local pmap"),
        Valid(
            "import jax\ny = jax.jit(lambda x: x * 2, in_shardings=None)(jax.numpy.ones(3))\n",
            runs=True,
        ),
        Valid("import jax\n\ndef f(jax):\n    return jax.pmap(g)\n", note="shadowed module"),
        Valid(
            "import jax\n# jax.pmap(f) in a comment\ndoc = 'use jax.pmap(f, axis_name=...)'\n",
            note="text, not code",
        ),
        Valid(
            "try:\n    from jax import pmap\nexcept ImportError:\n    pmap = None\n",
            note="two bindings: not certainly jax.pmap",
        ),
    ]
    INVALID = [
        Invalid(
            "import jax\n\n@jax.pmap\ndef scale(x):\n    return x * 2\n",
            line=3,
            column=2,
            unsafe_fix=True,
            expected_fix=(
                "import jax\n\n@jax.jit\n@jax.shard_map(mesh=jax.make_mesh((jax.device_count(),),"
                " ('i',), axis_types=(jax.sharding.AxisType.Auto,)), in_specs=jax.P('i'),"
                " out_specs=jax.P('i'), check_vma=False)\n@jax.vmap\ndef scale(x):\n"
                "    return x * 2\n"
            ),
        ),
        Invalid(
            "import jax\n\ndef make(step):\n"
            "    return jax.pmap(step, axis_name='batch', in_axes=(0, None), donate_argnums=0)\n",
            line=4,
            column=12,
            unsafe_fix=True,
            expected_fix=(
                "import jax\n\ndef make(step):\n"
                "    return jax.jit(jax.shard_map(jax.vmap(step, in_axes=(0, None)),"
                " mesh=jax.make_mesh((jax.device_count(),), ('batch',),"
                " axis_types=(jax.sharding.AxisType.Auto,)),"
                " in_specs=(jax.P('batch'), jax.P()), out_specs=jax.P('batch'),"
                " check_vma=False), donate_argnums=0)\n"
            ),
        ),
        Invalid(
            "from functools import partial\nimport jax\nfrom jax.sharding import PartitionSpec as P\n\n"
            "@partial(jax.pmap, axis_name='i', donate_argnums=(0,))\n"
            "def step(x):\n    return x / jax.lax.psum(x, 'i')\n",
            line=5,
            column=10,
            unsafe_fix=True,
            expected_fix=(
                "from functools import partial\nimport jax\n"
                "from jax.sharding import PartitionSpec as P\n\n"
                "@partial(jax.jit, donate_argnums=(0,))\n"
                "@jax.shard_map(mesh=jax.make_mesh((jax.device_count(),), ('i',),"
                " axis_types=(jax.sharding.AxisType.Auto,)), in_specs=P('i'),"
                " out_specs=P('i'), check_vma=False)\n"
                "@jax.vmap\n"
                "def step(x):\n    return x / jax.lax.psum(x, 'i')\n"
            ),
        ),
        Invalid(
            "from jax import jit, pmap\n\nf = pmap(lambda x: x + 1)\ng = pmap(h, 'i')\n",
            count=1,
            line=1,
            column=22,
            unsafe_fix=True,
            expected_fix=(
                "from jax import jit\nimport jax\n\n"
                "f = jit(jax.shard_map(jax.vmap(lambda x: x + 1),"
                " mesh=jax.make_mesh((jax.device_count(),), ('i',),"
                " axis_types=(jax.sharding.AxisType.Auto,)), in_specs=jax.P('i'),"
                " out_specs=jax.P('i'), check_vma=False))\n"
                "g = jit(jax.shard_map(jax.vmap(h),"
                " mesh=jax.make_mesh((jax.device_count(),), ('i',),"
                " axis_types=(jax.sharding.AxisType.Auto,)), in_specs=jax.P('i'),"
                " out_specs=jax.P('i'), check_vma=False))\n"
            ),
        ),
        Invalid(
            "import jax\np = jax.pmap(f, axis_name='i', static_broadcasted_argnums=1)\n",
            message_contains="no automatic rewrite: `static_broadcasted_argnums`",
            expected_fix="import jax\np = jax.pmap(f, axis_name='i', static_broadcasted_argnums=1)\n",
            unsafe_fix=True,
        ),
        Invalid(
            "import jax as j\n\nouts = [j.pmap(f, devices=d)(x) for d in groups]\n",
            message_contains="migrate_pmap.html",
        ),
        Invalid(
            "import jax\nimport jax.numpy as jnp\n\n"
            "def loss(x):\n    return jax.lax.pmean(jnp.sum(x ** 2), 'd')\n\n"
            "x = jnp.arange(jax.device_count() * 3.0).reshape(jax.device_count(), 3)\n"
            "out = jax.pmap(loss, 'd')(x)\n",
            line=8,
            unsafe_fix=True,
            note="a scalar per device: the vmap keeps pmap's output shape",
        ),
        Invalid(
            "from jax import pmap\n\ndef run(f, x):\n    return pmap(f)(x)\n\nlater = [pmap]\n",
            message_contains="no automatic rewrite: `pmap` is used as a value at line 6",
        ),
    ]

    def __init__(self, ctx) -> None:  # type: ignore[no-untyped-def]
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
        if not self.enabled or not self._is_pmap(node.func):
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
        if not self.enabled or not self._is_pmap(node):
            return
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
                fix = self._import_fix(imp, alias, rewrites)
            self._report(alias, "jax.pmap", fix, reason)

    def _import_fix(
        self, imp: cst.ImportFrom, alias: cst.ImportAlias, rewrites: list[_Rewrite]
    ) -> Callable[[], list[FixOp]]:
        def fix() -> list[FixOp]:
            assert not isinstance(imp.names, cst.ImportStar)
            ops: list[FixOp] = []
            for r in rewrites:
                ops.append(ReplaceNode(r.node, r.text))
                ops.extend(op for op in r.ops if op not in ops)
            if len(imp.names) == 1:
                # The statement would be empty: it becomes the import the rewrite needs.
                ops = [op for op in ops if op != RequireImport("jax")]
                ops.append(ReplaceNode(imp, "import jax"))
            else:
                ops.append(ReplaceNode(imp, _rewrite_import(self, imp, [alias], [])))
            return ops

        return fix


# -- JAX502 legacy-mesh-context -----------------------------------------------------------------

_MESH_CONTEXT_DEPRECATED = (0, 10, 1)
_USE_MESH_REMOVED = (0, 7, 1)
_USE_MESH_ADDED = (0, 5, 0)


class LegacyMeshContext(_Facts, Rule):
    code = "JAX502"
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
`jax.experimental.pjit`, and unsafe otherwise: `pjit` with bare
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
        Valid(
            "import jax\nfrom jax.sharding import Mesh\n\n"
            "mesh = Mesh(jax.devices(), ('x',))\nwith jax.set_mesh(mesh):\n"
            "    y = jax.numpy.ones(4) * 2\n",
            runs=True,
        ),
        Valid(
            "import trimesh\n\nmesh = trimesh.load('bunny.obj')\nwith mesh:\n    pass\n",
            note="a variable named mesh that is not a Mesh",
        ),
        Valid(
            "def render(mesh):\n    with mesh:\n        draw()\n",
            note="an unannotated parameter: unknown",
        ),
        Valid(
            "import jax\nfrom jax.sharding import Mesh\n\n"
            "mesh = Mesh(jax.devices(), ('x',))\nwith open('log.txt') as fh, jax.set_mesh(mesh):\n"
            "    pass\n",
            note="other context managers",
        ),
        Valid(
            "import jax\nfrom jax.sharding import Mesh\n\nmesh = Mesh(jax.devices(), ('x',))\n"
            "with mesh:\n    pass\n",
            target_jax="0.9.0",
        ),
        Valid(
            "import jax\n\nwith jax.sharding.use_mesh(mesh):\n    pass\n",
            target_jax="0.6.0",
            note="use_mesh is the current spelling there",
        ),
        Valid(
            "import jax\nfrom jax.sharding import Mesh\n\n"
            "mesh = Mesh(jax.devices(), ('x',))\nif cond:\n    mesh = make_grid()\n"
            "with mesh:\n    pass\n",
            note="assigned something else too",
        ),
        Valid(
            "import jax\n\nclass Trainer:\n    def __init__(self, mesh):\n"
            "        self.mesh = mesh\n\n    def run(self):\n        with self.mesh:\n"
            "            pass\n",
            note="self.mesh from an unannotated parameter",
        ),
        Valid(
            "import jax\n\nmesh = jax.make_mesh((jax.device_count(),), ('x',))\n"
            "with jax.sharding.set_mesh(mesh):\n    pass\n",
            runs=True,
        ),
    ]
    INVALID = [
        Invalid(
            "import jax\nfrom jax.sharding import Mesh\n\n"
            "mesh = Mesh(jax.devices(), ('x',))\nwith mesh:\n    y = jax.numpy.ones(4)\n",
            line=5,
            column=6,
            message_contains="`with mesh:` is deprecated since JAX 0.10.1",
            expected_fix=(
                "import jax\nfrom jax.sharding import Mesh\n\n"
                "mesh = Mesh(jax.devices(), ('x',))\nwith jax.set_mesh(mesh):\n"
                "    y = jax.numpy.ones(4)\n"
            ),
        ),
        Invalid(
            "import jax\nfrom jax.sharding import Mesh, PartitionSpec as P\n\n"
            "with Mesh(jax.devices(), ('x',)) as m:\n"
            "    f = jax.jit(lambda x: x * 2, in_shardings=P('x'))\n"
            "    y = f(jax.numpy.arange(8.0 * len(m.devices)))\n",
            raises="RuntimeError",
            expected_fix=(
                "import jax\nfrom jax.sharding import Mesh, PartitionSpec as P\n\n"
                "with jax.set_mesh(m := Mesh(jax.devices(), ('x',))):\n"
                "    f = jax.jit(lambda x: x * 2, in_shardings=P('x'))\n"
                "    y = f(jax.numpy.arange(8.0 * len(m.devices)))\n"
            ),
            note="jit with bare specs needs the new context",
        ),
        Invalid(
            "import jax\nimport jax.numpy as jnp\n\n"
            "with jax.sharding.use_mesh(jax.make_mesh((jax.device_count(),), ('x',))):\n"
            "    y = jnp.ones(3)\n",
            raises="AttributeError",
            message_contains="removed in JAX 0.7.1",
            expected_fix=(
                "import jax\nimport jax.numpy as jnp\n\n"
                "with jax.set_mesh(jax.make_mesh((jax.device_count(),), ('x',))):\n"
                "    y = jnp.ones(3)\n"
            ),
        ),
        Invalid(
            "from jax.sharding import Mesh, use_mesh\n\n"
            "def run(mesh: Mesh):\n    with use_mesh(mesh):\n        pass\n",
            count=1,
            line=1,
            column=32,
            expected_fix=(
                "from jax.sharding import Mesh\nfrom jax.sharding import set_mesh as use_mesh\n\n"
                "def run(mesh: Mesh):\n    with use_mesh(mesh):\n        pass\n"
            ),
        ),
        Invalid(
            "import jax\n\nclass Buffer:\n"
            "    def __init__(self, mesh: jax.sharding.Mesh):\n        self._mesh = mesh\n\n"
            "    def size(self):\n        with self._mesh, open('f') as fh:\n"
            "            return fh.read()\n",
            line=8,
            column=14,
            expected_fix=(
                "import jax\n\nclass Buffer:\n"
                "    def __init__(self, mesh: jax.sharding.Mesh):\n        self._mesh = mesh\n\n"
                "    def size(self):\n        with jax.set_mesh(self._mesh), open('f') as fh:\n"
                "            return fh.read()\n"
            ),
        ),
        Invalid(
            "import jax\nfrom jax.experimental.pjit import pjit\n\n"
            "def run(mesh: jax.sharding.Mesh, f, x):\n    with mesh:\n        return pjit(f)(x)\n",
            line=5,
            expected_fix=(
                "import jax\nfrom jax.experimental.pjit import pjit\n\n"
                "def run(mesh: jax.sharding.Mesh, f, x):\n    with mesh:\n"
                "        return pjit(f)(x)\n"
            ),
            note="pjit in the file: the fix is unsafe",
        ),
        Invalid(
            "import jax\nfrom jax.experimental.pjit import pjit\n\n"
            "def run(mesh: jax.sharding.Mesh, f, x):\n    with mesh:\n        return pjit(f)(x)\n",
            unsafe_fix=True,
            expected_fix=(
                "import jax\nfrom jax.experimental.pjit import pjit\n\n"
                "def run(mesh: jax.sharding.Mesh, f, x):\n    with jax.set_mesh(mesh):\n"
                "        return pjit(f)(x)\n"
            ),
        ),
        Invalid(
            "from jax.sharding import Mesh\nimport numpy as np\n\n"
            "mesh = Mesh(np.array(devs).reshape(2, 4), ('a', 'b'))\n\n"
            "def f():\n    with mesh:\n        pass\n",
            expected_fix=(
                "from jax.sharding import Mesh\nimport numpy as np\nimport jax\n\n"
                "mesh = Mesh(np.array(devs).reshape(2, 4), ('a', 'b'))\n\n"
                "def f():\n    with jax.set_mesh(mesh):\n        pass\n"
            ),
            note="a module-level mesh used in a function; adds import jax",
        ),
    ]

    def __init__(self, ctx) -> None:  # type: ignore[no-untyped-def]
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
