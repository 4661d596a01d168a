"""The key walk at a call: which calls consume, derive, split or make a key, what a
function of this module (or of the project) does with the keys passed to it, and what
flax/haiku/equinox conventions mean (the call half of :class:`key_walk._Walker`)."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

import libcst as cst

from jaxlint.analysis.key_loops import LOOP_CARRY, carry_kept
from jaxlint.analysis.key_purpose import _CONTAINERS, _RNGS, callee_name
from jaxlint.analysis.key_templates import template_only
from jaxlint.analysis.key_values import (
    _COPIES,
    _FLAX_RNG_METHODS,
    _FORWARDERS,
    _FORWARDING_METHODS,
    _INIT_METHODS,
    _NON_CONSUMING,
    _NON_CONSUMING_PREFIXES,
    _RAW_BUILTINS,
    _RAW_LAX,
    _RAW_METHODS,
    _RECORD_FACTORIES,
    _SAFE_JNP,
    _SHAPE_READERS,
    CALL,
    DERIVERS,
    FRESH_KEY_CALLS,
    INDEX_DRAWS,
    INERT_SPLIT,
    LEGACY,
    LIBRARY_SPLITTERS,
    LOCAL,
    LOOP_BODIES,
    MAKERS,
    MAPPERS,
    ONCE_CALLERS,
    RANDOM,
    SAMPLERS,
    SPLIT,
    Reuse,
    Use,
    _key_arg,
    _literal_int,
    _stronger,
    _Summary,
    key_factory,
)
from jaxlint.analysis.methods import method_call, module_class, own_method
from jaxlint.analysis.records import defines, post_init_reads
from jaxlint.analysis.transforms import TRANSFORMS
from jaxlint.analysis.walk import descendants

SELECTS = frozenset({"jax.numpy.where", "jax.lax.select", "numpy.where"})
"""``where(condition, a, b)``: every position takes its value from ``a`` or from ``b``."""

if TYPE_CHECKING:
    from jaxlint.analysis.key_values import FunctionNode, KeyValue

_RNGS_DRAWS = frozenset(q.rsplit(".", 1)[-1] for q in SAMPLERS if q != SPLIT) | frozenset(
    "delta_orthogonal glorot_normal glorot_uniform he_normal he_uniform kaiming_normal"
    " kaiming_uniform lecun_normal lecun_uniform variance_scaling xavier_normal"
    " xavier_uniform".split()
)
"""Methods of an ``nnx.Rngs`` (and its streams) that return a draw (``rngs.normal((8,
4))``) or a keyless initializer, not a key (``flax/nnx/rnglib.py``, flax 0.12)."""
_HAIKU_TRANSFORMS = frozenset({"transform", "transform_with_state", "without_apply_rng"})
"""Haiku transforms whose result has ``init(rng, ...)`` and ``apply(params, [state,] rng,
...)`` (``without_apply_rng``: ``apply`` takes no key)."""
_AHEAD_OF_TIME = frozenset({"lower", "trace", "eval_shape"})
"""Methods of a jitted function that trace it with abstract values and run nothing
(``jax.jit(f).lower(params, key).compile()``): the key they are given is not drawn from
(checked on JAX 0.12 with ``jax_debug_key_reuse``: a draw from the key afterwards does
not raise). ``lower`` on any receiver (no other library's ``lower`` takes arguments that
could be keys); ``trace`` and ``eval_shape`` only on a transform's result written in
place (``jax.jit(f).trace(key)``)."""


_STORES = frozenset(
    {"append", "appendleft", "extend", "extendleft", "insert", "add", "put", "put_nowait"}
)
"""Methods of a local container (a list, a deque, a set, a queue) that store their
argument: a key kept there is drawn from, if ever, where it is read back."""


class _CallWalker:
    """The call handlers of the key walk, mixed into ``key_walk._Walker``."""

    # -- calls -------------------------------------------------------------------------

    def _call(self, call: cst.Call) -> KeyValue | None:
        func = call.func
        qn = self.model.call_name(call)
        receiver: KeyValue | None = None
        func_kind = type(func)  # exact classes: see ``_eval_inner``
        if qn is None and func_kind is cst.Name:
            qn = self._caller_alias(func)
        if func_kind is cst.Attribute:
            receiver = self._eval(func.value)
        elif func_kind is cst.Call:
            self._eval(func)
        if (
            qn in SELECTS
            and len(call.args) == 3
            and not any(a.keyword or a.star for a in call.args)
            and type(call.args[1].value) is cst.Call
            and type(call.args[2].value) is cst.Call
        ):
            # ``jnp.where(c, draw(k), other(k))``: each position keeps one of the two
            # computed alternatives (a key chosen by name is followed below)
            self._eval(call.args[0].value)
            self._alternatives([call.args[1].value, call.args[2].value], call)
            return None
        args: list[tuple[cst.Arg, KeyValue | None, list[tuple[cst.BaseExpression, KeyValue]]]] = []
        for arg in call.args:
            v = self._eval(arg.value)
            inside: list[tuple[cst.BaseExpression, KeyValue]] = []
            if type(arg.value) in _CONTAINERS:
                now = self.elements_now
                for el in arg.value.elements:
                    ev = now.get(id(el.value))  # not a value of an earlier pass
                    if ev is not None:
                        inside.append((el.value, ev))
            args.append((arg, v, inside))
        if self.state is None:
            return None
        if self.a.templates and template_only(self.model, call):
            return None  # only a restore's template: none of its random bits are kept

        # a method of a key: never consumes (reshape, block_until_ready...)
        if receiver is not None and receiver.certain and func_kind is cst.Attribute:
            method = func.attr.value
            if method in _RAW_METHODS:
                self.a.note_raw(receiver, call, "reads its bits")
                return None
            if method in _FORWARDING_METHODS:
                return receiver
            return None

        if qn is not None:
            if qn in SAMPLERS:
                key = _key_arg(call)
                kv = self.a._values.get(id(key)) if key is not None else None
                if key is not None and kv is not None:
                    index = self._split_index(call) if qn == SPLIT else None
                    # ``split(key, n)[i]`` takes key ``i`` of the split: consumed on
                    # ``key`` (against a draw or a whole split of it), and on the element
                    # (against the same index again; see ``_Walker._consume``)
                    self._consume(kv, Use(key, call, RANDOM, qn, index=index))
                    if index is not None:
                        self._consume(
                            self._split_element(kv, index),
                            Use(key, call, RANDOM, qn, index=index),
                        )
                if qn == SPLIT:
                    return self._new(
                        call,
                        self.a.code(call),
                        True,
                        array=True,
                        raw=kv.raw_roots if kv is not None else frozenset(),
                    )
                return None
            if qn in LIBRARY_SPLITTERS:
                key = next(
                    (a.value for a in call.args if a.keyword and a.keyword.value == "key"), None
                )
                kv = self.a._values.get(id(key)) if key is not None else None
                if key is not None and kv is not None:
                    self._consume(kv, Use(key, call, RANDOM, SPLIT))
                return None
            if qn in MAKERS:
                raw = frozenset({id(call)}) if qn == LEGACY else frozenset()
                return self._new(call, self.a.code(call), True, raw=raw)
            if qn in DERIVERS:
                key = _key_arg(call)
                kv = self.a._values.get(id(key)) if key is not None else None
                raw = kv.raw_roots if kv is not None else frozenset()
                return self._new(call, self.a.code(call), True, raw=raw)
            if qn in FRESH_KEY_CALLS:
                return self._new(call, self.a.code(call), True)
            if qn in _FORWARDERS:
                first = args[0][1] if args else None
                for arg, _, _ in args:
                    if (
                        arg.keyword is not None
                        and arg.keyword.value == "dtype"
                        and first is not None
                    ):
                        self.a.note_raw(first, call, "converts its bits")
                return first
            if (
                qn.startswith("numpy.")
                or qn in _RAW_BUILTINS
                or qn in _RAW_LAX
                or (qn.startswith("jax.numpy.") and qn not in _SAFE_JNP)
            ):
                for _, v, _ in args:
                    if v is not None and not (v.array and qn in _RAW_BUILTINS):
                        if qn in _SHAPE_READERS and v.array:
                            continue
                        self.a.note_raw(v, call, f"passes its bits to `{self.a.code(func)}`")
        if func_kind is cst.Attribute and func.attr.value == "make_rng":  # type: ignore[attr-defined]
            return self._new(call, self.a.code(call), True)
        if self._is_rngs_stream(func):
            if type(func) is cst.Attribute and func.attr.value in _RNGS_DRAWS:
                return None  # ``rngs.normal(shape)``: an array drawn from a fresh key
            return self._new(call, self.a.code(call), True)

        if qn is not None and (qn.startswith(_NON_CONSUMING_PREFIXES) or qn in _NON_CONSUMING):
            return None
        if func_kind is cst.Attribute and self._ahead_of_time(func):  # type: ignore[arg-type]
            return None
        if qn in ONCE_CALLERS or qn in MAPPERS or qn in LOOP_BODIES:
            self._function_args(call, qn, args)
            ignored = self._ignored_operands(call, qn) if qn in ONCE_CALLERS else ()
            if qn in LOOP_CARRY:
                kept = carry_kept(self.model, self.a.resolve_function, call, qn)
                if kept:
                    # carry keys the body only hands back (or never reads): not consumed;
                    # those it only splits: consumed by a split
                    for arg, v, inside in args:
                        for el, ev in ((arg.value, v), *inside):
                            how = kept.get(id(el))
                            if ev is not None and how is not None:
                                draws = frozenset({how}) if how == INERT_SPLIT else frozenset()
                                self._consume(ev, Use(el, call, RANDOM, SPLIT, draws=draws))
                    args = [
                        (arg, None if id(arg.value) in kept else v,
                         [(el, ev) for el, ev in inside if id(el) not in kept])
                        for arg, v, inside in args
                    ]  # fmt: skip
            # the carry, operands and trees: consumed, as by any function we cannot see
            for arg, v, inside in args:
                if self.a.resolve_function(arg.value) is None and id(arg) not in ignored:
                    self._consume_arg(call, arg.value, v, inside, CALL)
            return None
        if qn is not None and (qn in TRANSFORMS or qn.startswith("jax.random.")):
            return None

        if self._is_predicate(call):
            return None  # ``assert is_prng_key(key)``: a predicate does not sample
        if (
            func_kind is cst.Attribute
            and func.attr.value in _STORES  # type: ignore[attr-defined]
            and type(func.value) is cst.Name  # type: ignore[attr-defined]
            and self.model.qualified_name(func.value) is None  # type: ignore[attr-defined]
        ):
            return None  # ``queue.appendleft(rng)``: a container keeps the key, draws nothing
        if self._haiku_transformed(call, args):
            return None
        if self._flax_rngs(call, args):
            return None
        target, skip_first = self._local_target(call)
        if target is not None:
            summary = self.a.summary(target)
            if summary is not None:
                self._apply_summary(call, target, summary, args, skip_first)
                if key_factory(self.a.model, target) is not None:
                    # ``def make_key(): return jax.random.key(0)``: each call, a new key
                    return self._new(call, self.a.code(call), True)
                return None
        imported = self._imported_summary(call)
        if imported is not None:
            self._apply_summary(call, None, imported, args, False)
            return None
        if self._stores(call, args):
            return None
        weak = self._foreign_init(call, args)
        for arg, v, inside in args:
            self._consume_arg(call, arg.value, v, inside, CALL, weak=weak)
        return None

    def _split_index(self, call: cst.Call) -> cst.BaseExpression | None:
        """The index of ``split(key, n)[i]`` (the split's result indexed at once), if so."""
        parent = self.model.parents.get(id(call))
        if type(parent) is not cst.Subscript or parent.value is not call:
            return None
        slices = parent.slice
        if len(slices) != 1 or type(slices[0].slice) is not cst.Index:
            return None
        return slices[0].slice.value  # type: ignore[attr-defined]

    def _split_element(self, kv: KeyValue, index: cst.BaseExpression) -> KeyValue:
        """What ``split(key, n)[i]`` consumes: key ``i`` of the split of ``key``, the same
        key whatever ``n`` (JAX 0.12: ``split(k, 1)[0]`` equals ``split(k, 3)[0]``), and
        another key for another ``i``. One value per key and index (the index as written),
        standing for ``key`` in messages and summaries."""
        literal = _literal_int(index)
        text = str(literal) if literal is not None else self.a.code(index)
        memo_key = ("split-element", id(kv), text)
        val = self.memo.get(memo_key)
        if val is None:
            val = dataclasses.replace(kv, uses=[], split_element=True)
            self.memo[memo_key] = val
        return val

    def _ahead_of_time(self, func: cst.Attribute) -> bool:
        """``jitted.lower(...)``, ``jax.jit(f).trace(...)``: see ``_AHEAD_OF_TIME``."""
        method = func.attr.value
        if method not in _AHEAD_OF_TIME:
            return False
        if method == "lower":
            return True
        receiver = func.value
        return type(receiver) is cst.Call and self.model.call_name(receiver) in TRANSFORMS

    def _caller_alias(self, func: cst.Name) -> str | None:
        """``tree_map = tree_util.tree_map`` (or ``cond = lax.cond``) bound once in the
        function or the module: the tree mapper or ``cond`` that a call of ``func`` is."""
        found = self.model.lookup(func.value, self.model.scope_for(func))
        if found is None or len(found[1]) != 1 or found[1][0].kind != "assign":
            return None
        value = self.a.assigned_value(found[1][0].node)
        if type(value) not in (cst.Name, cst.Attribute):
            return None
        qn = self.model.qualified_name(value)
        return qn if qn in MAPPERS or qn in ONCE_CALLERS else None

    def _imported_summary(self, call: cst.Call) -> _Summary | None:
        """What a function of another module of the project consumes, from that module's
        summary (``rand.normal(key, shape)`` where ``rand.normal`` passes ``key`` to
        ``jax.random.normal``); ``None`` when no summary says."""
        project = self.a.project
        func = call.func
        if project is None or type(func) not in (cst.Name, cst.Attribute):
            return None
        if project.in_test_file:
            # a test reuses keys on purpose (two runs compared): as for any function the
            # file cannot see, what the callee does with the key is not used there
            return None
        qn = project.qualified_name(self.model, func)
        if qn is None or qn.startswith(("jax.", "numpy.", "builtins.")):
            return None
        fact = project.function(qn)
        if fact is None or not isinstance(fact.get("params"), list):
            return None
        if fact.get("transform") and not fact.get("keys"):
            # ``step = jax.jit(f)``, or a decorated function that consumes no parameter
            # as a key: nothing said about its keys, a function we cannot see
            return None
        kinds = fact.get("keys") or {}
        draws = set(fact.get("draws") or ())
        # a parameter it draws from on every call is a certain consumption; one it draws
        # from only on some paths (a branch the call's arguments may never take) is
        # consumed as by any function we cannot see
        params = {
            p: (LOCAL if p in draws else CALL)
            for p, k in kinds.items()
            if isinstance(p, str) and k in (CALL, LOCAL, RANDOM)
        }
        return _Summary(params=params, positional=list(fact["params"]))

    def _foreign_init(
        self,
        call: cst.Call,
        args: list[tuple[cst.Arg, KeyValue | None, list[tuple[cst.BaseExpression, KeyValue]]]],
    ) -> bool:
        """``x = normal(key, ...); model.init(key, x)`` (``init_with_output``,
        ``lazy_init``, ``mclmc.init(x, fn, key)``) where ``model`` is not a class or an
        instance of a class of this file (a module of another package, which may split
        the key or only fold it in) and a draw from the same key flows into the call as
        its example input: the usual way to initialise a model, not two independent
        uses. A foreign ``init`` given only the key consumes it like any call."""
        func = call.func
        if type(func) is not cst.Attribute or func.attr.value not in _INIT_METHODS:
            return False
        if self._local_receiver(func.value):
            return False
        keys = {self.a.code(arg.value) for arg, v, _ in args if v is not None}
        return any(
            self._draws_from(value, keys)
            for arg, v, _ in args
            if v is None
            for value in (arg.value, *self._bound_values(arg.value))
        )

    def _bound_values(self, expr: cst.BaseExpression) -> list[cst.BaseExpression]:
        """The values assigned to the name ``expr`` in its scope (none for other nodes)."""
        if type(expr) is not cst.Name:
            return []
        found = self.model.lookup(expr.value, self.model.scope_for(expr))
        if found is None:
            return []
        values = (self.a.assigned_value(b.node) for b in found[1] if b.kind == "assign")
        return [v for v in values if v is not None]

    def _draws_from(self, expr: cst.BaseExpression, keys: set[str]) -> bool:
        """``expr`` contains a ``jax.random`` call given one of ``keys``."""
        for node in descendants(expr):
            if type(node) is not cst.Call:
                continue
            qn = self.model.call_name(node)
            if (
                qn is not None
                and qn.startswith("jax.random.")
                and any(self.a.code(a.value) in keys for a in node.args)
            ):
                return True
        return False

    def _local_receiver(self, expr: cst.BaseExpression) -> bool:
        """``expr`` is a class of this file, or a name bound to an instance of one."""
        while type(expr) is cst.Call:
            expr = expr.func  # ``Model(...).init``
        if type(expr) is not cst.Name:
            return False  # ``self.model``, ``mod.Model``: nothing this file shows
        found = self.model.lookup(expr.value, self.model.scope_for(expr))
        if found is None:
            return False
        for binding in found[1]:
            if binding.kind == "class":
                return True
            if binding.kind == "assign":
                value = self.a.assigned_value(binding.node)
                if type(value) is cst.Call and self._constructor_class(value.func):
                    return True
        return False

    def _constructor_class(self, func: cst.BaseExpression) -> bool:
        if type(func) is not cst.Name:
            return False
        found = self.model.lookup(func.value, self.model.scope_for(func))
        return found is not None and any(b.kind == "class" for b in found[1])

    def _is_predicate(self, call: cst.Call) -> bool:
        """A call that reads its arguments without drawing from them: its result is a
        truth value (used as a condition: ``assert``, ``if``, ``not``...; or named like
        a predicate: ``is_prng_key``, ``has_rng``), or a copy (``clone``, ``copy``)."""
        if id(call) in self.conditions:
            return True
        name = callee_name(call.func)
        if name is None:
            return False
        return name.lstrip("_").startswith(("is_", "has_")) or name in _COPIES

    def _flax_rngs(
        self,
        call: cst.Call,
        args: list[tuple[cst.Arg, KeyValue | None, list[tuple[cst.BaseExpression, KeyValue]]]],
    ) -> bool:
        """Flax's ``module.init(key, x)``/``init_with_output``/``lazy_init`` and the
        ``rngs=`` of ``apply``: Flax derives every stream from these root keys with
        ``random.fold_in`` (``flax/core/scope.py``: ``LazyRng.as_jax_rng`` ->
        ``_fold_in_static``; ``flax/nnx/rnglib.py``), which does not consume them.
        The key arguments are not consumed; other arguments are, as usual."""
        func = call.func
        if type(func) is not cst.Attribute:
            return False
        method = func.attr.value
        if method not in _FLAX_RNG_METHODS:
            return False
        if not self.a.uses_flax and self._project_framework(func.value) != "flax.linen":
            return False
        for i, (arg, v, inside) in enumerate(args):
            root = (i == 0 and arg.keyword is None and method != "apply") or (
                arg.keyword is not None and arg.keyword.value == "rngs"
            )
            if not root:
                self._consume_arg(call, arg.value, v, inside, CALL)
        return True

    def _haiku_transformed(
        self,
        call: cst.Call,
        args: list[tuple[cst.Arg, KeyValue | None, list[tuple[cst.BaseExpression, KeyValue]]]],
    ) -> bool:
        """``f.init(rng, x)`` and ``f.apply(params, rng, x)`` (``apply(params, state, rng,
        x)`` after ``transform_with_state``; ``init, apply = hk.transform(g)`` called by
        name) where ``f`` is made by ``hk.transform``/``hk.transform_with_state`` in this
        file. Haiku's ``init`` splits its key for every parameter initializer
        (``hk.next_rng_key()`` on a ``PRNGSequence`` of it), so it draws from it; ``apply``
        splits the key it is given whenever the function asks for one (dropout, sampling),
        so it may draw. The same key given to both makes ``apply``'s keys the ones ``init``
        drew the parameters with (dm-haiku 96ecde6a). Other arguments are consumed as by
        any call."""
        func = call.func
        if type(func) is cst.Attribute:
            method = func.attr.value
            made = self._haiku_transform(func.value)
        elif type(func) is cst.Name:
            method, made = self._haiku_unpacked(func)
        else:
            return False
        if made is None or method not in ("init", "apply"):
            return False
        if method == "init":
            slot, kind = 0, LOCAL
        elif made == "without_apply_rng":
            slot, kind = -1, CALL
        else:
            slot, kind = (2 if made == "transform_with_state" else 1), CALL
        # ``x = normal(key, ...); f.init(key, x)``: the usual way to initialise, as for a
        # foreign ``init`` (recorded, never the second use of a reuse)
        weak = method == "init" and self._foreign_init(call, args)
        positional = 0
        for arg, v, inside in args:
            is_key = arg.keyword is not None and arg.keyword.value == "rng"
            if arg.keyword is None and not arg.star:
                is_key = positional == slot
                positional += 1
            self._consume_arg(call, arg.value, v, inside, kind if is_key else CALL, weak=weak)
        return True

    def _haiku_transform(self, expr: cst.BaseExpression) -> str | None:
        """The Haiku transform that made ``expr`` (``transform``, ``transform_with_state``
        or ``without_apply_rng``): a call of it, or a name bound once to one."""
        if type(expr) is cst.Name:
            found = self.model.lookup(expr.value, self.model.scope_for(expr))
            if found is None or len(found[1]) != 1 or found[1][0].kind != "assign":
                return None
            expr = self.a.assigned_value(found[1][0].node)  # type: ignore[assignment]
        if type(expr) is not cst.Call:
            return None
        qn = self.model.call_name(expr)
        func = expr.func
        if qn is None and type(func) is cst.Attribute and self._haiku_namespace(func.value):
            qn = f"haiku.{func.attr.value}"  # ``hk = types.ModuleType("haiku")`` (Haiku's own)
        if qn is None or not qn.startswith("haiku."):
            return None
        name = qn.rsplit(".", 1)[-1]
        return name if name in _HAIKU_TRANSFORMS else None

    def _haiku_unpacked(self, func: cst.Name) -> tuple[str, str | None]:
        """``init, apply = hk.transform(g)``: (``init``/``apply``, the transform)."""
        found = self.model.lookup(func.value, self.model.scope_for(func))
        if found is None or len(found[1]) != 1 or found[1][0].kind != "assign":
            return "", None
        unpacked = self.a.unpacked_from(found[1][0].node)
        if unpacked is None or unpacked[1] > 1:
            return "", None
        return ("init", "apply")[unpacked[1]], self._haiku_transform(unpacked[0])

    def _haiku_namespace(self, expr: cst.BaseExpression) -> bool:
        """A name bound once to ``types.ModuleType("haiku")``."""
        if type(expr) is not cst.Name:
            return False
        found = self.model.lookup(expr.value, self.model.scope_for(expr))
        if found is None or len(found[1]) != 1 or found[1][0].kind != "assign":
            return False
        value = self.a.assigned_value(found[1][0].node)
        if type(value) is not cst.Call or self.model.call_name(value) != "types.ModuleType":
            return False
        first = value.args[0].value if value.args else None
        return isinstance(first, cst.SimpleString) and first.evaluated_value == "haiku"

    def _project_framework(self, receiver: cst.BaseExpression) -> str | None:
        """The framework of a model class imported from another module of the project
        (``Model(...).init``, or ``model.init`` with ``model = Model(...)``): a Flax
        module through its bases there, although this file never imports Flax."""
        project = self.a.project
        if project is None:
            return None
        expr = receiver
        if type(expr) is cst.Name:
            found = self.model.lookup(expr.value, self.model.scope_for(expr))
            if found is not None and len(found[1]) == 1 and found[1][0].kind == "assign":
                value = self.a.assigned_value(found[1][0].node)
                if type(value) is cst.Call:
                    expr = value
        if type(expr) is not cst.Call:
            return None
        qn = project.qualified_name(self.model, expr.func)
        if qn is None:
            return None
        fact = project.class_(qn)
        return None if fact is None else fact.get("framework")

    def _stores(self, call: cst.Call, args: list[tuple[cst.Arg, KeyValue | None, list]]) -> bool:
        """A constructor that only stores its key arguments: a ``namedtuple`` or a class of
        this module or of another module of the project without ``__init__`` of its own or
        of its project bases (a dataclass, a ``NamedTuple``, a struct: ``State(key=key,
        ...)`` keeps the key for later) whose ``__post_init__``, if any, reads no field a
        key is given for by name (:mod:`jaxlint.analysis.records`)."""
        func = call.func
        if type(func) is cst.Attribute:
            return self._stores_project_class(func, args)
        if type(func) is not cst.Name:
            return False
        found = self.model.lookup(func.value, self.model.scope_for(func))
        if found is None or len(found[1]) != 1:
            return False
        binding = found[1][0]
        if binding.kind == "import":
            return self._stores_project_class(func, args)
        if binding.kind == "class" and isinstance(binding.node, cst.ClassDef):
            cls = binding.node
            return not defines(cls, "__init__") and _keys_unread(args, post_init_reads(cls))
        if binding.kind == "assign":
            value = self.a.assigned_value(binding.node)
            return isinstance(value, cst.Call) and self.model.call_name(value) in _RECORD_FACTORIES
        return False

    def _stores_project_class(
        self, func: cst.Name | cst.Attribute, args: list[tuple[cst.Arg, KeyValue | None, list]]
    ) -> bool:
        project = self.a.project
        if project is None:
            return False
        qn = project.qualified_name(self.model, func)
        if qn is None or qn.startswith(("jax.", "numpy.", "builtins.")):
            return False
        found = project.class_(qn)
        return (
            found is not None
            and found.get("framework") is None  # a module's constructor may draw (init)
            and not found.get("init")
            and found.get("where") != qn  # a summary of the project's, not a known base
            and _keys_unread(args, frozenset(found.get("post_init_reads") or ()))
        )

    def _is_rngs_stream(self, func: cst.BaseExpression) -> bool:
        """``rngs()`` / ``rngs.params()`` on an ``nnx.Rngs``: a fresh key per call."""
        base = func.value if type(func) is cst.Attribute else func
        if type(base) is not cst.Name:
            return False
        if base.value in self.rngs_names:
            return True
        found = self.model.lookup(base.value, self.model.scope_for(base))
        if found is None:
            return False
        for b in found[1]:
            if b.kind == "param" and type(b.node) is cst.Param:
                if _RNGS.search(self.a.annotation(b.node)):
                    return True
        return False

    def _consume_arg(
        self,
        call: cst.Call,
        expr: cst.BaseExpression,
        v: KeyValue | None,
        inside: list[tuple[cst.BaseExpression, KeyValue]],
        kind: str,
        *,
        weak: bool = False,
        through: Use | None = None,
        draws: frozenset[str] = frozenset(),
    ) -> None:
        if v is not None:
            self._consume(v, Use(expr, call, kind, weak=weak, through=through, draws=draws))
        for el, ev in inside:
            self._consume(ev, Use(el, call, kind, weak=weak, through=through, draws=draws))

    def _local_target(self, call: cst.Call) -> tuple[FunctionNode | None, bool]:
        func = call.func
        init = self._constructor(func)
        if init is not None:
            return init, True
        kind = type(func)  # exact classes: see ``_eval_inner``
        if kind is cst.Call:
            # ``jax.jit(f)(key)``, ``jax.vmap(f)(keys)``
            qn = self.model.call_name(func)
            if qn in TRANSFORMS and func.args and func.args[0].keyword is None:
                return self.a.resolve_function(func.args[0].value), False
            return None, False
        if kind is cst.Name:
            found = self.a.resolve_function(func)
            return (found if found is not None else self._transformed(func)), False
        if kind is cst.Attribute:
            # ``self.m(...)`` or ``Cls.m(...)``: whether ``self``/``cls`` is bound by
            # Python (a ``@staticmethod`` takes the call's arguments in order)
            owner = self.a.class_of(self._method_owner())
            found = method_call(self.model, func, owner)
            if found is not None:
                return found
        return None, False

    def _transformed(self, func: cst.Name) -> FunctionNode | None:
        """``grad_fn = jax.value_and_grad(loss_fn, ...)`` bound once: calling ``grad_fn``
        runs ``loss_fn`` (a JAX transform of a function of this file)."""
        found = self.model.lookup(func.value, self.model.scope_for(func))
        if found is None or len(found[1]) != 1 or found[1][0].kind != "assign":
            return None
        value = self.a.assigned_value(found[1][0].node)
        if type(value) is not cst.Call or self.model.call_name(value) not in TRANSFORMS:
            return None
        if not value.args or value.args[0].keyword is not None:
            return None
        return self.a.resolve_function(value.args[0].value)

    def _constructor(self, func: cst.BaseExpression) -> cst.FunctionDef | None:
        """``Cls(...)`` for a class of this module with an ``__init__``: that method."""
        if type(func) is not cst.Name:
            return None
        cls = module_class(self.model, func)
        return own_method(cls, "__init__") if cls is not None else None

    def _method_owner(self) -> FunctionNode | None:
        fn = self.fn
        while fn is not None and id(fn) not in self.a._class_of:
            fn = self.a._parent.get(id(fn))
        return fn

    def _apply_summary(
        self,
        call: cst.Call,
        target: FunctionNode | None,
        summary: _Summary,
        args: list[tuple[cst.Arg, KeyValue | None, list[tuple[cst.BaseExpression, KeyValue]]]],
        skip_first: bool,
    ) -> None:
        positional = summary.positional[1:] if skip_first else summary.positional
        i = 0
        for arg, v, inside in args:
            if arg.star:
                if v is not None or inside:
                    self._consume_arg(call, arg.value, v, inside, CALL)
                continue
            if arg.keyword is None:
                pname = positional[i] if i < len(positional) else None
                i += 1
            else:
                pname = arg.keyword.value
            if pname is None:
                if v is not None or inside:
                    self._consume_arg(call, arg.value, v, inside, CALL)
                continue
            kind = summary.params.get(pname)
            split = summary.split_index.get(pname)
            if kind is not None and split is not None and v is not None and not inside:
                # the callee keeps only ``split(param)[split]``: key ``split`` of the split
                index = cst.Integer(str(split))
                self._consume(v, Use(arg.value, call, LOCAL, index=index))
                self._consume(
                    self._split_element(v, index), Use(arg.value, call, LOCAL, index=index)
                )
            elif kind is not None:
                draws = frozenset(summary.params_by.get(pname, ()))
                self._consume_arg(
                    call, arg.value, v, inside, LOCAL if kind != CALL else CALL, draws=draws
                )
            elif pname in summary.passes:
                # handed on unchanged to a function the callee cannot see
                inner = summary.passes[pname]
                self._consume_arg(call, arg.value, v, inside, CALL, through=inner)
        self._apply_free(call, summary)
        if summary.attrs and skip_first and type(call.func) is cst.Attribute:
            receiver = call.func.value
            if type(receiver) is cst.Name and receiver.value == "self":
                # ``self.helper()`` that draws from ``self.rng``: the caller's key
                for attr, kind in summary.attrs.items():
                    val = self._attr_value(f"self.{attr}", call)
                    if val is not None:
                        use_kind = LOCAL if kind != CALL else CALL
                        self._consume(val, Use(call, call, use_kind, key_name=f"self.{attr}"))
        for name in sorted(summary.advances):
            self.a.stateful_calls.append((call, name, target, self.fn))

    def _apply_free(self, call: cst.Call, summary: _Summary) -> None:
        for name, kind in summary.free.items():
            val = self._free_value(name, call)
            if val is not None:
                kind = LOCAL if kind != CALL else CALL
                self._consume(val, Use(call, call, kind, key_name=name))
        for name, inner in summary.free_passes.items():
            if name in summary.free:
                continue
            val = self._free_value(name, call)
            if val is not None:
                self._consume(val, Use(call, call, CALL, key_name=name, through=inner))

    def _ignored_operands(self, call: cst.Call, qn: str) -> set[int]:
        """``id`` of the operands of ``lax.cond(p, f, g, *ops)`` / ``lax.switch(i, [f, g],
        *ops)`` that every branch ignores (``lambda _: self.resample(key)``): the
        branches are functions of this file and none reads the parameter an operand
        becomes, so the operand is handed to nothing."""
        positional = [a for a in call.args if a.keyword is None]
        if any(a.star for a in positional) or len(positional) != len(call.args):
            return set()
        if qn == "jax.lax.cond":
            branches = [a.value for a in positional[1:3]]
            operands = positional[3:]
        else:
            if len(positional) < 2 or type(positional[1].value) not in (cst.List, cst.Tuple):
                return set()
            branches = [el.value for el in positional[1].value.elements]  # type: ignore[attr-defined]
            operands = positional[2:]
        fns = [self.a.resolve_function(b) for b in branches]
        if not fns or any(fn is None for fn in fns):
            return set()
        ignored: set[int] = set()
        for i, arg in enumerate(operands):
            if all(_param_unused(fn, i) for fn in fns):  # type: ignore[arg-type]
                ignored.add(id(arg))
        return ignored

    def _function_args(
        self,
        call: cst.Call,
        qn: str,
        args: list[tuple[cst.Arg, KeyValue | None, list[tuple[cst.BaseExpression, KeyValue]]]],
    ) -> None:
        """Functions passed to ``cond``/``switch`` (called once) or to ``tree.map``/``map``
        (called once per leaf): what they consume from this scope."""
        fns: list[FunctionNode] = []
        for arg, _, _ in args:
            fn = self.a.resolve_function(arg.value)
            if fn is not None:
                fns.append(fn)
            elif qn == "jax.lax.switch" and isinstance(arg.value, (cst.List, cst.Tuple)):
                for el in arg.value.elements:
                    f = self.a.resolve_function(el.value)
                    if f is not None:
                        fns.append(f)
        if qn in LOOP_BODIES:
            return  # the body reports what it consumes from outside itself
        if self.state is None:
            return
        once = _Summary()
        for fn in fns:
            summary = self.a.summary(fn)
            if summary is None:
                continue
            if qn in MAPPERS:
                for name, kind in summary.free.items():
                    drawn_by = summary.free_by.get(name)
                    if drawn_by and drawn_by <= INDEX_DRAWS:
                        # ``tree.map(lambda x: permutation(key, x), batch)``: the same
                        # permutation for every leaf keeps the leaves aligned, on purpose
                        continue
                    val = self._free_value(name, call)
                    if val is not None and (kind != CALL or val.certain):
                        kind = LOCAL if kind != CALL else CALL
                        use = Use(call, call, kind, key_name=name)
                        val.uses.append(use)
                        self.a.report(Reuse(val, use, use, "mapped", call, fn, self.fn))
            else:  # one branch runs: what any branch consumes, consumed once
                for name, kind in summary.free.items():
                    once.free[name] = _stronger(once.free.get(name), kind)
        self._apply_free(call, once)


def _keys_unread(
    args: list[tuple[cst.Arg, KeyValue | None, list]], reads: frozenset[str] | None
) -> bool:
    """No key among ``args`` reaches a field that the class's ``__post_init__`` reads:
    each is given by name for another field (by position, its field is not looked up)."""
    if reads is None:
        return False
    return not reads or all(
        arg.keyword is not None and arg.keyword.value not in reads
        for arg, v, inside in args
        if v is not None or inside
    )


def _param_unused(fn: cst.FunctionDef | cst.Lambda, index: int) -> bool:
    """The ``index``-th positional parameter of ``fn`` exists, is plain, and its body never
    names it."""
    params = fn.params
    if isinstance(params.star_arg, cst.Param):
        return False  # ``*args`` may take it
    positional = [*params.posonly_params, *params.params]
    if index >= len(positional):
        return False
    name = positional[index].name.value
    return not any(type(n) is cst.Name and n.value == name for n in descendants(fn.body))
