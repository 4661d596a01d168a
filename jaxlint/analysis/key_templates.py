"""Values that only give a restore its structure: their random bits are never kept.

``eqx.tree_deserialise_leaves(path, like)`` returns ``like`` with every array leaf read
from the file, and ``flax.serialization.from_bytes(target, data)`` /
``from_state_dict(target, state)`` do the same with ``target``: a network built from a
key and handed over only as that template keeps none of the key's draws, so drawing it
from a key used elsewhere correlates nothing (``network = QNetwork(rng); model =
eqx.tree_deserialise_leaves(path, network)`` after ``rng`` trained the saved model).
Both raise when the file or data does not match, so the template's values never survive.
Flax's ``restore_checkpoint(dir, target)`` is not one: it returns ``target`` as it is when
no checkpoint is found.

:func:`template_only` answers, for a call, whether its result reaches nothing but such
template arguments, through plain local names bound once outside loops and through the
arguments of other calls whose results do the same. The key walk does not count a key
given to such a call as consumed (``key_calls._CallWalker._call``).
"""

from __future__ import annotations

import weakref

import libcst as cst

from jaxlint.analysis.names import SemanticModel

TEMPLATE_SLOTS: dict[str, tuple[int, str]] = {
    "equinox.tree_deserialise_leaves": (1, "like"),
    "flax.serialization.from_bytes": (0, "target"),
    "flax.serialization.from_state_dict": (0, "target"),
}
"""Restore functions and their template parameter: position and keyword."""
_SPELLINGS = frozenset(q.rsplit(".", 1)[-1] for q in TEMPLATE_SLOTS)
_DEPTH = 4
"""How many names and calls a template is followed through (``rng`` -> ``QNetwork(rng)``
-> ``network`` -> the restore call is three)."""
_LOOPS = (cst.For, cst.While)


def may_have_templates(model: SemanticModel) -> bool:
    """The module spells a restore function's name (else :func:`template_only` is false
    everywhere, and is not asked)."""
    return not _SPELLINGS.isdisjoint(model.identifiers)


def template_only(model: SemanticModel, call: cst.Call) -> bool:
    """``call``'s result reaches only template arguments of restore functions."""
    return _result(model, call, _DEPTH)


def _result(model: SemanticModel, expr: cst.BaseExpression, depth: int) -> bool:
    """Where ``expr`` (a call) goes: an argument of another call, or a name bound once."""
    if depth <= 0:
        return False
    parent = model.parents.get(id(expr))
    if type(parent) is cst.Arg and parent.value is expr:
        return _argument(model, parent, depth)
    if type(parent) is cst.Assign and parent.value is expr and len(parent.targets) == 1:
        target = parent.targets[0].target
        if type(target) is cst.Name:
            names = [target]
        elif type(target) in (cst.Tuple, cst.List):
            names = [el.value for el in target.elements]  # type: ignore[attr-defined]
        else:
            return False
        reads = 0
        for name in names:
            if type(name) is not cst.Name:
                return False
            found = _reads(model, name, parent, depth - 1)
            if found is None:
                return False
            reads += found
        # at least one read reaches a template: a result nobody reads is still a draw
        return reads > 0
    return False


def _argument(model: SemanticModel, arg: cst.Arg, depth: int) -> bool:
    call = model.parents.get(id(arg))
    if type(call) is not cst.Call or arg.star:
        return False
    slot = TEMPLATE_SLOTS.get(model.call_name(call) or "")
    if slot is not None:
        index, keyword = slot
        if arg.keyword is not None:
            return arg.keyword.value == keyword
        positional = [a for a in call.args if a.keyword is None]
        return not any(a.star for a in positional[: index + 1]) and (
            index < len(positional) and positional[index] is arg
        )
    # an argument of a call whose own result is only a template (``QNetwork(rng)``)
    return _result(model, call, depth - 1)


def _reads(model: SemanticModel, name: cst.Name, assign: cst.Assign, depth: int) -> int | None:
    """How many reads the local ``name`` bound here has (up to its next binding) when every
    one of them is a template argument; ``None`` when one is not. Only a name of a
    function that calls a restore, bound outside any loop and read in no nested
    function."""
    scope = model.scope_for(name)
    fn = scope.node
    if scope.kind != "function" or name.value in scope.global_names | scope.nonlocal_names:
        return None
    current = model.parents.get(id(name))
    while current is not None and current is not fn:
        if isinstance(current, _LOOPS):
            return None
        current = model.parents.get(id(current))
    bindings = scope.bindings.get(name.value, [])
    targets = {id(b.node) for b in bindings}
    if id(name) not in targets:
        return None
    nodes = _restoring_body(model, fn)  # type: ignore[arg-type]
    if nodes is None:
        return None
    start = next((i for i, node in enumerate(nodes) if node is name), None)
    if start is None:
        return None
    reads: list[cst.Name] = []
    for i, node in enumerate(nodes):
        if type(node) is not cst.Name or node.value != name.value:
            continue
        if model.scope_for(node) is not scope:
            if name.value not in model.scope_for(node).bindings:
                return None  # read in a nested function: when it runs is not known
            continue
        if i <= start or model.inside(node, assign):
            continue  # before the binding, or in its own statement (``k, _ = split(k)``)
        if id(node) in targets:
            break  # bound again: later reads see that value
        reads.append(node)
    if all(_read_is_template(model, read, depth) for read in reads):
        return len(reads)
    return None


_BODIES: weakref.WeakKeyDictionary[SemanticModel, dict[int, list[cst.CSTNode] | None]] = (
    weakref.WeakKeyDictionary()
)


def _restoring_body(model: SemanticModel, fn: cst.FunctionDef) -> list[cst.CSTNode] | None:
    """The nodes of ``fn``'s body in walk order when it calls a restore function itself,
    else ``None``; made once per function (each binding in it asks)."""
    cache = _BODIES.setdefault(model, {})
    key = id(fn)
    if key not in cache:
        nodes = model.body_nodes(fn)
        calls = any(
            type(n) is cst.Call and (model.call_name(n) or "") in TEMPLATE_SLOTS for n in nodes
        )
        cache[key] = nodes if calls else None
    return cache[key]


def _read_is_template(model: SemanticModel, read: cst.Name, depth: int) -> bool:
    parent = model.parents.get(id(read))
    if type(parent) is cst.Arg and parent.value is read:
        return _argument(model, parent, depth)
    return False
