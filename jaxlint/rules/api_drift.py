"""JAX7xx: APIs that moved, were deprecated or were removed."""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from jaxlint.diagnostics import Applicability
from jaxlint.fixers.spelling import spell
from jaxlint.rules.base import FixOp, Invalid, ReplaceNode, Rule, Valid
from jaxlint.versions import Version, format_version


@dataclass(frozen=True)
class Drift:
    old: str
    new: str
    deprecated_in: Version
    removed_in: Version | None


_TREE = [
    ("map", "map"),
    ("flatten", "flatten"),
    ("unflatten", "unflatten"),
    ("leaves", "leaves"),
    ("structure", "structure"),
    ("transpose", "transpose"),
]
DRIFTS: dict[str, Drift] = {
    f"jax.tree_{old}": Drift(f"jax.tree_{old}", f"jax.tree.{new}", (0, 4, 26), (0, 6, 0))
    for old, new in _TREE
}
DRIFTS["jax.treedef_is_leaf"] = Drift(
    "jax.treedef_is_leaf", "jax.tree_util.treedef_is_leaf", (0, 4, 26), (0, 6, 0)
)


class DeprecatedApi(Rule):
    code = "JAX701"
    name = "deprecated-api"
    message = "`{used}` is {status}; use `{replacement}`"
    fix_availability = "always"
    probe = "jaxlint probe env"
    docs = """\
## What it does
Flags uses of JAX APIs that were deprecated in or before the target JAX version
(`target-jax`, by default the installed JAX): today the top-level pytree aliases
`jax.tree_map`, `jax.tree_flatten`, `jax.tree_unflatten`, `jax.tree_leaves`,
`jax.tree_structure`, `jax.tree_transpose` and `jax.treedef_is_leaf`.
Attribute uses (`jax.tree_map(...)`) are reported at each use; a name imported
with `from jax import tree_map` is reported once, at its import.

## Why is this bad
These aliases were deprecated in JAX 0.4.26 and removed in 0.6.0: on current JAX
`jax.tree_map` raises `AttributeError: module 'jax' has no attribute 'tree_map'`
and `from jax import tree_map` raises `ImportError`. The replacements in
`jax.tree` (present since 0.4.25) take the same arguments.

## Example
```python
import jax
from jax import tree_leaves

params = jax.tree_map(lambda p: p * 2, params)
```

## Use instead
```python
import jax
from jax.tree import leaves as tree_leaves

params = jax.tree.map(lambda p: p * 2, params)
```

## Fix safety
Safe: `jax.tree.map` and friends are the same functions with the same
signatures. An import is rewritten to import the new function under the old
local name, so the rest of the file is untouched.

## Verify at runtime
`jaxlint probe env` prints the installed JAX version; on JAX 0.6.0 or newer the
old spelling raises `AttributeError` as soon as the line runs.
"""
    VALID = [
        Valid("import jax\nout = jax.tree.map(f, tree)\n"),
        Valid("import jax\nleaves = jax.tree_util.tree_leaves(tree)\n"),
        Valid("from jax.tree_util import tree_map\nout = tree_map(f, t)\n"),
        Valid("import jax\nout = jax.tree_map(f, t)\n", target_jax="0.4.20"),
        Valid("import optax\nout = optax.tree_map(f, t)  # not jax\n"),
        Valid(
            "import jax\ndef g(jax):\n    return jax.tree_map(f, t)\n",
            note="parameter shadows the module",
        ),
        Valid(
            "try:\n    from jax import tree_map\nexcept ImportError:\n"
            "    from jax.tree_util import tree_map\n",
            note="version-compat import: two bindings, ambiguous",
        ),
        Valid("import jax\nfn = getattr(jax, 'tree_map', None)\n"),
    ]
    INVALID = [
        Invalid(
            "import jax\nout = jax.tree_map(lambda x: x + 1, tree)\n",
            line=2,
            column=7,
            expected_fix="import jax\nout = jax.tree.map(lambda x: x + 1, tree)\n",
            message_contains="removed in JAX 0.6.0",
        ),
        Invalid(
            "import jax\nout = jax.tree_map(f, t)\n",
            target_jax="0.5.0",
            message_contains="deprecated since JAX 0.4.26",
        ),
        Invalid(
            "from jax import tree_map\nout = tree_map(f, t)\nagain = tree_map(g, t)\n",
            count=1,
            line=1,
            expected_fix=(
                "from jax.tree import map as tree_map\nout = tree_map(f, t)\nagain = tree_map(g, t)\n"
            ),
        ),
        Invalid(
            "from jax import jit, tree_leaves as tl, tree_structure\n",
            count=2,
            expected_fix=(
                "from jax import jit\nfrom jax.tree import leaves as tl\n"
                "from jax.tree import structure as tree_structure\n"
            ),
        ),
        Invalid(
            "import jax as j\n\ndef f(t):\n    return j.tree_leaves(t), j.tree_flatten(t)\n",
            count=2,
            expected_fix="import jax as j\n\ndef f(t):\n    return j.tree.leaves(t), j.tree.flatten(t)\n",
        ),
        Invalid(
            "import jax\nif jax.treedef_is_leaf(td):\n    pass\n",
            expected_fix="import jax\nif jax.tree_util.treedef_is_leaf(td):\n    pass\n",
        ),
        Invalid(
            "import jax\nmapper = jax.tree_transpose\n",
            expected_fix="import jax\nmapper = jax.tree.transpose\n",
        ),
        Invalid(
            "def f(t):\n    from jax import tree_unflatten\n    return tree_unflatten(td, t)\n",
            expected_fix=(
                "def f(t):\n    from jax.tree import unflatten as tree_unflatten\n"
                "    return tree_unflatten(td, t)\n"
            ),
        ),
    ]

    def _status(self, drift: Drift) -> str | None:
        target = self.ctx.target_jax
        if target < drift.deprecated_in:
            return None
        if drift.removed_in is not None and target >= drift.removed_in:
            return (
                f"deprecated since JAX {format_version(drift.deprecated_in)}"
                f" and removed in JAX {format_version(drift.removed_in)}"
            )
        return f"deprecated since JAX {format_version(drift.deprecated_in)}"

    def visit_Attribute(self, node: cst.Attribute) -> None:
        qualname = self.model.qualified_name(node)
        drift = DRIFTS.get(qualname or "")
        if drift is None:
            return
        status = self._status(drift)
        if status is None:
            return
        spelled = spell(self.model, drift.new, node)

        def fix() -> list[FixOp]:
            assert spelled is not None
            return [ReplaceNode(node, spelled[0]), *spelled[1]]

        self.report(
            node,
            used=self.ctx.code(node),
            status=status,
            replacement=spelled[0] if spelled else drift.new,
            fix=fix if spelled is not None else None,
            applicability=Applicability.SAFE if spelled is not None else None,
            fix_message=f"Replace with `{spelled[0] if spelled else drift.new}`",
        )

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        if node.relative or isinstance(node.names, cst.ImportStar) or node.module is None:
            return
        module = self.ctx.code(node.module)
        hits: list[tuple[cst.ImportAlias, Drift, str]] = []
        for alias in node.names:
            if not isinstance(alias.name, cst.Name):
                continue
            drift = DRIFTS.get(f"{module}.{alias.name.value}")
            if drift is None:
                continue
            local = alias.name.value
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                local = alias.asname.name.value
            if self.model.import_target(node, local) != drift.old:
                continue  # e.g. a try/except ImportError fallback binds it twice
            hits.append((alias, drift, local))
        if not hits:
            return
        status = self._status(hits[0][1])
        if status is None:
            return
        fix = self._import_fix(node, [a for a, _, _ in hits])
        for alias, drift, local in hits:
            new_mod, _, new_name = drift.new.rpartition(".")
            self.report(
                alias,
                used=f"{drift.old}",
                status=status,
                replacement=drift.new,
                fix=fix,
                applicability=Applicability.SAFE,
                fix_message=f"Import `{new_name}` from `{new_mod}` as `{local}`",
            )

    def _import_fix(self, node: cst.ImportFrom, moved: list[cst.ImportAlias]):
        def fix() -> list[FixOp]:
            assert not isinstance(node.names, cst.ImportStar)
            module = self.ctx.code(node.module) if node.module else ""
            kept = [a for a in node.names if a not in moved]
            statements: list[str] = []
            if kept:
                if node.lpar is None:
                    kept[-1] = kept[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
                statements.append(self.ctx.code(node.with_changes(names=kept)))
            for alias in moved:
                assert isinstance(alias.name, cst.Name)
                drift = DRIFTS[f"{module}.{alias.name.value}"]
                new_mod, _, new_name = drift.new.rpartition(".")
                local = alias.name.value
                if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                    local = alias.asname.name.value
                if local == new_name:
                    statements.append(f"from {new_mod} import {new_name}")
                else:
                    statements.append(f"from {new_mod} import {new_name} as {local}")
            indent = self.ctx.line_indent(node)
            before = self.ctx.line_prefix(node)
            if before.strip():
                separator = "; "  # not first on its line (``if x: from jax import ...``)
            else:
                separator = self.ctx.module.default_newline + indent
            return [ReplaceNode(node, separator.join(statements))]

        return fix
