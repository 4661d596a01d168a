"""Correct key handling, silent for every JAX3xx rule: VALID examples several rules share."""

from __future__ import annotations

from jaxlint.rules.base import Examples

EXAMPLES = Examples(__file__)


# Correct key handling, silent for every JAX3xx rule (the list of near misses).
KEY_HYGIENE = [
    EXAMPLES.valid(
        "valid_key_sub_split_key_each.py", note="`key, sub = split(key)` each iteration", runs=True
    ),
    EXAMPLES.valid(
        "valid_keys_split_key_n_different.py",
        note="`keys = split(key, n)` and a different `keys[i]` per use",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_fold_key_step_per_step.py", note="`fold_in(key, step)` per step", runs=True
    ),
    EXAMPLES.valid(
        "valid_key_passed_into_one_function.py",
        note="a key passed into one function and never used again",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_keys_threaded_through_lax_scan.py",
        note="keys threaded through the `lax.scan` carry",
        runs=True,
    ),
    EXAMPLES.valid("valid_flax_self_make_rng.py", note="Flax `self.make_rng`"),
    EXAMPLES.valid("valid_nnx_rngs_streams.py", note="`nnx.Rngs` streams"),
]
