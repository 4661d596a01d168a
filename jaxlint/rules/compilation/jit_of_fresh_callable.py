"""JAX402 jit-of-fresh-callable: a function body that jits a callable it creates on every
call (a lambda, a `partial`, a nested function, a bound method), so every call recompiles."""

from __future__ import annotations

import libcst as cst

from jaxlint.analysis.transforms import EQUINOX_CACHED_BY_VALUE
from jaxlint.rules.base import Event, Examples, Rule
from jaxlint.rules.compilation.helpers import COMPILING, Queries, short
from jaxlint.rules.compilation.jit_of_fresh_callable_analysis import (
    FreshCallableChecks,
    compiled_loop,
    inline,
)

EXAMPLES = Examples(__file__)


VALID_EXAMPLES = [
    EXAMPLES.valid(
        "valid_fix_jit_module_level_closed.py",
        note="the fix: jit at module level, closed-over values as arguments",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_eqx_filter_jit_of_eqx_wrapper.py",
        note="`eqx.filter_vmap(solve)` compares equal to the last one: filter_jit's cache hits",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_factory_returns_jitted_function_built.py",
        note="a factory returns the jitted function: built once by the caller",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_module_level_jax_jit_lambda.py",
        note="module-level jax.jit(lambda ...)",
        runs=True,
    ),
    EXAMPLES.valid("valid_cached_builder.py", note="a cached builder", runs=True),
    EXAMPLES.valid(
        "valid_jit_module_level_function_cached.py",
        note="jit of a module-level function: cached on g",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_inside_jit_inner_wrapper_traced.py",
        note="inside jit the inner wrapper is traced inline",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_jitted_lambda_stored_object_built.py",
        note="the jitted lambda is stored on the object: built once per object",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_tests_their_helpers_main_run.py",
        note="tests, their helpers and main run once",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_program_entry_runs_once.py",
        filename="examples/fit.py",
        note="a program's function that its `__main__` block calls once: one compilation"
        " per run (decayamplitude's `examples/three_body_jpsi.py`)",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_test_file_helper_runs_per_test.py",
        filename="tests/test_branches.py",
        note="a helper of a test file: called once per test",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_sharded_init_runs_once_per_model.py",
        note="`sharded_init`: a word of the name says it initialises (once per model)",
        runs=True,
    ),
    EXAMPLES.valid("valid_loop_jax401_reports.py", note="in a loop: JAX401 reports it"),
    EXAMPLES.valid(
        "valid_returned_after_warm_up_call.py", note="returned after a warm-up call: a factory"
    ),
    EXAMPLES.valid(
        "valid_vmap_grad_compile_nothing_their.py",
        note="vmap and grad compile nothing on their own",
    ),
    EXAMPLES.valid(
        "valid_built_once_per_call_train.py",
        note="built once per call of train, called in its loop: the compile is amortised",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_initialiser_runs_once_per_model.py",
        note="an initialiser runs once per model",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_pmap_may_inner_map_under.py",
        note="a pmap that may be an inner map under an outer pmap (brax replay_buffers.py)",
    ),
    EXAMPLES.valid(
        "valid_compiled_scan_over_whole_run.py",
        note="a compiled scan over the whole run, inline=True, ahead-of-time lowering",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_module_s_method_usually_runs.py",
        note="a module's method usually runs under a transform",
    ),
    EXAMPLES.valid(
        "valid_numpyro_model_runs_traced.py",
        note="a numpyro model runs under the inference's trace: the inner jit is inlined "
        "(evofr's renewal model)",
    ),
    EXAMPLES.valid(
        "valid_built_from_function_parameter.py",
        note="built from the caller's function `f`: each call's function compiles anyway "
        "(brainpy's brentq_roots)",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_module_level_function_to_project_wrapper.py",
        note="a module-level function given to a project function that jits it: compiled once",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_static_argument_module_level_function.py",
        note="a module-level function as a static argument: hashed the same every call",
        runs=True,
    ),
]

INVALID_EXAMPLES = [
    EXAMPLES.invalid(
        "invalid_checkify_of_lambda.py",
        line=6,
        message_contains="result, built around a lambda, created anew on every call of "
        "`checked_scale`",
        note="a wrapper around a new lambda is new too (`checkify.checkify(lambda ...)`)",
    ),
    EXAMPLES.invalid(
        "invalid_return_jax_jit_lambda_v_v.py",
        line=5,
        column=12,
        message_contains="jits a lambda, created anew on every call of `normalize`",
    ),
    EXAMPLES.invalid(
        "invalid_f_jax_jit_functools_partial_scale.py",
        line=8,
        message_contains="`functools.partial(scale, k=k)`",
    ),
    EXAMPLES.invalid(
        "invalid_return_jax_jit_inner_params.py",
        line=6,
        message_contains="the nested function `inner`",
    ),
    EXAMPLES.invalid(
        "invalid_nested_jit_mapped_with_vmap.py",
        line=6,
        message_contains="jits the nested function `uniform`, created anew on every call of `rvs`",
        note="mapped by `jax.vmap` and called: the map traces the new function again"
        " (metalog-jax's `rvs`)",
    ),
    EXAMPLES.invalid(
        "invalid_jit.py",
        line=4,
        column=5,
        message_contains="`@jit` jits the nested function `update`",
    ),
    EXAMPLES.invalid(
        "invalid_program_function_called_twice.py",
        filename="examples/fit.py",
        line=9,
        message_contains="created anew on every call of `fit`",
        note="the same program calling `fit` in a loop: each call compiles again",
    ),
    EXAMPLES.invalid(
        "invalid_return_jax_jit_self_step_w.py",
        line=8,
        message_contains="the bound method `self.step`",
    ),
    EXAMPLES.invalid(
        "invalid_return_eqx_filter_jit_jax_vmap.py",
        line=8,
        message_contains="the `jax.vmap(g)` result",
    ),
    EXAMPLES.invalid(
        "invalid_closure_of_factory_rewraps.py",
        line=10,
        message_contains="build the wrapper once in `make_loss`, outside `loss`",
        note="a closure made by a factory: what it wraps belongs to the factory",
    ),
    EXAMPLES.invalid(
        "invalid_host_code_device_get_assert.py",
        line=6,
        column=24,
        message_contains="pmaps a lambda, created anew on every call of `synchronize_hosts`",
        note="host code (device_get, assert): a new compilation per call (brax pmap.py)",
    ),
    EXAMPLES.invalid(
        "invalid_loop_over_devices_not_a_driver.py",
        line=14,
        message_contains="jits a lambda, created anew on every call of `global_max`",
        note="a loop over the devices does not make a driver (orbax d8a2a638, a fixed bug)",
    ),
    EXAMPLES.invalid(
        "invalid_pmap_called_from_host_loop.py",
        line=6,
        message_contains="pmaps a lambda, created anew on every call of `sync_batch_stats`",
        note="called from the host training loop of the module (flax 266052cb, a fixed bug)",
    ),
    EXAMPLES.invalid(
        "invalid_project_jit_wrapper.py",
        line=16,
        message_contains="jits the nested function `loop_fn` (`maybe_jit` jits its "
        "argument `fn`), created anew on every call of `collect`",
        note="a jit wrapper of the project; the loop is in the other branch, so it does "
        "not amortise the compilation (numpyro e10f6648, a fixed bug)",
    ),
    EXAMPLES.invalid(
        "invalid_passed_to_function_that_jits.py",
        line=11,
        column=42,
        message_contains="`collect` jits its argument `transform` (through a function "
        "that calls it), here a lambda, created anew on every call of `run`",
        note="a function of the project that jits what it is given (numpyro 947d6984, "
        "a fixed bug: `fori_collect(..., transform=lambda ...)`)",
    ),
    EXAMPLES.invalid(
        "invalid_fresh_static_argument.py",
        line=7,
        message_contains="is given, as its static argument 2, a lambda, created anew on "
        "every call of `warmup`",
        note="a fresh function as a static argument: hashed by identity (numpyro 40442d08)",
    ),
]


class JitOfFreshCallable(FreshCallableChecks, Queries, Rule):
    code = "JAX402"
    name = "jit-of-fresh-callable"
    default_enabled = True
    message = (
        "`{wrapper}` {verb} {what}, created anew on every call of `{outer}`: {consequence}; "
        "{advice}"
    )
    fix_availability = "none"
    probe = "jaxlint probe recompile --loop FILE.py:FUNC --steps 3"
    confirmed_by = (Event("/jax/core/compile/backend_compile_duration"),)  # one per iteration
    docs = """\
## What it does
Flags a compiling transform (`jax.jit`, `jax.pmap`, `pjit`, `flax.nnx.jit`,
`equinox.filter_jit`, `equinox.filter_pmap`) applied inside a function body to a
function that the body creates on every call, and then called there:

- `jax.jit(lambda x: ...)(x)` or `f = jax.jit(lambda ...)` followed by `f(...)`;
- `jax.jit(functools.partial(g, a))(x)`;
- `jax.jit(inner)(x)` where `inner` is defined in the function, and a nested
  `@jax.jit def inner(...)` called by the function, also through `jax.vmap(inner)`
  called there (the map traces the new function again);
- `jax.jit(self.method)(x)` (a new bound method each time),
  `jax.jit(jax.vmap(g))(x)` (a new wrapper each time) and any call built around
  one of these (`jax.jit(checkify.checkify(lambda ...))`: whatever wraps a new
  function is new too). Not `eqx.filter_jit(eqx.filter_vmap(f))` around a stable `f`:
  Equinox's wrappers compare by value and hit the cache;
- the same through a function of the project, in this module or another: a jit
  wrapper (`maybe_jit(loop_fn)(x)` where `maybe_jit` returns `jax.jit(fn)`), and a
  call that gives a fresh callable to a function that jits it and runs it, itself
  or through a closure that calls it (`fori_collect(..., transform=lambda x: ...)`
  where `fori_collect` jits `lambda v: ravel(transform(v))`). Each module's summary
  says which parameters its functions jit (`analysis/jit_params.py`);
- a fresh callable given as a *static* argument of a jitted function
  (`jax.jit(lax.fori_loop, static_argnums=(2,))(0, n, lambda i, x: ..., x)`): JAX
  hashes static arguments into its cache key, and a function hashes by identity.
  Only in host code, as for `pmap` below: in an array function (an energy, a loss)
  that its caller jits, the static argument is hashed once per outer trace.

A `jax.pmap` counts only in a function that also fetches values to the host
(`jax.device_get`, `np.asarray`, `float`, `.item()`, `print`, `assert`): elsewhere
it may run under an outer `pmap`, where it is a meaningful inner map.

It stays silent on `jax.jit(..., inline=True)` (meant to be inlined into an
outer trace), on ahead-of-time use (`jax.jit(f).lower(x)`), on a jitted
`partial(lax.scan, step)` (the whole run is one compiled loop), on methods of
classes with a base class (modules, whose methods usually run under a
transform), on factories, which return or store the jitted function
(`return jax.jit(lambda ...)`, `self._step = jax.jit(...)`), on builders cached
with `functools.cache`/`lru_cache`, on module-level `jax.jit(lambda ...)`, on
`jax.jit(g)` of a function defined outside the body (JAX caches it on `g`), on
a project function that returns another transform on some paths (`map_fn`
returning `jax.pmap(fn)`, `jax.vmap(fn)` or a `partial` by its argument), on
code that runs while an outer `jit` traces (the inner wrapper is inlined), on
functions that run once (`main`, `test_*`, `setUp`, and their nested helpers), on
initialisers and builders (a name with a word starting with `init`, `setup`,
`create`, `build`, `make`: `init_params`, `sharded_init`), on wrappers built in
a loop (JAX401 reports those), and on functions that contain a loop, such as a
training driver that builds `step = jax.jit(partial(train_step, cfg))` and runs
it: one compilation per run of such a function is amortised over its work. A loop
in the other branch of an `if` (`if not progbar: ... jit ... else: for ...`) does
not count: a call that builds the wrapper never runs it.

It is also silent on a numpyro model (a function that calls `numpyro.sample`,
`deterministic`, `plate`, ...): the inference that uses it traces it (MCMC and SVI
jit it, Predictive vmaps it), so an inner `jit` is inlined rather than compiled per
call; and when the fresh callable is built from a function the caller passes in
(`jax.jit(jax.vmap(solver(f)))` with `f` a parameter that is called or named as a
function: `f`, `fn`, `loss_fn`): each call's function is new anyway, and no
module-level function could take it as an array argument. A loop over the devices
(`for d in jax.local_devices()`) or one the code bounds to at most 100 iterations
does not make a function a driver. A `pmap` counts, besides in a function that
fetches values to the host, in one this module calls from code that is not traced
(`sync_batch_stats(state)` in the training loop).

**On by default** (recompilation is one of the red flags this linter exists for; it
was off until 2026-12-05). Its claim is right wherever it reports: on the projects
already read (the three held-out sets and the pinned tuning corpus, now development
data, and the trees of the real-bug corpus; docs/precision/headline-rules.md), after
the changes above, 15 findings, no false alarm, 7 worth acting on (among them three
bugs that their projects fixed: flax's `sync_batch_stats`, orbax's `_global_max`,
numpyro's `SVI.step`) and 8 right but not worth acting on: functions that run once
per program run (a host barrier at the end of training, a feature matrix built once
per fit, a one-shot inspection or export helper), which only their callers, in other
modules, show. Every one of them compiles again on each call; whether that costs
anything depends on how often the function runs, which its callers show. Silence a
function that runs once per program (`# noqa: JAX402`), or turn the rule off with
`extend-ignore = ["JAX402"]`.

**In tests.** Silent in test files (`tests/`, `test_*.py`, `*_test.py`,
`conftest.py`): a test and its helpers run a few times per test run, so one
compilation per call is what the test costs, not a slowdown to fix.

## Why is this bad
`jax.jit` caches compiled code on the identity of the wrapped function. A lambda,
a `partial`, a nested function or a bound method is a new object on every call of
the enclosing function, so every call misses the cache: JAX traces and compiles
again, which usually costs far more than running the function (checked on JAX
0.12: three calls, three compilations, for each form above, through a project
wrapper and as a static argument too: tests/test_jit_wrappers.py). When the enclosing
function itself runs under `jit`, the inner `jit` is inlined into the outer trace:
nothing is compiled again, but the inner `jit` does nothing either.

## Example
```python
import jax
import jax.numpy as jnp

def normalize(x, eps):
    return jax.jit(lambda v: v / (jnp.linalg.norm(v) + eps))(x)
```

## Use instead
```python
import jax
import jax.numpy as jnp

@jax.jit
def _normalize(v, eps):
    return v / (jnp.linalg.norm(v) + eps)

def normalize(x, eps):
    return _normalize(x, eps)
```
Define the function once (module level) and pass what it closed over as
arguments (static ones with `static_argnames`), or build the jitted function once
in a factory cached with `functools.cache`.

## Fix safety
No automatic fix: moving the function out of its body means turning the values it
closes over into arguments, and deciding which of them must be static.

## Verify at runtime
`jaxlint probe recompile --loop FILE.py:FUNC --steps 3` calls the enclosing
function three times and counts XLA compilations per call (from `jax.monitoring`
events): a fresh function compiles on every call, not only the first.
"""
    VALID = VALID_EXAMPLES
    INVALID = INVALID_EXAMPLES

    def visit_Call(self, node: cst.Call) -> None:
        found = self.wrapper(node)
        if found is None:
            self._passed_to_jitter(node)
            self._fresh_static(node)
            return
        transform, fexpr = found
        outer, looped = self.function_scope(node)
        if not isinstance(outer, cst.FunctionDef) or looped or not self._repeated(outer, node):
            return
        if transform.endswith("pmap") and not self._host_side(outer):
            return
        if self.ahead_of_time(node) or inline(node) or compiled_loop(self, fexpr):
            return
        what = self._fresh(fexpr, outer)
        if what is not None and transform in EQUINOX_CACHED_BY_VALUE:
            what = self._wrapped_fresh(fexpr, outer, what)
        if what is None or self._function_parameter(self._source(fexpr, outer), outer):
            return
        parent = self.index.parent.get(id(node))
        called = isinstance(parent, cst.Call) and parent.func is node
        if not called:
            if not (isinstance(parent, cst.Assign) and parent.value is node):
                return
            if len(parent.targets) != 1 or not isinstance(parent.targets[0].target, cst.Name):
                return
            if not self._only_called(parent.targets[0].target, outer):
                return
        param = self._wrapper_param(node)
        if param is not None:
            verb = "pmaps" if transform.endswith("pmap") else "jits"
            what = f"{what} (`{short(self.ctx.code(node.func))}` {verb} its argument `{param}`)"
        self._report(node, self.ctx.code(node), what, outer, transform)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        if not node.decorators:
            return
        deco = node.decorators[0]
        got = self.ctx.trace.transform_of(deco.decorator)
        if got is None or got[0].qualname not in COMPILING:
            return
        transform = got[0].qualname
        outer, _ = self.function_scope(node)
        if not isinstance(outer, cst.FunctionDef) or not self._repeated(outer, node):
            return
        if transform.endswith("pmap") and not self._host_side(outer):
            return
        if not self._only_called(node.name, outer) or self._function_parameter(node, outer):
            return
        what = f"the nested function `{node.name.value}`"
        self._report(deco, f"@{self.ctx.code(deco.decorator)}", what, outer, transform)
