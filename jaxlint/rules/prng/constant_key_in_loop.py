"""JAX304 constant-key-in-loop: a key made from a constant seed inside a loop or compiled
code and consumed there (the same random numbers every time)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from jaxlint.analysis.cases import configurations
from jaxlint.analysis.keys import (
    CALL,
    LEGACY,
    Use,
    compiled_function_of,
    key_factory,
    repeats,
)
from jaxlint.rules.base import Examples, Rule, short
from jaxlint.rules.prng.helpers import line
from jaxlint.rules.prng.key_hygiene import KEY_HYGIENE

if TYPE_CHECKING:
    from jaxlint.analysis.names import SemanticModel
    from jaxlint.engine import FileContext

EXAMPLES = Examples(__file__)


class _LoopStack:
    """The loops around the node being visited, within the current function (a mixin)."""

    ctx: FileContext

    def __init__(self, ctx: FileContext) -> None:
        super().__init__(ctx)  # type: ignore[call-arg]
        self._loops: list[list[tuple[cst.CSTNode, cst.CSTNode]]] = [[]]
        """Per enclosing function: ``(loop, the part that repeats)``."""

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._loops.append([])

    def leave_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._loops.pop()

    def visit_Lambda(self, node: cst.Lambda) -> None:
        self._loops.append([])

    def leave_Lambda(self, node: cst.Lambda) -> None:
        self._loops.pop()

    def visit_For(self, node: cst.For) -> None:
        if repeats(node.iter, self.ctx.model) and not _sweep(node, self.ctx.model):
            self._loops[-1].append((node, node.body))

    def leave_For(self, node: cst.For) -> None:
        if self._loops[-1] and self._loops[-1][-1][0] is node:
            self._loops[-1].pop()

    def visit_While(self, node: cst.While) -> None:
        self._loops[-1].append((node, node.body))

    def leave_While(self, node: cst.While) -> None:
        if self._loops[-1] and self._loops[-1][-1][0] is node:
            self._loops[-1].pop()

    def _visit_comp(self, node: cst.BaseComprehension) -> None:
        comps = []
        comp: cst.CompFor | None = node.for_in
        while comp is not None:
            comps.append(comp)
            comp = comp.inner_for_in
        if any(repeats(c.iter, self.ctx.model) for c in comps) and not _sweep(node, self.ctx.model):
            body = node.elt if not isinstance(node, cst.DictComp) else node.value  # type: ignore[attr-defined]
            self._loops[-1].append((node, body))

    def _leave_comp(self, node: cst.BaseComprehension) -> None:
        if self._loops[-1] and self._loops[-1][-1][0] is node:
            self._loops[-1].pop()

    visit_ListComp = visit_SetComp = visit_GeneratorExp = visit_DictComp = _visit_comp
    leave_ListComp = leave_SetComp = leave_GeneratorExp = leave_DictComp = _leave_comp

    def _repeating_loop(self, node: cst.CSTNode) -> cst.CSTNode | None:
        """The innermost loop of this function whose repeated part holds ``node``."""
        for loop, body in reversed(self._loops[-1]):
            if self.ctx.model.inside(node, body):
                return loop
        return None


def _sweep(loop: cst.For | cst.BaseComprehension, model: SemanticModel) -> bool:
    """A loop over a literal collection (``for lr in (0.1, 0.01):``) or over
    configurations (:func:`configurations`: ``for n_params in param_counts`` with
    ``param_counts = [100, 500, 1000]``, nlsq's tests, fresh-2026-12r): a parameter
    sweep, where the same seed on every run keeps the runs comparable."""
    first = loop.iter if type(loop) is cst.For else loop.for_in.iter  # type: ignore[union-attr]
    return type(first) in (cst.Tuple, cst.List, cst.Set) or configurations(loop, model)


def _constant_seed(rule: Rule, call: cst.Call) -> str | None:
    """The seed of ``jax.random.key(0)``/``PRNGKey(SEED)`` when it is a constant: an
    integer literal or a module-level name assigned an integer literal once."""
    args = [a for a in call.args if a.keyword is None and not a.star]
    args += [a for a in call.args if a.keyword is not None and a.keyword.value == "seed"]
    if not args:
        return None
    seed = args[0].value
    if _int_literal(seed):
        return rule.ctx.code(seed)
    if isinstance(seed, cst.Name):
        found = rule.model.lookup(seed.value, rule.model.scope_for(seed))
        if found is None or found[0] is not rule.model.module_scope:
            return None
        bindings = found[1]
        if len(bindings) != 1 or bindings[0].kind != "assign":
            return None
        target = bindings[0].node
        for node, entering in rule.model.events:
            if entering and type(node) is cst.Assign and len(node.targets) == 1:
                if node.targets[0].target is target and _int_literal(node.value):
                    return seed.value
    return None


def _int_literal(expr: cst.BaseExpression) -> bool:
    if isinstance(expr, cst.Integer):
        return True
    return (
        isinstance(expr, cst.UnaryOperation)
        and isinstance(expr.operator, cst.Minus)
        and isinstance(expr.expression, cst.Integer)
    )


class ConstantKeyInLoop(_LoopStack, Rule):
    code = "JAX304"
    name = "constant-key-in-loop"
    message = "`{call}` makes the same key on every {where}: {what}; {advice}"
    fix_availability = "none"
    probe = "jaxlint probe compile FILE.py:FUNC --dump jaxpr.txt"
    docs = """\
## What it does
Flags `jax.random.key(<constant>)` and `jax.random.PRNGKey(<constant>)` (an
integer literal, or a module-level name assigned one) created inside the body of a
loop (`for`, `while`, comprehension) that may run more than once, or inside code
that JAX compiles once and runs many times (a `jax.jit`-like function, the body of
`lax.scan`/`fori_loop`/`while_loop`/`map`), when the key is then consumed there by
a `jax.random` sampler or `split` (directly or through a function of the same
file). A call in a loop of a key factory of the same file (`def make_key(): return
jax.random.key(42)`, one `return` statement) is a constant key too.

In a `for` or `while` loop it is reported when the draws are kept across
iterations: appended or added to a collection, stored by index, accumulated
(`total += draw`), carried (`x = x + draw`, `state = state + noise`) or yielded;
a comprehension always keeps them. A loop whose iterations each use their draw
only within the iteration (a benchmark's fixed input per problem size, a fixed
condition) repeats it on purpose and is not reported.

In tests (files under `tests/`, `test_*.py`, `*_test.py`, `conftest.py`, and
`test*` functions and pytest fixtures anywhere): the loop rule is the same, so a
test that builds "different" inputs from one constant key in a comprehension or
an appending loop is reported (they are all equal). A constant key inside a
jitted function of a test is not reported: a test wants the same numbers on
every call (a fixed "random" condition, fixed data). The body of a `lax` loop
is reported everywhere: its iterations are one computation.

## Why is this bad
The same seed makes the same key, and the same key gives the same bits: every
iteration (or every call of the jitted function) draws exactly the same "random"
numbers. Training noise, dropout masks or samples that never change are a silent
bug.

## Example
```python
import jax

def noisy_steps(x, steps):
    for _ in range(steps):
        x = x + jax.random.normal(jax.random.key(0), x.shape)  # same noise each step
    return x
```

## Use instead
```python
import jax

def noisy_steps(x, steps, key):
    for _ in range(steps):
        key, sub = jax.random.split(key)
        x = x + jax.random.normal(sub, x.shape)
    return x
```
A key made from the loop variable (`jax.random.key(i)`) or folded in
(`jax.random.fold_in(jax.random.key(0), step)`) differs per iteration and is not
flagged; neither is a constant key only passed to a function of another module
(it may fold in its own data), nor a key made in a loop over a literal collection
(`for lr in (0.1, 0.01):`, a parameter sweep, where the same seed for every
setting keeps the runs comparable), nor one whose draw each iteration uses on its
own (the fixed input of each configuration of a benchmark), nor one made in a loop
over configurations (`for n_params in param_counts` with `param_counts = [100, 500,
1000]`, or a target named for a configuration: `for cfg in configs`).

## Fix safety
No fix: the key has to come from outside the loop or the function, which changes
its callers.

## Verify at runtime
Print two iterations' samples: they are equal. Under jit,
`jaxlint probe compile FILE.py:FUNC --dump jaxpr.txt` shows the constant seed in a
`random_seed` equation (or a literal key) inside the compiled function.
"""
    VALID = [
        EXAMPLES.valid(
            "valid_key_factory_seeded_by_step.py",
            note="a key factory seeded by the step: a new key each iteration",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_made_once_before_loop_split.py",
            note="made once before the loop, split each iteration",
        ),
        EXAMPLES.valid(
            "valid_seed_varies_loop_variable.py", note="the seed varies with the loop variable"
        ),
        EXAMPLES.valid("valid_fold_key_step_per_step.py", note="`fold_in(key, step)` per step"),
        EXAMPLES.valid("valid_seed_argument.py", note="the seed is an argument"),
        EXAMPLES.valid(
            "valid_constant_key_host_code_outside.py",
            note="a constant key in host code, outside any loop",
        ),
        EXAMPLES.valid(
            "valid_only_passed_functions_another_module.py",
            note="only passed to functions of another module (Flax init folds in its own data)",
        ),
        EXAMPLES.valid(
            "valid_sweep_over_literal_collection_same.py",
            note="a sweep over a literal collection: the same noise for every setting, on purpose",
        ),
        EXAMPLES.valid("valid_loop_runs_once.py", note="a loop that runs once"),
        EXAMPLES.valid("valid_eval_shape_runs_nothing.py", note="`eval_shape` runs nothing"),
        EXAMPLES.valid("valid_made_but_consumed_loop.py", note="made but not consumed in the loop"),
        EXAMPLES.valid(
            "valid_key_argument_jitted_function.py",
            note="the key is an argument of the jitted function",
        ),
        EXAMPLES.valid(
            "valid_sweep_fixed_data_per_configuration.py",
            note="each configuration draws its fixed input; nothing is kept across iterations",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_test_jitted_fixed_condition.py",
            note="in a test, a jitted step's fixed 'random' condition, the same on every call",
            runs=True,
            filename="tests/test_opt.py",
        ),
        EXAMPLES.valid(
            "valid_test_loop_repeats_same_work.py",
            note="in a test, each iteration repeats the same work on the same keys",
            runs=True,
            filename="tests/test_leak.py",
        ),
        EXAMPLES.valid(
            "valid_test_loop_over_named_sizes.py",
            note="in a test, a loop over sizes named in a literal list: one fixed input per"
            " configuration, on purpose",
            runs=True,
            filename="tests/test_mem.py",
        ),
        *KEY_HYGIENE,
    ]
    INVALID = [
        EXAMPLES.invalid(
            "invalid_key_factory_called_in_loop.py",
            line=13,
            message_contains="`make_key` returns `jax.random.key(42)`",
            note="a helper that returns a constant key, called in the loop",
        ),
        EXAMPLES.invalid(
            "invalid_x_x_jax_random_normal_jax.py",
            line=6,
            column=35,
            message_contains="makes the same key on every iteration of the loop at line 5",
        ),
        EXAMPLES.invalid("invalid_key_jax_random_prngkey_42.py", line=6),
        EXAMPLES.invalid(
            "invalid_return_x_jax_random_normal_key.py",
            message_contains="every call of `add_noise` (jitted by `jax.jit` at line 4)",
        ),
        EXAMPLES.invalid(
            "invalid_return_jr_normal_jr_key_0.py",
            message_contains="every iteration of the comprehension at line 5",
        ),
        EXAMPLES.invalid(
            "invalid_return_jax_lax_scan_body_x0.py",
            message_contains="every iteration of `body`, the body of `lax.scan` at line 9",
        ),
        EXAMPLES.invalid("invalid_return_state.py", message_contains="`jax.random.PRNGKey(SEED)`"),
        EXAMPLES.invalid(
            "invalid_consumed_through_function_file.py",
            note="consumed through a function of this file",
        ),
        EXAMPLES.invalid(
            "invalid_test_comprehension_same_inputs.py",
            line=5,
            message_contains="every iteration of the comprehension at line 5",
            note="in a test: four 'different' inputs, all equal",
            filename="tests/test_mean.py",
        ),
        EXAMPLES.invalid(
            "invalid_loop_appends_same_draws.py",
            line=7,
            message_contains="every iteration of the loop at line 6",
            note="the draws are appended: every batch is the same",
        ),
    ]

    def visit_Call(self, node: cst.Call) -> None:
        qn = self.model.call_name(node)
        if qn not in ("jax.random.key", LEGACY):
            self._factory_call(node)
            return
        seed = _constant_seed(self, node)
        if seed is None:
            return
        keys = self.ctx.keys
        val = keys.value(node)
        if val is None:
            return
        uses = [u for u in val.uses if u.kind != CALL]
        if not uses:
            return
        call = short(self.ctx.code(node), 48)
        loop = self._repeating_loop(node)
        if loop is not None:
            inside = [u for u in uses if self.ctx.model.inside(u.arg, loop)]
            if not inside:
                return
            kind = "comprehension" if not isinstance(loop, (cst.For, cst.While)) else "loop"
            if kind == "loop" and not self._kept(node, inside):
                return  # each iteration draws the fixed data of its own case
            self.report(
                node,
                call=call,
                where=f"iteration of the {kind} at line {line(self, loop)}",
                what="every iteration draws the same random numbers",
                advice=(
                    "make the key once before the loop and split it each iteration, or use"
                    " `jax.random.fold_in(key, i)`"
                ),
            )
            return
        info = compiled_function_of(self.ctx.trace, keys, node)
        if info is None:
            return
        body = keys.loop_body_of(info.node)
        if body is None and self._test_code(node):
            return  # a test wants the same numbers on every call
        if body is not None:
            prim = self.ctx.code(body[1].func).split(".")[-1]
            where = f"iteration of `{info.name}`, the body of `lax.{prim}` at line {line(self, body[1])}"
            what = "every iteration draws the same random numbers"
            advice = (
                "thread a key through the carry and split it, or use `jax.random.fold_in(key, i)`"
            )
        else:
            where = f"call of `{info.name}` ({info.how(lambda n: line(self, n))})"
            what = "every call draws the same random numbers"
            advice = "pass the key in as an argument"
        self.report(node, call=call, where=where, what=what, advice=advice)

    def _factory_call(self, node: cst.Call) -> None:
        """``key = make_key()`` in a loop, where ``make_key`` of this module returns
        ``jax.random.key(<constant>)``: the same key on every iteration."""
        if type(node.func) is not cst.Name or not self._loops[-1]:
            return
        resolved = self.ctx.trace.resolve_callable(node.func)
        if resolved is None or type(resolved[0]) is not cst.FunctionDef:
            return
        made = key_factory(self.model, resolved[0])
        if made is None or _constant_seed(self, made) is None:
            return
        loop = self._repeating_loop(node)
        if loop is None or not isinstance(loop, (cst.For, cst.While)):
            return
        val = self.ctx.keys.value(node)
        if val is None:
            return
        inside = [u for u in val.uses if u.kind != CALL and self.ctx.model.inside(u.arg, loop)]
        if not inside or not self._kept(node, inside):
            return
        self.report(
            node,
            call=short(self.ctx.code(node), 48),
            where=f"iteration of the loop at line {line(self, loop)}",
            what=(
                f"`{resolved[0].name.value}` returns `{short(self.ctx.code(made), 40)}`, so every"
                " iteration draws the same random numbers"
            ),
            advice=(
                "make the key once before the loop and split it each iteration, or use"
                " `jax.random.fold_in(key, i)`"
            ),
        )

    def _kept(self, node: cst.Call, uses: list[Use]) -> bool:
        """A draw of a ``for``/``while`` loop is kept across iterations (appended,
        stored by index, accumulated, carried in ``x = x + draw``): the iterations were
        meant to draw different numbers. A draw used only within its iteration (a
        benchmark or test case per configuration) repeats on purpose."""
        keys = self.ctx.keys
        fn = keys.function_of(node)
        return any(keys.collected(u.call, fn) for u in uses)

    def _test_code(self, node: cst.Call) -> bool:
        return self.ctx.is_test_file or self.ctx.keys.in_test_function(
            self.ctx.keys.function_of(node)
        )
