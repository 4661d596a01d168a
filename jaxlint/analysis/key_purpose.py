"""What two uses of a key are *for*, read from the statements of the function that holds
them: conditions, comparisons of results, paired index draws, collectors (see
:meth:`jaxlint.analysis.keys.KeyAnalysis.compared` and ``aligned``)."""

from __future__ import annotations

import re
import weakref
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import libcst as cst

from jaxlint.analysis.key_attrs import dotted
from jaxlint.analysis.key_values import (
    CALL,
    KEY_TAKERS,
    SPLIT,
    Reuse,
    Use,
    _code,
    _key_arg,
    _target_names,
)
from jaxlint.analysis.names import SemanticModel
from jaxlint.analysis.walk import children, descendants, own_nodes

_SCOPE_NODES = frozenset({cst.FunctionDef, cst.ClassDef, cst.Lambda})
"""Tested with ``type(node) in``: ``isinstance`` on libcst classes goes through ABCMeta."""
_COMPREHENSIONS = frozenset({cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp})
_CONTAINERS = frozenset({cst.Tuple, cst.List, cst.Dict})
_RNGS = re.compile(r"\bRngs\b")


def _own_nodes(body: Sequence[cst.CSTNode]) -> Iterator[cst.CSTNode]:
    """Every node of ``body``, not descending into nested functions and classes."""
    stack = list(reversed(body))
    while stack:
        node = stack.pop()
        yield node
        if type(node) in _SCOPE_NODES:
            continue
        stack.extend(reversed(children(node)))


_CONDITION_NODES = frozenset(
    {cst.If, cst.While, cst.IfExp, cst.Assert, cst.BooleanOperation, cst.UnaryOperation}
)
"""Nodes whose operands are used as truth values (and ``assertTrue``/``assertFalse`` calls)."""


class _OwnFacts:
    """What a walker needs from the own nodes of its function (or the module body).

    Gathered for every function in one pass over ``model.events`` (``_collect``)
    rather than by walking each body again."""

    __slots__ = ("conditions", "evidence")

    def __init__(self) -> None:
        self.evidence: set[str] = set()
        """Names (and attribute paths: ``self.rng``) passed as the key of a ``jax.random``
        function."""
        self.conditions: set[int] = set()
        """Calls whose result is used as a truth value (``assert``, ``if``, ``not``...)."""

    def note_condition(self, node: cst.CSTNode) -> None:
        kind = type(node)  # libcst's concrete classes: no ABCMeta isinstance per node
        if kind is cst.If or kind is cst.While or kind is cst.IfExp or kind is cst.Assert:
            self._test(node.test)  # type: ignore[attr-defined]
        elif kind is cst.BooleanOperation:
            self._test(node.left)  # type: ignore[attr-defined]
            self._test(node.right)  # type: ignore[attr-defined]
        elif kind is cst.UnaryOperation:
            if type(node.operator) is cst.Not:  # type: ignore[attr-defined]
                self._test(node.expression)  # type: ignore[attr-defined]
        elif kind is cst.Call:
            func = node.func  # type: ignore[attr-defined]
            if (
                type(func) is cst.Attribute
                and func.attr.value in ("assertTrue", "assertFalse")
                and node.args  # type: ignore[attr-defined]
            ):
                self._test(node.args[0].value)  # type: ignore[attr-defined]

    def _test(self, test: cst.BaseExpression) -> None:
        if type(test) is cst.Call:
            self.conditions.add(id(test))

    @classmethod
    def of(cls, body: Sequence[cst.CSTNode], model: SemanticModel) -> _OwnFacts:
        """The same facts by walking ``body`` (for a function ``_collect`` did not see)."""
        facts = cls()
        for node in _own_nodes(body):
            kind = type(node)
            if kind is cst.Call:
                if model.call_name(node) in KEY_TAKERS:  # type: ignore[arg-type]
                    arg = _key_arg(node, ("key", "keys"))  # type: ignore[arg-type]
                    if type(arg) is cst.Name:
                        facts.evidence.add(arg.value)
                    elif type(arg) is cst.Attribute:
                        path = dotted(arg)
                        if path is not None:
                            facts.evidence.add(path)
                facts.note_condition(node)
            elif kind in _CONDITION_NODES:
                facts.note_condition(node)
        return facts


# -- what two uses of a key are for (asked only about reuses) --------------------------------

_PAIRED_DRAWS = frozenset({"jax.random.choice", "jax.random.permutation", "jax.random.shuffle"})
"""Index draws over an array: one key for two arrays gives the same indices for both."""
_SHAPE_SLOTS = {
    "jax.random.randint": {"1", "shape"},
    "jax.random.choice": {"2", "shape"},
    "jax.random.bernoulli": {"2", "shape"},
    "jax.random.categorical": {"3", "shape"},
}
"""The shape argument of samplers that do not take it second (slot number or keyword)."""
_COMPARER_WORDS = ("equal", "close", "near")
_COMPARERS = frozenset({"allclose", "arrayequal", "arrayequiv", "isclose"})


def _draw_args(call: cst.Call) -> list[tuple[str, str]]:
    """``(keyword or "", code)`` of each argument, spaces removed."""
    return [
        (a.keyword.value if a.keyword is not None else "", "".join(_code(a.value, 10_000).split()))
        for a in call.args
    ]


def callee_name(func: cst.BaseExpression) -> str | None:
    """The last name of a callee as written: ``assertEqual`` for ``self.assertEqual``,
    ``rotate`` for ``rotate``; ``None`` for any other expression."""
    if type(func) is cst.Attribute:
        return func.attr.value  # type: ignore[attr-defined]
    return func.value if type(func) is cst.Name else None  # type: ignore[attr-defined]


def _is_comparer(func: cst.BaseExpression) -> bool:
    """``np.testing.assert_allclose``, ``self.assertEqual``, ``chex.assert_trees_all_close``,
    ``jnp.allclose``, ``np.array_equal``: calls that compare their first two arguments."""
    name = callee_name(func)
    if name is None:
        return False
    flat = name.lower().replace("_", "")
    if flat.startswith("assert") and any(w in flat for w in _COMPARER_WORDS):
        return True
    return flat in _COMPARERS


def _is_collector(func: cst.BaseExpression) -> bool:
    return type(func) is cst.Attribute and func.attr.value in _COLLECTORS


_COLLECTORS = frozenset({"append", "extend", "insert", "add", "appendleft"})


class _Reach:
    """What a use's result reaches: the call itself and the names assigned from it."""

    __slots__ = ("call", "names")

    def __init__(self, call: cst.Call) -> None:
        self.call = id(call)
        self.names: set[str] = set()

    def touches(self, side: tuple[frozenset[str], frozenset[int]]) -> bool:
        names, calls = side
        return self.call in calls or not self.names.isdisjoint(names)


class _PurposeIndex:
    """A function's statements in order, each with the names it assigns, the names and
    calls it reads; and its comparisons, each as sides of (names, calls)."""

    def __init__(self, body: Sequence[cst.CSTNode]) -> None:
        self.statements: list[tuple[set[str], frozenset[str], frozenset[int]]] = []
        self.comparisons: list[list[tuple[frozenset[str], frozenset[int]]]] = []
        self.collectors: list[tuple[frozenset[str], frozenset[int]]] = []
        """What ``xs.append(...)``/``extend``/``insert``/``add`` and ``total += ...`` keep."""
        for node in _own_nodes(body):
            kind = type(node)
            if kind in _STATEMENTS:
                targets: set[str] = set()
                if kind is cst.Assign:
                    for t in node.targets:  # type: ignore[attr-defined]
                        targets.update(_target_names(t.target))
                elif kind is cst.AnnAssign or kind is cst.AugAssign:
                    targets.update(_target_names(node.target))  # type: ignore[attr-defined]
                if kind is cst.Assign or kind is cst.AnnAssign:
                    value = node.value  # type: ignore[attr-defined]
                    reads = _reads(value) if value is not None else (frozenset(), frozenset())
                else:
                    reads = _reads(node)
                self.statements.append((targets, *reads))
                if kind is cst.AugAssign or kind is cst.Expr and type(node.value) is cst.Yield:  # type: ignore[attr-defined]
                    self.collectors.append(_reads(node.value))  # type: ignore[attr-defined]
                elif kind is cst.Assign:
                    value = _reads(node.value)  # type: ignore[attr-defined]
                    stores = any(type(t.target) is cst.Subscript for t in node.targets)  # type: ignore[attr-defined]
                    if stores or not targets.isdisjoint(value[0]):
                        # ``out[i] = draw``; ``x = x + draw``: kept across iterations
                        self.collectors.append(value)
            elif kind is cst.Call and _is_collector(node.func):  # type: ignore[attr-defined]
                for arg in node.args:  # type: ignore[attr-defined]
                    self.collectors.append(_reads(arg.value))
            elif kind is cst.Call and _is_comparer(node.func):  # type: ignore[attr-defined]
                args = [a.value for a in node.args if not a.star][:2]  # type: ignore[attr-defined]
                if len(args) == 2:
                    self.comparisons.append([_value_reads(a) for a in args])
            elif kind is cst.Comparison and any(
                type(c.operator) in (cst.Equal, cst.NotEqual)
                for c in node.comparisons  # type: ignore[attr-defined]
            ):
                sides = [node.left, *(c.comparator for c in node.comparisons)]  # type: ignore[attr-defined]
                self.comparisons.append([_value_reads(side) for side in sides])

    def results(
        self, call: cst.Call, hops: int | None = None, stop: cst.Call | None = None
    ) -> _Reach | None:
        """What ``call``'s result reaches through assignments: in statement order, or,
        with ``hops``, through at most that many assignments after the one holding the
        call, in any order (a loop body wraps around). Not through the statement holding
        ``stop`` (a ``where`` whose result is no longer the draw's alone)."""
        reach = _Reach(call)
        found = False
        for targets, names, calls in self.statements:
            if not found:
                if reach.call not in calls:
                    continue
                found = True
                reach.names |= targets
                if hops is not None:
                    break
            elif stop is not None and id(stop) in calls:
                continue
            elif not reach.names.isdisjoint(names):
                reach.names |= targets
        if not found:
            return None
        frontier = set(reach.names)
        for _ in range(hops or 0):
            step: set[str] = set()
            for targets, names, _calls in self.statements:
                if not frontier.isdisjoint(names):
                    step |= targets - reach.names
            reach.names |= step
            frontier = step
        return reach


_STATEMENTS = frozenset(
    {cst.Assign, cst.AnnAssign, cst.AugAssign, cst.Expr, cst.Return, cst.Assert}
)


_METADATA = frozenset({"shape", "dtype", "ndim", "size"})


def _value_reads(side: cst.BaseExpression) -> tuple[frozenset[str], frozenset[int]]:
    """What one side of a comparison reads, unless it compares metadata only
    (``x.shape``, ``len(x)``): equal shapes say nothing about equal values."""
    if type(side) is cst.Attribute and side.attr.value in _METADATA:
        return frozenset(), frozenset()
    if type(side) is cst.Call and getattr(side.func, "value", None) == "len":
        return frozenset(), frozenset()
    return _reads(side)


def _reads(node: cst.CSTNode) -> tuple[frozenset[str], frozenset[int]]:
    names: set[str] = set()
    calls: set[int] = set()
    for sub in _own_nodes([node]):
        kind = type(sub)
        if kind is cst.Name:
            names.add(sub.value)  # type: ignore[attr-defined]
        elif kind is cst.Call:
            calls.add(id(sub))
    return frozenset(names), frozenset(calls)


# -- what a pair of uses in one function makes (asked by JAX301 for its reuses) -------------

STACKERS = frozenset(
    f"{module}.{name}"
    for module in ("jax.numpy", "numpy")
    for name in (
        "stack", "concatenate", "column_stack", "hstack", "vstack", "dstack", "row_stack",
        "array", "asarray", "block",
    )
)  # fmt: skip
"""Functions that make one array of their arguments (a dataset's rows or columns)."""


def _body(model: SemanticModel, fn: cst.FunctionDef | cst.Lambda | None) -> list[cst.CSTNode]:
    if fn is not None:
        return model.body_nodes(fn)
    return [n for n, entering in model.events if entering]


def _names_in(node: cst.CSTNode) -> set[str]:
    return {n.value for n in descendants(node) if type(n) is cst.Name}


def stages_of_one_step(model: SemanticModel, reuse: Reuse) -> bool:
    """The same function called again with the key at a point made from the first call's
    input and its result: the stages of one integration step (Runge-Kutta's ``k1 = f(x,
    key)``, ``k2 = f(x + dt / 2 * k1, key)``, raddo's ``rk4_step``, fresh-2026-12p), which
    evaluate one noise realisation, held over the step, at several points. Splitting the
    key per stage would change the integration."""
    first, second = reuse.first, reuse.second
    if first.kind == CALL or _code(first.call.func) != _code(second.call.func):
        return False
    parent = model.parents.get(id(first.call))
    if type(parent) is not cst.Assign or len(parent.targets) != 1:
        return False
    result = parent.targets[0].target
    if type(result) is not cst.Name:
        return False

    def names(call: cst.Call) -> set[str]:
        keys = (first.arg, second.arg)
        return {
            n for a in call.args if all(a.value is not k for k in keys) for n in _names_in(a.value)
        }

    later = names(second.call)
    return result.value in later and bool((names(first.call) - {result.value}) & later)


def sibling_unused(model: SemanticModel, reuse: Reuse) -> str | None:
    """The reused key is a name unpacked from a ``split`` (``k1, k2, k3 = split(key, 3)``)
    and another name of that split (not ``_``-named) is never read in the function: that
    name (``k1`` drawn twice where ``k3`` was meant)."""
    arg = reuse.second.arg
    if type(arg) is not cst.Name:
        return None
    node = _unpacks(model, reuse.fn).first.get(arg.value)
    if node is None or model.call_name(node.value) != SPLIT:  # type: ignore[attr-defined]
        return None
    return unread_target(model, reuse.fn, node, skip=arg.value)


def unread_target(
    model: SemanticModel,
    fn: cst.FunctionDef | cst.Lambda | None,
    assign: cst.CSTNode | None,
    skip: str = "",
) -> str | None:
    """The first name ``assign`` unpacks (``k1, k2 = split(key)``), not ``_``-named nor
    ``skip``, that the function ``fn`` (``None``: the module) never reads."""
    if type(assign) is not cst.Assign or len(assign.targets) != 1:
        return None
    target = assign.targets[0].target
    if type(target) not in (cst.Tuple, cst.List):
        return None
    names = [el.value for el in target.elements if type(el.value) is cst.Name]
    wanted = [n for n in names if n.value != skip and not n.value.startswith("_")]
    if not wanted:
        return None
    counts = _unpacks(model, fn).counts
    own = Counter(n.value for n in names)
    return next((n.value for n in wanted if counts[n.value] <= own[n.value]), None)


@dataclass
class _Unpacks:
    """One function's tuple assignments from a call and its names, indexed once (the
    questions above are asked once per reuse: a scan per question made a function with
    thousands of reuses quadratic)."""

    first: dict[str, cst.Assign]
    """A name -> the first ``a, b = f(...)`` (one target) that unpacks it."""
    counts: Counter[str]
    """How many ``Name`` nodes of the body spell each name (reads and bindings)."""


_UNPACKS: weakref.WeakKeyDictionary[SemanticModel, dict[int, _Unpacks]] = (
    weakref.WeakKeyDictionary()
)


def _unpacks(model: SemanticModel, fn: cst.FunctionDef | cst.Lambda | None) -> _Unpacks:
    per_model = _UNPACKS.setdefault(model, {})
    found = per_model.get(id(fn))
    if found is not None:
        return found
    first: dict[str, cst.Assign] = {}
    counts: Counter[str] = Counter()
    for node in _body(model, fn):
        kind = type(node)
        if kind is cst.Name:
            counts[node.value] += 1  # type: ignore[attr-defined]
        elif kind is cst.Assign and len(node.targets) == 1:  # type: ignore[attr-defined]
            target = node.targets[0].target  # type: ignore[attr-defined]
            if type(target) in (cst.Tuple, cst.List) and type(node.value) is cst.Call:  # type: ignore[attr-defined]
                for el in target.elements:
                    if type(el.value) is cst.Name:
                        first.setdefault(el.value.value, node)  # type: ignore[arg-type]
    found = per_model[id(fn)] = _Unpacks(first, counts)
    return found


def stacked(model: SemanticModel, reuse: Reuse) -> bool:
    """Both draws end up in one array made by stacking (``jnp.stack([rate, prob])``,
    ``jnp.concatenate``, ``jnp.array([a, b])``...), directly or through the names their
    results are bound to: the rows or columns of one dataset, which are then dependent."""
    marks: list[set[str | int]] = []
    for use in (reuse.first, reuse.second):
        mark: set[str | int] = {id(use.call)}
        parent = model.parents.get(id(use.call))
        if type(parent) is cst.Assign and len(parent.targets) == 1:
            target = parent.targets[0].target
            if type(target) is cst.Name:
                mark.add(target.value)
        marks.append(mark)
    for node in _body(model, reuse.fn):
        if type(node) is not cst.Call or model.call_name(node) not in STACKERS:
            continue
        inside: set[str | int] = set()
        for arg in node.args:
            for sub in descendants(arg.value):
                if type(sub) is cst.Name:
                    inside.add(sub.value)
                elif type(sub) is cst.Call:
                    inside.add(id(sub))
        if all(mark & inside for mark in marks):
            return True
    return False


def unused_result(model: SemanticModel, use: Use) -> bool:
    """What the consuming call makes reaches nothing: a draw, or a call of a function of
    this file that returns a value, on a line of its own (``loss(flow, data, key)``, a
    smoke run whose result is thrown away: generax's examples, fresh-2026-12s). A method
    or a function of another module may act through its object, and counts; so does a
    split whose names are never read (``k1, k2 = split(key)``, then ``normal(key)``: most
    likely the key meant for the draw)."""
    if type(model.parents.get(id(use.call))) is not cst.Expr:
        return False
    func = use.call.func
    if (use.qualname or "").startswith("jax.random."):
        return True
    if type(func) is not cst.Name:
        return False
    found = model.lookup(func.value, model.scope_for(func))
    if found is None or len(found[1]) != 1 or found[1][0].kind != "def":
        return False
    target = found[1][0].node
    if type(target) is not cst.FunctionDef:
        return False
    nodes = list(own_nodes(target))
    returns = any(type(n) is cst.Return and n.value is not None for n in nodes)  # type: ignore[attr-defined]
    return returns and not any(type(n) in (cst.Global, cst.Nonlocal) for n in nodes)
