"""JAX105 unsynchronized-timing: clock reads around JAX work with nothing waiting for the
result in between, which time the dispatch instead of the computation.
"""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from jaxlint.diagnostics import Applicability
from jaxlint.fixers.spelling import spell
from jaxlint.rules.base import Examples, FixOp, ReplaceNode, Rule
from jaxlint.rules.host_device.helpers import assigned_names, short_code, walk
from jaxlint.rules.host_device.unsynchronized_timing_analysis import TimingChecks

EXAMPLES = Examples(__file__)

_CLOCKS = frozenset(
    {
        "time.time",
        "time.perf_counter",
        "time.monotonic",
        "time.time_ns",
        "time.perf_counter_ns",
        "time.monotonic_ns",
        "timeit.default_timer",
    }
)


class UnsynchronizedTiming(TimingChecks, Rule):
    code = "JAX105"
    name = "unsynchronized-timing"
    default_enabled = False  # see "Off by default" in the docs
    message = (
        "`{clock}` reads the clock while `{work}` may still be running: JAX dispatches"
        " asynchronously; call `jax.block_until_ready` on the result before reading the"
        " clock"
    )
    fix_availability = "sometimes"
    probe = "jaxlint probe bench FILE.py:CALLEE"
    docs = """\
## What it does
Flags, in host code, a pair of clock reads (`time.time()`, `time.perf_counter()`,
`time.monotonic()`, their `_ns` variants, `timeit.default_timer()`) in the same
block around a call of a jitted function or a JAX operation, when nothing between
them waits for the result: no `.block_until_ready()`, no
`jax.block_until_ready(...)`, no `jax.device_get`, and no host conversion of a JAX
array (`float(x)`, `x.item()`, `np.asarray(x)`, `print(x)`). The finding is on the
second clock read. The first read must be an assignment (`start = time.time()`),
and the second must be a statement of the same block (a read nested in a later
loop or branch logs the time since start). The work may be dispatched through a
host function of the same file called by a statement of the timed block, when it
calls a jitted function and returns an array without waiting for it
(`w = run_epoch(w, batches)` whose loop calls a jitted step); a helper of plain
`jnp` operations is not counted (its results are usually printed first).

Anything that may wait counts as synchronisation, to stay precise:
`block_until_ready` called or passed as a function
(`jax.tree_util.tree_map(lambda x: x.block_until_ready(), metrics)`), a log call,
`assert`, `if` or `while` on a JAX array. Making arrays from Python values
(`jnp.array(0.0)`, `jax.random.key(0)`) is not counted as timed work, nor is a
jitted function that returns nothing or only returns its arguments (a
dispatch-overhead benchmark).


**Off by default.** On the held-out projects neither of 2 sampled findings was worth
acting on: one timer measured dispatch on purpose, the other timed a call that
already returns host data (docs/precision/heldout.md). Turn it on with
`extend-select = ["JAX105"]` (or `--extend-select JAX105`) where its findings pay
off.

## Why is this bad
JAX dispatches asynchronously: a jitted call (or `jnp` operation) returns as soon as
the work is queued, long before the device has finished. The second clock read
then measures dispatch time, often microseconds, and the real cost shows up
wherever the program next waits for a result. Benchmarks and profiling logs built
this way are wrong, sometimes by orders of magnitude.

## Example
```python
start = time.perf_counter()
out = step(params, batch)
elapsed = time.perf_counter() - start
```

## Use instead
```python
start = time.perf_counter()
out = step(params, batch)
jax.block_until_ready(out)
elapsed = time.perf_counter() - start
```
Time a warmed-up call (the first call also compiles), or use
`jaxlint probe bench FILE.py:FUNC --jit`.

## Fix safety
Unsafe: inserts `jax.block_until_ready(<results>)` on its own line before the
second clock read (indented like it, with the file's newline), blocking on every
name bound to a device result since the last synchronisation
(`jax.block_until_ready((state, loss))` for several), or wraps a bare call
statement (`f(x)` -> `jax.block_until_ready(f(x))`); `import jax` is added when
the module lacks it. The timing now includes the device work, which is the
point, but the program also waits there. When a result is bound inside a loop,
the name is used after the loop (it is unbound if the loop never ran). No fix when
the second clock read follows another statement on its line (`a = 1; t1 = ...`),
or when results are not bound to plain names.

## Verify at runtime
`jaxlint probe bench FILE.py:CALLEE` times the jitted function whose call is being
timed (the last device call before the clock read, such as `step` in `out =
step(params, batch)`), not the timing code around it, with its outputs synchronised
inside the timer (and the first, compiling call reported apart); compare with your
measurement. A call of a method or an expression names no module-level function:
such a finding has no verify line.
"""
    VALID = [
        EXAMPLES.valid(
            "valid_helper_waits_before_returning.py",
            note="the helper waits for its result before returning",
            runs=True,
        ),
        EXAMPLES.valid("valid_blocked_method.py", note="blocked with the method", runs=True),
        EXAMPLES.valid(
            "valid_jax_block_until_ready_also.py",
            note="jax.block_until_ready, also after a loop",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_host_conversion_waits_result.py",
            note="a host conversion waits for the result",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_blocked_same_statement.py", note="blocked in the same statement", runs=True
        ),
        EXAMPLES.valid(
            "valid_jax_work_between_clock_reads.py", note="no JAX work between the clock reads"
        ),
        EXAMPLES.valid(
            "valid_device_work_happens_before_timer.py",
            note="the device work happens before the timer starts",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_clock_reads_traced_code_different.py",
            note="clock reads in traced code are a different problem (they run at trace time)",
        ),
        EXAMPLES.valid(
            "valid_timed_call_known_jax.py", note="the timed call is not known to be JAX"
        ),
        EXAMPLES.valid(
            "valid_arrays_made_python_values_jitted.py",
            note="arrays made from Python values, and a jitted function returning None",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_jitted_function_only_returns_arguments.py",
            note="a jitted function that only returns its arguments: a dispatch-overhead benchmark",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_blocking_through_tree_map_lambda.py",
            note="blocking through a tree_map lambda; logging and asserting on the array;"
            " a clock read nested in a later loop",
            runs=True,
        ),
    ]
    INVALID = [
        EXAMPLES.invalid(
            "invalid_timing_through_helper.py",
            line=19,
            message_contains="`run_epoch(w, batches)`",
            note="the jitted steps are dispatched by a helper of the module",
        ),
        EXAMPLES.invalid(
            "invalid_multiline_print_keeps_indentation.py",
            line=17,
            unsafe_fix=True,
            note="the clock is read inside a statement over several lines in a block: the "
            "statement keeps its continuation lines' indentation after the insert",
        ),
        EXAMPLES.invalid(
            "invalid_t1_time_perf_counter.py",
            line=14,
            column=6,
            message_contains="`time.perf_counter()` reads the clock while `f(x)` may still be running",
            unsafe_fix=True,
        ),
        EXAMPLES.invalid(
            "invalid_print_step_took_time_time_start.py", line=11, column=28, unsafe_fix=True
        ),
        EXAMPLES.invalid(
            "invalid_loop_jnp_ops_import_jax.py",
            unsafe_fix=True,
            note="a loop of jnp ops; import jax added",
        ),
        EXAMPLES.invalid(
            "invalid_bare_call_statement_gets_wrapped.py",
            unsafe_fix=True,
            note="a bare call statement gets wrapped",
        ),
        EXAMPLES.invalid("invalid_crlf_kept.py", unsafe_fix=True, note="CRLF kept"),
        EXAMPLES.invalid(
            "invalid_only_work_after_last_sync.py",
            unsafe_fix=True,
            message_contains="`f(y)`",
            note="only the work after the last sync (float(y)) is pending",
        ),
        EXAMPLES.invalid(
            "invalid_self_attribute_bound_jax_jit.py",
            unsafe_fix=True,
            note="a self attribute bound to jax.jit; the result inside a with block",
        ),
    ]

    def visit_Module(self, node: cst.Module) -> None:
        self._block(node.body)

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        self._block(node.body)

    def _units(self, body: Sequence[cst.CSTNode]) -> list[tuple[cst.CSTNode, bool]]:
        """Small statements and compound statements in order; the flag tells a small
        statement that starts its line (where a new line can go before it)."""
        out: list[tuple[cst.CSTNode, bool]] = []
        for stmt in body:
            if isinstance(stmt, cst.SimpleStatementLine):
                for i, small in enumerate(stmt.body):
                    out.append((small, i == 0))
            else:
                out.append((stmt, False))
        return out

    def _clock_call(self, unit: cst.CSTNode) -> cst.Call | None:
        for node in walk(unit):
            if isinstance(node, cst.Call) and self.model.call_name(node) in _CLOCKS:
                return node
        return None

    def _starts_timer(self, unit: cst.CSTNode) -> bool:
        return (
            isinstance(unit, cst.Assign)
            and len(unit.targets) == 1
            and isinstance(unit.targets[0].target, cst.Name)
            and isinstance(unit.value, cst.Call)
            and self.model.call_name(unit.value) in _CLOCKS
        )

    def _block(self, body: Sequence[cst.CSTNode]) -> None:
        units = self._units(body)
        starts = [i for i, (unit, _) in enumerate(units[:-2]) if self._starts_timer(unit)]
        if not starts:
            return
        if self.ctx.trace.traced_function_of(units[0][0]) is not None:
            return
        for i in starts:
            for j in range(i + 1, len(units)):
                clock = self._clock_call(units[j][0])
                if clock is None:
                    continue
                if not isinstance(units[j][0], cst.BaseCompoundStatement):
                    # a clock read nested in a later loop or branch is a log of the
                    # time since start, not the end of this measurement
                    self._check_pair(units[i + 1 : j], units[j], clock)
                break

    def _check_pair(
        self,
        between: list[tuple[cst.CSTNode, bool]],
        end: tuple[cst.CSTNode, bool],
        clock: cst.Call,
    ) -> None:
        last_sync = -1
        for k, (unit, _) in enumerate(between):
            if self._syncs(unit):
                last_sync = k
        pending = [(unit, self._device_calls(unit)) for unit, _ in between[last_sync + 1 :]]
        pending = [(unit, calls) for unit, calls in pending if calls]
        if not pending:
            return
        work = pending[-1][1][0]
        code = self.ctx.code
        fix_plan = self._fix_plan(pending, end)
        fix = None
        if fix_plan is not None:
            spelled = spell(self.model, "jax.block_until_ready", clock.func)
            if spelled is not None:
                fn_text, ops = spelled
                fix = self._make_fix(fix_plan, end, fn_text, ops)
        self.report(
            clock,
            clock=code(clock),
            work=short_code(code(work), code(work.func) if isinstance(work, cst.Call) else "..."),
            fix=fix,
            applicability=Applicability.UNSAFE if fix is not None else None,
            fix_message="Insert `jax.block_until_ready(...)` before the clock read",
            probe_node=work,  # the verify line benches the timed work, not the timing code
        )

    def _fix_plan(
        self, pending: list[tuple[cst.CSTNode, list[cst.Call]]], end: tuple[cst.CSTNode, bool]
    ) -> tuple[list[str], list[cst.Call]] | None:
        """Names to block on before the end clock, and bare calls to wrap."""
        if not end[1]:
            return None
        names: list[str] = []
        wrap: list[cst.Call] = []
        for unit, _calls in pending:
            got = self._result_names(unit)
            if got is None:
                if (
                    isinstance(unit, cst.Expr)
                    and isinstance(unit.value, cst.Call)
                    and any(c is unit.value for c in _calls)
                ):
                    wrap.append(unit.value)
                    continue
                return None
            for name in got:
                if name not in names:
                    names.append(name)
        if not names and not wrap:
            return None
        return names, wrap

    def _result_names(self, unit: cst.CSTNode) -> list[str] | None:
        """Names a unit binds to device results: ``out = f(x)``, ``a, b = f(x)``, and
        the same inside a ``for``/``while``/``with`` body."""
        if isinstance(unit, (cst.Assign, cst.AugAssign, cst.AnnAssign)):
            targets = (
                [t.target for t in unit.targets] if isinstance(unit, cst.Assign) else [unit.target]
            )
            names: list[str] = []
            for target in targets:
                got = assigned_names(target)
                if got is None:
                    return None
                names.extend(got)
            return names
        if isinstance(unit, (cst.For, cst.While, cst.With)):
            names = []
            for inner, _ in self._units(unit.body.body):  # type: ignore[arg-type]
                if not self._device_calls(inner):
                    continue
                got = self._result_names(inner)
                if got is None:
                    return None
                names.extend(n for n in got if n not in names)
            return names or None
        return None

    def _make_fix(
        self,
        plan: tuple[list[str], list[cst.Call]],
        end: tuple[cst.CSTNode, bool],
        fn_text: str,
        ops: list[FixOp],
    ):  # type: ignore[no-untyped-def]
        names, wrap = plan
        unit = end[0]
        ctx = self.ctx

        def fix() -> list[FixOp]:
            out: list[FixOp] = list(ops)
            for call in wrap:
                out.append(ReplaceNode(call, f"{fn_text}({ctx.code(call)})"))
            if names:
                arg = names[0] if len(names) == 1 else "(" + ", ".join(names) + ")"
                newline = ctx.module.default_newline
                indent = ctx.line_indent(unit)
                # the statement exactly as written (its continuation lines keep their
                # indentation), without a trailing ``;`` (outside its range)
                bare = unit.with_changes(semicolon=cst.MaybeSentinel.DEFAULT)  # type: ignore[attr-defined]
                original = ctx.module.code_for_node(bare)
                if "\n" in original or "\r" in original:
                    original = ctx.source(unit)
                    if isinstance(unit, cst.BaseSmallStatement) and original.rstrip().endswith(";"):
                        original = original.rstrip()[:-1].rstrip()
                out.append(ReplaceNode(unit, f"{fn_text}({arg}){newline}{indent}{original}"))
            return out

        return fix
