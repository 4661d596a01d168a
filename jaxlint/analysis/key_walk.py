"""The flow-sensitive walk of one function body (or the module body) for PRNG keys:
statements, branches, loops, assignments and expressions (calls are in
:mod:`jaxlint.analysis.key_calls`; the semantics are in :mod:`jaxlint.analysis.keys`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

import libcst as cst

from jaxlint.analysis.key_attr_walk import _AttrWalker
from jaxlint.analysis.key_attrs import ClassAttrs, dotted
from jaxlint.analysis.key_calls import _CallWalker
from jaxlint.analysis.key_loops import _Loop, element_overlap
from jaxlint.analysis.key_menus import menu
from jaxlint.analysis.key_purpose import _COMPREHENSIONS, _OwnFacts
from jaxlint.analysis.key_values import (
    CALL,
    RANDOM,
    SPLIT,
    Fact,
    KeyValue,
    Reuse,
    Use,
    _annotated_key,
    _contradicts,
    _literal_int,
    _Mark,
    _repeats,
    _runs_at_least_once,
    _State,
    _stronger,
    _suite,
    _Summary,
    _target_names,
    join_pending,
    names_only,
)
from jaxlint.analysis.trace_values import _params

if TYPE_CHECKING:
    from jaxlint.analysis.key_values import FunctionNode
    from jaxlint.analysis.keys import KeyAnalysis


class _Walker(_CallWalker, _AttrWalker):
    """Walks one function body (or the module body) path by path."""

    def __init__(self, analysis: KeyAnalysis, fn: FunctionNode | None) -> None:
        self.a = analysis
        self.model = analysis.model
        self.fn = fn
        self.depth = 0
        self.loops: list[_Loop] = []
        self.generation: tuple[int, ...] = ()
        self.memo: dict[tuple, KeyValue] = {}
        self.summary = _Summary()
        self.exit_env: dict[str, KeyValue] = {}
        self.exits: list[_State] = []
        self.state: _State | None = _State({}, {})
        scope = self.model.scope_of_node.get(id(fn)) if fn is not None else self.model.module_scope
        self.scope = scope
        self.local_names: set[str] = set()
        self.global_decl: set[str] = set()
        if fn is not None and scope is not None:
            self.local_names = set(scope.bindings) - scope.global_names - scope.nonlocal_names
            self.global_decl = set(scope.global_names)
        body: Sequence[cst.CSTNode] = list(self.model.module.body) if fn is None else [fn.body]
        self.body_nodes = body
        if fn is None:
            facts = analysis._module_facts
        else:
            facts = analysis._own_facts.get(id(fn)) or _OwnFacts.of(body, self.model)
        self.evidence = facts.evidence
        """Names passed as the key of a ``jax.random`` function in this body."""
        self.loop_body = analysis.loop_body_of(fn) if fn is not None else None
        self.rngs_names: set[str] = set()
        self.elements_now: dict[int, KeyValue | None] = {}
        """The values the elements of tuples, lists and dicts had when last evaluated (a
        loop body is walked twice: a name rebound to no key since holds none)."""
        """Names bound to an ``nnx.Rngs(...)`` here: calling them gives fresh keys."""
        # keys held on attributes (``self.rng``, ``state.key``): see key_attrs
        owner = self._method_owner() if fn is not None else None
        cls = analysis.class_of(owner)
        self.attrs: ClassAttrs | None = analysis.class_attrs(cls) if cls is not None else None
        self.attr_mode = any("." in e for e in self.evidence) or bool(
            self.attrs is not None and self.attrs.keys
        )
        """Attribute paths may be keys here: worth tracking."""
        self.attr_live = False
        """Some attribute path is bound in the state (invalidation has work to do)."""
        self.attr_touched: set[str] = set()
        """Paths assigned or possibly reassigned so far in the walk."""
        self.attr_draws: list[tuple[KeyValue, Use]] = []
        self.split_keys: dict[int, KeyValue] = {}
        """``split`` calls whose keys are all bound to plain names -> those keys."""
        """Draws from ``self.<attr>`` as the method found it (``where == "attr-entry"``)."""
        self.conditions = facts.conditions
        """Calls whose result is used as a truth value (``assert``, ``if``, ``not``...)."""

    def run(self) -> None:
        fn = self.fn
        assert self.state is not None
        if fn is not None:
            positional = [p.name.value for p in (*fn.params.posonly_params, *fn.params.params)]
            self.summary.positional = positional
            for param in _params(fn):
                name = param.name.value
                certain = name in self.evidence or _annotated_key(name, self.a.annotation(param))
                val = KeyValue(name, param, certain, where="param")
                self.state.env[name] = val
            if type(fn) is cst.Lambda:
                self._eval(fn.body)
                self._exit()
                return
        self._block(self.body_nodes if fn is None else _suite(fn.body))
        self._exit()

    def _exit(self) -> None:
        if self.state is not None:
            self.exits.append(self.state)
        for st in self.exits:
            for reuses in st.pending.values():
                for reuse in reuses:  # no key of the split was read on this path
                    self.a.report(replace(reuse, split_unused=True))
        env: dict[str, KeyValue] = {}
        for st in self.exits:
            for k, v in st.env.items():
                env.setdefault(k, v)
        self.exit_env = env

    # -- values ------------------------------------------------------------------------

    def _new(
        self,
        node: cst.CSTNode,
        name: str,
        certain: bool,
        *,
        array: bool = False,
        raw: frozenset[int] = frozenset(),
        tag: object = None,
    ) -> KeyValue:
        key = (id(node), tag, self.generation)
        val = self.memo.get(key)
        if val is None:
            val = KeyValue(name, node, certain, array=array, raw_roots=raw)
            self.memo[key] = val
        if self.state is not None:
            self.state.consumed.pop(val, None)  # a fresh key (JAX: ``Source``)
        return val

    def _element(self, parent: KeyValue, index: int | str, node: cst.CSTNode) -> KeyValue:
        key = ("element", id(parent), index)
        val = self.memo.get(key)
        if val is None:
            val = KeyValue(
                f"{parent.name}[{index}]" if isinstance(index, int) else parent.name,
                node,
                parent.certain,
                where=parent.where if parent.outer_name else "local",
                raw_roots=parent.raw_roots,
                outer_name=parent.outer_name,
                outer_path=(
                    f"{parent.outer_path or parent.outer_name}[{index}]"
                    if parent.outer_name is not None and isinstance(index, int)
                    else parent.outer_path
                ),
            )
            if isinstance(index, int):
                val.parent = parent
                parent.elements[index] = val
            self.memo[key] = val
        return val

    def _lookup(self, name: str, at: cst.Name | None) -> KeyValue | None:
        st = self.state
        if st is not None and name in st.env:
            val = st.env[name]
            for reuse in st.read_key(val):
                self.a.report(reuse)
            return val
        if self.fn is None or (name in self.local_names and name not in self.global_decl):
            return None
        found = self.model.lookup(name, self.scope) if self.scope is not None else None
        if found is None:
            return None
        scope, bindings = found
        if scope is self.model.module_scope:
            val = self.a.module_key(name)
            if val is None or any(b.kind not in ("assign",) for b in bindings):
                return None
            return self._outer_value(name, val, "global")
        # a closure: a key of an enclosing function
        outer_fn = scope.node
        summary_env = self._enclosing_keys(outer_fn)
        if summary_env is None or name not in summary_env:
            return None
        return self._outer_value(name, summary_env[name], "closure")

    def _free_value(self, path: str, at: cst.CSTNode) -> KeyValue | None:
        """The key a function's summary names as consumed from this scope: a variable
        (``rng``) or an element of one at a constant index (``_rngs[3]``, see
        ``KeyValue.outer_path``); the whole variable when it is not an array of keys here."""
        name, bracket, rest = path.partition("[")
        val = self._lookup(name, None)
        if not bracket or val is None:
            return val
        for index in rest[:-1].split("]["):
            if not val.array:
                return val
            val = self._element(val, int(index), at)
        return val

    def _outer_value(self, name: str, outer: KeyValue, where: str) -> KeyValue:
        key = ("outer", name)
        val = self.memo.get(key)
        if val is None:
            val = KeyValue(
                name,
                outer.origin,
                outer.certain,
                array=outer.array,
                where=where,
                raw_roots=outer.raw_roots,
                outer_name=name,
            )
            self.memo[key] = val
        return val

    def _enclosing_keys(self, fn_node: cst.CSTNode) -> dict[str, KeyValue] | None:
        """The keys of an enclosing function: where it is now if it is being walked
        (a call of this function from it), else where it ends."""
        active = self.a._active.get(id(fn_node))
        if active is not None:
            return active.state.env if active.state is not None else None
        return self.a._exit_envs.get(id(fn_node))

    # -- consumption -------------------------------------------------------------------

    def _consume(self, val: KeyValue, use: Use) -> None:
        st = self.state
        if st is None:
            return
        if use.kind == CALL and not val.certain:
            # not known here to be a key: what a caller passing a key makes of it
            if val.where == "param":
                self.summary.passes.setdefault(val.name, use)
            elif val.where == "closure" and val.outer_name is not None:
                self.summary.free_passes.setdefault(val.outer_path or val.outer_name, use)
            return
        val.uses.append(use)
        for loop in self.loops:
            loop.uses.add(id(use))
        if val.where == "param":
            self.summary.params[val.name] = _stronger(self.summary.params.get(val.name), use.kind)
            by = self.summary.params_by.setdefault(val.name, set())
            if use.draws:
                by.update(use.draws)
            else:
                by.add(use.qualname or use.kind)
            index = _literal_int(use.index) if use.qualname == SPLIT else None
            known = self.summary.split_index
            if index is None or known.get(val.name, index) != index:
                known[val.name] = None
            else:
                known[val.name] = index
        elif val.where == "global" and val.outer_name in self.global_decl:
            # ``global KEY; KEY, sub = split(KEY)``: stateful RNG, callers consume nothing
            self.summary.advances.add(val.outer_name)
        elif val.where == "attr-entry":
            attr = val.name.partition(".")[2]
            self.summary.attrs[attr] = _stronger(self.summary.attrs.get(attr), use.kind)
            if use.kind == RANDOM and use.qualname != SPLIT and self.fn is not None:
                self.attr_draws.append((val, use))
        elif val.where in ("closure", "global") and val.outer_name is not None:
            name = val.outer_name
            path = val.outer_path or name
            self.summary.free[path] = _stronger(self.summary.free.get(path), use.kind)
            by = self.summary.free_by.setdefault(path, set())
            if use.draws:
                by.update(use.draws)
            else:
                by.add(use.qualname or use.kind)
            if self.loop_body is not None and self.fn is not None:
                _, call = self.loop_body
                self.a.report(Reuse(val, use, use, "body", call, self.fn, self.fn))
            if val.where == "global" and self.fn is not None and name not in self.global_decl:
                self.a.global_uses.append((use, val, self.fn))
        if not use.weak and (val.parent is not None or val.elements):
            found = element_overlap(self.model, val, use, self._live_mark, self.fn)
            if found is not None:
                self.a.report(found)
        mark = st.consumed.get(val)
        if mark is not None and mark.needs and _contradicts(mark.needs, st.facts):
            mark = None  # consumed only on paths that cannot lead here
        if mark is not None and (mark.maybe_depth is None or self.depth <= mark.maybe_depth):
            if use.index is not None and mark.use.index is not None and not val.split_element:
                return  # two ``split(key, n)[i]``: their elements are compared instead
            loop = next((lp for lp in reversed(self.loops) if id(mark.use) in lp.uses), None)
            if loop is not None and mark.use.arg is use.arg:
                if loop.aligns(use):
                    return
                self.a.report(Reuse(val, mark.use, use, loop.how, loop.node, fn=self.fn))
            else:
                reuse = Reuse(val, mark.use, use, "again", fn=self.fn)
                split = self.split_keys.get(id(mark.use.call))
                if split is None or mark.use.qualname != SPLIT or mark.use.index is not None:
                    self.a.report(reuse)
                elif not st.defer(split, reuse):  # else reported once a split key is read
                    self.a.report(reuse)
                if mark.maybe_depth is None and not use.weak and not self.loops:
                    # the next reuse is named against this, the latest use
                    st.consumed[val] = _Mark(use, None, frozenset(st.facts.items()))
            return
        if mark is None and not use.weak:
            st.consumed[val] = _Mark(use, None, frozenset(st.facts.items()))

    def _live_mark(self, val: KeyValue) -> _Mark | None:
        """How ``val`` was consumed on the paths that reach here, if it was."""
        st = self.state
        mark = st.consumed.get(val) if st is not None else None
        if mark is None or (mark.needs and _contradicts(mark.needs, st.facts)):
            return None  # not consumed, or only on paths that cannot lead here
        if mark.maybe_depth is not None and self.depth > mark.maybe_depth:
            return None
        return mark

    # -- statements --------------------------------------------------------------------

    def _block(self, body: Sequence[cst.CSTNode]) -> None:
        for stmt in body:
            if self.state is None:
                return
            self._stmt(stmt)

    def _stmt(self, stmt: cst.CSTNode) -> None:
        kind = type(stmt)  # exact classes: see ``_eval_inner``
        if kind is cst.SimpleStatementLine:
            for small in stmt.body:
                if self.state is None:
                    return
                self._small(small)
        elif kind is cst.If:
            self._if(stmt)
        elif kind is cst.For:
            self._eval(stmt.iter)
            element = self._element_of(stmt.iter, stmt.target)
            self._loop(
                stmt, "loop", stmt.body, stmt.target, element, _repeats(stmt.iter, self.model),
                once=_runs_at_least_once(stmt.iter, self.model),
            )  # fmt: skip
            if stmt.orelse is not None and self.state is not None:
                self._block(_suite(stmt.orelse.body))
        elif kind is cst.While:
            self._eval(stmt.test)
            self._loop(stmt, "loop", stmt.body, None, None, True, test=stmt.test)
            if stmt.orelse is not None and self.state is not None:
                self._block(_suite(stmt.orelse.body))
        elif kind is cst.With:
            for item in stmt.items:
                self._eval(item.item)
                if item.asname is not None:
                    self._assign(item.asname.name, None, None)
            self._block(_suite(stmt.body))
        elif kind is cst.Try or kind is cst.TryStar:
            self._try(stmt)
        elif kind is cst.Match:
            self._eval(stmt.subject)
            before = self.state
            outs: list[_State] = []
            self.depth += 1
            for case in stmt.cases:
                self.state = before.copy() if before is not None else None
                if case.guard is not None:
                    self._eval(case.guard)
                self._block(_suite(case.body))
                if self.state is not None:
                    outs.append(self.state)
            self.depth -= 1
            if before is not None:
                outs.append(before)  # no case matched
            self.state = self._join(outs, stmt)
        elif kind is cst.FunctionDef:
            for dec in stmt.decorators:
                self._eval(dec.decorator)
            self._unbind(stmt.name.value)
        elif kind is cst.ClassDef:
            self._unbind(stmt.name.value)
        elif kind is cst.IndentedBlock:
            self._block(stmt.body)

    def _small(self, small: cst.BaseSmallStatement) -> None:
        st = self.state
        assert st is not None
        kind = type(small)  # exact classes: see ``_eval_inner``
        if kind is cst.Assign:
            val = self._eval(small.value)
            if val is not None and val.array and names_only(small.targets):
                self.split_keys[id(small.value)] = val
            for t in small.targets:
                self._assign(t.target, val, small.value)
        elif kind is cst.AnnAssign:
            if small.value is not None:
                val = self._eval(small.value)
                self._assign(small.target, val, small.value)
        elif kind is cst.AugAssign:
            self._eval(small.value)
            self._eval(small.target)
            if type(small.target) is cst.Name:
                self._unbind(small.target.value)
        elif kind is cst.Expr:
            self._eval(small.value)
        elif kind is cst.Return:
            if small.value is not None:
                self._eval(small.value)
                if self.loop_body is not None and self.state is not None:
                    self._stored_back(small.value)
            self.exits.append(st)
            self.state = None
        elif kind is cst.Raise:
            if small.exc is not None:
                self._eval(small.exc)
            self.state = None
        elif kind is cst.Assert:
            self._eval(small.test)
            if small.msg is not None:
                self._eval(small.msg)
        elif kind is cst.Del:
            for name in _target_names(small.target):
                self._unbind(name)
        elif kind is cst.Break:
            if self.loops:
                self.loops[-1].breaks.append(st)
            self.state = None
        elif kind is cst.Continue:
            if self.loops:
                self.loops[-1].continues.append(st)
            self.state = None

    def _stored_back(self, value: cst.BaseExpression) -> None:
        """A loop body returns, in its carry, a key it has consumed: the next iteration
        consumes the same key again (JAX's checker raises for ``scan``/``fori_loop``/
        ``while_loop``)."""
        assert self.loop_body is not None and self.state is not None
        qn, call = self.loop_body
        carry: cst.BaseExpression = value
        if qn == "jax.lax.map":
            return
        if qn == "jax.lax.scan":
            if type(value) is not cst.Tuple or len(value.elements) != 2:
                return
            carry = value.elements[0].value
        pending = [carry]
        while pending:
            expr = pending.pop()
            if type(expr) in (cst.Tuple, cst.List):
                pending.extend(el.value for el in expr.elements)  # type: ignore[attr-defined]
                continue
            if type(expr) is not cst.Name:
                continue
            val = self.a._values.get(id(expr))
            mark = self.state.consumed.get(val) if val is not None else None
            if val is None or mark is None or not val.certain:
                continue
            if mark.maybe_depth is not None or mark.use.kind == CALL:
                continue
            use = Use(expr, call, mark.use.kind, mark.use.qualname)
            split = self._splits_its_carry(expr.value, val) if mark.use.draws_from_key else None
            if split is not None:
                # the next iteration splits the key before drawing (``key, sub =
                # split(key)`` first in the body): a draw and a split of one key, not
                # the same draw again
                self.a.report(Reuse(val, mark.use, split, "stored-split", call, self.fn, self.fn))
                continue
            self.a.report(Reuse(val, mark.use, use, "stored", call, self.fn, self.fn))

    def _splits_its_carry(self, name: str, stored: KeyValue) -> Use | None:
        """``key, sub = split(key)`` in the loop body, on every path, and the body returns
        ``key``, made by that split: the next iteration splits the returned key at the same
        place. The ``split``, else ``None``."""
        assert self.state is not None
        for val, mark in self.state.consumed.items():
            if (
                val.name == name
                and mark.maybe_depth is None
                and mark.use.qualname == SPLIT
                and stored.name.startswith(f"{SPLIT}({name})[")
            ):
                return mark.use
        return None

    def _if(self, stmt: cst.If) -> None:
        self._eval(stmt.test)
        before = self.state
        if before is None:
            return
        truth = self.a.test_truth(stmt.test)
        if truth is not None:  # ``if False:``: the other branch never runs
            branch = stmt.body if truth else stmt.orelse
            if type(branch) is cst.If:
                self._if(branch)
            elif branch is not None:
                self._block(_suite(branch.body if type(branch) is cst.Else else branch))  # type: ignore[union-attr]
            return
        self.depth += 1
        self.state = before.copy()
        self.state.facts.update(self._facts(stmt.test, True))
        self._block(_suite(stmt.body))
        then = self.state
        self.state = before.copy()
        self.state.facts.update(self._facts(stmt.test, False))
        if type(stmt.orelse) is cst.If:
            self._if(stmt.orelse)
        elif type(stmt.orelse) is cst.Else:
            self._block(_suite(stmt.orelse.body))
        other = self.state
        self.depth -= 1
        self.state = self._join([s for s in (then, other) if s is not None], stmt)

    def _try(self, stmt: cst.Try | cst.TryStar) -> None:
        before = self.state
        if before is None:
            return
        self.depth += 1
        self.state = before.copy()
        self._block(_suite(stmt.body))
        after_body = self.state
        outs: list[_State] = []
        for handler in stmt.handlers:
            self.state = self._join([s for s in (before, after_body) if s is not None], stmt)
            if self.state is None:
                continue
            # the body may have failed before its consumption: what it consumed is
            # only maybe consumed here, and never reported as reused in the handler
            self.depth += 1
            if handler.type is not None:
                self._eval(handler.type)
            self._block(_suite(handler.body))
            self.depth -= 1
            if self.state is not None:
                outs.append(self.state)
        if after_body is not None and stmt.orelse is not None:
            self.state = after_body
            self._block(_suite(stmt.orelse.body))
            after_body = self.state
        self.depth -= 1
        if after_body is not None:
            outs.insert(0, after_body)
        self.state = self._join(outs, stmt)
        if stmt.finalbody is not None and self.state is not None:
            self._block(_suite(stmt.finalbody.body))

    def _loop(
        self,
        stmt: cst.CSTNode,
        how: str,
        body: cst.BaseSuite | cst.BaseExpression,
        target: cst.BaseExpression | None,
        element: Callable[[], KeyValue | None] | None,
        repeats: bool,
        test: cst.BaseExpression | None = None,
        once: bool = False,
    ) -> None:
        """``once``: the body certainly runs (``for _ in range(2)``), so no path skips it."""
        before = self.state
        if before is None:
            return
        loop = _Loop(stmt, how, (target,))
        self.loops.append(loop)
        # the zero-iteration path joins last: where a key is consumed both before the loop
        # and in its body, a later use is named against the body's (the path that runs)
        outs: list[_State] = []
        self.state = before.copy()
        passes = 2 if repeats else 1
        outer_generation = self.generation
        for i in range(passes):
            self.generation = (*outer_generation, i)
            if self.state is None:
                break
            if target is not None:
                self._assign(target, element() if element is not None else None, None)
            if isinstance(body, cst.BaseExpression):
                self._eval(body)
            else:
                self._block(_suite(body))
            ends = [s for s in (self.state, *loop.continues) if s is not None]
            loop.continues = []
            if not ends:
                self.state = None
                break
            self.state = self._join(ends, stmt) if len(ends) > 1 else ends[0]
            if test is not None and self.state is not None:
                self._eval(test)
            if self.state is not None:
                outs.append(self.state.copy())
        self.generation = outer_generation
        self.loops.pop()
        outs.extend(loop.breaks)
        if not once:
            outs.append(before)
        self.state = self._join(outs, stmt)

    def _alternatives(
        self, exprs: Sequence[cst.BaseExpression], at: cst.CSTNode
    ) -> list[KeyValue | None] | None:
        """Evaluate ``exprs`` as exclusive alternatives, each from the state before them
        (``a if c else b``; ``jnp.where(c, a, b)``, where every position keeps one), then
        join their states; their values, or ``None`` when no state is live."""
        before = self.state
        if before is None:
            return None
        self.depth += 1
        values: list[KeyValue | None] = []
        states: list[_State] = []
        for expr in exprs:
            self.state = before.copy()
            values.append(self._eval(expr))
            if self.state is not None:
                states.append(self.state)
        self.depth -= 1
        self.state = self._join(states, at)
        return values

    def _join(self, states: list[_State], at: cst.CSTNode) -> _State | None:
        if not states:
            return None
        if len(states) == 1:
            return states[0]
        names: set[str] = set()
        for s in states:
            names |= set(s.env)
        joined = _State({}, {}, None, join_pending(states), set().union(*(s.read for s in states)))
        env, consumed = joined.env, joined.consumed
        for name in names:
            vals = [s.env.get(name) for s in states]
            present = [v for v in vals if v is not None]
            if not present:
                continue
            first = present[0]
            if all(v is first for v in vals):
                env[name] = first
                continue
            for v in present:  # a split's key merged with another value: taken as read
                for reuse in joined.read_key(v):
                    self.a.report(reuse)
            merged = self._merged(at, name, present)
            env[name] = merged
            marks = [
                st.consumed.get(v) if v is not None else None
                for st, v in zip(states, vals, strict=True)
            ]
            mark = self._join_marks(marks)
            if mark is not None:
                consumed[merged] = mark
        every = {v for s in states for v in s.consumed}
        for val in every:
            marks = [s.consumed.get(val) for s in states]
            mark = self._join_marks(marks)
            if mark is not None:
                consumed[val] = mark
        first_facts = states[0].facts
        joined.facts = {
            k: v for k, v in first_facts.items() if all(s.facts.get(k) is v for s in states[1:])
        }
        return joined

    def _join_marks(self, marks: list[_Mark | None]) -> _Mark | None:
        present = [m for m in marks if m is not None]
        if not present:
            return None
        needs = present[0].needs
        for m in present[1:]:
            needs = needs & m.needs  # consumed on one of these paths: what they share held
        if len(present) == len(marks) and all(m.maybe_depth is None for m in present):
            return present[0] if needs == present[0].needs else _Mark(present[0].use, None, needs)
        depth = min([self.depth, *(m.maybe_depth for m in present if m.maybe_depth is not None)])
        return _Mark(present[0].use, depth, needs)

    def _facts(self, test: cst.BaseExpression, holds: bool) -> dict[Fact, bool]:
        """What ``test`` being ``holds`` says of local names (see ``Fact``): ``not``,
        ``and`` (when it holds), ``or`` (when it fails), a name's truth, ``is None``."""
        kind = type(test)
        if kind is cst.Name:
            name = test.value
            return {(name, "truth"): holds} if self._plain_local(name) else {}
        if kind is cst.UnaryOperation and type(test.operator) is cst.Not:
            return self._facts(test.expression, not holds)
        if kind is cst.BooleanOperation:
            both = type(test.operator) is cst.And
            if both != holds:
                return {}  # a failed ``and`` or a true ``or``: which side decided is unknown
            return {**self._facts(test.left, holds), **self._facts(test.right, holds)}
        if kind is cst.Comparison and len(test.comparisons) == 1 and type(test.left) is cst.Name:
            target = test.comparisons[0]
            op = type(target.operator)
            right = target.comparator
            if type(right) is cst.Name and right.value == "None" and op in (cst.Is, cst.IsNot):
                name = test.left.value
                if self._plain_local(name):
                    return {(name, "none"): holds if op is cst.Is else not holds}
        return {}

    def _plain_local(self, name: str) -> bool:
        """A name of this function that only its own statements rebind."""
        return self.fn is not None and name in self.local_names and name not in self.global_decl

    def _forget_facts(self, name: str) -> None:
        st = self.state
        if st is not None and st.facts:
            for fact in [f for f in st.facts if f[0] == name]:
                del st.facts[fact]

    def _merged(self, at: cst.CSTNode, name: str, vals: list[KeyValue]) -> KeyValue:
        key = ("merge", id(at), name, self.generation)
        val = self.memo.get(key)
        roots: frozenset[int] = frozenset().union(*(v.raw_roots for v in vals))
        if val is None:
            val = KeyValue(
                name,
                vals[0].origin,
                any(v.certain for v in vals),
                array=all(v.array for v in vals),
                where=vals[0].where if all(v.where == vals[0].where for v in vals) else "local",
                raw_roots=roots,
            )
            self.memo[key] = val
        else:
            val.raw_roots = val.raw_roots | roots
            val.certain = val.certain or any(v.certain for v in vals)
        return val

    # -- binding -----------------------------------------------------------------------

    def _unbind(self, name: str) -> None:
        if self.state is not None:
            self.state.env.pop(name, None)
            self._forget_facts(name)

    def _assign(
        self, target: cst.BaseExpression, val: KeyValue | None, value: cst.BaseExpression | None
    ) -> None:
        st = self.state
        if st is None:
            return
        kind = type(target)  # exact classes: see ``_eval_inner``
        if kind is cst.Name:
            name = target.value
            if st.facts:
                self._forget_facts(name)
            if val is None and value is not None and name in self.evidence:
                # an unknown value used as a key by ``jax.random`` later in this body
                val = self._new(target, name, True)
            if type(value) is cst.Call:
                if self.model.call_name(value) == "flax.nnx.Rngs":
                    self.rngs_names.add(name)
            if self.attr_live:
                self._forget(name, proper=True)
            if val is None:
                st.env.pop(name, None)
                return
            st.env[name] = val
            self.a._values[id(target)] = val
        elif kind is cst.Tuple or kind is cst.List:
            elements = target.elements
            starred = any(type(el.value) is cst.StarredElement for el in elements)
            for i, el in enumerate(elements):
                inner = el.value
                if type(inner) is cst.StarredElement:
                    self._assign(inner.value, None, None)
                    continue
                sub = None
                if val is not None and val.array and not starred:
                    sub = self._element(val, i, inner)
                self._assign(inner, sub, value)
        elif kind is cst.StarredElement:
            self._assign(target.value, None, None)
        else:
            path = dotted(target) if kind is cst.Attribute and self.attr_mode else None
            if path is not None:
                # ``self.rng = ...``: the path holds the new value (or no key)
                self._forget(path)
                self.attr_touched.add(path)
                if val is not None:
                    st.env[path] = val
                    self.a._values[id(target)] = val
                    self.attr_live = True
                return
            self._eval(target)  # attribute or subscript: the key is stored, not consumed

    # -- expressions -------------------------------------------------------------------

    def _eval(self, expr: cst.BaseExpression) -> KeyValue | None:
        if self.state is None:
            return None
        val = self._eval_inner(expr)
        if val is not None:
            self.a._values[id(expr)] = val
        return val

    def _eval_inner(self, expr: cst.BaseExpression) -> KeyValue | None:
        # ``type(expr) is``: libcst's concrete classes have no subclasses, and ``isinstance``
        # on them goes through ABCMeta (slow when it does not match)
        kind = type(expr)
        if kind is cst.Name:
            return self._lookup(expr.value, expr)
        if kind is cst.Call:
            val = self._call(expr)
            if self.attr_live and self.state is not None:
                self._call_may_assign(expr)
            return val
        if kind is cst.Attribute:
            if self.attr_mode:
                held = self._attr_key(expr)
                if held is not None:
                    return held
            base = self._eval(expr.value)
            if base is not None:
                attr = expr.attr.value
                if attr in ("shape", "ndim", "size") and not base.array:
                    self.a.note_raw(base, expr, "reads its shape (a typed key has shape `()`)")
                if attr == "T":
                    return base
            return None
        if kind is cst.Subscript:
            return self._subscript(expr)
        if kind is cst.BinaryOperation:
            for side in (expr.left, expr.right):
                v = self._eval(side)
                if v is not None:
                    self.a.note_raw(v, expr, "computes on its bits")
            return None
        if kind is cst.UnaryOperation:
            v = self._eval(expr.expression)
            if v is not None and type(expr.operator) is not cst.Not:
                self.a.note_raw(v, expr, "computes on its bits")
            return None
        if kind is cst.Comparison:
            self._comparison(expr)
            return None
        if kind is cst.BooleanOperation:
            self._eval(expr.left)
            before = self.state
            if before is not None:
                self.depth += 1
                self.state = before.copy()
                right = self._eval(expr.right)
                after = self.state
                self.depth -= 1
                self.state = self._join([s for s in (before, after) if s is not None], expr)
                return right
            return None
        if kind is cst.IfExp:
            self._eval(expr.test)
            found = self._alternatives((expr.body, expr.orelse), expr)
            if found is None:
                return None
            a, b = found
            if a is not None and b is not None:
                return a if a is b else self._merged(expr, "<ifexp>", [a, b])
            return None
        if kind is cst.Tuple or kind is cst.List or kind is cst.Set:
            now = self.elements_now
            for el in expr.elements:
                now[id(el.value)] = self._eval(el.value)
            return None
        if kind is cst.Dict:
            now = self.elements_now
            if menu(self.model, expr):  # ``{"zero": ..., "random": normal(key, s)}[name]``
                found = self._alternatives([el.value for el in expr.elements], expr)
                for el, value in zip(expr.elements, found or (), strict=False):
                    now[id(el.value)] = value
                return None
            for el in expr.elements:
                if type(el) is cst.DictElement:
                    self._eval(el.key)
                now[id(el.value)] = self._eval(el.value)
            return None
        if kind in _COMPREHENSIONS:
            self._comprehension(expr)
            return None
        if kind is cst.NamedExpr:
            val = self._eval(expr.value)
            self._assign(expr.target, val, expr.value)
            return val
        if kind is cst.StarredElement:
            self._eval(expr.value)
            return None
        if kind is cst.Await or kind is cst.Yield:
            inner = getattr(expr, "expression", None) or getattr(expr, "value", None)
            if isinstance(inner, cst.BaseExpression):
                self._eval(inner)
            if self.attr_live:
                self._forget_all()  # other code runs in between: it may reassign them
            return None
        if kind is cst.FormattedString:
            for part in expr.parts:
                if type(part) is cst.FormattedStringExpression:
                    self._eval(part.expression)
            return None
        if kind is cst.ConcatenatedString:
            self._eval(expr.left)
            self._eval(expr.right)
            return None
        return None

    def _comparison(self, expr: cst.Comparison) -> None:
        operands = [expr.left, *(c.comparator for c in expr.comparisons)]
        for op in operands:
            self._eval(op)
            if type(op) is cst.Attribute and op.attr.value == "dtype":
                base = self.a._values.get(id(op.value))
                if base is not None:
                    self.a.note_raw(base, expr, "compares its dtype (a typed key has a key dtype)")

    def _subscript(self, expr: cst.Subscript) -> KeyValue | None:
        base = self._eval(expr.value)
        index: cst.BaseExpression | None = None
        is_slice = False
        for el in expr.slice:
            sl = el.slice
            if isinstance(sl, cst.Index):
                self._eval(sl.value)
                index = sl.value
            else:
                is_slice = True
                for part in (sl.lower, sl.upper, sl.step):
                    if part is not None:
                        self._eval(part)
        if base is None:
            return None
        if len(expr.slice) > 1 or not base.array:
            why = "typed key arrays have no axis of 2" if base.array else "a typed key is a scalar"
            self.a.note_raw(base, expr, f"indexes it ({why})")
            return None
        if is_slice:
            return self._new(expr, self.a.code(expr), base.certain, array=True, raw=base.raw_roots)
        assert index is not None
        literal = _literal_int(index)
        if literal is not None:
            return self._element(base, literal, expr)
        return self._new(expr, self.a.code(expr), base.certain, raw=base.raw_roots)

    def _element_of(
        self, iterable: cst.BaseExpression, target: cst.BaseExpression
    ) -> Callable[[], KeyValue | None] | None:
        it = self.a._values.get(id(iterable))
        if it is None or not it.array:
            return None
        return lambda: self._new(
            target, self.a.code(target), it.certain, raw=it.raw_roots, tag="element"
        )

    def _comprehension(self, expr: cst.BaseComprehension) -> None:
        before = self.state
        if before is None:
            return
        saved_env = dict(before.env)
        comp: cst.CompFor | None = expr.for_in
        fors: list[cst.CompFor] = []
        while comp is not None:
            fors.append(comp)
            comp = comp.inner_for_in
        self._eval(fors[0].iter)
        repeats = any(_repeats(c.iter, self.model) for c in fors)
        element = self._element_of(fors[0].iter, fors[0].target)
        loop = _Loop(expr, "comprehension", [c.target for c in fors])
        self.loops.append(loop)
        outer_generation = self.generation
        outs = [before.copy()]
        for i in range(2 if repeats else 1):
            self.generation = (*outer_generation, i)
            if self.state is None:
                break
            self._assign(fors[0].target, element() if element is not None else None, None)
            for j, c in enumerate(fors):
                if j > 0:
                    self._eval(c.iter)
                    self._assign(c.target, None, None)
                for cond in c.ifs:
                    self._eval(cond.test)
            if isinstance(expr, cst.DictComp):
                self._eval(expr.key)
                self._eval(expr.value)
            else:
                self._eval(expr.elt)  # type: ignore[attr-defined]
            if self.state is not None:
                outs.append(self.state.copy())
        self.generation = outer_generation
        self.loops.pop()
        joined = self._join(outs, expr)
        if joined is not None:
            joined.env = saved_env  # comprehension variables do not leak
        self.state = joined
