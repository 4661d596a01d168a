"""Dicts that are menus: only one entry of them is ever used.

``weights_init = {"zero": jnp.zeros(n), "random": normal(key, (n,)), "he": normal(key,
(n,)) * s}`` then ``self.weights = weights_init[self.weights]`` draws every alternative
from one key, but keeps one: the draws are never used together, so sharing their bits
correlates nothing (scikit-jax's initialisers, fresh-2026-12w). The key walk evaluates the
values of such a dict as exclusive alternatives, like the two sides of ``a if c else b``.

A menu is a dict display with string keys and at least two entries that is indexed at
once (``{...}[name]``), or bound once to a local name (outside loops) whose every read is
one subscript of it (``d[choice]``), never iterated, passed on, returned whole or read
twice.
"""

from __future__ import annotations

import weakref

import libcst as cst

from jaxlint.analysis.names import SemanticModel
from jaxlint.analysis.walk import descendants


def menu(model: SemanticModel, expr: cst.Dict) -> bool:
    """``expr`` is a menu (see the module's docstring)."""
    elements = expr.elements
    if len(elements) < 2 or not all(
        type(el) is cst.DictElement and type(el.key) is cst.SimpleString for el in elements
    ):
        return False
    parent = model.parents.get(id(expr))
    if type(parent) is cst.Subscript and parent.value is expr:
        return True
    if type(parent) is not cst.Assign or len(parent.targets) != 1:
        return False
    target = parent.targets[0].target
    if type(target) is not cst.Name:
        return False
    scope = model.scope_for(target)
    if len(scope.bindings.get(target.value, ())) != 1 or target.value in scope.global_names:
        return False
    reads = 0
    for node in _names(model, scope.node).get(target.value, ()):
        if node is target:
            continue
        found = model.lookup(node.value, model.scope_for(node))
        if found is None or found[0] is not scope:
            continue
        sub = model.parents.get(id(node))
        if type(sub) is not cst.Subscript or sub.value is not node or len(sub.slice) != 1:
            return False
        if type(sub.slice[0].slice) is not cst.Index:
            return False
        if type(model.parents.get(id(sub))) is cst.AssignTarget:
            return False  # ``d["k"] = ...``: a store, not a choice
        reads += 1
    return reads == 1


_NAMES: weakref.WeakKeyDictionary[SemanticModel, dict[int, dict[str, list[cst.Name]]]] = (
    weakref.WeakKeyDictionary()
)


def _names(model: SemanticModel, node: cst.CSTNode) -> dict[str, list[cst.Name]]:
    """The names under ``node`` (a scope's node), by spelling; made once per scope, so that
    a module of many dicts is read once, not once per dict."""
    cache = _NAMES.setdefault(model, {})
    found = cache.get(id(node))
    if found is None:
        found = cache[id(node)] = {}
        for inner in descendants(node):
            if type(inner) is cst.Name:
                found.setdefault(inner.value, []).append(inner)
    return found
