"""Float64WithoutX64's analysis: does the module, or the project around it, switch x64 on?
Kept apart from the rule's docs and examples in `float64_without_x64.py` (a mixin of the
rule class)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

if TYPE_CHECKING:
    from jaxlint.analysis.names import SemanticModel
    from jaxlint.engine import FileContext

_X64_FLAGS = frozenset({"jax_enable_x64", "JAX_ENABLE_X64"})
_X64_CONTEXTS = frozenset({"jax.enable_x64", "jax.experimental.enable_x64"})
_CONFIG_UPDATES = frozenset({"jax.config.update", "jax.config.config.update"})
_FLAG_PARSERS = frozenset({"jax.config.parse_flags_with_absl", "jax.config.config_with_absl"})
_X64_ATTRIBUTES = frozenset({"jax_enable_x64", "x64_enabled"})
_LIBRARIES = frozenset({"jax", "jaxlib", "numpy", "builtins", "os", "sys", "typing"})
"""Roots of calls that are never the project's functions (asked about x64 for the rest)."""


def _local_name(func: cst.BaseExpression) -> str:
    """``enable_x64`` for a name bound to it in two ways (``try: from jax import
    enable_x64 as _enable_x64`` / ``except ImportError:`` a project fallback)."""
    return func.value.lstrip("_") if isinstance(func, cst.Name) else ""


def _literal_false(expr: cst.BaseExpression) -> bool:
    if isinstance(expr, cst.Name):
        return expr.value == "False"
    if isinstance(expr, cst.Integer):
        return expr.value == "0"
    if isinstance(expr, cst.SimpleString):
        return str(expr.evaluated_value).lower() in ("0", "false", "")
    return False


class X64Checks:
    """Where x64 is switched on: in the module itself (any mention, see the rule's docs) or,
    through the project facts, in a ``conftest.py``, the pytest configuration or a package
    (``analysis/x64.py``)."""

    ctx: FileContext
    model: SemanticModel
    _x64: bool | None = None
    _elsewhere: bool | None = None

    def _enabled_elsewhere(self, tests: bool) -> bool:
        """A ``conftest.py`` or the pytest configuration above a test file, or a package
        this module belongs to or imports, switches x64 on (``analysis/x64.py``)."""
        if self._elsewhere is None:
            self._elsewhere = self._x64_enabled_for("test" if tests else "run") is not None
        return self._elsewhere

    def _x64_enabled_for(self, kind: str) -> str | None:
        """Where x64 is switched on outside the file (``file:line``) for a ``kind`` of
        run: ``test`` (under pytest: the ``conftest.py`` files and pytest configuration
        above it count too) or ``run``."""
        facts = self.ctx.project
        if facts is None:
            return None
        model = self.model
        # every import, a function's too: ``from pkg.core import f`` first thing in a test
        # runs ``pkg/core.py`` before the test asks for float64 (awen-dlmax, fresh-2026-12s)
        imported = {binding.qualname for _, binding in model.imports if binding.qualname}
        roots = {b.qualname.split(".")[0] for _, b in model.imports if b.qualname}
        roots -= _LIBRARIES
        calls: set[str] = set()
        if roots:
            for node in model.events.nodes:
                if type(node) is cst.Call:
                    qn = model.call_name(node)
                    if qn is not None and qn.split(".")[0] in roots:
                        calls.add(qn)
        return facts.x64_enabled(f"{kind}:{','.join(sorted(imported))}:{','.join(sorted(calls))}")

    def _enables_x64(self) -> bool:
        """The module turns x64 on, may turn it on, or reads the flag (see the docs)."""
        if self._x64 is None:
            self._x64 = self._scan_x64()
        return self._x64

    def _scan_x64(self) -> bool:
        model = self.model
        statements: set[int] = set()  # calls that are a whole expression statement
        callees: set[int] = set()  # the functions of calls (checked with the call)
        disabling: set[int] = set()  # "jax_enable_x64" in config.update(..., False)
        for node, entering in model.events:
            if not entering:
                continue
            if isinstance(node, cst.Expr):
                statements.add(id(node.value))
            elif isinstance(node, cst.Call):
                qualname = model.call_name(node)
                positional = [a.value for a in node.args if a.keyword is None and not a.star]
                if qualname in _CONFIG_UPDATES:
                    if not positional or not isinstance(positional[0], cst.SimpleString):
                        return True  # an option chosen at runtime
                    if positional[0].evaluated_value in _X64_FLAGS:
                        if len(positional) > 1 and _literal_false(positional[1]):
                            disabling.add(id(positional[0]))
                        else:
                            return True
                elif qualname in _FLAG_PARSERS:
                    return True
                elif qualname in _X64_CONTEXTS or (
                    # a project's own wrapper named for what it does (rfx-fdtd's
                    # ``from tests._x64_compat import enable_x64``, then ``with enable_x64():``)
                    (qualname or _local_name(node.func)).rsplit(".", 1)[-1] == "enable_x64"
                ):
                    off = positional and _literal_false(positional[0])
                    if id(node) not in statements and not off:
                        return True
                if any(a.keyword is not None and a.keyword.value in _X64_FLAGS for a in node.args):
                    return True
            elif isinstance(node, cst.SimpleString):
                if node.evaluated_value in _X64_FLAGS and id(node) not in disabling:
                    return True
            elif isinstance(node, cst.Attribute):
                if node.attr.value in _X64_ATTRIBUTES:
                    return True
                if model.qualified_name(node) in _X64_CONTEXTS and id(node) not in callees:
                    return True  # ``ctx = jax.enable_x64``: used some other way
            if isinstance(node, cst.Call):
                callees.add(id(node.func))
        return False
