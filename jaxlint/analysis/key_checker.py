"""Where a module switches JAX's key-reuse checker on (``jax_debug_key_reuse``).

With the checker on, consuming a typed key twice raises ``KeyReuseError`` (JAX 0.12:
``jax.config.update("jax_debug_key_reuse", True)`` from that moment on, or inside
``with jax.debug_key_reuse(True):``; docs: ``../shared/reference/jax-api-facts.md``).
A test that reuses a key then fails, whatever its assertions read, so JAX301 reports
every reuse of such a test. Read from the module's own code only: a ``conftest.py``, the
pytest configuration or ``JAX_DEBUG_KEY_REUSE`` in the environment are not read.
"""

from __future__ import annotations

from typing import Any

import libcst as cst

FLAG = "jax_debug_key_reuse"
_UPDATES = frozenset({"jax.config.update", "jax.config.config.update"})
_CONTEXT = "jax.debug_key_reuse"


def _false(expr: cst.BaseExpression) -> bool:
    """A literal that switches a flag off (``False``, ``0``, ``"false"``, ``None``)."""
    if type(expr) is cst.Name:
        return expr.value in ("False", "None")
    if type(expr) is cst.Integer:
        return expr.value == "0"
    if isinstance(expr, cst.SimpleString):
        return str(expr.evaluated_value).lower() in ("0", "false", "")
    return False


def _switches_on(model: Any, call: cst.Call, qualname: str | None) -> bool:
    positional = [a.value for a in call.args if a.keyword is None and not a.star]
    if qualname in _UPDATES:
        if len(positional) < 2 or not isinstance(positional[0], cst.SimpleString):
            return False
        return positional[0].evaluated_value == FLAG and not _false(positional[1])
    if qualname == _CONTEXT:
        return bool(positional) and not _false(positional[0])
    return False


class KeyChecker:
    """The module's switches of the checker, read once."""

    def __init__(self, model: Any, text: str) -> None:
        self.model = model
        self._read = "debug_key_reuse" not in text  # most modules: nothing to read
        self._global = False
        self._spans: list[tuple[int, int]] = []
        """Event spans of ``with jax.debug_key_reuse(True):`` bodies."""

    def _scan(self) -> None:
        self._read = True
        model = self.model
        events = model.events
        for i, (node, entering) in enumerate(events):
            if not entering or type(node) is not cst.Call:
                continue
            qualname = model.call_name(node)
            if qualname not in _UPDATES and qualname != _CONTEXT:
                continue
            if not _switches_on(model, node, qualname):
                continue
            if qualname in _UPDATES:
                self._global = True
                return
            item = model.parents.get(id(node))
            block = model.parents.get(id(item)) if type(item) is cst.WithItem else None
            if type(block) is cst.With:
                self._spans.append(_span(events, block, i))

    def on_at(self, node: cst.CSTNode) -> bool:
        """The checker is on where ``node`` runs: switched on for the process anywhere in
        the module, or ``node`` is inside a ``with jax.debug_key_reuse(True):`` block."""
        if not self._read:
            self._scan()
        if self._global:
            return True
        if not self._spans:
            return False
        at = _position(self.model.events, node)
        return at is not None and any(start <= at < end for start, end in self._spans)


def _position(events: Any, node: cst.CSTNode) -> int | None:
    for i, (other, entering) in enumerate(events):
        if entering and other is node:
            return i
    return None


def _span(events: Any, block: cst.With, after: int) -> tuple[int, int]:
    """The events from the ``with`` item's call to where ``block`` is left."""
    for j in range(after, len(events)):
        other, entering = events[j]
        if not entering and other is block:
            return after, j
    return after, len(events)
