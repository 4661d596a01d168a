"""JAX102 host-sync-in-loop: a host loop that converts a jitted call's result to a host
value on every iteration.
"""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from jaxlint.analysis.transforms import ARRAY_MODULES, STAGING, STATIC_ATTRIBUTES
from jaxlint.rules.base import Examples, Rule
from jaxlint.rules.host_device.helpers import (
    Shared,
    assigned_names,
    host_sync_operands,
    short_code,
    walk,
)

EXAMPLES = Examples(__file__)


# -- JAX102 ----------------------------------------------------------------------------------


class HostSyncInLoop(Shared, Rule):
    code = "JAX102"
    name = "host-sync-in-loop"
    message = (
        "`{conversion}` waits for `{callee}` and copies its result to the host on every"
        " iteration: one blocking device sync per step; keep results on device"
        " (accumulate them in an array) and fetch every N steps"
    )
    fix_availability = "none"
    probe = "jaxlint probe bench FILE.py:FUNC --jit"
    docs = """\
## What it does
Flags, in host code (outside any traced function), a Python `for` or `while` loop
that calls a jitted function and, on every iteration, converts that call's result
to a host value: `.item()`, `.tolist()`, `float()`/`int()`/`bool()`/`complex()`,
`np.asarray`/`np.array` (any converting NumPy function), `jax.device_get`,
`str()`/`repr()`/`format()`, an f-string field, or `print` of the array. A jitted
function is one the module shows as such: `@jax.jit` (also `pjit`, `pmap`,
`nnx.jit`, `eqx.filter_jit`, `partial(jax.jit, ...)`), `step = jax.jit(f)`,
`self.step = jax.jit(...)` or `jax.jit(f)(x)`.

## Why is this bad
JAX dispatches work asynchronously: the jitted call returns at once and the device
keeps computing while Python prepares the next step. Converting the result to a
host value blocks until the device has finished and copies it back, so every
iteration waits for the device and the device waits for Python: one blocking sync
per step, which can dominate a training loop with small steps.

The rule stays silent where the sync is rare or needed once: a conversion after
the loop, under an `if` inside the loop (`if step % 100 == 0: print(float(loss))`),
in an outer loop around the training loop (once per epoch), on a value computed
before the loop, on static metadata (`out.shape`), inside assertions (`assert`,
`np.testing.assert_*`, `chex.assert_*`, `self.assertEqual`), which need the value
every step, in loops over a literal list or a literal `range` of at most 10 steps,
and when the callee is not known to be jitted (an unknown outermost decorator, a
method of an object).

## Example
```python
for step, batch in enumerate(batches):
    state, loss = train_step(state, batch)  # @jax.jit
    history.append(float(loss))
```

## Use instead
```python
losses = []
for step, batch in enumerate(batches):
    state, loss = train_step(state, batch)
    losses.append(loss)  # stays on device, no sync
    if step % 100 == 0:
        history.extend(jax.device_get(losses))
        losses = []
```

## Fix safety
No fix: where to fetch, and how often, is a design choice.

## Verify at runtime
`jaxlint probe bench FILE.py:FUNC --jit` times one call of the step with its output
synchronised; compare it with the wall time of your loop divided by the number of
steps to see how much the per-step sync costs.
"""
    VALID = [
        EXAMPLES.valid(
            "valid_one_conversion_after_loop.py", note="one conversion after the loop", runs=True
        ),
        EXAMPLES.valid(
            "valid_logging_every_n_steps_under.py",
            note="logging every N steps under an if",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_accumulated_device_fetched_once.py",
            note="accumulated on device, fetched once",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_once_per_epoch_after_inner.py",
            note="once per epoch, after the inner training loop",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_loop_over_literal_list_few.py",
            note="a loop over a literal list of a few settings",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_metadata_result_value_computed_before.py",
            note="metadata of the result, and a value computed before the loop",
            runs=True,
        ),
        EXAMPLES.valid("valid_callee_known_jitted.py", note="the callee is not known to be jitted"),
        EXAMPLES.valid(
            "valid_loop_inside_traced_code_host.py",
            note="a loop inside traced code is not a host loop",
        ),
        EXAMPLES.valid(
            "valid_waiting_without_copying_host_user.py",
            note="waiting without copying to the host is the user's explicit choice",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_test_checks_every_step_value.py",
            note="a test checks every step: the value is needed on the host",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_unknown_outermost_decorator_decides_what.py",
            note="an unknown outermost decorator decides what the call returns",
        ),
    ]
    INVALID = [
        EXAMPLES.invalid(
            "invalid_history_append_loss_item.py",
            line=15,
            column=24,
            message_contains="`loss.item()` waits for `train_step`",
        ),
        EXAMPLES.invalid("invalid_total_float_params_loss.py", message_contains="waits for `step`"),
        EXAMPLES.invalid(
            "invalid_print_f_step_i_loss_4f.py",
            line=13,
            message_contains="`print(f'step {i}: {loss:.4f}')`",
        ),
        EXAMPLES.invalid("invalid_preds_append_np_asarray_out.py"),
        EXAMPLES.invalid("invalid_while_loop_pmap.py", note="a while loop, pmap"),
        EXAMPLES.invalid(
            "invalid_inside_block_through_array_method.py",
            note="inside a with block, through an array method",
        ),
        EXAMPLES.invalid("invalid_return_state.py", message_contains="waits for `self.step`"),
        EXAMPLES.invalid(
            "invalid_direct_jitted_call_converted_same.py",
            note="a direct jitted call converted in the same statement",
        ),
    ]

    _SMALL_TRIP_COUNT = 10

    def visit_For(self, node: cst.For) -> None:
        if self._small_literal_loop(node.iter):
            return
        self._check_loop(node)

    def visit_While(self, node: cst.While) -> None:
        self._check_loop(node)

    def _small_literal_loop(self, it: cst.BaseExpression) -> bool:
        if isinstance(it, (cst.List, cst.Tuple, cst.Set, cst.Dict)):
            return True
        if isinstance(it, cst.Call) and self.model.call_name(it) == "builtins.range":
            ints = [a.value for a in it.args]
            if ints and all(isinstance(v, cst.Integer) for v in ints):
                vals = [int(v.evaluated_value) for v in ints]  # type: ignore[attr-defined]
                count = len(range(*vals))
                return count <= self._SMALL_TRIP_COUNT
        return False

    def _own(self, loop: cst.For | cst.While) -> list[cst.CSTNode]:
        """Statements that run once per iteration of ``loop`` itself (not of an inner
        loop), with ``unconditional`` marking those not under an ``if``."""
        out: list[cst.CSTNode] = []

        def add(block: Sequence[cst.BaseStatement]) -> None:
            for stmt in block:
                if isinstance(stmt, (cst.For, cst.While, cst.FunctionDef, cst.ClassDef)):
                    continue
                if isinstance(stmt, cst.SimpleStatementLine):
                    out.append(stmt)
                elif isinstance(stmt, cst.If):
                    out.append(stmt.test)
                    add(stmt.body.body)  # type: ignore[arg-type]
                    orelse = stmt.orelse
                    while orelse is not None:
                        if isinstance(orelse, cst.If):
                            out.append(orelse.test)
                            add(orelse.body.body)  # type: ignore[arg-type]
                            orelse = orelse.orelse
                        else:
                            add(orelse.body.body)  # type: ignore[arg-type]
                            orelse = None
                elif isinstance(stmt, (cst.With, cst.Try, cst.TryStar)):
                    if isinstance(stmt, cst.With):
                        out.extend(item.item for item in stmt.items)
                    add(stmt.body.body)  # type: ignore[arg-type]
                    for handler in getattr(stmt, "handlers", ()):
                        add(handler.body.body)
                    finalbody = getattr(stmt, "finalbody", None)
                    if finalbody is not None:
                        add(finalbody.body.body)

        add(loop.body.body)  # type: ignore[arg-type]
        return out

    def _check_loop(self, loop: cst.For | cst.While) -> None:
        trace = self.ctx.trace
        if trace.traced_function_of(loop) is not None:
            return
        own = self._own(loop)
        jitted: dict[int, str] = {}
        for stmt in own:
            for node in walk(stmt, into_blocks=False):
                if isinstance(node, cst.Call):
                    t = trace.transformed_callee(node, self._within)
                    if t is not None and (
                        t.qualname in STAGING
                        or t.qualname in trace.extra_decorators
                        or t.qualname in trace.extra_wrappers
                    ):
                        jitted[id(node)] = " ".join(self.ctx.code(node.func).split())
        if not jitted:
            return
        produced: dict[str, str] = {}
        for _ in range(2):
            for stmt in own:
                for node in walk(stmt, into_blocks=False):
                    if isinstance(node, (cst.Assign, cst.AugAssign, cst.AnnAssign)):
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
                                produced.setdefault(name, source)
        for stmt in self._unconditional(loop):
            for node in walk(stmt, into_blocks=False, prune=self._is_assertion):
                if not isinstance(node, cst.Call):
                    continue
                operands = host_sync_operands(self.model, node)
                if not operands:
                    continue
                for operand in operands:
                    source = self._device(operand, produced, jitted)
                    if source is not None:
                        self.report(
                            node,
                            conversion=short_code(self.ctx.code(node), self.ctx.code(node.func)),
                            callee=source,
                        )
                        return  # one finding per loop

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

        add(loop.body.body)  # type: ignore[arg-type]
        return out

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
