"""What lax loops and maps do with the keys they are given: the parts of a loop's carry
that its body only hands back or only splits (``carry_kept``), and the calls that map over
an array of keys one key at a time (``maps_each_key``). Asked by the key walk
(``key_calls``, ``key_walk``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

import libcst as cst

from jaxlint.analysis.key_values import (
    INDEX_DRAWS,
    INERT_SPLIT,
    LOOP_BODIES,
    SPLIT,
    Reuse,
    _literal_int,
    _State,
    _target_names,
)
from jaxlint.analysis.walk import descendants

if TYPE_CHECKING:
    from jaxlint.analysis.key_values import FunctionNode, KeyValue, Use, _Mark
    from jaxlint.analysis.names import SemanticModel

_MAPS = frozenset({"jax.vmap", "jax.pmap", "equinox.filter_vmap", "equinox.filter_pmap"})
"""Transforms that call the function once per element of a mapped argument's first axis."""


LOOP_CARRY = {
    "jax.lax.scan": (1, 0),
    "jax.lax.fori_loop": (3, 1),
    "jax.lax.while_loop": (2, 0),
}
"""A loop primitive's initial carry (its position among the call's arguments) and the
body's parameter that receives the carry."""
_LOOP_INIT_NAMES = {"jax.lax.scan": "init", "jax.lax.fori_loop": "init_val",
                    "jax.lax.while_loop": "init_val"}  # fmt: skip


def _unread_carry(
    model: SemanticModel,
    fn: cst.FunctionDef | cst.Lambda,
    param: str,
    size: int,
    returns: bool,
    scan: bool,
) -> tuple[set[int], set[int], set[int]]:
    """Three sets of places of a carry of ``size`` parts (1: the carry is the value
    itself): those ``fn`` reads only to return them at the same place; those it only
    splits (and binds again, and returns at the same place: ``k, uk = split(k)``); and,
    of the latter, those whose split-off keys are never read, so no value comes from the
    key. ``returns``: ``fn`` is a body, whose return value is the next carry (``(carry,
    y)`` for ``scan``); else a ``while_loop`` test."""
    none: tuple[set[int], set[int], set[int]] = (set(), set(), set())
    if type(fn) is cst.Lambda and not returns and size > 1:
        # a ``while_loop`` test such as ``lambda s: s[2]``: the places it indexes
        read: set[int] = set()
        for n in model.body_nodes(fn):
            if type(n) is not cst.Name or n.value != param:
                continue
            up = model.parents.get(id(n))
            index = None
            if type(up) is cst.Subscript and up.value is n and len(up.slice) == 1:
                sl = up.slice[0].slice
                index = _literal_int(sl.value) if type(sl) is cst.Index else None
            if index is None:
                return none
            read.add(index % size)
        return set(range(size)) - read, set(), set()
    if type(fn) is not cst.FunctionDef or type(fn.body) is not cst.IndentedBlock:
        return none
    body = fn.body.body
    names: list[str | None]
    if size == 1:
        names = [param]
        start = 0
    else:
        first = body[0] if body else None
        if type(first) is not cst.SimpleStatementLine or type(first.body[0]) is not cst.Assign:
            return none
        assign = first.body[0]
        target = assign.targets[0].target if len(assign.targets) == 1 else None
        value = assign.value
        if type(value) is not cst.Name or value.value != param or type(target) not in (
            cst.Tuple, cst.List
        ):  # fmt: skip
            return none
        elements = target.elements  # type: ignore[union-attr]
        if len(elements) != size:
            return none
        names = [el.value.value if type(el.value) is cst.Name else None for el in elements]
        start = 1
    returned: dict[int, int] = {}  # id(Name) -> its place in the returned carry
    for stmt in body[start:] if returns else ():
        if type(stmt) is cst.SimpleStatementLine and type(stmt.body[0]) is cst.Return:
            value = stmt.body[0].value
            if scan:
                value = value.elements[0].value if type(value) is cst.Tuple and len(
                    value.elements) == 2 else None  # fmt: skip
            if size == 1:
                if type(value) is cst.Name:
                    returned[id(value)] = 0
            elif type(value) is cst.Tuple and len(value.elements) == size:
                for i, el in enumerate(value.elements):
                    if type(el.value) is cst.Name:
                        returned[id(el.value)] = i
    nodes = [n for n in model.body_nodes(fn) if type(n) is cst.Name]
    if size > 1 and sum(n.value == param for n in nodes) != 1:
        return none  # the whole carry is read again, not only unpacked
    unread: set[int] = set()
    split: set[int] = set()
    inert: set[int] = set()
    for i, name in enumerate(names):
        if name is None:
            continue
        uses = [n for n in nodes if n.value == name]
        if size > 1:
            uses = uses[1:]  # the unpacking target itself (the first in walk order)
        if all(returned.get(id(n)) == i for n in uses):
            unread.add(i)
        elif all(returned.get(id(n)) == i or _split_only(model, n) for n in uses) and any(
            _split_only(model, n) == SPLIT for n in uses
        ):
            # only split (and bound again, and returned): inert when no key split off
            # is ever read
            (inert if _inert_splits(model, nodes, uses) else split).add(i)
    return unread, split, inert


def _inert_splits(model: SemanticModel, nodes: list[cst.Name], uses: list[cst.Name]) -> bool:
    """Every read of the carry's key is ``k, uk = jax.random.split(k)`` where ``uk`` is
    never read, or the return of ``k``: the loop splits the key each step and draws from
    none of the keys (smcs' slice sampler), so no value comes from it."""
    splits = 0
    for n in uses:
        if _split_only(model, n) != SPLIT:
            continue
        splits += 1
        call = model.parents[id(model.parents[id(n)])]
        assign = model.parents.get(id(call))
        if type(assign) is not cst.Assign or len(assign.targets) != 1:
            return False
        target = assign.targets[0].target
        if type(target) is not cst.Tuple or not target.elements:
            return False
        first, *rest = (el.value for el in target.elements)
        if type(first) is not cst.Name or first.value != n.value:
            return False
        for other in rest:
            if type(other) is not cst.Name:
                return False
            if any(m.value == other.value and m is not other for m in nodes):
                return False  # a key split off is read: the loop may draw from it
    return splits > 0


def _split_only(model: SemanticModel, name: cst.Name) -> str | None:
    """``name`` is split (the key of ``jax.random.split(name, ...)``: ``SPLIT``) or bound
    (``"bound"``: a target of an assignment, ``k, uk = split(k)``), nothing else."""
    parents = model.parents
    up = parents.get(id(name))
    if type(up) is cst.Arg and up.keyword is None:
        call = parents.get(id(up))
        if type(call) is cst.Call and call.args[0] is up and model.call_name(call) == SPLIT:
            return SPLIT
        return None
    while type(up) is cst.Element:
        up = parents.get(id(parents.get(id(up))))
    return "bound" if type(up) is cst.AssignTarget else None


def carry_kept(
    model: SemanticModel,
    resolve: Callable[[cst.BaseExpression], FunctionNode | None],
    call: cst.Call,
    qn: str,
) -> dict[int, str | None]:
    """By ``id``, the parts of a loop primitive's initial carry that its body (and a
    ``while_loop``'s test) never reads except to return it, unchanged, at the same
    place of the carry: ``lax.scan(step, (state, key), xs)`` whose ``step`` unpacks
    ``state, key = carry`` and returns ``(new_state, key), out``, drawing only from
    the keys in ``xs``. JAX's checker does not count such a key as consumed (a
    primitive that only forwards a key does not sink it): mapped to ``None``. Mapped to
    ``SPLIT``, the parts the body only splits (``k, uk = jax.random.split(k)``, returning
    ``k`` at the same place): the loop consumes them as ``split`` does, and no more; to
    ``INERT_SPLIT`` when no key split off is ever read."""
    init_at, carry_param = LOOP_CARRY[qn]
    positional = [a.value for a in call.args if a.keyword is None and not a.star]
    keyword = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
    init = positional[init_at] if len(positional) > init_at else keyword.get(_LOOP_INIT_NAMES[qn])
    if init is None or any(a.star for a in call.args):
        return {}
    fn_at, fn_names = LOOP_BODIES[qn]
    fns = []
    for at, name in zip(fn_at, fn_names, strict=True):
        expr = positional[at] if len(positional) > at else keyword.get(name)
        fn = resolve(expr) if expr is not None else None
        if fn is None:
            return {}
        fns.append((fn, name))
    parts: list[cst.BaseExpression] = (
        [el.value for el in init.elements] if type(init) is cst.Tuple else [init]
    )
    kept = split = inert = set(range(len(parts)))
    splits: set[int] = set()
    for fn, name in fns:
        params = fn.params.params
        at = 0 if qn == "jax.lax.while_loop" else carry_param
        if len(params) <= at or fn.params.star_arg is not cst.MaybeSentinel.DEFAULT:
            return {}
        returns = name != "cond_fun"
        unread, only_split, only_inert = _unread_carry(
            model, fn, params[at].name.value, len(parts), returns,
            qn == "jax.lax.scan",
        )  # fmt: skip
        split = split & (unread | only_split | only_inert)
        inert = inert & (unread | only_inert)
        splits |= only_split | only_inert
        kept = kept & unread
    split &= splits
    inert &= splits
    return {
        id(parts[i]): (INERT_SPLIT if i in inert else SPLIT) if i in split else None
        for i in kept | split
    }


def maps_each_key(model: SemanticModel, use: Use) -> bool:
    """``use`` hands its key array to a call that maps over its first axis: an argument
    of ``jax.vmap(f)``/``jax.pmap(f)``/``equinox.filter_vmap(f)`` whose ``in_axes`` is
    ``0`` (the default), ``lax.map``'s ``xs`` or ``lax.scan``'s ``xs``."""
    call, arg = use.call, use.arg
    positional = [a.value for a in call.args if a.keyword is None and not a.star]
    keyword = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
    qn = model.call_name(call)
    if qn == "jax.lax.map":
        return (positional[1:2] or [keyword.get("xs")])[0] is arg
    if qn == "jax.lax.scan":
        return (positional[2:3] or [keyword.get("xs")])[0] is arg
    func = call.func
    if type(func) is not cst.Call or model.call_name(func) not in _MAPS:
        return False
    if arg not in positional:
        return False
    at = next(i for i, a in enumerate(positional) if a is arg)
    axes = next((a.value for a in func.args if a.keyword and a.keyword.value == "in_axes"), None)
    if axes is None:
        rest = [a.value for a in func.args[1:] if a.keyword is None]
        axes = rest[0] if rest and model.call_name(func) != "jax.pmap" else None
    if axes is None:
        return True
    if type(axes) in (cst.Tuple, cst.List):
        entries = axes.elements  # type: ignore[attr-defined]
        axes = entries[at].value if at < len(entries) else None
    return type(axes) is cst.Integer and axes.value == "0"


def element_overlap(
    model: SemanticModel,
    val: KeyValue,
    use: Use,
    live_mark: Callable[[KeyValue], _Mark | None],
    fn: FunctionNode | None,
) -> Reuse | None:
    """An element of an array of keys (``keys[0]``) consumed on its own and the whole
    array consumed one key at a time (``jax.vmap(f)(keys)``): the mapped call for that
    element draws from the same key (checked on JAX 0.12: ``vmap(normal)(keys)[0] ==
    normal(keys[0])``, and ``jax_debug_key_reuse`` raises). ``live_mark``: how a value
    was consumed on the paths that reach ``use``."""
    parent = val.parent
    if parent is not None:
        mark = live_mark(parent)
        if mark is not None and not mark.use.weak and maps_each_key(model, mark.use):
            return Reuse(val, mark.use, use, "again", fn=fn, array=parent, mapped_first=True)
        return None
    if not maps_each_key(model, use):
        return None
    for element in val.elements.values():
        mark = live_mark(element)
        if mark is not None and not mark.use.weak:
            return Reuse(element, mark.use, use, "again", fn=fn, array=val)
    return None


_DATA = frozenset({"x", "a"})
"""The array an index draw shuffles or picks from (``permutation(key, x)``, ``choice(key, a)``)."""


class _Loop:
    """Bookkeeping for the loop being walked."""

    def __init__(
        self, node: cst.CSTNode, how: str, targets: Iterable[cst.BaseExpression | None] = ()
    ) -> None:
        self.node = node
        self.how = how
        self.breaks: list[_State] = []
        self.continues: list[_State] = []
        self.uses: set[int] = set()
        """``id`` of the uses recorded while walking the body the first time."""
        self.elements: frozenset[str] = frozenset(
            n for t in targets if t is not None for n in _target_names(t)
        )
        """The names the loop binds to each element (``for a in arrays``)."""

    def aligns(self, use: Use) -> bool:
        """``[permutation(key, a) for a in arrays]``: an index draw over each element with
        one key gives every element the same shuffle, keeping them aligned on purpose (as
        ``tree.map(lambda a: permutation(key, a), arrays)`` does)."""
        if use.index is not None and self.elements:
            # ``split(key, n)[i]`` in ``for i in ...``: another key of the split each time
            return any(
                type(n) is cst.Name and n.value in self.elements
                for n in (use.index, *descendants(use.index))
            )
        if use.qualname not in INDEX_DRAWS or not self.elements:
            return False
        data = [a for a in use.call.args if a.keyword is None and not a.star][1:2]
        data += [a for a in use.call.args if a.keyword is not None and a.keyword.value in _DATA]
        return any(type(a.value) is cst.Name and a.value.value in self.elements for a in data)
