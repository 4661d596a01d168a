"""LegacyPrngKey's analysis: the helper methods and tables of the rule in `legacy_prng_key.py`,
kept apart from its docs and examples (a mixin of the rule class)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import libcst as cst

from jaxlint.analysis.keys import FunctionNode, KeyValue
from jaxlint.analysis.methods import method_call
from jaxlint.diagnostics import Applicability
from jaxlint.fixers.spelling import spell
from jaxlint.rules.base import FixOp, ReplaceNode, short
from jaxlint.rules.prng.helpers import line

_TYPED_KEYS_SINCE = (0, 4, 16)
_RAW_METHODS = frozenset({"astype", "view", "tolist", "item", "tobytes", "__array__"})
_RESHAPES = frozenset({"jax.numpy.reshape"})
_PICKLERS = frozenset({"pickle.dump", "pickle.dumps", "cloudpickle.dump", "cloudpickle.dumps"})
_SHAPE_READERS = frozenset({"numpy.shape", "numpy.ndim", "numpy.size"})
_MAPPERS = frozenset({"jax.vmap", "jax.pmap"})
_KEY_DERIVERS = frozenset({"jax.random.split", "jax.random.fold_in"})

_Loc = tuple[str, int, str]
"""``("param", id(function), name)``, ``("attr", id(class), name)`` or
``("ret", id(function), "")`` (what the function returns)."""
_Source = KeyValue | _Loc
"""Where a value comes from: a key the analysis tracks, or a parameter or ``self.<attr>``
that keys may flow into."""


@dataclass(frozen=True)
class _Use:
    source: _Source
    node: cst.CSTNode
    what: str
    single: bool | None
    """Only a raw use of a single key (``True``) or of an array of keys (``False``)."""


def _int_literal(expr: cst.BaseExpression | None) -> int | None:
    """``2``, ``-1``: the value of an integer literal."""
    if type(expr) is cst.Integer:
        return int(expr.value, 0)
    if (
        type(expr) is cst.UnaryOperation
        and type(expr.operator) is cst.Minus
        and type(expr.expression) is cst.Integer
    ):
        return -int(expr.expression.value, 0)
    return None


def _last_element(expr: cst.BaseExpression) -> cst.BaseExpression | None:
    """The last axis of a shape as written: ``2`` in ``(-1, 2)``, ``shape + (2,)`` or ``2``."""
    if type(expr) in (cst.Tuple, cst.List):
        elements = expr.elements  # type: ignore[attr-defined]
        if not elements or type(elements[-1]) is cst.StarredElement:
            return None
        return elements[-1].value
    if type(expr) is cst.BinaryOperation and type(expr.operator) is cst.Add:
        return _last_element(expr.right)
    return expr if _int_literal(expr) is not None else None


class LegacyPrngKeyChecks:
    """The analysis behind :class:`LegacyPrngKey`."""

    def _reshape(
        self, call: cst.Call, operand: cst.BaseExpression, shape: Sequence[cst.Arg]
    ) -> None:
        if not shape:
            return
        last = shape[-1].value if len(shape) > 1 else _last_element(shape[0].value)
        if last is None or _int_literal(last) is None:
            return
        what = (
            f"reshapes it to a last axis of `{self.ctx.code(last)}` (raw keys end in their"
            " uint32 pair, typed keys do not)"
        )
        self._use(operand, call, what)

    def _serialised(
        self,
        value: cst.BaseExpression,
        call: cst.Call,
        func: cst.BaseExpression,
        what: str | None,
        shape_reader: bool = False,
    ) -> None:
        """``pickle.dump(key, f)``, ``np.savez(f, state)`` with ``state = {"rng": key}``:
        the key itself (the key analysis records NumPy calls on the keys it tracks) or a
        key in a dict, list or tuple written in this file."""
        said = what or f"passes its bits to `{short(self.ctx.code(func))}`"
        if what is not None:
            self._use(value, call, said)
        else:
            self._use(value, call, said, single=True if shape_reader else None, params_only=True)
        container: cst.BaseExpression | None = value
        if type(value) is cst.Name:
            container = self._assigned(value)
            said = f"(the key is in `{value.value}`) {said}"
        if type(container) in (cst.Dict, cst.List, cst.Tuple):
            for el in container.elements:  # type: ignore[union-attr]
                inner = getattr(el, "value", None)
                if isinstance(inner, cst.BaseExpression):
                    self._use(inner, call, said)

    def _passes(self, call: cst.Call) -> None:
        """A key passed to a function of this file: it flows into the parameter."""
        func = call.func
        target: FunctionNode | None = None
        skip = 0
        if type(func) is cst.Name:
            target = self.ctx.keys.resolve_function(func)
        elif type(func) is cst.Attribute and type(func.value) is cst.Name:
            owner = self._method_of(func.value)
            if owner is not None:
                cls = self.ctx.keys.class_of(owner)
                found = method_call(self.model, func, cls, self_name=func.value.value)
                if found is not None:
                    target, skip = found[0], int(found[1])
        if target is None:
            return
        params = target.params
        positional = [*params.posonly_params, *params.params][skip:]
        by_name = {p.name.value: p for p in (*positional, *params.kwonly_params)}
        i = 0
        for arg in call.args:
            if arg.star:
                return  # ``*args``: which parameter gets what is unknown from here on
            if arg.keyword is None:
                param = positional[i] if i < len(positional) else None
                i += 1
            else:
                param = by_name.get(arg.keyword.value)
            source = self._source_of(arg.value) if param is not None else None
            if param is not None and source is not None:
                loc = ("param", id(target), param.name.value)
                self._flows.setdefault(loc, []).append(source)

    # -- where a value comes from --------------------------------------------------------

    def _use(
        self,
        operand: cst.BaseExpression,
        node: cst.CSTNode,
        what: str,
        *,
        single: bool | None = None,
        params_only: bool = False,
    ) -> None:
        """Record ``node`` as a raw use of ``operand`` when it is a key. ``single``: only
        for a single key (``True``) or an array of keys (``False``); ``params_only``: the
        key analysis already records this use of the keys it tracks."""
        source = self._source_of(operand, params_only=params_only)
        if source is None:
            return
        if not isinstance(source, KeyValue):
            # the key reaches it from elsewhere in the file: say through what
            what = f"(the key reaches it as `{short(self.ctx.code(operand), 30)}`) {what}"
        self._uses.append(_Use(source, node, what, single))

    def _source_of(
        self, expr: cst.BaseExpression, *, params_only: bool = False, depth: int = 0
    ) -> _Source | None:
        if not params_only:
            val = self.ctx.keys.value(expr)
            if val is not None and val.raw_roots:
                return val
        kind = type(expr)
        if kind is cst.Call:
            return self._call_source(expr)  # type: ignore[arg-type]
        if kind is cst.Name:
            found = self.model.lookup(expr.value, self.model.scope_for(expr))  # type: ignore[attr-defined]
            if found is None:
                return None
            scope, bindings = found
            if scope.kind in ("function", "lambda") and all(b.kind == "param" for b in bindings):
                return ("param", id(scope.node), expr.value)  # type: ignore[attr-defined]
            if len(bindings) == 1 and bindings[0].kind == "assign" and depth < 4:
                value = self.ctx.keys.assigned_value(bindings[0].node)
                if value is not None:
                    return self._source_of(value, depth=depth + 1)
            return None
        return self._attr_loc(expr)

    def _call_source(self, call: cst.Call) -> _Source | None:
        """``make_key(seed)`` for a function of this file: what it returns;
        ``jax.vmap(jax.random.split)(keys)``: the split keys of ``keys``."""
        func = call.func
        if type(func) is cst.Call and self.model.call_name(func) in _MAPPERS and func.args:
            mapped = func.args[0].value
            fn = self.ctx.keys.resolve_function(mapped)
            makes_keys = self.model.qualified_name(mapped) in _KEY_DERIVERS or (
                type(fn) is cst.Lambda and self.ctx.keys.is_key(fn.body)
            )
            roots: frozenset[int] = frozenset()
            for arg in call.args:
                val = self.ctx.keys.value(arg.value)
                if val is not None:
                    roots |= val.raw_roots
            if makes_keys and roots:
                return KeyValue(self.ctx.code(call), call, True, array=True, raw_roots=roots)
            return None
        target = self.ctx.keys.resolve_function(func)
        if type(target) is cst.FunctionDef:
            return ("ret", id(target), "")
        return None

    def _attr_loc(self, expr: cst.BaseExpression) -> _Loc | None:
        """``self.<attr>`` in a method: the attribute of the instance of its class."""
        if type(expr) is not cst.Attribute or type(expr.value) is not cst.Name:
            return None
        owner = self._method_of(expr.value)
        if owner is None:
            return None
        cls = self.model.scope_of_node.get(id(owner))
        parent = cls.parent if cls is not None else None
        if parent is None:
            return None
        return ("attr", id(parent.node), expr.attr.value)

    def _method_of(self, name: cst.Name) -> cst.FunctionDef | None:
        """The method whose first parameter ``name`` is (``self``)."""
        found = self.model.lookup(name.value, self.model.scope_for(name))
        if found is None:
            return None
        scope, bindings = found
        fn = scope.node
        if (
            type(fn) is not cst.FunctionDef
            or scope.parent is None
            or scope.parent.kind != "class"
            or len(bindings) != 1
            or bindings[0].kind != "param"
        ):
            return None
        params = [*fn.params.posonly_params, *fn.params.params]
        return fn if params and params[0] is bindings[0].node else None

    def _assigned(self, name: cst.Name) -> cst.BaseExpression | None:
        found = self.model.lookup(name.value, self.model.scope_for(name))
        if found is None or len(found[1]) != 1 or found[1][0].kind != "assign":
            return None
        return self.ctx.keys.assigned_value(found[1][0].node)

    def _position(self, use: tuple[cst.CSTNode, str]) -> tuple[int, int]:
        start = self.ctx.positions[use[0]].start
        return start.line, start.column

    def _reaching(self) -> dict[_Loc, set[tuple[int, bool]]]:
        """Per parameter and ``self.<attr>``: the ``PRNGKey`` calls whose keys reach it,
        and whether as an array of keys."""
        reaching: dict[_Loc, set[tuple[int, bool]]] = {}
        changed = True
        while changed:
            changed = False
            for loc, sources in self._flows.items():
                got = reaching.setdefault(loc, set())
                before = len(got)
                for src in sources:
                    if isinstance(src, KeyValue):
                        got.update((r, src.array) for r in src.raw_roots)
                    else:
                        got.update(reaching.get(src, ()))
                changed = changed or len(got) != before
        return reaching

    def _flag(self, func: cst.BaseExpression, raw: tuple[cst.CSTNode, str] | None) -> None:
        spelled = spell(self.model, "jax.random.key", func) if raw is None else None
        shown = spell(self.model, "jax.random.key", func)
        replacement = shown[0] if shown else "jax.random.key"
        note = ""
        if raw is not None:
            node, what = raw
            note = (
                f"; no fix: `{short(self.ctx.code(node))}` at line {line(self, node)}"
                f" {what}: use `jax.random.key_data(key)` there first"
            )

        def fix() -> list[FixOp]:
            assert spelled is not None
            text, ops = spelled
            return [ReplaceNode(func, text), *ops]

        self.report(
            func,
            callee=self.ctx.code(func),
            replacement=replacement,
            note=note,
            fix=fix if spelled is not None else None,
            applicability=Applicability.UNSAFE if spelled is not None else None,
            fix_message=f"Replace with `{replacement}` (typed key)",
        )
