"""JAX401 jit-in-loop: a compiling transform (`jax.jit`, `jax.pmap`, ...) applied to a
function inside a Python loop, which rebuilds the wrapper (and often recompiles) each time."""

from __future__ import annotations

from jaxlint.rules.base import Event, Examples, Rule
from jaxlint.rules.compilation.jit_in_loop_analysis import LoopDependencies

EXAMPLES = Examples(__file__)


VALID_EXAMPLES = [
    EXAMPLES.valid(
        "valid_axis_name_changes_the_program.py",
        runs=True,
        note="the loop's value is a collective's axis name, bound as a lambda default:"
        " another program per name, and a name cannot be a traced argument",
    ),
    EXAMPLES.valid(
        "valid_decorated_def_per_sample_reused.py",
        runs=True,
        note="a decorated def per sample, reused by an inner loop",
    ),
    EXAMPLES.valid(
        "valid_decorated_def_sweeps_cases.py",
        runs=True,
        note="a decorated def per case of a literal sweep",
    ),
    EXAMPLES.valid(
        "valid_fix_jit_hoisted_above_loop.py",
        note="the fix: jit hoisted above the loop",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_jit_module_level_called_loop.py",
        note="jit at module level, called in the loop",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_inside_jit_inner_wrapper_traced.py",
        note="inside jit the inner wrapper is traced inline, once per outer compile",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_one_compilation_per_case_literal.py",
        note="one compilation per case of a literal sweep is the point",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_vmap_caches_nothing_rebuilding_costs.py",
        note="vmap caches nothing: rebuilding it costs little",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_wrapper_built_when_g_called.py",
        note="the wrapper is built when g is called, not by the loop",
    ),
    EXAMPLES.valid(
        "valid_wrappers_built_comprehension_called_loop.py",
        note="wrappers built in a comprehension, called in the loop",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_cache_wrappers_built_once.py", note="a cache of wrappers built once", runs=True
    ),
    EXAMPLES.valid(
        "valid_local_function_named_jit_jax.py",
        note="a local function named jit is not jax.jit",
    ),
    EXAMPLES.valid(
        "valid_loop_s_iterable_evaluated_once.py",
        note="the loop's iterable is evaluated once",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_ahead_time_lowering_purpose_same.py",
        note="ahead-of-time lowering on purpose; the same function over two literal cases",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_closure_over_function_built_in_loop.py",
        note="the lambda closes over a function built in the loop: no argument can carry it",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_closure_over_per_sample_physics.py",
        note="closes over a system built per sample (its own sizes): one compile per sample",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_wrapper_per_sample_reused_inner_loop.py",
        note="built once per sample and reused by the inner loop: the correct pattern",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_loop_over_distinct_functions.py",
        note="a loop over distinct functions: one compilation each is the point",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_loop_over_dtypes_in_variable.py",
        note="dtypes held in a constant or a parameter, not only literals",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_loop_over_cases_static_config.py",
        note="the case sets static configuration of the function (`partial(..., n=...)`)",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_same_function_per_epoch_reused_inner.py",
        note="the same function wrapped once per epoch and reused for every batch",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_same_function_short_loop.py",
        note="the same function rewrapped in a tutorial's 100 steps: a slower call, "
        "no new compilation, a few milliseconds in all (jax-md's examples)",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_same_function_under_rare_guard.py",
        note="the same function rewrapped under `if step % collect_every == 0:`",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_benchmark_traces_on_purpose.py",
        note="a registered benchmark traces and compiles a new function each round on "
        "purpose (jax's api_benchmark.py)",
    ),
    EXAMPLES.valid(
        "valid_rebuilt_in_except_handler.py",
        note="rebuilt only in the `except` handler, after an out-of-memory error",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_retry_loop_on_out_of_memory.py",
        note="a retry loop: the `try` returns on success, only an out-of-memory error"
        " comes round again, with another batch size (compiled anyway)",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_same_function_runs_whole_chain.py",
        note="the same function, whose one call runs a whole chain (`lax.scan`), "
        "rewrapped once per chain (numpyro's sequential chains)",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_test_rewraps_same_function.py",
        note="in a test, the same function rewrapped: no new compilation, only a slower "
        "call per step, which is not what a test checks (test policy)",
        filename="tests/test_training.py",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_test_sweeps_functions_under_test.py",
        note="a test looping over the functions it tests: one compilation each",
        filename="tests/test_activations.py",
        runs=True,
    ),
]
INVALID_EXAMPLES = [
    EXAMPLES.invalid(
        "invalid_equinox_wrapper_rebuilt_around_same_function.py",
        line=12,
        message_contains="a new wrapper around the same function",
        note="`eqx.filter_jit` compares Equinox wrappers by value: a new"
        " `eqx.filter_vmap(f)` around the same `f` hits its cache (no retrace, measured);"
        " only the wrapper is rebuilt",
    ),
    EXAMPLES.invalid(
        "invalid_decorated_def_in_loop.py",
        line=6,
        message_contains="the `def` makes a new function `step` on every iteration",
        note="a @jax.jit def in a loop body: a new function, compiled again, each time",
    ),
    EXAMPLES.invalid(
        "invalid_decorated_def_closes_over_batch.py",
        line=10,
        message_contains="pass `batch` as an argument",
        note="a decorated def that closes over the loop's array: pass it as an argument",
    ),
    EXAMPLES.invalid(
        "invalid_step_jax_jit_train_step.py",
        line=9,
        column=12,
        message_contains="build it once above the loop at line 8",
    ),
    EXAMPLES.invalid(
        "invalid_rewrapped_with_a_growing_argument.py",
        line=12,
        message_contains="`history` grows on every iteration",
        note="the same function, but an argument it hands back longer: a new shape, so a"
        " new trace and compilation, every iteration (hoisting keeps that; padding ends it)",
    ),
    EXAMPLES.invalid(
        "invalid_out_append_jax_jit_scale_static.py",
        line=11,
        message_contains="fast dispatch path",
    ),
    EXAMPLES.invalid(
        "invalid_hoisted_above_outermost_loop_does.py",
        line=8,
        message_contains="traces and compiles it again",
        unsafe_fix=True,
        note="hoisted above the outermost loop it does not depend on, with its comment",
    ),
    EXAMPLES.invalid(
        "invalid_statement_over_several_lines_moves.py",
        line=10,
        note="a statement over several lines moves whole (found on jax's own pallas code)",
    ),
    EXAMPLES.invalid(
        "invalid_depends_outer_sweep_s_i.py",
        line=7,
        message_contains="build it once above the loop at line 6",
        unsafe_fix=True,
        note="depends on the outer sweep's i: hoisted above the inner loop only",
    ),
    EXAMPLES.invalid(
        "invalid_depends_batch_fix_message_says.py",
        line=9,
        message_contains="pass `x` as an argument",
        note="depends on the batch: no fix, the message says what to pass",
    ),
    EXAMPLES.invalid(
        "invalid_function_redefined_loop_hoisting_would.py",
        line=8,
        message_contains="define `double`",
        note="a function redefined in the loop: hoisting would wrap another object",
    ),
    EXAMPLES.invalid(
        "invalid_w_jax_jit_self_step_w.py",
        line=10,
        message_contains="bound method `self.step`",
        unsafe_fix=True,
    ),
    EXAMPLES.invalid("invalid_b_nnx_jit_f_i.py", count=2),
    EXAMPLES.invalid(
        "invalid_checkify_of_lambda_each_iteration.py",
        line=7,
        message_contains="result is a new function on every iteration",
        note="a wrapper around a new lambda (`checkify.checkify(lambda ...)`) is new too",
    ),
    EXAMPLES.invalid(
        "invalid_call_wrapper_fix_building_once.py",
        line=7,
        message_contains="if `make()` is a new object each time",
        note="a call in the wrapper: no fix (building it once would skip the call)",
    ),
    EXAMPLES.invalid(
        "invalid_try_in_training_loop_is_not_retry.py",
        line=10,
        message_contains="pass `lr` as an argument",
        note="a `try` in a training loop that does not end the loop on success: every"
        " step builds a new lambda",
    ),
    EXAMPLES.invalid(
        "invalid_closure_over_updated_params.py",
        line=13,
        message_contains="pass `params` as an argument",
        note="closes over array state updated each step: one compile per step",
    ),
    EXAMPLES.invalid(
        "invalid_lambda_per_epoch_reused_inner.py",
        line=7,
        message_contains="traces and compiles it again",
        unsafe_fix=True,
        note="reused by the inner loop, but the same lambda compiles again every epoch",
    ),
    EXAMPLES.invalid(
        "invalid_def_closes_over_value_from_loop.py",
        line=12,
        message_contains="define `shrink` above the loop with `scale` as an argument",
        note="a function defined in the loop over a value the loop updates",
    ),
    EXAMPLES.invalid(
        "invalid_instance_method_each_iteration.py",
        line=14,
        message_contains="bound method `model.apply` is a new function on every iteration",
        unsafe_fix=True,
        note="`model = Model()`: `model.apply` is a new bound method at each evaluation",
    ),
    EXAMPLES.invalid(
        "invalid_project_jit_wrapper.py", line=14, message_contains="`maybe_jit(lambda v"
    ),
    EXAMPLES.invalid(
        "invalid_test_jits_new_lambda_each_iteration.py",
        line=13,
        message_contains="JAX traces and compiles it again each time",
        unsafe_fix=True,
        filename="tests/test_training.py",
        note="in a test, a new lambda per iteration: 100 compilations for one test",
    ),
]


class JitInLoop(LoopDependencies, Rule):
    code = "JAX401"
    name = "jit-in-loop"
    default_enabled = True
    message = "`{wrapper}` is built inside the loop at line {loop_line}: {consequence}; {advice}"
    fix_availability = "sometimes"
    probe = "jaxlint probe recompile --loop FILE.py:FUNC --steps 3"
    confirmed_by = (Event("/jax/core/compile/backend_compile_duration"),)  # one per iteration
    docs = """\
## What it does
Flags a compiling transform (`jax.jit`, `jax.pmap`, `pjit`, `flax.nnx.jit`,
`equinox.filter_jit`, `equinox.filter_pmap`, in any import spelling) applied to a
function inside the body of a Python `for` or `while` loop, whether the wrapper
is assigned (`step = jax.jit(train_step)`) or called inline
(`jax.jit(train_step)(state, batch)`), and a decorated `def` in the loop body
(`@jax.jit def step(...)`, `@partial(jax.jit, ...)`): the `def` makes a new
function on every iteration, so each one is traced and compiled again. A
decorated `def` that closes over what the loop binds is silent when the loop
sweeps cases or when the function then serves many calls (an inner loop, a
comprehension, or a function it is handed to), as for the wrapper forms.

It reports only what can be built once: a wrapper that does not depend on the
loop (hoist it), or a wrapped function that changes only through array values
the loop computes (`jax.jit(lambda w: loss(w, batch))` in `for batch in
batches`: pass `batch` as an argument).

It stays silent when the wrapped function really changes with the iteration, so
one compilation per iteration is the point or cannot be avoided:

- what changes is a function (`for fn in fns: jax.jit(fn)`, a lambda that calls
  a `force` built in the loop): no argument can carry it;
- what changes is an object built in the loop (`system = build_system(spec)`,
  closed over by the wrapped function) or static configuration (a dtype, a shape,
  `partial(f, n=case["n"])`, the transform's own options, the axis name of a collective:
  `lambda b, axes=axes: lax.psum(b, axes)` in `for axes in groups:` is another program
  for each group, and `axes` cannot be a traced argument);
- the loop sweeps cases: a literal list, a constant holding one (`for dtype in
  DTYPES:`), or targets that say so (`for dtype in dtypes:`, `for case in cases:`);
- the wrapper, built once per outer iteration, then serves many calls (an inner
  loop, a comprehension, or a function it is handed to): the correct pattern for
  a per-sample function. Around the same function (`jax.jit(train_step)` once per
  epoch) that costs one slow call per epoch and is not reported either; around a
  lambda that does not depend on the loop it still compiles once per epoch and is.

It is silent in a retry loop: a `try` in the loop body whose body ends with
an unconditional `return` or `break` and holds no `continue`, so that the loop
comes round only when an `except` handler falls through (`while True: try: fn =
jax.jit(jax.vmap(f)); return fn(x) except MemoryError: batch_size //= 2`): the
wrapper is built once per attempt, and a retry, with another batch size, compiles
anyway. A `try` that does not end the loop on success (a training step wrapped
in `try`) is a loop like any other. A wrapper built in an `except` handler is not
built per iteration either: the handler runs when the loop's work fails (`except
Exception as err: batch //= 2; fn = jax.jit(jax.vmap(f)); continue`).

It is also silent when the loop runs while an outer `jit` traces (the inner
wrapper is traced inline, once per outer compilation), on `jax.vmap`/`jax.grad`
wrappers (they cache nothing), on ahead-of-time use (`jax.jit(f).lower(x)`), and
in a registered benchmark (`@google_benchmark.register`), which repeats what it
measures, tracing and compiling included, on purpose.

**What JAX does decides the message and the severity** (checked by
`tests/test_compilation_runtime.py`, which counts traces and compilations of each
form on CPU JAX):

- a new function per iteration (a `lambda`, a `partial`, a `def` in the loop, a
  bound method `self.step` or `model.apply` of an instance built from a class of the
  module, the result of `jax.vmap(f)`): JAX traces and compiles it again on every
  iteration. Severity **error**;
- the same function every time (a module-level function, an import, a name the loop
  does not rebind): JAX reuses the trace and the compiled code it cached on the
  function; only each call through the new wrapper is slower (it misses the
  wrapper's fast dispatch path). Severity **warning**. Unless an argument grows on
  every iteration (the loop rebinds it to itself joined with more, `x =
  jnp.concatenate([x, y])`, or the function hands it back so: `a, x = jax.jit(f)(a, x)`
  where `f` returns `jnp.concatenate([x, new])` there): then every call has a new shape,
  JAX traces and compiles the function again each time whatever the wrapper, and the
  message says that, with severity **error** (padding the argument to a fixed size is
  what compiles once; the fix, hoisting the wrapper, keeps behaviour and that cost);
- a callable the rule cannot see (`obj.step`): the message says both outcomes.
  Severity **warning**.

Around the same function, where a slower call costs nothing that matters, it is not
reported: in a loop whose bounds the code spells to at most 100 iterations in all
(`range(50)`, `range(100 if not SMOKE_TEST else 10)`: a tutorial), under a guard
that runs one iteration in N (`if step % N == 0:`), and when one call of the
wrapped function runs many steps itself (a `lax.scan`, `fori_loop` or a `for` over
`range` in it or in a helper it calls: a whole MCMC chain or epoch per call). A new
function per iteration is reported in all of these: it compiles every time.

**In tests.** A new function per iteration is reported as in other code: the suite
pays a compilation per step. The same function (or one the rule cannot see)
rewrapped is silent in test code: a slower call per step is not what a test checks
(the test policy: docs/precision/test-code.md). The loops tests write on purpose
(over dtypes, shapes, cases or the functions under test, and a per-case wrapper
reused by an inner loop) are recognised everywhere.

**On by default** (recompilation is a red flag this linter exists for). On the
projects already read (docs/precision/headline-rules.md): 9 findings, no false alarm,
6 worth acting on, 3 right but not worth it (the same function rewrapped once per MCMC
chain). A new function per iteration is an error (traced and compiled every time); the
same function rewrapped is a warning (JAX reuses its trace and compiled code).

## Why is this bad
`jax.jit` caches the trace and the compiled program on the identity of the
function it wraps. Measured on JAX 0.12 (CPU; the script is in
docs/precision/headline-rules.md):

- When the wrapped function is a new object on every iteration (a `lambda`, a
  `functools.partial`, a function defined in the loop, a bound method, the result
  of `jax.vmap(f)`, or of any call built around one of these, such as
  `checkify.checkify(lambda ...)`), every iteration traces and compiles it again: four
  iterations gave four traces and four XLA compilations instead of one, about
  16 ms per iteration for `x * 2 + 1`.
- When it is the same function every time (`jax.jit(train_step)`), the trace and
  the compilation are reused (one of each for four iterations), but every call
  goes through a new wrapper, off JAX's fast dispatch path: 45 µs per call
  instead of 4 µs for a small function (`equinox.filter_jit`: 197 µs instead of
  33 µs).

## Example
```python
import jax
import jax.numpy as jnp

def train_step(w, x):
    return w - 0.1 * x

w = jnp.ones(3)
for i in range(10_000):
    step = jax.jit(train_step)
    w = step(w, jnp.full(3, i))
```

## Use instead
```python
import jax
import jax.numpy as jnp

def train_step(w, x):
    return w - 0.1 * x

w = jnp.ones(3)
step = jax.jit(train_step)
for i in range(10_000):
    w = step(w, jnp.full(3, i))
```
When the wrapped function depends on array values the loop computes
(`jax.jit(lambda w: w - lr * g)` with `g` computed in the loop), jit it once
outside the loop and pass the changing values as arguments. When it depends on a
function or an object built per sample, build the wrapper once per sample and
reuse it for every step of that sample.

## Fix safety
Offered when the wrapper and everything it refers to (the wrapped function, the
transform's options) do not depend on the loop: no name it uses is assigned in
the loop body or by the loop target, no attribute or item of one is assigned
there, it calls nothing but the transform and `functools.partial` (so building it
once has no other effect), and no `try` or `with` lies between it and the loop.
The wrapper moves above the outermost loop it does not depend on: an assignment
`step = jax.jit(f)` moves as it is (with the comments just above it) when `step`
is bound nowhere else in the function; otherwise the wrapper is bound to a new
name above the loop (`train_step_jit = jax.jit(train_step)`) and used in its
place. A function defined inside the loop is never hoisted (the fix would wrap a
different object).

Safe when the wrapped function is the same object on every iteration (a
module-level function, an import, a name the loop does not rebind): the original
already reused its first trace, so only the dispatch changes. Unsafe when it is a
new object per iteration (a lambda, a `partial`, a bound method `self.step`): the
original traced it again on every iteration, re-reading every Python value the
function reads while tracing (an attribute of `self`, a closed-over dict, a
global); after the fix such values are read once, at the first call, so a loop
that changes them (`self.lr = schedule(epoch)`) computes with the first value.

## Verify at runtime
`jaxlint probe recompile --loop FILE.py:FUNC --steps 3` calls the function that
contains the loop three times and counts XLA compilations per call (from
`jax.monitoring` events): a wrapper around a new function compiles once per
iteration, in every call.
"""
    VALID = VALID_EXAMPLES
    INVALID = INVALID_EXAMPLES
