"""JAX305 global-prng-key: a module-level key consumed inside a function (hidden RNG state)."""

from __future__ import annotations

import libcst as cst

from jaxlint.analysis.keys import CALL
from jaxlint.rules.base import Examples, Rule
from jaxlint.rules.prng.key_hygiene import KEY_HYGIENE

EXAMPLES = Examples(__file__)


class GlobalPrngKey(Rule):
    code = "JAX305"
    name = "global-prng-key"
    message = "`{key}` is {what}: {consequence}; pass a key in as an argument"
    fix_availability = "none"
    probe = "jaxlint probe compile FILE.py:FUNC --dump jaxpr.txt"
    docs = """\
## What it does
Flags a key made at module level (`KEY = jax.random.key(0)`, a `PRNGKey`, a key
split from one) and consumed inside a function (by a `jax.random` sampler,
`split`, or a function of the same file that consumes it), where the function
neither receives the key as an argument nor rebinds the global.

**In tests.** Silent in test files (`tests/`, `test_*.py`, `*_test.py`,
`conftest.py`): a module-level `KEY = jax.random.key(0)` there is fixed test data,
and drawing the same numbers in every test is what makes the tests reproducible.

## Why is this bad
The function hides its source of randomness in a global, and since the global
never changes, every call draws the same numbers: two "random" initialisations
are identical, a sampler returns the same sample each time. Under `jax.jit` the
key is also baked into the compiled program as a constant.

## Example
```python
import jax

KEY = jax.random.key(0)

def init_weights(shape):
    return jax.random.normal(KEY, shape)  # identical weights on every call
```

## Use instead
```python
import jax

def init_weights(key, shape):
    return jax.random.normal(key, shape)

k1, k2 = jax.random.split(jax.random.key(0))
w1 = init_weights(k1, (3, 3))
w2 = init_weights(k2, (3, 3))
```
Deriving a key from the global per call (`jax.random.fold_in(KEY, step)`) is not
flagged, nor is a function that declares `global KEY` and rebinds it (a stateful
RNG: `KEY, sub = jax.random.split(KEY)`), nor the functions that call it eagerly:
each call advances the state and draws new numbers.

**A stateful RNG under jit.** A call of such a helper from code JAX compiles (a
`jax.jit`-like function, a lax body, a helper they call) is flagged: the split runs
once, when JAX traces the caller, so every call of the compiled function reuses the
key drawn then (jit freezes the hidden state at trace time), and the global is left
holding a tracer (`UnexpectedTracerError` at its next eager use). Outside jit the
same helper is correct, so the message says what really goes wrong, not that every
call draws the same numbers.

## Fix safety
No fix: the key has to become an argument, which changes every caller.

## Verify at runtime
Call the function twice: the results are identical. Under jit,
`jaxlint probe compile FILE.py:FUNC --dump jaxpr.txt` shows the key as a
constant of the jaxpr rather than an argument.
"""
    VALID = [
        EXAMPLES.valid(
            "valid_stateful_rng_called_eagerly.py",
            note="a stateful RNG helper called eagerly: each call advances the global key",
            runs=True,
        ),
        EXAMPLES.valid("valid_module_key_passed_once.py", note="the module key is passed in once"),
        EXAMPLES.valid(
            "valid_test_file_fixed_key.py",
            filename="tests/test_softmax.py",
            note="a test file: a fixed module-level key is reproducible test data",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_global_rebound_state_advances.py",
            note="the global is rebound: the state advances",
        ),
        EXAMPLES.valid(
            "valid_fresh_key_per_step_fold.py", note="a fresh key per step with `fold_in`"
        ),
        EXAMPLES.valid("valid_parameter_shadows_global.py", note="a parameter shadows the global"),
        EXAMPLES.valid(
            "valid_reading_key_does_consume.py", note="reading a key does not consume it"
        ),
        EXAMPLES.valid(
            "valid_consumed_module_code_function.py",
            note="consumed in module code, not in a function",
        ),
        EXAMPLES.valid(
            "valid_module_level_seed_key_jax304.py",
            note="a module-level seed, not a key (JAX304 covers loops and jit)",
        ),
        EXAMPLES.valid(
            "valid_only_passed_function_another_module.py",
            note="only passed to a function of another module",
        ),
        *KEY_HYGIENE,
    ]
    INVALID = [
        EXAMPLES.invalid(
            "invalid_stateful_rng_called_under_jit.py",
            line=13,
            message_contains="jit freezes the hidden state at trace time",
            raises="AssertionError",
            note="a stateful RNG helper called under jit: the split runs once, at trace time",
        ),
        EXAMPLES.invalid(
            "invalid_return_jax_random_normal_key_shape.py",
            line=7,
            column=30,
            message_contains="`KEY` is a module-level key consumed by `jax.random.normal` in `init_weights`",
        ),
        EXAMPLES.invalid("invalid_return_jax_random_choice_rng_n.py"),
        EXAMPLES.invalid(
            "invalid_element_module_level_split.py", note="an element of a module-level split"
        ),
        EXAMPLES.invalid(
            "invalid_return_sample_key.py", message_contains="consumed by `sample` in `draw`"
        ),
        EXAMPLES.invalid("invalid_return_x_jax_random_normal_key.py"),
        EXAMPLES.invalid(
            "invalid_noise_lambda_shape_jax_random_uniform.py", message_contains="in `<lambda>`"
        ),
    ]

    def visit_Module(self, node: cst.Module) -> None:
        text = self.ctx.text
        if self.ctx.is_test_file or ("random" not in text and "rng" not in text):
            return
        for use, val, fn in self.ctx.keys.global_uses:
            if use.kind == CALL:
                continue
            name = _name(fn)
            self.report(
                use.arg,
                key=val.name,
                what=f"a module-level key consumed by `{use.by}` in `{name}`",
                consequence=(
                    f"every call of `{name}` draws the same random numbers (hidden RNG state)"
                ),
            )
        trace = self.ctx.trace
        for call, key, helper, _caller in self.ctx.keys.stateful_calls:
            # a stateful RNG helper (``global KEY; KEY, sub = split(KEY)``) is fine eagerly;
            # called from staged code it runs once, at trace time
            owner = trace.traced_function_of(call)
            if owner is None or not owner.staging:
                continue
            self.report(
                call,
                key=key,
                what=(
                    f"module-level RNG state that `{_name(helper)}` splits and rebinds, called"
                    f" in traced `{owner.name}` ({owner.how(trace.line_of)})"
                ),
                consequence=(
                    f"the split runs once, when JAX traces `{owner.name}`, so every call of the"
                    f" compiled function reuses the key drawn then (jit freezes the hidden state"
                    f" at trace time) and `{key}` is left holding a tracer"
                ),
            )


def _name(fn: cst.CSTNode) -> str:
    return fn.name.value if isinstance(fn, cst.FunctionDef) else "<lambda>"
