"""JAX306 prng-key-reuse-contract: a PRNG key used twice where, on the installed JAX, no
value shares random bits with another (a key drawn from and then split), which breaks
JAX's contract that a key is used once; JAX301 reports the pairs whose values do share
bits."""

from __future__ import annotations

import libcst as cst

from jaxlint.rules.base import Examples, Raises, Rule
from jaxlint.rules.prng.prng_key_reuse_analysis import PrngKeyReuseChecks

EXAMPLES = Examples(__file__)

VALID_EXAMPLES = [
    EXAMPLES.valid(
        "valid_split_first.py",
        note="split first, then draw from the new key: each key is used once",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_correlated_pair_is_jax301s.py",
        note="two samplers on one key share bits: JAX301 reports it, not this rule",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_unused_split_key_is_jax301s.py",
        note="a split key never used, where the draw most likely took its place: JAX301's",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_split_after_permutation_is_jax301s.py",
        note="`permutation` drew with the keys the split returns: shared bits, JAX301's",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_fold_in_per_step.py",
        note="`fold_in(key, i)` gives each step its own key",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_draw_then_split_in_a_test.py",
        note="in a test, a draw and a split of one key are silent (JAX301's test policy)",
        filename="tests/test_policy.py",
        runs=True,
    ),
]
INVALID_EXAMPLES = [
    EXAMPLES.invalid(
        "invalid_loop_splits_carry_key_draws_nothing.py",
        line=15,
        message_contains="splits it but draws from none of the keys it splits off",
        raises="KeyReuseError",
        note="drawn from, then split step after step by a `while_loop` that never draws from"
        " a key it splits off (smcs' slice sampler): no value shares bits; JAX's checker"
        " still rejects it",
    ),
    EXAMPLES.invalid(
        "invalid_equinox_layer_and_own_draw.py",
        line=12,
        message_contains="`eqx.nn.Linear` (whose body splits it)",
        raises="KeyReuseError",
        note="an Equinox layer splits its key before drawing; a draw from that key shares no"
        " bits with the layer's (xwm's FiLM layer, whose weights `eqx.tree_at` replaces)",
    ),
    EXAMPLES.invalid(
        "invalid_draw_then_split_for_next_step.py",
        line=13,
        message_contains="`jax.random.categorical` draws from the key itself",
        raises="KeyReuseError",
        note="drawn from, then split for the next step (the commonest form)",
    ),
    EXAMPLES.invalid(
        "invalid_splitting_sampler_and_own_draw.py",
        line=8,
        message_contains="`jax.random.randint` splits its key itself",
        raises="KeyReuseError",
        note="`randint` splits its key itself; `normal` draws from the key itself",
    ),
    EXAMPLES.invalid(
        "invalid_helper_splits_then_own_draw.py",
        line=14,
        message_contains="`sample_scale` splits its key itself and `jax.random.normal` draws",
        raises="KeyReuseError",
        note="a function of the file that only splits its key (jax-moseq's"
        " `sample_invwishart`, fresh-2026-12q), then a draw from the key itself",
    ),
    EXAMPLES.invalid(
        "invalid_helper_draws_then_split.py",
        line=13,
        message_contains="`noise_components` draws from the key itself, with `normal`",
        raises="KeyReuseError",
        note="a function of the file that only draws from the key itself, then a split",
    ),
    EXAMPLES.invalid(
        "invalid_choice_with_p_then_split.py",
        line=9,
        message_contains="`jax.random.choice` draws from the key itself",
        raises="KeyReuseError",
        note="`choice` with `p=` draws from the key itself",
    ),
    EXAMPLES.invalid(
        "invalid_raw_prngkey_draw_then_split.py",
        line=7,
        message_contains="it does not check this raw `PRNGKey`",
        note="a raw `PRNGKey`: the checker does not track it, which the message says",
    ),
]


class PrngKeyReuseContract(PrngKeyReuseChecks, Rule):
    code = "JAX306"
    name = "prng-key-reuse-contract"
    default_enabled = False  # an opinion on the installed JAX: see "Off by default"
    message = "`{key}` {detail}"
    fix_availability = "none"
    probe = "JAX_DEBUG_KEY_REUSE=1 jaxlint probe compile FILE.py:FUNC"
    confirmed_by = (Raises("KeyReuseError"),)  # with JAX_DEBUG_KEY_REUSE=1
    docs = """\
## What it does
Flags a PRNG key used twice where no value shares random bits with another on the
installed JAX: a key drawn from by a sampler that draws from the key itself
(`normal`, `uniform`, `bernoulli`, `categorical`...) and also split, by
`jax.random.split` or by a sampler that splits its key itself (`randint`, `choice`
without `p=`, `permutation`, `gamma`...), every key the split made being used; also a
function of the file whose body only draws from the key with such samplers
(`noise = make_noise(key)` then `key, sub = split(key)`). The
commonest form is a loop that draws from its key and then splits it for the next
step (`action = categorical(key, logits)`, then `key, _ = split(key)`). Also a key
that a lax loop's body (`while_loop`, `fori_loop`, `scan`) splits step after step
without ever reading a key it splits off (`k, unused = split(k)`, smcs' slice sampler),
paired with any other use: no value comes from the key in that loop.

It finds these pairs exactly as JAX301 prng-key-reuse does (the same model of keys,
the same deliberate-reuse and test-code policies) and takes the ones JAX301 leaves:
JAX301 reports the pairs whose values share bits (two draws of one sampler, two
samplers that turn the same bits into values, a split after a sampler that splits
its key itself), this rule the others. A split key that is never used (`k1, k2 =
split(key)`, `bernoulli(k1)`, then `uniform(key)` where `k2` was meant) stays with
JAX301, whose message names it.

**Off by default.** The results are right on JAX 0.12: the keys a split returns draw
bits that are not correlated with a draw from the key itself (measured for every
PRNG implementation: tests/test_prng_split_runtime.py), so the pair breaks JAX's
contract (a key is used once; `jax_debug_key_reuse` raises `KeyReuseError`) without
changing what the program computes today. On two blind held-out reads these findings
were judged right but not worth acting on, every one (10 of 10 sampled rows in
fresh-2026-12k and fresh-2026-12l: "hygiene, no shared bits on 0.12"). Select it (`--select JAX306`, or
`extend-select = ["JAX306"]`) to keep code clean under `jax_debug_key_reuse`, or when
code must stay right on a future JAX whose samplers split differently. Until
2026-12-07 JAX301 reported these.

## Why is this bad
JAX promises independent numbers only to keys used once. Which bits a sampler takes
from its key is an implementation detail: `randint` splits its key and draws from
the halves, `normal` draws from the key itself, and a key both drawn from and split
is independent of its split keys only because of how JAX 0.12 implements them. With
`jax.config.update("jax_debug_key_reuse", True)` (or `JAX_DEBUG_KEY_REUSE=1`) such
code raises `KeyReuseError`.

## Example
```python
import jax

def rollout_step(key, logits):
    action = jax.random.categorical(key, logits)
    key, _ = jax.random.split(key)  # the key was already drawn from
    return key, action
```

## Use instead
```python
import jax

def rollout_step(key, logits):
    key, sub = jax.random.split(key)
    return key, jax.random.categorical(sub, logits)
```

## Fix safety
No fix: which key each use should get is a design decision, and changing it changes
the program's random numbers.

## Verify at runtime
`JAX_DEBUG_KEY_REUSE=1 jaxlint probe compile FILE.py:FUNC` traces the function with
JAX's checker switched on: a typed key (`jax.random.key`) used this way raises
`KeyReuseError`. The checker does not track raw `PRNGKey` arrays.
"""
    VALID = VALID_EXAMPLES
    INVALID = INVALID_EXAMPLES

    def visit_Module(self, node: cst.Module) -> None:
        self._report_reuses(contract=True)
