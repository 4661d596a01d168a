"""JAX704 private-api: imports and uses of ``jax._src``, JAX's private code."""

from __future__ import annotations

import functools
import json
from importlib import resources

import libcst as cst

from jaxlint.analysis.names import dotted as dotted_name
from jaxlint.diagnostics import Applicability
from jaxlint.fixers.spelling import spell
from jaxlint.rules.api_drift.table import load_table
from jaxlint.rules.base import Examples, FixOp, ReplaceNode, Rule
from jaxlint.versions import parse_version

EXAMPLES = Examples(__file__)


@functools.cache
def public_names() -> tuple[tuple[int, int], dict[str, str]]:
    """(the JAX release the map was made from, as (major, minor); private object ->
    its public name in that release) from ``jaxlint/data/jax_public_names.json``."""
    text = resources.files("jaxlint").joinpath("data/jax_public_names.json").read_text("utf-8")
    data = json.loads(text)
    version = parse_version(data["jax"])
    return (version[0], version[1]), dict(data["public"])


def _private(qualname: str | None) -> bool:
    return qualname is not None and (qualname == "jax._src" or qualname.startswith("jax._src."))


class PrivateApi(Rule):
    code = "JAX704"
    name = "private-api"
    default_enabled = False  # see "Off by default" in the docs
    required_names = frozenset({"_src"})
    message = "`{used}` is JAX's private code (`jax._src`), changed without notice; {advice}"
    fix_availability = "sometimes"
    probe = "jaxlint probe env"
    docs = """\
## What it does
Flags imports from `jax._src` (`from jax._src.numpy.lax_numpy import isin`,
`import jax._src.core`) and attribute uses of it (`jax._src.core.Tracer`). When the
target JAX re-exports the same object under a public name, the message names it
and the fix imports it from there (`from jax.numpy import isin`), keeping the local
name. A private name that the target JAX no longer has at all is JAX702's finding
(the release diff of the drift table), not this rule's.

**Off by default.** Libraries that follow JAX closely import from `jax._src` on
purpose (and pin JAX); the rule is for upgrading old code and for code that must
survive JAX upgrades. Turn it on with `extend-select = ["JAX704"]`; `--select ALL`
includes it.

## Why is this bad
`jax._src` is JAX's implementation, not its API: its modules are split, renamed
and removed between releases without a deprecation period. Old libraries broke
on exactly this: flax 0.3.6 imported `isin` from `jax._src.numpy.lax_numpy`, which
JAX later split into other private modules (`ImportError` on current JAX), though
`jax.numpy.isin` never moved.

## Example
```python
from jax._src.numpy.setops import isin
```

## Use instead
```python
from jax.numpy import isin
```

## Fix safety
Safe: the public name is the same object in the JAX release the map was made
from (`jaxlint/data/jax_public_names.json`, written by `scripts/jax_api_history.py
public-map` from the newest release's sources and checked on the installed JAX).
No fix for another `target-jax` minor release, for a name without a public
re-export, for `import jax._src...` and for star imports.

## Verify at runtime
`jaxlint probe env` prints the installed JAX version; the fixed import runs on it.
"""
    VALID = [
        EXAMPLES.valid("valid_public_import.py", runs=True),
        EXAMPLES.valid("valid_other_library_src.py", note="another package's `_src` is its own"),
        EXAMPLES.valid(
            "valid_removed_private_name_is_jax702s.py",
            note="a private name the target JAX no longer has: JAX702 reports it",
        ),
        EXAMPLES.valid("valid_string_mentions_src.py", runs=True, note="a string, not code"),
        EXAMPLES.valid("valid_relative_src_import.py", note="a package's own `_src`"),
        EXAMPLES.valid("valid_parameter_named_like_jax.py", runs=True),
    ]
    INVALID = [
        EXAMPLES.invalid(
            "invalid_private_import_with_public_name.py",
            line=1,
            column=35,
            message_contains="use `jax.numpy.isin`, the same object",
        ),
        EXAMPLES.invalid(
            "invalid_private_import_alias_kept.py",
            count=2,
            note="each alias rewritten, the local names kept",
        ),
        EXAMPLES.invalid(
            "invalid_private_attribute_use.py",
            message_contains="use `jax.core.Tracer`",
        ),
        EXAMPLES.invalid(
            "invalid_private_module_import.py",
            message_contains="import the public module",
            note="`import jax._src...`: no fix",
        ),
        EXAMPLES.invalid(
            "invalid_private_import_reported_once.py",
            count=2,
            note="with `import jax` in the file, an import's module name is not reported again",
        ),
        EXAMPLES.invalid(
            "invalid_private_import_other_target.py",
            target_jax="0.11.0",
            note="the map was made from JAX 0.12: no fix for another target",
        ),
    ]

    def _public(self, qualname: str) -> str | None:
        made_from, table = public_names()
        if tuple(self.ctx.target_jax[:2]) != made_from:
            return None
        return table.get(qualname)

    def _reported_by_drift(self, qualname: str) -> bool:
        drift = load_table().names.get(qualname)
        return drift is not None and drift.status(self.ctx.target_jax) is not None

    def _advice(self, public: str | None) -> str:
        if public is not None:
            return f"use `{public}`, the same object"
        return "import the public module that has it, or copy the code"

    def _cover(self, expr: cst.BaseExpression) -> None:
        """An import's dotted module name is reported with the import, not again as
        an attribute use (``visit_Attribute`` skips the covered nodes)."""
        covered: set[int] = self.__dict__.setdefault("_covered", set())
        while isinstance(expr, cst.Attribute):
            covered.add(id(expr))
            expr = expr.value

    def visit_Import(self, node: cst.Import) -> None:
        for alias in node.names:
            self._cover(alias.name)
            dotted = dotted_name(alias.name)
            if _private(dotted) and not self._reported_by_drift(dotted or ""):
                self.report(alias, used=f"import {dotted}", advice=self._advice(None))

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        if node.relative or node.module is None:
            return
        self._cover(node.module)
        module = dotted_name(node.module)
        if not _private(module):
            return
        if isinstance(node.names, cst.ImportStar):
            self.report(node, used=f"from {module} import *", advice=self._advice(None))
            return
        plans: dict[int, str] = {}
        hits: list[tuple[cst.ImportAlias, str, str | None]] = []
        for alias in node.names:
            if not isinstance(alias.name, cst.Name):
                continue
            name = alias.name.value
            full = f"{module}.{name}"
            if self._reported_by_drift(full):
                continue
            local = name
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                local = alias.asname.name.value
            public = self._public(full)
            hits.append((alias, full, public))
            if public is not None and "." in public:
                pub_module, _, pub_name = public.rpartition(".")
                plans[id(alias)] = f"from {pub_module} import {pub_name}" + (
                    f" as {local}" if local != pub_name else ""
                )
        fixable = len(plans) == len(node.names)
        for alias, full, public in hits:
            fix = None
            if fixable:
                fix = functools.partial(self._rewrite_import, node, plans)
            self.report(
                alias,
                used=full,
                advice=self._advice(public),
                fix=fix,
                applicability=Applicability.SAFE if fix is not None else None,
                fix_message=f"Import `{public}`" if public else "",
            )

    def _rewrite_import(self, node: cst.ImportFrom, plans: dict[int, str]) -> list[FixOp]:
        assert not isinstance(node.names, cst.ImportStar)
        statements = [plans[id(a)] for a in node.names]
        if self.ctx.line_prefix(node).strip():
            separator = "; "
        else:
            separator = self.ctx.module.default_newline + self.ctx.line_indent(node)
        return [ReplaceNode(node, separator.join(statements))]

    def visit_Attribute(self, node: cst.Attribute) -> None:
        # the walk enters ``jax._src.core.Tracer`` before ``jax._src.core``: the
        # outermost private access is reported once, at the part with a public name
        covered: set[int] = self.__dict__.setdefault("_covered", set())
        if id(node) in covered:
            return
        qualname = self.model.qualified_name(node)
        if not _private(qualname) or qualname == "jax._src":
            return
        chain: list[cst.Attribute] = []
        inner: cst.BaseExpression = node
        while isinstance(inner, cst.Attribute):
            chain.append(inner)
            covered.add(id(inner))
            inner = inner.value
        if not any(part.attr.value == "_src" for part in chain):
            return  # a use of a name bound by a private import: reported at the import
        target, public = node, None
        for part in chain:
            name = self.model.qualified_name(part)
            if name is not None and self._public(name) is not None:
                target, public = part, self._public(name)
                break
        full = self.model.qualified_name(target) or ""
        if self._reported_by_drift(full):
            return
        fix = None
        if public is not None:
            spelled = spell(self.model, public, target)
            if spelled is not None:
                text, ops = spelled
                fix = lambda: [ReplaceNode(target, text), *ops]  # noqa: E731
        self.report(
            target,
            used=full,
            advice=self._advice(public),
            fix=fix,
            applicability=Applicability.SAFE if fix is not None else None,
            fix_message=f"Replace with `{public}`" if public else "",
        )
