"""JAX301 prng-key-reuse: a PRNG key consumed twice on one path (twice in a row, in a
loop that does not rebind it, by the body of a lax loop that closes over it, or returned
consumed in a lax loop's carry), unless the two uses are compared against each other."""

from __future__ import annotations

import libcst as cst

from jaxlint.rules.base import Raises, Rule
from jaxlint.rules.prng.prng_key_reuse_analysis import PrngKeyReuseChecks
from jaxlint.rules.prng.prng_key_reuse_examples import INVALID_EXAMPLES, VALID_EXAMPLES


class PrngKeyReuse(PrngKeyReuseChecks, Rule):
    code = "JAX301"
    name = "prng-key-reuse"
    default_enabled = True  # see "On by default" in the docs
    message = "`{key}` {detail}"
    fix_availability = "none"
    probe = "JAX_DEBUG_KEY_REUSE=1 jaxlint probe compile FILE.py:FUNC"
    confirmed_by = (Raises("KeyReuseError"),)  # with JAX_DEBUG_KEY_REUSE=1
    docs = """\
## What it does
Flags a PRNG key that is consumed twice on one path through a function: two
samplers on the same key, a key used again after `jax.random.split(key)` without
rebinding it, a key consumed in a loop body (or a comprehension) that does not
rebind it, a key that the body of `lax.scan`, `lax.fori_loop`,
`lax.while_loop` or `lax.map` closes over and consumes, and a key that a lambda or
local function mapped over a tree (`jax.tree.map`, `jax.tree_util.tree_map`, also
through a local alias `tree_map = tree_util.tree_map`) or a sequence (`map`) closes
over and draws from: every leaf gets the same random bits. The message names both
uses by line.

"One path" reads the tests a path passed on a function's own names: after `if
references is None and not bootstrap: draw(key)` and `if not bootstrap: return ...`,
a later `draw(key)` runs only when `bootstrap` is true, where the first never ran, so
it is no reuse. Only a name's truth (`if flag:`, `not`, `and`, `or`) and `name is
None` are read, and a name assigned again forgets what its tests said.

It follows the semantics of JAX's own key-reuse checker (`jax_debug_key_reuse`),
which checks typed keys only (`jax.random.key`; a raw `PRNGKey` array used twice passes
it, checked on JAX 0.12, so for a key the file makes with `PRNGKey` the message says
which keys the checker rejects):
every sampler and `split` consume their key; `fold_in`, `clone`, `key_data` and
comparisons do not; a function of the same file consumes what its body consumes
(a lax `cond` runs one branch; a closure that draws from `rngs[3]` consumes that
element of its caller's split array, not the array). Ahead-of-time tracing
(`jax.jit(f).lower(key)`, `.trace`, `.eval_shape`) draws nothing, and so does a call
whose result is only the template of a restore that replaces every leaf
(`eqx.tree_deserialise_leaves(path, like)`, `flax.serialization.from_bytes(target, data)`,
`from_state_dict(target, state)`; not `restore_checkpoint`, which returns its target when
no checkpoint is found), through names bound once outside loops. A random transform
and its inverse given one key are deliberate (`rotate(x, key)` then
`inverse_rotate(y, key)`, told by the names: `inverse_`/`inv_`/`undo_` before the
other's name or `_inverse`/`_inv` after it): the inverse must replay the transform's
draws. One deliberate
departure: `split(key, n)[i]` takes key `i` of the split, which is the same key for
every `n` and another key for every `i` (checked on JAX 0.12), so `split(key, n)[run]`
once per `run` is not reported although the checker rejects a second `split(key, ...)`;
the same index twice is. This holds through a function of the file that only keeps
`split(rng)[0]` of its key parameter: a caller that takes `split(rng)[1]` of the same key
is not reported. A key passed to a function jaxlint cannot see may
be drawn from, so it counts, but only next to a certain consumption: two such
calls are not reported (they may only derive keys with `fold_in`, or a test may
reuse a key on purpose to compare two runs). A function of the same file that hands
a parameter, unchanged, to such a function (directly, or through a nested function
it calls or transforms: `jax.value_and_grad(loss_fn)`) consumes a key given to it
the same way; given the same certain key on every iteration of a loop that never
rebinds it, it is reported, since nothing on the way derives a key per step (a
`fold_in(rng, step)` there is no consumption). That is not reported in tests. A
jitted function of another module of the project consumes what its body consumes,
like a plain one. Not consumptions: predicates
(`assert is_prng_key(key)`, `self.assertTrue(f(key))`, `is_*`/`has_*` calls),
storing a key (in a `namedtuple`, or a dataclass, `NamedTuple` or struct of the
project without an `__init__` of its own, whose `__post_init__`, if any, never
reads the field the key is given for by name), and the root keys of a Flax
module's `init(key, x)`/`init_with_output`/`lazy_init` and the
`rngs=` of `apply` in a file that imports Flax (Flax derives every stream with
`fold_in`: `flax/core/scope.py`, `LazyRng.as_jax_rng`). A Haiku transformed
function of the same file (`f = hk.transform(g)`, `hk.transform_with_state`,
`init, apply = hk.transform(g)`) is known: its `init(rng, ...)` draws from the key
(Haiku splits it for every parameter initializer) and its `apply(params, [state,]
rng, ...)` may (it splits the key whenever the function asks for one), so one key
given to both is reported (`apply`'s keys repeat the ones `init` drew the
parameters with; `jax_debug_key_reuse` raises). One use in each arm of an
`if` is fine, and so is a use before a `return`, `break` or `raise`; a use in a
`try` body and another in its `except` handler is not reported. A loop body
(`lax.scan`, `fori_loop`, `while_loop`) that consumes a key and returns it
unchanged in its carry is reported too: the next iteration consumes it again.
When the body starts with `key, sub = split(key)` and draws from `key` before
returning it, the next iteration splits a key that was drawn from: a draw and a
split of one key (the message says so, and names `sub` when it is never used),
not the same draw again. A key in a loop primitive's initial carry that its body
(a `def` of the file that unpacks the carry in its first statement, and a
`while_loop`'s test) never reads except to return it, unchanged, at the same place
of the carry is not consumed by the loop (`lax.scan(step, (state, key), (temps,
step_keys))` whose `step` draws only from the keys in `xs`; JAX's checker agrees,
checked on JAX 0.12). One that the body only splits (`k, sub = split(k)`, returning
`k` at its place) is consumed as a `split` is: after `split(key, n)` both return the
same first keys. When the body reads none of the keys it splits off
(`k, unused = split(k)`), no value comes from the key: a pair with such a loop is
JAX306's (the checker still rejects it), not a reuse of random bits. An element of an array of keys (`keys[0]`, or `k0` of `k0,
k1 = keys`) consumed on its own while the whole array is consumed one key at a time
(an argument of `jax.vmap(f)`, `jax.pmap(f)` or `equinox.filter_vmap(f)` mapped over
its first axis, `lax.map`'s or `lax.scan`'s `xs`) is a reuse: the mapped call for
that element gets the same key (`vmap(normal)(keys)[0] == normal(keys[0])`, and
`jax_debug_key_reuse` raises; a slice such as `keys[1:]` is another array and is
not followed).

A key held on an attribute counts too, once it is clearly a key (given to a
`jax.random` function in the function, or, for `self.<attr>`, anywhere in the class,
or assigned there from `key`/`PRNGKey`/`split`/`fold_in`): `self.rng` or
`state.rng` drawn from twice with no assignment of it in between, and no call in
between that may assign it (a call that receives the object, a method of it this
file does not show, `super()`, a method of the class that assigns the attribute;
`yield` and `await` let other code run). A method of the class that draws from
`self.rng` consumes the caller's key. And a method that draws (with a sampler, not
`split`) from `self.<attr>` as it finds it, in a class where nothing but a
constructor (`__init__`, `__post_init__`, `setup`) assigns that attribute, draws
from the same key on every call: an Equinox module's key field, a frozen
dataclass, an object that never advances its key. That one is not reported in
tests (each test builds its object), nor when the class has a base this file does
not show or a method that may assign any attribute, nor when every call of the
method in the file is on an object built right there with its own key
(`GaussianMatrix(rows, cols, key=k).get_2d_array()`: a new object per draw). Flax's `self.make_rng(...)` and
`nnx.Rngs` streams (`self.rngs.params()`) give a fresh key on every call: never
reported.

Tests run by hand (`if __name__ == "__main__": test_a(); test_b()`, each a test function
of the module without parameters) are not a pair: each test draws its own fixtures from
the module's key, as under pytest (jxpinn's test files, fresh-2026-12o).

Deliberate reuse is not reported, in any file: a pair that a comment in the paragraph of
either use (its line and the lines above it, up to a blank line) says is meant, with
a word of reuse (`reuse`, `same key`/`rng`/`seed`) and one of intent (`as`, `because`,
`since`, `on purpose`, `intentionally`, `deliberately`, `by design`, `hacky`...):
`# Use the same rng as events are mutually exclusive`, `# hacky because we reuse the
seed` (not `# the same key again: b == a`, which names the bug); a key its name calls a placeholder
(`dummy_key`, kozax's warm-up that traces both jitted functions with one key and
throws the results away); draws in a function named for compiling (`compile`,
`precompile`, `_compile_steps`, `jit_warmup`: envrax's `VecEnv.compile` resets and steps
with `key(0)` so that JAX compiles them; a bare `warmup` is not enough, since in RL it
fills a replay buffer with random actions); a use whose result is only waited for
(`f(key).block_until_ready()` or `jax.block_until_ready(f(key))` on its own line, or
`out = f(key)` where `out` is only waited for until it is bound again: a warm-up run
before the same run is timed, as in morphix's benchmark) or only read for its shape at
once, never kept (`f(key, 1).shape[-1]`, `len(f(key))`: vpet-abc's parameter count), since
its draws reach nothing that is used; the same key given, with each configuration, to the function
that builds or runs it in a loop over configurations (`for name, cfg in CONFIGS:
run(key, **cfg)`, `for preset, spec in PRESETS.items()`, `for lr in [1e-3, 1e-2]`, also a
comprehension and a name bound to literal numbers or strings, `[error(n) for n in levels]`
with `levels = (16, 32, 64)`: common random numbers across a convergence test's levels; a
loop whose target names a configuration, a case, a mode, a preset or a function, not a
shape or a dtype: `for shape in layer_shapes` builds one model's layers): a controlled
comparison, whose runs differ only by the configuration (xwm's examples compare
masking presets "on identical data and architecture"; a draw from the key itself in
such a loop, `normal(key, (n, n))` for each size, is still reported); two uses whose results are
compared against each other (what the first returns reaches one side of
`assert_allclose`, `assertEqual`, `chex.assert_trees_all_close`, `allclose` or
`==`, what the second returns the other side: one key fed to two implementations
to check they agree), paired index draws that keep two arrays aligned
(`choice(key, xs, (b,))` and `choice(key, ys, (b,))`, or `permutation`; also over
the leaves of a tree, `tree.map(lambda x: shuffle(x, key), batch)`, directly or
through a function of the file that only permutes or picks from its argument), and a
key given to `model.init(key, ...)` of a module the file imports (it may split
the key or only fold it in; this file cannot tell). Comparing shapes
(`x.shape == y.shape`, `len`) is not comparing values. Nor are the two alternatives of
`jnp.where(c, a, b)` (or `lax.select`) a reuse, also when each draw is kept, through
names, in one alternative only (`m = switch(i, fns, t, key)`, `n = t + normal(key)`, then
`m = select(c, n, m)`: `m` read afterwards is the selection): every position keeps the
value of `a` or of `b`, never both, so no value is computed from two draws of the same bits (a
mixture such as `where(u < 0.8, randint(k, (), 24, 31), randint(k, (), 31, 37))`), by
construction rather than by how JAX 0.12 happens to draw; JAX's `jax_debug_key_reuse`
checker still rejects it. The same holds for a draw made before the `where` and kept,
through names, only in one alternative while the other draws again (`z = normal(k, s)`,
then `where(c, scale * z, exponential(k, s))`); if the first draw is read anywhere
else (the condition, another result), or the two draws are the same function with the
same arguments (the alternatives are then equal and the `where` selects nothing), it is
reported. The choices and the default of `jnp.select(conditions, choices, default)`
are alternatives in the same way, and so are the values of a dict of which one entry is used
(`{"zero": zeros(n), "random": normal(key, (n,))}[method]`, or the dict bound once and read
by one subscript: a menu of initialisers). The layout is not checked: when one alternative reduces a draw of another
shape to the position's (`normal(k, (n,))` against `gumbel(k, (n, m)).sum(-1)`), values
kept at two different positions can still come from the same bits.

The message says what the evidence shows: the same sampler with the same
arguments (the two draws are identical), only the shape differing (the smaller
draw repeats the first values of the larger one: `normal(k, (2, d))` is the
first rows of `normal(k, (4, d))`), `split(key)` after `split(key, n)` (the same
first keys), two different samplers (correlated draws; for `bernoulli`, `uniform` and `normal` of
one shape, exactly how: `bernoulli(k, p, s)` is `uniform(k, s) < p` and
`normal(k, s) < norm.ppf(p)`, and `normal(k, s)` an increasing function of
`uniform(k, s)`, position by position), a split after a sampler that splits its key
itself (`permutation`, `randint`, `choice` without `p=`, `gamma`, `poisson`...: the split
returns the very keys it drew with, as in a data loader that splits the key it permuted
its data with; measured by `tests/test_prng_split_runtime.py`), or a function that
receives the key and *may* draw from it. A key drawn from by a sampler that draws from
the key itself (`normal`, `uniform`...) and also split, whose values share no bits on
JAX 0.12, is JAX306 prng-key-reuse-contract's (off by default), in any file; so is one
given to an Equinox layer that splits its key before drawing (`eqx.nn.Linear`, `Conv*`,
`MLP`, `MultiheadAttention`, `GRUCell`, `LSTMCell`; not `Embedding`, which draws from
it), whose weights a draw of the same key then replaces (`eqx.tree_at`), measured from
the layers' jaxprs. Two such layers built from one key split it the same way: their
weights come from the same keys, which JAX301 reports.

In tests (files under `tests/`, `test_*.py`, `*_test.py`, `conftest.py`, `test*`
functions and pytest fixtures anywhere, and the `if __name__ == "__main__":` block of a
package's module, its developer's self-test) the rule reports what makes a test
check less than it seems to, or fail: every reuse where the file switches JAX's
checker on (`jax.config.update("jax_debug_key_reuse", True)`, or inside `with
jax.debug_key_reuse(True):`), where JAX raises; draws collected across a loop, and a
`range` loop that repeats one case; two draws of one key stacked into one array
(`jnp.stack([rate, prob])`: the dataset's columns are dependent); and a key drawn twice
while another key of its `split` is never used (the one meant for the second draw).
Two inputs drawn from one key are not reported otherwise: they share values, but what
a test asserts rarely depends on their independence (of 185 such findings in test
files of fourteen held-out reads, 3 were bugs, all of them stacked training data;
docs/precision/test-code.md). Comparisons are silent as everywhere. Also not reported
in tests: draws in a fixture that fills pytest's `doctest_namespace`
(example values for the documentation's examples, not inputs a test compares: bijx's
`conftest.py`, four debatable rows of the fresh-2026-12l read), a key also passed to a
function the file cannot see (the
code under test; whether it draws is unknown and the correlation with the test's
inputs rarely matters), and a loop that draws each iteration's own case from one
key without keeping the draws across iterations (each iteration is a separate
case, like a parametrised test with a fixed seed). A key drawn from and split whose
split key is never used (`key1, key2 = split(key)`, `bernoulli(key1)`, then
`uniform(key)` where `key2`
was meant: reported, and the message names `key2`).

Not reported anywhere: the stages of one integration step that evaluate a function
with the same key at points made from its earlier results (`k1 = f(x, key)`, `k2 =
f(x + dt / 2 * k1, key)`: one disturbance held over a Runge-Kutta step, raddo's
`rk4_step`, fresh-2026-12p).


**On by default**, as a red flag this linter exists for. On the eleven pinned
projects none of 40 sampled findings was a false alarm (5 bugs, 3 latent, 32
harmless test or benchmark data drawn twice; docs/precision/prng.md). An earlier
read of held-out projects, before the rule learned deliberate reuse and test code,
found 3 false alarms in 49 (a key shared on purpose through an indirect flow, a
foreign `init` that never draws, a Flax `init` in another module;
docs/precision/heldout.md): such a finding is silenced with `# noqa: JAX301`.

## Why is this bad
JAX random numbers are a pure function of the key: the same key gives the same
bits. Two samplers on one key return correlated (often identical) numbers, a
loop that reuses its key draws the same "random" values every iteration, and a
`scan` body that closes over a key repeats the same noise at every step. No error
is raised unless `jax_debug_key_reuse` is switched on, which costs time and only
catches the paths a run takes.

## Example
```python
import jax

def sample(key):
    x = jax.random.normal(key, (3,))
    y = jax.random.uniform(key, (3,))  # the same bits as x
    return x + y
```

## Use instead
```python
import jax

def sample(key):
    key_x, key_y = jax.random.split(key)
    x = jax.random.normal(key_x, (3,))
    y = jax.random.uniform(key_y, (3,))
    return x + y
```
In a loop, rebind the key each iteration (`key, sub = jax.random.split(key)`) or
derive one per step with `jax.random.fold_in(key, step)`; in `lax.scan`, thread
the key through the carry.

## Fix safety
No fix: which key each use should get (a split, a fold-in, a new argument) is a
design decision, and changing it changes the program's random numbers.

## Verify at runtime
`JAX_DEBUG_KEY_REUSE=1 jaxlint probe compile FILE.py:FUNC` (the `verify:` line of
each finding, filled in) traces the function with JAX's checker switched on by the
environment; without the variable the checker is off and the probe passes. The
inputs come from an input factory that passes a typed key (`jax.random.key(0)`), or
from a call site in the file when there is none: its `eval_shape` stage fails with
`jax.errors.KeyReuseError: In jit, argument 0 is already consumed.`, which the
probe attributes to JAX301. In your own code: `jax.config.update("jax_debug_key_reuse", True)` or
`with jax.debug_key_reuse(True):`. The checker does not track raw `PRNGKey` keys.
"""
    VALID = VALID_EXAMPLES
    INVALID = INVALID_EXAMPLES

    def visit_Module(self, node: cst.Module) -> None:
        self._report_reuses(contract=False)
