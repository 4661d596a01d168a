"""HostSyncInLoop's analysis: the helper methods and tables of the rule in `host_sync_in_loop.py`,
kept apart from its docs and examples (a mixin of the rule class)."""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from jaxlint.analysis.names import SemanticModel
from jaxlint.analysis.testcode import is_benchmark_function, is_test_function
from jaxlint.analysis.transforms import ARRAY_MODULES, STAGING, STATIC_ATTRIBUTES
from jaxlint.analysis.trips import (
    SHORT_LOOP,
    exit_decisions,
    if_ends_with,
    runs_steps,
    skips_unless_every_n,
    trip_count,
)
from jaxlint.rules.host_device.helpers import (
    Shared,
    assigned_names,
    host_sync_operands,
    short_code,
    walk,
)

_PASS_THROUGH = frozenset(
    {
        "builtins.enumerate",
        "builtins.sorted",
        "builtins.reversed",
        "builtins.list",
        "builtins.tuple",
        "builtins.set",
    }
)
"""Calls that walk the same entries as their first argument."""

_CONFIG_WORDS = (
    "config",
    "configs",
    "cfg",
    "cfgs",
    "conf",
    "setting",
    "settings",
    "options",
    "variants",
    "sweep",
    "sweeps",
    "hparams",
    "hyperparams",
)


def _says_config(identifier: str) -> bool:
    """``configs``, ``eval_cfgs``, ``modelConfigs``, ``SETTINGS`` (not ``optional``)."""
    lowered = identifier.lower()
    return any(part in _CONFIG_WORDS for part in lowered.split("_")) or lowered.endswith(
        _CONFIG_WORDS
    )


def _names_config(expr: cst.BaseExpression) -> bool:
    """``configs``, ``cfg.variants``, ``SETTINGS``: a dotted name that says configuration."""
    while isinstance(expr, cst.Attribute):
        if _says_config(expr.attr.value):
            return True
        expr = expr.value
    return isinstance(expr, cst.Name) and _says_config(expr.value)


def _first_operand(test: cst.BaseExpression) -> cst.BaseExpression:
    """The part of an ``if`` test that always runs: ``a`` in ``a and b``, ``a or b``,
    ``not (a and b)``; the operands after it run only when ``a`` lets them."""
    while True:
        if isinstance(test, cst.BooleanOperation):
            test = test.left
        elif isinstance(test, cst.UnaryOperation) and isinstance(
            test.expression, cst.BooleanOperation
        ):
            test = test.expression
        else:
            return test


_KEEP = (
    "keep {kept} on device (accumulate it in an array) and fetch every N steps or after the loop"
)
"""The advice for a conversion in the loop's body."""


def _waited_on(model: SemanticModel, node: cst.CSTNode) -> cst.BaseExpression | None:
    """The value ``x.block_until_ready()`` or ``jax.block_until_ready(x)`` waits for."""
    if type(node) is not cst.Call:
        return None
    func = node.func
    if type(func) is cst.Attribute and func.attr.value == "block_until_ready" and not node.args:
        return func.value
    if model.call_name(node) == "jax.block_until_ready" and node.args and not node.args[0].star:
        return node.args[0].value
    return None


def _raises_only(stmt: cst.CSTNode) -> bool:
    """``if not bool(result.ok): raise Error(...)``: an assertion written as an ``if``
    (no ``else``, the body ends by raising), which needs the value on every step."""
    return if_ends_with(stmt, cst.Raise)


def _value_paths(expr: cst.BaseExpression) -> list[cst.BaseExpression]:
    """The values an expression reads, as the longest names, attribute paths and
    subscripts it spells (``state.sampler_state.tempering_param``, ``losses[-1]``): in
    ``state.t < 1.0 and not done``, ``state.t`` and ``done``; in ``loss.mean() > tol``,
    ``loss``."""
    if isinstance(expr, (cst.Name, cst.Attribute, cst.Subscript)):
        return [expr]
    out: list[cst.BaseExpression] = []
    if isinstance(expr, cst.Call):
        if isinstance(expr.func, cst.Attribute):  # a method of a value: ``loss.mean()``
            out += _value_paths(expr.func.value)
        for arg in expr.args:
            out += _value_paths(arg.value)
    elif isinstance(expr, (cst.BinaryOperation, cst.BooleanOperation)):
        out += _value_paths(expr.left) + _value_paths(expr.right)
    elif isinstance(expr, cst.UnaryOperation):
        out += _value_paths(expr.expression)
    elif isinstance(expr, cst.Comparison):
        out += _value_paths(expr.left)
        for comparison in expr.comparisons:
            out += _value_paths(comparison.comparator)
    elif isinstance(expr, (cst.Tuple, cst.List)):
        for element in expr.elements:
            out += _value_paths(element.value)
    return out


class HostSyncInLoopChecks(Shared):
    """The analysis behind :class:`HostSyncInLoop`."""

    def _skipped(self, loop: cst.For | cst.While) -> bool:
        """Test code (the policy in the docs), and loops that a modulo guard makes rare.
        Marks the loops after ``if step % N: continue`` as rare too."""
        if self._in_tests:
            return True
        marked = False
        for stmt in loop.body.body:
            if marked:
                for inner in walk(stmt):  # type: ignore[arg-type]
                    if type(inner) in (cst.For, cst.While):
                        self._rare_loops.add(id(inner))
            elif skips_unless_every_n(stmt):
                marked = True
        if id(loop) in self._rare_loops:
            return True
        return any(
            type(fn) is cst.FunctionDef and (is_test_function(fn) or is_benchmark_function(fn))
            for fn in self._functions
        )

    def _few_entries(self, it: cst.BaseExpression, depth: int) -> bool:
        """The loop walks a few fixed entries, not a stream of steps: a literal
        collection, a literal ``range`` of at most 10 steps, a mapping's ``.items()``,
        a name bound to one of these or named as configuration (``configs``,
        ``cfg.variants``), and ``enumerate``/``zip``/``sorted`` of these."""
        kind = type(it)
        if kind in (cst.List, cst.Tuple, cst.Set, cst.Dict):
            return True
        if kind is cst.Name or kind is cst.Attribute:
            if _names_config(it):
                return True
            if kind is cst.Name and depth > 0:
                value = self._single_assignment(it)  # type: ignore[arg-type]
                return value is not None and self._few_entries(value, depth - 1)
            return False
        if kind is not cst.Call:
            return False
        call: cst.Call = it  # type: ignore[assignment]
        func = call.func
        if (
            type(func) is cst.Attribute
            and func.attr.value in ("items", "keys", "values")
            and not call.args
        ):
            return True
        qn = self.model.call_name(call)
        positional = [a.value for a in call.args if a.keyword is None and not a.star]
        if qn == "builtins.range":
            ints = [a.value for a in call.args]
            if ints and all(type(v) is cst.Integer for v in ints):
                vals = [int(v.evaluated_value) for v in ints]  # type: ignore[attr-defined]
                return len(range(*vals)) <= self._SMALL_TRIP_COUNT
            return False
        if qn in _PASS_THROUGH and positional:
            return self._few_entries(positional[0], depth)
        if qn == "builtins.zip" and positional:
            return any(self._few_entries(a, depth) for a in positional)
        if qn == "itertools.product" and positional:
            return all(self._few_entries(a, depth) for a in positional)
        return False

    def _single_assignment(self, name: cst.Name) -> cst.BaseExpression | None:
        found = self.model.lookup(name.value, self.model.scope_for(name))
        if found is None or len(found[1]) != 1 or found[1][0].kind != "assign":
            return None
        return self.model.assigned.get(id(found[1][0].node))

    def _own(
        self, loop: cst.For | cst.While, inner: list[cst.For | cst.While]
    ) -> list[cst.CSTNode]:
        """Statements that run on every iteration of ``loop`` itself: not in an inner
        loop, except an inner walk over a few entries (``for k, v in metrics.items()``),
        which runs a few times on every iteration; such an inner ``for`` is listed
        itself, for the names its target binds. The inner loops that run on every
        iteration (not under an ``if``) go to ``inner``."""
        out: list[cst.CSTNode] = []

        def add(block: Sequence[cst.BaseStatement], every: bool = True) -> None:
            for stmt in block:
                if isinstance(stmt, cst.For) and self._few_entries(stmt.iter, 2):
                    out.append(stmt.iter)
                    out.append(stmt)
                    add(stmt.body.body, every)  # type: ignore[arg-type]
                    continue
                if type(stmt) in (cst.For, cst.While):
                    if every and id(stmt) not in self._rare_loops:
                        inner.append(stmt)
                    continue
                if type(stmt) in (cst.FunctionDef, cst.ClassDef):
                    continue
                if isinstance(stmt, cst.SimpleStatementLine):
                    out.append(stmt)
                elif isinstance(stmt, cst.If):
                    out.append(stmt.test)
                    add(stmt.body.body, False)  # type: ignore[arg-type]
                    orelse = stmt.orelse
                    while orelse is not None:
                        if isinstance(orelse, cst.If):
                            out.append(orelse.test)
                            add(orelse.body.body, False)  # type: ignore[arg-type]
                            orelse = orelse.orelse
                        else:
                            add(orelse.body.body, False)  # type: ignore[arg-type]
                            orelse = None
                elif isinstance(stmt, (cst.With, cst.Try, cst.TryStar)):
                    if isinstance(stmt, cst.With):
                        out.extend(item.item for item in stmt.items)
                    add(stmt.body.body, every)  # type: ignore[arg-type]
                    for handler in getattr(stmt, "handlers", ()):
                        add(handler.body.body, False)
                    finalbody = getattr(stmt, "finalbody", None)
                    if finalbody is not None:
                        add(finalbody.body.body, every)

        add(loop.body.body)  # type: ignore[arg-type]
        return out

    def _short(self, loop: cst.For) -> bool:
        """The loop, with the loops of its function around it, runs at most
        ``SHORT_LOOP`` times in all, by bounds the code spells (``range(50)``, a scan
        over ``np.arange(0, 181, 5)``): a tutorial or a short sweep, not a stream of
        steps."""
        depth = len(self._functions)
        total = 1
        for outer, at in self._loops:  # type: ignore[attr-defined]
            if at != depth:
                continue
            count = trip_count(self.model, outer.iter) if type(outer) is cst.For else None
            if count is None:
                return False
            total *= count
        return total <= SHORT_LOOP

    def _runs_epoch(self, loop: cst.For | cst.While) -> bool:
        """Every iteration calls a jitted function that loops itself (an epoch in a
        ``lax.scan``, a chunk of steps in a ``while_loop``): what the iteration syncs, it
        syncs once per epoch or chunk."""
        for stmt in self._unconditional(loop):
            for node in walk(stmt, into_blocks=False):
                if type(node) is cst.Call and self._is_jitted_call(node):  # type: ignore[arg-type]
                    if self._callee_loops(node):  # type: ignore[arg-type]
                        return True
        return False

    def _check_loop(self, loop: cst.For | cst.While) -> None:
        trace = self.ctx.trace
        if trace.traced_function_of(loop) is not None or self._runs_epoch(loop):
            return
        inner: list[cst.For | cst.While] = []
        own = self._own(loop, inner)
        jitted: dict[int, str] = {}
        evidence: dict[str, str] = {}
        """callee -> where another module says it is jitted"""
        for stmt in own:
            if type(stmt) is cst.For:
                continue  # its iterable is listed on its own
            for node in walk(stmt, into_blocks=False):
                if type(node) is cst.Call and self._is_jitted_call(node):
                    if self._callee_loops(node):
                        continue  # one call runs many steps (an epoch in a ``scan``)
                    jitted[id(node)] = " ".join(self.ctx.code(node.func).split())
                    fact = self.ctx.trace.imported_function(node.func)
                    if fact is not None:
                        evidence[jitted[id(node)]] = f" (jitted at {fact['where']})"
        if not jitted or any(self._runs_steps(other) for other in inner):
            return  # an epoch loop around a step loop: what it syncs, it syncs per epoch
        if not self._carries_state(own, jitted):
            return  # independent iterations (columns, chunks, eval batches): not steps
        produced: dict[str, str] = {}
        for _ in range(2):
            for stmt in own:
                if type(stmt) is cst.For:  # ``for name, v in metrics.items()``
                    source = self._device(stmt.iter, produced, jitted)  # type: ignore[attr-defined]
                    if source is not None:
                        for name in assigned_names(stmt.target) or []:  # type: ignore[attr-defined]
                            produced[name] = source
                    continue
                for node in walk(stmt, into_blocks=False):
                    if type(node) in (cst.Assign, cst.AugAssign, cst.AnnAssign):
                        value = node.value
                        if value is None:
                            continue
                        source = self._device(value, produced, jitted)
                        if source is None:
                            continue
                        targets = (
                            [t.target for t in node.targets]
                            if isinstance(node, cst.Assign)
                            else [node.target]
                        )
                        for target in targets:
                            for name in assigned_names(target) or []:
                                produced[name] = source
        decisions = exit_decisions(loop)
        # the jitted callees whose results decide whether the loop goes on (its ``while``
        # test, an ``if ...: break`` or ``return`` test, or a host value those tests read:
        # ``res = float(residual)`` then ``if res < tol: break``, or a patience counter
        # updated under ``if best - res > tol:``): the loop needs that answer on every
        # iteration to go on, so the wait is the loop's own logic, and reading more of
        # those calls' results adds no sync
        awaited = self._deciding_sources(loop, decisions, produced, jitted)
        # the callees whose results the loop waits for explicitly, every iteration
        # (``t = out[0].block_until_ready()`` to time each call): reading them adds no wait
        for stmt in self._unconditional(loop):
            for node in walk(stmt, into_blocks=False):
                waited = _waited_on(self.model, node)
                if waited is not None:
                    awaited.add(self._device(waited, produced, jitted))
        awaited.discard(None)
        in_decision = {id(n) for test in decisions for n in walk(test)}
        fed_back = self._fed_back(own, jitted)
        for stmt in self._unconditional(loop):
            if id(stmt) in in_decision:
                continue  # the loop's exit test: it needs the value to go on
            for node in walk(stmt, into_blocks=False, prune=self._is_assertion):
                if not isinstance(node, cst.Call):
                    continue
                operands = host_sync_operands(self.model, node)
                if not operands or id(node) in fed_back:
                    continue
                for operand in operands:
                    source = self._device(operand, produced, jitted)
                    if source is not None and source in awaited:
                        continue  # the loop's exit decision waits for this call every step
                    if source is not None:
                        value = " ".join(self.ctx.code(operand).split())
                        direct = len(value) > 32 or any(id(n) in jitted for n in walk(operand))
                        self.report(
                            node,
                            conversion=short_code(self.ctx.code(node), self.ctx.code(node.func)),
                            loop=self._loop_header(loop),
                            callee=source,
                            evidence=evidence.get(source, ""),
                            value="its result" if direct else f"`{value}`",
                            advice=_KEEP.format(kept="the result" if direct else f"`{value}`"),
                        )
                        return  # one finding per loop

    def _deciding_sources(
        self,
        loop: cst.For | cst.While,
        decisions: Sequence[cst.BaseExpression],
        produced: dict[str, str],
        jitted: dict[int, str],
    ) -> set[str | None]:
        """The jitted callees whose results the loop's exit decisions read, directly
        (``while not done:`` after ``done = step(...)``) or through the names those tests
        read, followed back through the loop body's assignments, an assignment depending
        on what it assigns and on the tests of the ``if`` statements around it (``if best
        - loss_val > tol: wait = 0 else: wait += 1`` makes ``wait`` depend on
        ``loss_val``), and a host conversion naming the callee its operand comes from
        (``loss_val = float(loss)``)."""
        depends: dict[str, set[str]] = {}
        converted: dict[str, set[str]] = {}

        def names(expr: cst.CSTNode) -> set[str]:
            return {n.value for n in walk(expr) if type(n) is cst.Name}

        def assign(target: cst.BaseExpression, value: cst.CSTNode, guards: set[str]) -> None:
            sources = set()
            for node in walk(value):
                if type(node) is cst.Call:
                    for operand in host_sync_operands(self.model, node) or ():
                        source = self._device(operand, produced, jitted)
                        if source is not None:
                            sources.add(source)
            for name in assigned_names(target) or []:
                depends.setdefault(name, set()).update(names(value) | guards)
                converted.setdefault(name, set()).update(sources)

        def visit(block: Sequence[cst.BaseStatement], guards: set[str]) -> None:
            for stmt in block:
                if isinstance(stmt, cst.SimpleStatementLine):
                    for small in stmt.body:
                        if isinstance(small, cst.Assign):
                            for t in small.targets:
                                assign(t.target, small.value, guards)
                        elif isinstance(small, (cst.AugAssign, cst.AnnAssign)):
                            if small.value is not None:
                                assign(small.target, small.value, guards)
                elif isinstance(stmt, cst.If):
                    inner = guards | names(stmt.test)
                    visit(stmt.body.body, inner)  # type: ignore[arg-type]
                    if stmt.orelse is not None:
                        visit(
                            [stmt.orelse]
                            if isinstance(stmt.orelse, cst.If)
                            else stmt.orelse.body.body,
                            inner,
                        )  # type: ignore[list-item, arg-type]
                elif isinstance(stmt, (cst.For, cst.While, cst.With, cst.Try, cst.TryStar)):
                    if isinstance(stmt, cst.For):
                        assign(stmt.target, stmt.iter, guards)
                    visit(stmt.body.body, guards)  # type: ignore[arg-type]
                    for handler in getattr(stmt, "handlers", ()):
                        visit(handler.body.body, guards)

        visit(loop.body.body, set())  # type: ignore[arg-type]
        out: set[str | None] = set()
        seen: set[str] = set()
        todo: list[str] = []
        for test in decisions:
            for path in _value_paths(test):
                out.add(self._device(path, produced, jitted))
            todo.extend(names(test))
        while todo:
            name = todo.pop()
            if name in seen:
                continue
            seen.add(name)
            out.add(produced.get(name))
            out.update(converted.get(name, ()))
            todo.extend(depends.get(name, ()))
        return out

    def _carries_state(self, own: Sequence[cst.CSTNode], jitted: dict[int, str]) -> bool:
        """The loop is a chain of steps: a jitted call of the loop takes what a jitted
        call of the loop returned (``state, loss = step(state, batch)``, ``self.params =
        self._update(self.params, g)``, ``obs, done = env_step(obs)``), or it is an
        ``nnx.jit`` function, which updates the modules it is given in place. A loop
        whose iterations are independent (Hessian columns, finite differences, chunks of
        a table, a pass over eval batches with fixed parameters) is a walk over data:
        each iteration's sync costs one round trip, and the blind reads judged none of
        them worth acting on (fresh-2026-12l: 8 debatable, 2 false alarms)."""
        code = self.ctx.code
        assigns: list[tuple[cst.CSTNode, list[cst.BaseExpression]]] = []
        for stmt in own:
            if type(stmt) is cst.For:
                continue
            for node in walk(stmt, into_blocks=False):
                if type(node) not in (cst.Assign, cst.AugAssign, cst.AnnAssign):
                    continue
                value = node.value  # type: ignore[attr-defined]
                if value is None:
                    continue
                targets = (
                    [t.target for t in node.targets]  # type: ignore[attr-defined]
                    if type(node) is cst.Assign
                    else [node.target]  # type: ignore[attr-defined]
                )
                assigns.append((value, targets))

        def reads(expr: cst.CSTNode) -> bool:
            for part in walk(expr):
                if type(part) is cst.Name and part.value in results:
                    return True
                if type(part) is cst.Attribute and " ".join(code(part).split()) in results:
                    return True
            return False

        # what the loop's jitted calls return, and what is assigned from that in the loop
        # (``out = run(x)`` then ``x = out[0]``)
        results: set[str] = set()
        for _ in range(3):
            before = len(results)
            for value, targets in assigns:
                if not any(id(n) in jitted for n in walk(value)) and not reads(value):
                    continue
                todo = list(targets)
                while todo:  # names and attribute paths; not a store into a container
                    target = todo.pop()
                    if type(target) is cst.Name:
                        results.add(target.value)
                    elif type(target) is cst.Attribute:
                        results.add(" ".join(code(target).split()))
                    elif type(target) in (cst.Tuple, cst.List):
                        todo.extend(el.value for el in target.elements)  # type: ignore[attr-defined]
                    elif type(target) is cst.StarredElement:
                        todo.append(target.value)  # type: ignore[attr-defined]
            if len(results) == before:
                break
        for stmt in own:
            if type(stmt) is cst.For:
                continue
            for node in walk(stmt, into_blocks=False):
                if type(node) is not cst.Call or id(node) not in jitted:
                    continue
                if self._updates_in_place(node):
                    return True
                if any(reads(arg.value) for arg in node.args):
                    return True
        return False

    def _updates_in_place(self, call: cst.Call) -> bool:
        """A call of an ``nnx.jit`` function: it updates the modules it is given."""
        t = self.ctx.trace.transformed_callee(call, self._within)
        return t is not None and t.qualname.startswith("flax.nnx.")

    def _fed_back(self, own: Sequence[cst.CSTNode], jitted: dict[int, str]) -> set[int]:
        """The calls in the loop's own statements whose host value goes, in the same
        iteration, into a call of host code whose results come back as inputs of a jitted
        call of the loop: ``next_obs, reward, *_ = env.step(int(action))`` and then
        ``policy(params, obs)`` after ``obs = next_obs``. The device needs the host's
        answer to go on (a host environment or simulator), so the sync cannot be kept on
        device and fetched later; only moving the host code onto the device removes it.
        Also a call on a host object whose other calls in the loop give, through any host
        computation, inputs of a jitted call (``goal = sim.rollout(...)`` feeding
        ``encode``, then ``sim.rollout(np.asarray(plan(z0)))``): the object and the device
        exchange values every iteration."""
        assigns: list[cst.Assign] = []
        for stmt in own:
            if type(stmt) is cst.For:
                continue
            assigns.extend(n for n in walk(stmt, into_blocks=False) if type(n) is cst.Assign)
        into_jitted: set[str] = set()
        for stmt in own:
            if type(stmt) is cst.For:
                continue
            for node in walk(stmt, into_blocks=False):
                if type(node) is cst.Call and id(node) in jitted:
                    for arg in node.args:
                        into_jitted.update(n.value for n in walk(arg.value) if type(n) is cst.Name)
        if not into_jitted:
            return set()
        # names whose value flows into a jitted call: through plain renames (``obs =
        # next_obs`` makes ``next_obs`` one when ``obs`` is)
        back = set(into_jitted)
        for _ in range(2):
            for node in assigns:
                if type(node.value) is not cst.Name:
                    continue
                names = {n for t in node.targets for n in assigned_names(t.target) or []}
                if names & back:
                    back.add(node.value.value)
        # ... and through any host computation (``start = goal["video"][0]``, then
        # ``encode(jnp.asarray(start))``): the host objects whose calls give such values
        # (``goal = env.rollout(...)``) are in the loop with the device
        sources = set(back)
        flows = [
            (
                {n for t in node.targets for n in assigned_names(t.target) or []},
                {n.value for n in walk(node.value) if type(n) is cst.Name},
            )
            for node in assigns
            if not (type(node.value) is cst.Call and id(node.value) in jitted)
        ]
        for _ in range(len(flows)):
            before = len(sources)
            for targets, reads in flows:
                if targets & sources:
                    sources |= reads
            if len(sources) == before:
                break
        feeders = set()
        for node in assigns:
            call = node.value
            if type(call) is not cst.Call or id(call) in jitted or not self._host_code(call):
                continue
            if type(call.func) is not cst.Attribute:
                continue
            results = {n for t in node.targets for n in assigned_names(t.target) or []}
            if results & sources:
                feeders.add(" ".join(self.ctx.code(call.func.value).split()))
        out: set[int] = set()
        for node in assigns:
            call = node.value
            if type(call) is not cst.Call or id(call) in jitted or not self._host_code(call):
                continue
            results = {n for t in node.targets for n in assigned_names(t.target) or []}
            receiver = (
                " ".join(self.ctx.code(call.func.value).split())
                if type(call.func) is cst.Attribute
                else None
            )
            if not results & back and receiver not in feeders:
                continue
            # the host values given to it: conversions in its arguments, and conversions
            # assigned to a name it is given (``a = int(action)`` then ``env.step(a)``)
            given = {n.value for a in call.args for n in walk(a.value) if type(n) is cst.Name}
            for arg in call.args:
                out.update(id(n) for n in walk(arg.value) if type(n) is cst.Call)
            for other in assigns:
                names = {n for t in other.targets for n in assigned_names(t.target) or []}
                if names & given and type(other.value) is cst.Call:
                    out.add(id(other.value))
        return out

    def _host_code(self, call: cst.Call) -> bool:
        """A call of code jaxlint does not know as JAX, NumPy or a builtin: a method of an
        object (``env.step``) or a function it cannot see."""
        qualname = self.model.call_name(call)
        if qualname is None:
            return True
        return not qualname.startswith(("builtins.", "numpy.", "jax.", "math.", "logging."))

    def _is_jitted_call(self, call: cst.Call) -> bool:
        trace = self.ctx.trace
        t = trace.transformed_callee(call, self._within)
        return t is not None and (
            t.qualname in STAGING
            or t.qualname in trace.extra_decorators
            or t.qualname in trace.extra_wrappers
        )

    def _runs_steps(self, loop: cst.For | cst.While) -> bool:
        """An inner loop that calls a jitted function: the steps of an epoch."""
        return any(type(node) is cst.Call and self._is_jitted_call(node) for node in walk(loop))  # type: ignore[arg-type]

    def _is_assertion(self, node: cst.CSTNode) -> bool:
        """Checking a value on every step needs it on the host: ``assert``,
        ``np.testing.assert_*``, ``chex.assert_*``, ``self.assertEqual(...)``."""
        if isinstance(node, cst.Assert):
            return True
        if not isinstance(node, cst.Call):
            return False
        qn = self.model.call_name(node)
        if qn is not None and qn.startswith(("numpy.testing.", "chex.", "pytest.")):
            return True
        func = node.func
        name = func.attr.value if isinstance(func, cst.Attribute) else getattr(func, "value", "")
        return isinstance(name, str) and name.startswith(("assert", "fail"))

    def _unconditional(self, loop: cst.For | cst.While) -> list[cst.CSTNode]:
        out: list[cst.CSTNode] = []

        def add(block: Sequence[cst.BaseStatement]) -> None:
            for stmt in block:
                if isinstance(stmt, cst.SimpleStatementLine):
                    out.append(stmt)
                elif isinstance(stmt, cst.With):
                    out.extend(item.item for item in stmt.items)
                    add(stmt.body.body)  # type: ignore[arg-type]
                elif isinstance(stmt, (cst.Try, cst.TryStar)):
                    add(stmt.body.body)  # type: ignore[arg-type]
                elif isinstance(stmt, cst.For) and self._few_entries(stmt.iter, 2):
                    add(stmt.body.body)  # type: ignore[arg-type]
                elif skips_unless_every_n(stmt):
                    return  # ``if step % N: continue``: the rest runs every N steps
                elif _raises_only(stmt):
                    continue  # ``if not bool(ok): raise ...``: an assertion
                elif isinstance(stmt, cst.If):
                    # its test runs on every iteration (``if bool(done): break``); its
                    # branches, an ``elif``'s test, and what follows ``and``/``or`` in the
                    # test (``if a and b:`` is ``if a: if b:``) only sometimes
                    out.append(_first_operand(stmt.test))

        if isinstance(loop, cst.While):
            out.append(loop.test)  # ``while float(loss) > tol:``, checked every iteration
        add(loop.body.body)  # type: ignore[arg-type]
        return out

    def _loop_header(self, loop: cst.For | cst.While) -> str:
        """``for step, batch in enumerate(loader)`` / ``while not done()``, shortened."""
        code = self.ctx.code
        if isinstance(loop, cst.While):
            text = "while " + " ".join(code(loop.test).split())
            return text if len(text) <= 48 else "while ..."
        head = "for " + " ".join(code(loop.target).split()) + " in "
        text = head + " ".join(code(loop.iter).split())
        if len(text) <= 48:
            return text
        it = loop.iter
        if isinstance(it, cst.Call):
            return head + " ".join(code(it.func).split()) + "(...)"
        return head + "..."

    def _callee_loops(self, call: cst.Call) -> bool:
        """The jitted function that ``call`` runs loops over many steps itself (a
        ``lax.scan``/``fori_loop``/``while_loop``/``map`` or a ``for`` over ``range``,
        in its body or in a function of this module it calls): one call is an epoch or
        a chunk of steps, and a sync per call is not a sync per step."""
        fn = self._jitted_function(call)
        if fn is None:
            fact = self.ctx.trace.imported_function(call.func)
            return fact is not None and bool(fact.get("loops"))
        return runs_steps(
            self.model,
            fn,
            self.ctx.trace.resolve_callable,
            2,
            self._loops_inside,  # type: ignore[attr-defined]
            self.ctx.trace.imported_function,
        )

    def _jitted_function(self, call: cst.Call) -> cst.FunctionDef | cst.Lambda | None:
        """The function of this module under the jit that ``call`` calls."""
        trace = self.ctx.trace
        func = call.func
        if type(func) is cst.Call:  # ``jax.jit(f)(x)``
            wrapped = next((a.value for a in func.args if a.keyword is None), None)
        elif type(func) is cst.Name:
            found = self.model.lookup(func.value, self.model.scope_for(func))
            if found is None or len(found[1]) != 1:
                return None
            binding = found[1][0]
            if binding.kind == "def" and isinstance(binding.node, cst.FunctionDef):
                return binding.node
            value = self.model.assigned.get(id(binding.node))  # ``step = jax.jit(f)``
            if type(value) is not cst.Call:
                return None
            wrapped = next((a.value for a in value.args if a.keyword is None), None)  # type: ignore[union-attr]
        else:
            return None
        if wrapped is None:
            return None
        resolved = trace.resolve_callable(wrapped)
        return resolved[0] if resolved is not None else None

    def _device(
        self, expr: cst.BaseExpression, produced: dict[str, str], jitted: dict[int, str]
    ) -> str | None:
        """The jitted callee whose fresh result ``expr`` holds (this iteration), if any."""
        if isinstance(expr, cst.Name):
            return produced.get(expr.value)
        if isinstance(expr, cst.Attribute):
            if expr.attr.value in STATIC_ATTRIBUTES:
                return None
            return self._device(expr.value, produced, jitted)
        if isinstance(expr, cst.Subscript):
            return self._device(expr.value, produced, jitted)
        if isinstance(expr, cst.Call):
            if id(expr) in jitted:
                return jitted[id(expr)]
            if host_sync_operands(self.model, expr) is not None:
                return None  # already on the host
            func = expr.func
            qn = self.model.call_name(expr)
            if qn is not None:
                if qn.startswith(ARRAY_MODULES):
                    for arg in expr.args:
                        got = self._device(arg.value, produced, jitted)
                        if got is not None:
                            return got
                return None
            if isinstance(func, cst.Attribute):  # an array method: ``loss.mean()``
                return self._device(func.value, produced, jitted)
            return None
        if isinstance(expr, cst.BinaryOperation):
            return self._device(expr.left, produced, jitted) or self._device(
                expr.right, produced, jitted
            )
        if isinstance(expr, cst.UnaryOperation):
            return self._device(expr.expression, produced, jitted)
        if isinstance(expr, cst.Comparison):
            parts = [expr.left, *(c.comparator for c in expr.comparisons)]
            for part in parts:
                got = self._device(part, produced, jitted)
                if got is not None:
                    return got
            return None
        if isinstance(expr, (cst.Tuple, cst.List)):
            for el in expr.elements:
                got = self._device(el.value, produced, jitted)
                if got is not None:
                    return got
        return None
