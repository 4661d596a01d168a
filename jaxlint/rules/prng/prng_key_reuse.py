"""JAX301 prng-key-reuse: a PRNG key consumed twice on one path (twice in a row, in a
loop that does not rebind it, or by the body of a lax loop that closes over it)."""

from __future__ import annotations

import libcst as cst

from jaxlint.analysis.keys import CALL, Reuse, Use
from jaxlint.rules.base import Examples, Raises, Rule
from jaxlint.rules.prng.helpers import line

EXAMPLES = Examples(__file__)


_LOOP_WORDS = {"loop": "loop", "comprehension": "comprehension"}


def _program(body: str, imports: str = "") -> str:
    """A complete program that switches JAX's key-reuse checker on first."""
    return f'import jax\n{imports}\njax.config.update("jax_debug_key_reuse", True)\n\n\n{body}'


class PrngKeyReuse(Rule):
    code = "JAX301"
    name = "prng-key-reuse"
    message = "`{key}` {detail}"
    fix_availability = "none"
    probe = "jaxlint probe compile FILE.py:FUNC"
    confirmed_by = (Raises("KeyReuseError"),)  # with JAX_DEBUG_KEY_REUSE=1
    docs = """\
## What it does
Flags a PRNG key that is consumed twice on one path through a function: two
samplers on the same key, a key used again after `jax.random.split(key)` without
rebinding it, a key consumed in a loop body (or a comprehension) that does not
rebind it, and a key that the body of `lax.scan`, `lax.fori_loop`,
`lax.while_loop` or `lax.map` closes over and consumes. The message names both
uses by line.

It follows the semantics of JAX's own key-reuse checker (`jax_debug_key_reuse`):
every sampler and `split` consume their key; `fold_in`, `clone`, `key_data` and
comparisons do not; a function of the same file consumes what its body consumes
(a lax `cond` runs one branch). A key passed to a function jaxlint cannot see may
be drawn from, so it counts, but only next to a certain consumption: two such
calls are not reported (they may only derive keys with `fold_in`, or a test may
reuse a key on purpose to compare two runs). Not consumptions: predicates
(`assert is_prng_key(key)`, `self.assertTrue(f(key))`, `is_*`/`has_*` calls),
storing a key (a `namedtuple`, a dataclass of the same file), and the root keys
of a Flax module's `init(key, x)`/`init_with_output`/`lazy_init` and the
`rngs=` of `apply` in a file that imports Flax (Flax derives every stream with
`fold_in`: `flax/core/scope.py`, `LazyRng.as_jax_rng`). One use in each arm of an
`if` is fine, and so is a use before a `return`, `break` or `raise`; a use in a
`try` body and another in its `except` handler is not reported.

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
Run `jaxlint probe compile FILE.py:FUNC` with JAX's checker switched on by the
environment (`JAX_DEBUG_KEY_REUSE=1`) and an input factory that passes a typed key
(`jax.random.key(0)`): its `eval_shape` stage fails with
`jax.errors.KeyReuseError: In jit, argument 0 is already consumed.`, which the
probe attributes to JAX301. In your own code: `jax.config.update("jax_debug_key_reuse", True)` or
`with jax.debug_key_reuse(True):`. The checker does not track raw `PRNGKey` keys.
"""
    VALID = [
        EXAMPLES.valid(
            "valid_key_sub_split_key_each.py",
            note="`key, sub = split(key)` each iteration",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_keys_split_key_n_different.py",
            note="`keys = split(key, n)` and a different `keys[i]` per use",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_fold_key_step_per_step.py",
            note="`fold_in(key, step)` per step: fold_in does not consume the key",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_key_passed_into_one_function.py",
            note="a key passed into one function and never used again",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_key_threaded_through_lax_scan.py",
            note="a key threaded through the `lax.scan` carry, rebound from its result",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_flax_self_make_rng_gives.py",
            note="Flax `self.make_rng` gives a fresh key on every call",
        ),
        EXAMPLES.valid(
            "valid_nnx_rngs_streams_give_fresh.py",
            note="`nnx.Rngs` streams give a fresh key on every call",
        ),
        EXAMPLES.valid(
            "valid_one_use_each_arm_if.py", note="one use in each arm of an `if`", runs=True
        ),
        EXAMPLES.valid("valid_first_use_returns.py", note="the first use returns", runs=True),
        EXAMPLES.valid(
            "valid_key_data_clone_do_consume.py",
            note="`key_data`, `clone` and `==` do not consume",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_lax_cond_runs_one_branch.py",
            note="`lax.cond` runs one branch: the key is consumed once",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_iterating_over_split_keys_fresh.py",
            note="iterating over split keys: a fresh key per iteration",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_rng_numpy_generator_jax_key.py",
            note="`rng` is a NumPy generator, not a JAX key (mentions jax: import)",
        ),
        EXAMPLES.valid(
            "valid_two_functions_jaxlint_cannot_see.py",
            note="two functions jaxlint cannot see: they may only derive keys (Flax uses fold_in)",
        ),
        EXAMPLES.valid(
            "valid_loop_returns_after_only_consumption.py",
            note="the loop returns after its only consumption",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_flax_s_init_apply_derive.py",
            note="Flax's init/apply derive their keys with fold_in: the root key is not consumed",
        ),
        EXAMPLES.valid(
            "valid_predicate_namedtuple_stores_key_do.py",
            note="a predicate and a namedtuple that stores the key do not consume it",
        ),
        EXAMPLES.valid(
            "valid_reading_dtype_shape_does_consume.py",
            note="reading `.dtype`/`.shape` does not consume",
            runs=True,
        ),
    ]
    INVALID = [
        EXAMPLES.invalid(
            "invalid_y_jax_random_uniform_key_3.py",
            line=8,
            column=28,
            message_contains="by `jax.random.normal` at line 7, then by `jax.random.uniform` at line 8",
            raises="KeyReuseError",
        ),
        EXAMPLES.invalid(
            "invalid_x_x_jax_random_normal_key.py",
            line=9,
            column=35,
            message_contains="at line 9 on every iteration of the loop at line 8",
            raises="KeyReuseError",
        ),
        EXAMPLES.invalid(
            "invalid_noise_jax_random_normal_key_2.py",
            line=9,
            message_contains="`key` is consumed twice: by `jax.random.split` at line 8",
            raises="KeyReuseError",
        ),
        EXAMPLES.invalid(
            "invalid_return_jr_normal_key_s_s.py",
            line=8,
            column=23,
            message_contains="every iteration of the comprehension at line 8",
            raises="KeyReuseError",
        ),
        EXAMPLES.invalid(
            "invalid_return_acc_jax_random_normal_key.py",
            line=9,
            message_contains="captured by `body`, the body of `lax.fori_loop` at line 11",
            raises="KeyReuseError",
        ),
        EXAMPLES.invalid(
            "invalid_walk_jax_random_key_0_jnp.py",
            message_contains="the body of `lax.scan`",
            raises="KeyReuseError",
        ),
        EXAMPLES.invalid(
            "invalid_return_x_jax_random_normal_key.py",
            line=10,
            message_contains="by `jax.random.bernoulli` at line 9",
            raises="KeyReuseError",
        ),
        EXAMPLES.invalid(
            "invalid_w2_init_layer_key_3.py",
            line=12,
            message_contains="by `init_layer` at line 11, then by `init_layer` at line 12",
            raises="KeyReuseError",
        ),
        EXAMPLES.invalid(
            "invalid_f_jax_random_key_7.py",
            message_contains="`keys[0]` is consumed twice",
            raises="KeyReuseError",
        ),
        EXAMPLES.invalid(
            "invalid_function_jaxlint_cannot_see_next.py",
            line=9,
            column=27,
            message_contains="by `w_init` (which receives it and may draw from it) at line 8",
            raises="KeyReuseError",
            note="a function jaxlint cannot see, next to a certain consumption",
        ),
        EXAMPLES.invalid(
            "invalid_x_x_jax_random_uniform_sub.py",
            line=11,
            count=1,
            message_contains="`sub` is consumed twice",
            raises="KeyReuseError",
        ),
    ]

    def visit_Module(self, node: cst.Module) -> None:
        text = self.ctx.text
        if "random" not in text and "rng" not in text:
            return
        for reuse in self.ctx.keys.reuses:
            if reuse.definite:
                self.report(reuse.second.arg, key=self._name(reuse), detail=self._detail(reuse))

    def _name(self, reuse: Reuse) -> str:
        arg = reuse.second.arg
        if reuse.second.key_name is not None:  # consumed by a function that closes over it
            return reuse.second.key_name
        if isinstance(arg, cst.Call):
            return reuse.value.name
        return " ".join(self.ctx.code(arg).split())

    def _detail(self, reuse: Reuse) -> str:
        first, second = reuse.first, reuse.second
        where = line(self, second.arg)
        if reuse.how == "again":
            return (
                f"is consumed twice: {_by(first)} at line {line(self, first.arg)}, then"
                f" {_by(second)} at line {where}; both draw the same random bits: split it"
                " (`k1, k2 = jax.random.split(key)`) and use each key once"
            )
        if reuse.how in _LOOP_WORDS:
            assert reuse.loop is not None
            return (
                f"is consumed by `{second.by}` at line {where} on every iteration of the"
                f" {_LOOP_WORDS[reuse.how]} at line {line(self, reuse.loop)} and never rebound:"
                " every iteration draws the same random bits; split it in the loop"
                " (`key, sub = jax.random.split(key)`) or use `jax.random.fold_in(key, i)`"
            )
        assert reuse.loop is not None and reuse.body is not None
        body = reuse.body
        fn = body.name.value if isinstance(body, cst.FunctionDef) else "<lambda>"
        prim = self.ctx.code(reuse.loop.func) if isinstance(reuse.loop, cst.Call) else "?"
        if reuse.how == "mapped":
            return (
                f"is consumed by `{fn}` at line {where}, which `{prim}` calls once per element"
                " or leaf: each draws the same random bits; split it into one key per leaf"
            )
        prim = prim.split(".")[-1]
        return (
            f"is captured by `{fn}`, the body of `lax.{prim}` at line"
            f" {line(self, reuse.loop)}, and consumed by `{second.by}` at line {where} on every"
            " iteration; thread the key through the carry and split it there, or use"
            " `jax.random.fold_in(key, i)`"
        )


def _by(use: Use) -> str:
    if use.kind == CALL:
        return f"by `{use.by}` (which receives it and may draw from it)"
    return f"by `{use.by}`"
