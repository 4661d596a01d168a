"""JAX204 large-unrolled-loop: a Python `for` over a large literal `range(N)` in staged-out
code, which traces N copies of its body into the program."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from jaxlint.analysis.walk import children
from jaxlint.rules.base import Examples, Option, Rule
from jaxlint.rules.control_flow.helpers import TracerQueries

if TYPE_CHECKING:
    from jaxlint.engine import FileContext

EXAMPLES = Examples(__file__)


class LargeUnrolledLoop(TracerQueries, Rule):
    code = "JAX204"
    name = "large-unrolled-loop"
    message = (
        "Python `for` over `range({n})` unrolls {n} copies of its body into the program"
        " traced from `{fn}` ({how}); compile time grows with the trip count: use"
        " `lax.fori_loop` or `lax.scan`"
    )
    probe = "jaxlint probe compile FILE.py:FUNC --dump jaxpr.txt"
    options = {
        "threshold": Option(
            int, 100, "Report loops with more iterations than this (each one is traced)."
        )
    }
    docs = """\
## What it does
Flags a Python `for` loop (or comprehension) over `range(N)` with a literal `N`
(or a module constant) above `threshold` (default 100) inside a function that JAX
stages out (`jit`, lax loop bodies, `checkpoint`, helpers called from them),
when its body runs JAX operations on traced values.

Configure the limit with `[tool.jaxlint.rules.JAX204] threshold = 50`.

## Why is this bad
JAX traces Python loops by running them: a loop of `N` iterations records `N`
copies of its body in the jaxpr, and XLA compiles all of them. Trace and compile
time (and sometimes memory) grow with `N`, often to minutes, and the compiled
program is large. `lax.fori_loop` and `lax.scan` trace the body once and loop on
the device. This is a performance problem, not an error: the program runs.

## Example
```python
import jax

@jax.jit
def simulate(x):
    for _ in range(1000):
        x = x + 0.01 * x
    return x
```

## Use instead
```python
import jax
from jax import lax

@jax.jit
def simulate(x):
    return lax.fori_loop(0, 1000, lambda i, x: x + 0.01 * x, x)
```
Use `lax.scan` when each step also produces an output to stack. For a short
loop that benefits from unrolling, `lax.fori_loop(..., unroll=k)` and
`lax.scan(..., unroll=k)` unroll a few steps.

## Fix safety
No fix: the loop body has to become a function of the carried state.

## Verify at runtime
`jaxlint probe compile FILE.py:FUNC --dump jaxpr.txt` reports the jaxpr equation
count and the trace and compile times; an unrolled loop shows as an equation
count proportional to `N` (the dump repeats the body).
"""
    VALID = [
        EXAMPLES.valid("valid_short_loop.py", note="a short loop", runs=True),
        EXAMPLES.valid("valid_fix_fori_loop.py", note="the fix: fori_loop", runs=True),
        EXAMPLES.valid("valid_host_code_traced.py", note="host code: not traced", runs=True),
        EXAMPLES.valid(
            "valid_python_only_arithmetic_per_iteration.py",
            note="Python-only arithmetic per iteration adds nothing to the program",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_trip_count_literal.py", note="the trip count is not a literal", runs=True
        ),
        EXAMPLES.valid(
            "valid_grad_alone_runs_eagerly_nothing.py",
            note="grad alone runs eagerly: nothing is staged",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_under_raised_threshold.py",
            options={"threshold": 200},
            note="under a raised threshold",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_building_modules_host_code_loop.py",
            note="building modules in host code; a loop over a list of layers",
        ),
        EXAMPLES.valid("valid_exactly_threshold.py", note="exactly at the threshold", runs=True),
    ]
    INVALID = [
        EXAMPLES.invalid(
            "invalid_range_1000.py",
            line=5,
            column=5,
            message_contains=(
                "`range(1000)` unrolls 1000 copies of its body into the program traced from"
                " `simulate` (jitted by `jax.jit` at line 3)"
            ),
        ),
        EXAMPLES.invalid(
            "invalid_module_constant_range_start_step.py",
            line=7,
            message_contains="`range(250)`",
            note="a module constant; range with start and step",
        ),
        EXAMPLES.invalid(
            "invalid_range_128.py", line=6, message_contains="traced as a body of `lax.scan`"
        ),
        EXAMPLES.invalid(
            "invalid_comprehension_helper_jitted_code.py",
            line=5,
            message_contains="called from traced `f`",
            note="a comprehension in a helper of jitted code",
        ),
        EXAMPLES.invalid(
            "invalid_return_x.py", options={"threshold": 50}, message_contains="`range(60)`"
        ),
        EXAMPLES.invalid("invalid_return_x_2.py", message_contains="jitted by `flax.nnx.jit`"),
        EXAMPLES.invalid(
            "invalid_return_x_3.py", message_contains="jitted by `equinox.filter_jit`"
        ),
        EXAMPLES.invalid(
            "invalid_jax_import_jit_jax_numpy.py",
            message_contains="`range(200)`",
            note="`from jax import jit`, jax.numpy imported as np, a negative start",
        ),
    ]

    def visit_For(self, node: cst.For) -> None:
        self._loop(node, node.iter, node.body)

    def visit_CompFor(self, node: cst.CompFor) -> None:
        self._loop(node, node.iter, None)

    def _loop(
        self, node: cst.CSTNode, iterable: cst.BaseExpression, body: cst.CSTNode | None
    ) -> None:
        trace = self.ctx.trace
        fn = trace.traced_function_of(iterable)
        if fn is None or not fn.staging:
            return
        n = self._trip_count(iterable)
        if n is None or n <= self.settings["threshold"]:
            return
        if body is None:
            body = self._comprehension_of.get(id(node))
        if body is None or not self._runs_jax(body):
            return
        self.report(node, n=n, fn=fn.name, how=fn.how(trace.line_of))

    def __init__(self, ctx: FileContext) -> None:
        super().__init__(ctx)
        self._comprehension_of: dict[int, cst.CSTNode] = {}

    def visit_ListComp(self, node: cst.ListComp) -> None:
        self._comprehension_of[id(node.for_in)] = node.elt

    def visit_SetComp(self, node: cst.SetComp) -> None:
        self._comprehension_of[id(node.for_in)] = node.elt

    def visit_GeneratorExp(self, node: cst.GeneratorExp) -> None:
        self._comprehension_of[id(node.for_in)] = node.elt

    def visit_DictComp(self, node: cst.DictComp) -> None:
        self._comprehension_of[id(node.for_in)] = node.value

    def _trip_count(self, iterable: cst.BaseExpression) -> int | None:
        if not isinstance(iterable, cst.Call) or self.model.call_name(iterable) != "builtins.range":
            return None
        if any(a.keyword is not None or a.star for a in iterable.args):
            return None
        values = [self._int(a.value) for a in iterable.args]
        if not values or len(values) > 3 or any(v is None for v in values):
            return None
        try:
            return len(range(*values))  # type: ignore[arg-type]
        except ValueError:
            return None

    def _int(self, expr: cst.BaseExpression) -> int | None:
        if isinstance(expr, cst.Integer):
            return int(expr.evaluated_value)
        if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Minus):
            inner = self._int(expr.expression)
            return None if inner is None else -inner
        if isinstance(expr, cst.Name):
            # a module constant assigned once from an integer literal
            found = self.model.lookup(expr.value, self.model.scope_for(expr))
            if found is None:
                return None
            scope, bindings = found
            if scope is not self.model.module_scope or len(bindings) != 1:
                return None
            return self._module_ints().get(expr.value)
        return None

    def _module_ints(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for stmt in self.ctx.module.body:
            if isinstance(stmt, cst.SimpleStatementLine):
                for small in stmt.body:
                    if (
                        isinstance(small, cst.Assign)
                        and len(small.targets) == 1
                        and isinstance(small.targets[0].target, cst.Name)
                        and isinstance(small.value, cst.Integer)
                    ):
                        out[small.targets[0].target.value] = int(small.value.evaluated_value)
        return out

    def _runs_jax(self, node: cst.CSTNode) -> bool:
        """Some operation in ``node`` (not a bare name) produces a traced value."""
        trace = self.ctx.trace
        stack = [node]
        while stack:
            current = stack.pop()
            if isinstance(
                current,
                (cst.Call, cst.BinaryOperation, cst.UnaryOperation, cst.Subscript, cst.Comparison),
            ):
                val = trace.value(current)
                if val is not None and val.traced:
                    return True
            if isinstance(current, cst.AugAssign):
                val = trace.value(current.target)
                if val is not None and val.traced:
                    return True
            if isinstance(current, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
                continue
            stack.extend(children(current))
        return False
