"""LegacyMeshContext's analysis: the helper methods and tables of the rule in `legacy_mesh_context.py`,
kept apart from its docs and examples (a mixin of the rule class)."""

from __future__ import annotations

import libcst as cst

from jaxlint.analysis.transforms import TRANSFORMS
from jaxlint.diagnostics import Applicability
from jaxlint.rules.base import ReplaceNode
from jaxlint.rules.sharding.helpers import (
    MESH_CONSTRUCTORS,
    PARTIAL,
    Facts,
    Speller,
    bare,
    has_comment,
    import_hits,
    positional,
    walk_all,
)

_MESH_CONTEXT_DEPRECATED = (0, 10, 1)
_USE_MESH_REMOVED = (0, 7, 1)
_USE_MESH_ADDED = (0, 5, 0)

# What may run inside a ``with mesh:`` block without reading JAX's legacy thread-local mesh
# (``jax._src.mesh.thread_resources``, which ``with mesh:`` sets and ``jax.set_mesh`` does
# not). Checked on JAX 0.12: ``pjit`` with bare specs and an eager
# ``with_sharding_constraint`` on an unsharded array need it; ``custom_partitioning``
# reads it (JAX's source).
_LEGACY_READERS = (
    "jax.experimental.pjit",
    "jax.experimental.custom_partitioning",
    "jax.experimental.shard_map",
    "jax.experimental.maps",
    "jax.interpreters",
    "jax._src",
    "jax.lax.with_sharding_constraint",
)
# JAX and NumPy functions that call a function they are given right away.
_RUNS_FUNCTION = frozenset(
    {
        "jax.lax.scan",
        "jax.lax.fori_loop",
        "jax.lax.while_loop",
        "jax.lax.cond",
        "jax.lax.switch",
        "jax.lax.map",
        "jax.lax.associative_scan",
        "jax.lax.custom_root",
        "jax.lax.custom_linear_solve",
        "jax.eval_shape",
        "jax.jvp",
        "jax.vjp",
        "jax.linearize",
        "jax.closure_convert",
        "jax.tree.map",
        "jax.tree.map_with_path",
        "jax.tree_util.tree_map",
        "jax.tree_util.tree_map_with_path",
        "jax.debug.callback",
        "jax.pure_callback",
        "jax.experimental.io_callback",
        "jax.numpy.piecewise",
        "jax.numpy.apply_along_axis",
        "jax.numpy.apply_over_axes",
        "numpy.piecewise",
        "numpy.apply_along_axis",
        "numpy.apply_over_axes",
    }
)
_RISKY_BUILTINS = frozenset(
    {
        "exec",
        "eval",
        "compile",
        "__import__",
        "getattr",
        "map",
        "filter",
        "sorted",
        "min",
        "max",
        "next",
        "iter",
    }
)
_ARRAY_METHODS = frozenset(
    {"block_until_ready", "reshape", "astype", "sum", "mean", "item", "tolist", "transpose"}
)
_MAX_DEPTH = 3


def _is_jax_transform(name: str | None) -> bool:
    """``jax.jit``, ``jax.vmap``...: wraps a function without reading the legacy context."""
    return (
        name is not None
        and name in TRANSFORMS
        and name.startswith("jax.")
        and not name.startswith(_LEGACY_READERS)
    )


class LegacyMeshContextChecks(Facts):
    """The analysis behind :class:`LegacyMeshContext`."""

    # -- what the block may run

    def _unseen(
        self, roots: list[cst.CSTNode], depth: int = 0, jitted: bool = False
    ) -> cst.CSTNode | None:
        """The first call under ``roots`` that may read the legacy mesh context (or a
        ``yield``, which runs the caller's code under it); None when there is none.
        ``jitted``: the code runs traced under ``jax.jit``."""
        for root in roots:
            for n in walk_all(root):
                if isinstance(n, (cst.Yield, cst.Await)):
                    return n
                if isinstance(n, cst.Call) and not self._harmless(n, depth, jitted):
                    return n
                if isinstance(n, (cst.Attribute, cst.Name)):
                    name = self.model.qualified_name(n)
                    if name is not None and name.startswith(_LEGACY_READERS):
                        return n  # ``pxla.thread_resources``: reads it directly
        return None

    def _harmless(self, call: cst.Call, depth: int, jitted: bool) -> bool:
        name = self.model.call_name(call)
        if name is not None:
            if name.startswith("builtins."):
                return name.removeprefix("builtins.") not in _RISKY_BUILTINS
            if jitted and name == "jax.lax.with_sharding_constraint":
                return True  # under jit it reads `jax.set_mesh`'s mesh first
            if name.startswith(("jax.", "numpy.")):
                return not name.startswith(_LEGACY_READERS) and name not in _RUNS_FUNCTION
            return False
        func = call.func
        if isinstance(func, cst.Attribute) and self.model.qualified_name(func.value) is None:
            if func.attr.value in _ARRAY_METHODS:
                return True  # ``y.block_until_ready()``
        found = self._body_of(func, depth, jitted)
        return found is not None and self._unseen(found[0], depth + 1, found[1]) is None

    def _body_of(
        self, func: cst.BaseExpression, depth: int, jitted: bool
    ) -> tuple[list[cst.CSTNode], bool] | None:
        """What calling ``func`` runs, and whether it runs under ``jax.jit``, when it is a
        function of this file (a ``def`` or a ``lambda``, maybe wrapped in ``jax.jit`` or
        another JAX transform)."""
        if depth >= _MAX_DEPTH:
            return None
        if isinstance(func, cst.Lambda):
            return [func.body], jitted
        if isinstance(func, cst.Call):
            name = self.model.call_name(func)
            pos = positional(func)
            if _is_jax_transform(name) and pos and func.args[0] is pos[0]:
                return self._body_of(pos[0].value, depth + 1, jitted or name == "jax.jit")
            return None
        if not isinstance(func, cst.Name):
            return None
        bindings = self.bindings_of(func)
        if len(bindings) != 1:
            return None
        b = bindings[0]
        if b.kind == "def" and isinstance(b.node, cst.FunctionDef):
            for dec in b.node.decorators:
                d = dec.decorator
                if isinstance(d, cst.Call) and self.model.call_name(d) in PARTIAL and d.args:
                    d = d.args[0].value
                name = self.model.qualified_name(d)
                if not _is_jax_transform(name):
                    return None
                jitted = jitted or name == "jax.jit"
            return [b.node.body], jitted
        if b.kind == "assign" and id(b.node) in self.assigned:
            return self._body_of(self.assigned[id(b.node)], depth + 1, jitted)
        return None

    def with_item(self, node: cst.WithItem) -> None:
        if isinstance(node.item, cst.Call):
            self.context_funcs.add(id(node.item.func))
        item = node.item
        if self.mesh_enabled and not (
            isinstance(item, cst.Call)
            and self.model.call_name(item) not in MESH_CONSTRUCTORS
            and self.ctx.project is None  # else a function of the project may return a Mesh
        ):
            self.items.append(node)
            cls = self.current_class()
            if cls is not None and isinstance(item, cst.Attribute):
                self.class_of[id(item)] = cls

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
        unsafe = None
        if fix is not None:
            unsafe = self._unsafe_reason(item)
        self.report(
            item.item,
            what=f"`with {short}:`{self._evidence(item.item)} is deprecated since JAX 0.10.1"
            " and no longer sets the mesh that `jax.jit` and `jax.shard_map` read",
            replacement=f"with jax.set_mesh({short}):",
            detail=(
                "; this file uses `pjit`, which needs the old context: migrate it too (JAX503)"
                if self.pjit_used
                else ""
            ),
            fix=fix,
            applicability=(Applicability.UNSAFE if unsafe else Applicability.SAFE)
            if fix is not None
            else None,
            fix_message=f"Enter the mesh with `{set_mesh}(...)`"
            + (f" (unsafe: {unsafe})" if unsafe else ""),
        )

    def _evidence(self, expr: cst.BaseExpression) -> str:
        where = self.mesh_evidence.get(id(expr))
        return f" (a `Mesh`, says {where})" if where is not None else ""

    def _unsafe_reason(self, item: cst.WithItem) -> str | None:
        if self.pjit_used:
            return "this file uses `pjit`, which finds the mesh only under `with mesh:`"
        stmt = self.with_of.get(id(item))
        if stmt is None:
            return "the block cannot be read"
        roots: list[cst.CSTNode] = [i for i in stmt.items if i is not item]
        roots.append(stmt.body)
        found = self._unseen(roots)
        if found is None:
            return None
        line = self.ctx.positions[found].start.line
        if isinstance(found, cst.Call):
            callee = self.ctx.code(found.func)
            callee = callee if len(callee) <= 40 else "a function"
            what = f"`{callee}(...)` at line {line} may"
        elif isinstance(found, (cst.Attribute, cst.Name)):
            what = f"`{self.model.qualified_name(found)}` at line {line} is used: the block may"
        else:
            what = f"the block yields at line {line}, and the code that runs then may"
        return (
            f"{what} find the mesh through JAX's legacy thread-local context"
            " (as `pjit` and older libraries do), which `jax.set_mesh` does not set"
        )
