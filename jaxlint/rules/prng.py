"""JAX3xx: PRNG keys.

The rules ask :mod:`jaxlint.analysis.keys` (``self.ctx.keys``) which values are keys
and where each is consumed, and the trace analysis (``self.ctx.trace``) which code
is traced.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import libcst as cst

from jaxlint.analysis.keys import (
    CALL,
    LEGACY,
    RawUse,
    Reuse,
    Use,
    compiled_function_of,
    repeats,
)
from jaxlint.diagnostics import Applicability
from jaxlint.fixers.spelling import spell
from jaxlint.rules.base import Examples, FixOp, ReplaceNode, Rule

if TYPE_CHECKING:
    from jaxlint.engine import FileContext

_TYPED_KEYS_SINCE = (0, 4, 16)


def _line(rule: Rule, node: cst.CSTNode) -> int:
    return rule.ctx.positions[node].start.line


_EXAMPLES_KEY_HYGIENE = Examples(Path(__file__).parent / "prng" / "key_hygiene.py")


# Correct key handling, silent for every JAX3xx rule (the list of near misses).
_KEY_HYGIENE = [
    _EXAMPLES_KEY_HYGIENE.valid(
        "valid_key_sub_split_key_each.py", note="`key, sub = split(key)` each iteration", runs=True
    ),
    _EXAMPLES_KEY_HYGIENE.valid(
        "valid_keys_split_key_n_different.py",
        note="`keys = split(key, n)` and a different `keys[i]` per use",
        runs=True,
    ),
    _EXAMPLES_KEY_HYGIENE.valid(
        "valid_fold_key_step_per_step.py", note="`fold_in(key, step)` per step", runs=True
    ),
    _EXAMPLES_KEY_HYGIENE.valid(
        "valid_key_passed_into_one_function.py",
        note="a key passed into one function and never used again",
        runs=True,
    ),
    _EXAMPLES_KEY_HYGIENE.valid(
        "valid_keys_threaded_through_lax_scan.py",
        note="keys threaded through the `lax.scan` carry",
        runs=True,
    ),
    _EXAMPLES_KEY_HYGIENE.valid("valid_flax_self_make_rng.py", note="Flax `self.make_rng`"),
    _EXAMPLES_KEY_HYGIENE.valid("valid_nnx_rngs_streams.py", note="`nnx.Rngs` streams"),
]
_EXAMPLES_JAX302 = Examples(Path(__file__).parent / "prng" / "legacy_prng_key.py")


class LegacyPrngKey(Rule):
    code = "JAX302"
    name = "legacy-prng-key"
    message = "`{callee}` makes a legacy raw uint32 key; use typed keys from `{replacement}`{note}"
    fix_availability = "sometimes"
    default_enabled = False  # a modernisation: raw keys still work (select JAX3 to enable)
    probe = "jaxlint probe compile FILE.py:FUNC"
    docs = """\
## What it does
Flags calls to `jax.random.PRNGKey` in every import spelling
(`jax.random.PRNGKey`, `jr.PRNGKey`, `random.PRNGKey` after `from jax import
random`, `from jax.random import PRNGKey [as K]`), and `PRNGKey` passed as a
function (`jax.vmap(jax.random.PRNGKey)(seeds)`).

When the key (or a key split or folded from it) is later used as raw `uint32`
data in the same file, the message names the first such use and no fix is
offered: indexing it (`key[0]`, `keys[:, 0]`), `.astype`/`.view`/`.tolist`,
arithmetic or bitwise operators, `np.asarray`/`np.array` or another NumPy
function, `key.dtype ==` comparisons, `key.shape` of a single key, or a
`jnp`/`lax` function that computes on the bits.

## Why is this bad
`PRNGKey(seed)` returns a raw `uint32[2]` array that JAX cannot tell apart from
data: it can be added to, indexed, converted to NumPy or passed where an array is
expected without any error, and JAX's key-reuse checker does not track it.
`jax.random.key(seed)` returns a typed key (`key<fry>[]`) that JAX checks: array
arithmetic on it is an error, it works with `jax.debug_key_reuse`, and its
implementation is recorded in its dtype. JAX's documentation has used typed keys
since 0.4.26 (JEP 9263) and plans to deprecate raw keys.

## Example
```python
import jax

key = jax.random.PRNGKey(0)
x = jax.random.normal(key, (3,))
```

## Use instead
```python
import jax

key = jax.random.key(0)
x = jax.random.normal(key, (3,))
```

## When it is enabled
Off by default: `PRNGKey` is legacy, not deprecated, and works on current JAX,
so flagging it everywhere would drown real findings (317 calls in ten popular
JAX libraries). Turn it on when migrating to typed keys:
`jaxlint check --extend-select JAX302` or `extend-select = ["JAX302"]`.

## Fix safety
Unsafe: typed keys have shape `()` instead of `(2,)` and a key dtype, so code that
indexes a key (`key[0]`), does arithmetic on it, checks `key.dtype == jnp.uint32`,
saves it with NumPy, or splits and expects shape `(n, 2)` breaks (checked on jax
0.12: `key[0]` raises `IndexError`, `np.asarray(key)` and `key + 1` raise
`TypeError`, `key.astype(...)` raises `NotImplementedError`, and
`key.dtype == jnp.uint32` silently becomes `False`). No fix is offered when this
file shows such a use of the key: rewrite those uses with
`jax.random.key_data(key)` first, then the fix applies. Uses in other files
(the key returned or stored) are not visible, hence unsafe.

## Verify at runtime
`jaxlint probe compile FILE.py:FUNC` prints the argument and output dtypes:
a raw key shows as `uint32[2]`, a typed key as `key<fry>[]`.
"""
    VALID = [
        _EXAMPLES_JAX302.valid("valid_key_jax_random_key_0.py"),
        _EXAMPLES_JAX302.valid("valid_k1_k2_jr_split_jr_key.py"),
        _EXAMPLES_JAX302.valid(
            "valid_typed_keys_do_exist_yet.py",
            target_jax="0.4.10",
            note="typed keys do not exist yet",
        ),
        _EXAMPLES_JAX302.valid("valid_key_prngkey_0_uses_jax_elsewhere.py"),
        _EXAMPLES_JAX302.valid("valid_return_prngkey_0.py"),
        _EXAMPLES_JAX302.valid("valid_key_jax_random_wrap_key_data.py"),
        _EXAMPLES_JAX302.valid("valid_name_jax_random_prngkey_0.py"),
        _EXAMPLES_JAX302.valid("valid_key_jax_random_prngkey_0_noqa.py"),
        _EXAMPLES_JAX302.valid("valid_local_alias.py", note="a local alias"),
        _EXAMPLES_JAX302.valid(
            "valid_used_type_annotation_called.py", note="used as a type annotation, not called"
        ),
        *_KEY_HYGIENE,
    ]
    INVALID = [
        _EXAMPLES_JAX302.invalid(
            "invalid_key_jax_random_prngkey_0.py",
            line=2,
            column=7,
            unsafe_fix=True,
            message_contains="`jax.random.PRNGKey`",
        ),
        _EXAMPLES_JAX302.invalid("invalid_key_jr_prngkey_seed.py", unsafe_fix=True),
        _EXAMPLES_JAX302.invalid("invalid_key_prngkey_42.py", unsafe_fix=True),
        _EXAMPLES_JAX302.invalid("invalid_key_j_random_prngkey_0_impl.py", unsafe_fix=True),
        _EXAMPLES_JAX302.invalid("invalid_return_jax_random_prngkey_seed.py", line=4, column=12),
        _EXAMPLES_JAX302.invalid("invalid_keys_jax_random_prngkey_i_i.py", count=1),
        _EXAMPLES_JAX302.invalid("invalid_key_k_0.py", unsafe_fix=True),
        _EXAMPLES_JAX302.invalid("invalid_key_random_prngkey_0.py", unsafe_fix=True),
        _EXAMPLES_JAX302.invalid(
            "invalid_keys_jax_vmap_jax_random_prngkey.py", line=4, column=17, unsafe_fix=True
        ),
        _EXAMPLES_JAX302.invalid(
            "invalid_fix_would_break_key_1.py",
            line=5,
            unsafe_fix=True,
            message_contains="no fix: `key[1]` at line 6 indexes it (a typed key is a scalar)",
            note="the fix would break `key[1]` (IndexError on a typed key)",
        ),
        _EXAMPLES_JAX302.invalid(
            "invalid_key_split_converted_numpy.py",
            unsafe_fix=True,
            message_contains="`np.asarray(k1)` at line 6",
            note="a key split from it is converted to NumPy",
        ),
    ]

    def visit_Call(self, node: cst.Call) -> None:
        if self.model.call_name(node) != LEGACY:
            return
        if self.ctx.target_jax < _TYPED_KEYS_SINCE:
            return
        raw = self.ctx.keys.raw_uses(node)
        self._flag(node.func, raw[0] if raw else None)

    def visit_Arg(self, node: cst.Arg) -> None:
        # ``jax.vmap(jax.random.PRNGKey)(seeds)``, ``map(PRNGKey, seeds)``
        value = node.value
        if not isinstance(value, (cst.Name, cst.Attribute)):
            return
        if self.model.qualified_name(value) != LEGACY:
            return
        if self.ctx.target_jax < _TYPED_KEYS_SINCE:
            return
        self._flag(value, None)

    def _flag(self, func: cst.BaseExpression, raw: RawUse | None) -> None:
        spelled = spell(self.model, "jax.random.key", func) if raw is None else None
        shown = spell(self.model, "jax.random.key", func)
        replacement = shown[0] if shown else "jax.random.key"
        note = ""
        if raw is not None:
            note = (
                f"; no fix: `{_short(self.ctx.code(raw.node))}` at line {_line(self, raw.node)}"
                f" {raw.what}: use `jax.random.key_data(key)` there first"
            )

        def fix() -> list[FixOp]:
            assert spelled is not None
            text, ops = spelled
            return [ReplaceNode(func, text), *ops]

        self.report(
            func,
            callee=self.ctx.code(func),
            replacement=replacement,
            note=note,
            fix=fix if spelled is not None else None,
            applicability=Applicability.UNSAFE if spelled is not None else None,
            fix_message=f"Replace with `{replacement}` (typed key)",
        )


def _short(text: str, limit: int = 40) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


# -- JAX301 ----------------------------------------------------------------------------------


_LOOP_WORDS = {"loop": "loop", "comprehension": "comprehension"}


def _program(body: str, imports: str = "") -> str:
    """A complete program that switches JAX's key-reuse checker on first."""
    return f'import jax\n{imports}\njax.config.update("jax_debug_key_reuse", True)\n\n\n{body}'


_EXAMPLES_JAX301 = Examples(Path(__file__).parent / "prng" / "prng_key_reuse.py")


class PrngKeyReuse(Rule):
    code = "JAX301"
    name = "prng-key-reuse"
    message = "`{key}` {detail}"
    fix_availability = "none"
    probe = "jaxlint probe compile FILE.py:FUNC"
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
        _EXAMPLES_JAX301.valid(
            "valid_key_sub_split_key_each.py",
            note="`key, sub = split(key)` each iteration",
            runs=True,
        ),
        _EXAMPLES_JAX301.valid(
            "valid_keys_split_key_n_different.py",
            note="`keys = split(key, n)` and a different `keys[i]` per use",
            runs=True,
        ),
        _EXAMPLES_JAX301.valid(
            "valid_fold_key_step_per_step.py",
            note="`fold_in(key, step)` per step: fold_in does not consume the key",
            runs=True,
        ),
        _EXAMPLES_JAX301.valid(
            "valid_key_passed_into_one_function.py",
            note="a key passed into one function and never used again",
            runs=True,
        ),
        _EXAMPLES_JAX301.valid(
            "valid_key_threaded_through_lax_scan.py",
            note="a key threaded through the `lax.scan` carry, rebound from its result",
            runs=True,
        ),
        _EXAMPLES_JAX301.valid(
            "valid_flax_self_make_rng_gives.py",
            note="Flax `self.make_rng` gives a fresh key on every call",
        ),
        _EXAMPLES_JAX301.valid(
            "valid_nnx_rngs_streams_give_fresh.py",
            note="`nnx.Rngs` streams give a fresh key on every call",
        ),
        _EXAMPLES_JAX301.valid(
            "valid_one_use_each_arm_if.py", note="one use in each arm of an `if`", runs=True
        ),
        _EXAMPLES_JAX301.valid(
            "valid_first_use_returns.py", note="the first use returns", runs=True
        ),
        _EXAMPLES_JAX301.valid(
            "valid_key_data_clone_do_consume.py",
            note="`key_data`, `clone` and `==` do not consume",
            runs=True,
        ),
        _EXAMPLES_JAX301.valid(
            "valid_lax_cond_runs_one_branch.py",
            note="`lax.cond` runs one branch: the key is consumed once",
            runs=True,
        ),
        _EXAMPLES_JAX301.valid(
            "valid_iterating_over_split_keys_fresh.py",
            note="iterating over split keys: a fresh key per iteration",
            runs=True,
        ),
        _EXAMPLES_JAX301.valid(
            "valid_rng_numpy_generator_jax_key.py",
            note="`rng` is a NumPy generator, not a JAX key (mentions jax: import)",
        ),
        _EXAMPLES_JAX301.valid(
            "valid_two_functions_jaxlint_cannot_see.py",
            note="two functions jaxlint cannot see: they may only derive keys (Flax uses fold_in)",
        ),
        _EXAMPLES_JAX301.valid(
            "valid_loop_returns_after_only_consumption.py",
            note="the loop returns after its only consumption",
            runs=True,
        ),
        _EXAMPLES_JAX301.valid(
            "valid_flax_s_init_apply_derive.py",
            note="Flax's init/apply derive their keys with fold_in: the root key is not consumed",
        ),
        _EXAMPLES_JAX301.valid(
            "valid_predicate_namedtuple_stores_key_do.py",
            note="a predicate and a namedtuple that stores the key do not consume it",
        ),
        _EXAMPLES_JAX301.valid(
            "valid_reading_dtype_shape_does_consume.py",
            note="reading `.dtype`/`.shape` does not consume",
            runs=True,
        ),
    ]
    INVALID = [
        _EXAMPLES_JAX301.invalid(
            "invalid_y_jax_random_uniform_key_3.py",
            line=8,
            column=28,
            message_contains="by `jax.random.normal` at line 7, then by `jax.random.uniform` at line 8",
            raises="KeyReuseError",
        ),
        _EXAMPLES_JAX301.invalid(
            "invalid_x_x_jax_random_normal_key.py",
            line=9,
            column=35,
            message_contains="at line 9 on every iteration of the loop at line 8",
            raises="KeyReuseError",
        ),
        _EXAMPLES_JAX301.invalid(
            "invalid_noise_jax_random_normal_key_2.py",
            line=9,
            message_contains="`key` is consumed twice: by `jax.random.split` at line 8",
            raises="KeyReuseError",
        ),
        _EXAMPLES_JAX301.invalid(
            "invalid_return_jr_normal_key_s_s.py",
            line=8,
            column=23,
            message_contains="every iteration of the comprehension at line 8",
            raises="KeyReuseError",
        ),
        _EXAMPLES_JAX301.invalid(
            "invalid_return_acc_jax_random_normal_key.py",
            line=9,
            message_contains="captured by `body`, the body of `lax.fori_loop` at line 11",
            raises="KeyReuseError",
        ),
        _EXAMPLES_JAX301.invalid(
            "invalid_walk_jax_random_key_0_jnp.py",
            message_contains="the body of `lax.scan`",
            raises="KeyReuseError",
        ),
        _EXAMPLES_JAX301.invalid(
            "invalid_return_x_jax_random_normal_key.py",
            line=10,
            message_contains="by `jax.random.bernoulli` at line 9",
            raises="KeyReuseError",
        ),
        _EXAMPLES_JAX301.invalid(
            "invalid_w2_init_layer_key_3.py",
            line=12,
            message_contains="by `init_layer` at line 11, then by `init_layer` at line 12",
            raises="KeyReuseError",
        ),
        _EXAMPLES_JAX301.invalid(
            "invalid_f_jax_random_key_7.py",
            message_contains="`keys[0]` is consumed twice",
            raises="KeyReuseError",
        ),
        _EXAMPLES_JAX301.invalid(
            "invalid_function_jaxlint_cannot_see_next.py",
            line=9,
            column=27,
            message_contains="by `w_init` (which receives it and may draw from it) at line 8",
            raises="KeyReuseError",
            note="a function jaxlint cannot see, next to a certain consumption",
        ),
        _EXAMPLES_JAX301.invalid(
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
        where = _line(self, second.arg)
        if reuse.how == "again":
            return (
                f"is consumed twice: {_by(first)} at line {_line(self, first.arg)}, then"
                f" {_by(second)} at line {where}; both draw the same random bits: split it"
                " (`k1, k2 = jax.random.split(key)`) and use each key once"
            )
        if reuse.how in _LOOP_WORDS:
            assert reuse.loop is not None
            return (
                f"is consumed by `{second.by}` at line {where} on every iteration of the"
                f" {_LOOP_WORDS[reuse.how]} at line {_line(self, reuse.loop)} and never rebound:"
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
            f" {_line(self, reuse.loop)}, and consumed by `{second.by}` at line {where} on every"
            " iteration; thread the key through the carry and split it there, or use"
            " `jax.random.fold_in(key, i)`"
        )


def _by(use: Use) -> str:
    if use.kind == CALL:
        return f"by `{use.by}` (which receives it and may draw from it)"
    return f"by `{use.by}`"


# -- JAX303 ----------------------------------------------------------------------------------

_NUMPY_RANDOM_SETUP = frozenset(
    f"numpy.random.{n}"
    for n in (
        "seed get_state set_state get_bit_generator set_bit_generator Generator SeedSequence "
        "BitGenerator PCG64 PCG64DXSM MT19937 Philox SFC64 default_rng RandomState"
    ).split()
)
_GENERATORS = frozenset(
    {
        "numpy.random.default_rng",
        "numpy.random.RandomState",
        "numpy.random.Generator",
        "random.Random",
    }
)
_STDLIB_RANDOM = frozenset(
    f"random.{n}"
    for n in (
        "random randint randrange uniform choice choices shuffle sample gauss normalvariate "
        "getrandbits betavariate expovariate triangular lognormvariate vonmisesvariate "
        "gammavariate paretovariate weibullvariate randbytes binomialvariate SystemRandom"
    ).split()
)
_CLOCKS = frozenset(
    f"time.{n}"
    for n in (
        "time time_ns perf_counter perf_counter_ns monotonic monotonic_ns process_time "
        "process_time_ns thread_time thread_time_ns"
    ).split()
) | frozenset(
    {
        "datetime.datetime.now",
        "datetime.datetime.utcnow",
        "datetime.datetime.today",
        "datetime.date.today",
    }
)
_ENTROPY = frozenset(
    {"os.urandom", "os.getrandom", "uuid.uuid1", "uuid.uuid4"}
    | {
        f"secrets.{n}"
        for n in "token_bytes token_hex token_urlsafe randbelow randbits choice".split()
    }
)
_GENERATOR_METHODS_KEEP = frozenset(
    {"spawn", "bit_generator", "jumped", "seed", "get_state", "getstate"}
)


def _host_value(qn: str, call: cst.Call) -> tuple[str, str] | None:
    """What a host call returns that tracing freezes, and what to do instead."""
    use_jax = "draw them with `jax.random` from a key passed in as an argument"
    if qn.startswith("numpy.random."):
        if qn in _NUMPY_RANDOM_SETUP:
            if qn in ("numpy.random.default_rng", "numpy.random.RandomState") and not call.args:
                return "the unseeded generator it makes is", use_jax
            return None
        return "the random numbers it draws are", use_jax
    if qn in _STDLIB_RANDOM or (qn == "random.Random" and not call.args):
        return "the random numbers it draws are", use_jax
    if qn in _CLOCKS:
        return (
            "the time it reads is",
            "pass the time in as an argument, or read it in a `jax.debug.callback`",
        )
    if qn in _ENTROPY:
        return "the value it returns is", "pass it in as an argument"
    return None


_EXAMPLES_JAX303 = Examples(Path(__file__).parent / "prng" / "host_rng_in_traced.py")


class HostRngInTraced(Rule):
    code = "JAX303"
    name = "host-rng-in-traced"
    message = (
        "`{call}` runs once, when `{fn}` is traced ({how}): {what} frozen into the"
        " compiled program, the same on every {repeat}; {advice}"
    )
    fix_availability = "none"
    probe = "jaxlint probe compile FILE.py:FUNC --dump jaxpr.txt"
    docs = """\
## What it does
Flags host sources of randomness, time and entropy called inside code that JAX
compiles once and runs many times: `numpy.random.*` samplers (and an unseeded
`np.random.default_rng()`), sampling methods of a NumPy or `random.Random`
generator created outside the traced function, the `random` module,
`time.time()`/`perf_counter()`/`monotonic()`, `datetime.now()`, `os.urandom`,
`uuid.uuid1/uuid4` and `secrets`. Traced code here is a function under `jax.jit`
(or `pmap`, `shard_map`, `nnx.jit`, `eqx.filter_jit`, `checkpoint`), the body of
`lax.scan`/`fori_loop`/`while_loop`/`map`, and the helpers and `cond` branches
they call.

## Why is this bad
Tracing runs the Python function once with abstract values. A call such as
`np.random.rand()` is ordinary Python: it runs during tracing, and its result
becomes a constant of the compiled program. Every later call of the jitted
function, and every iteration of a `scan` body, reuses that same number. Nothing
warns: the code "works", but the noise, dropout mask or timestamp never changes.
Under `jax.grad` or `jax.vmap` alone the function is traced on every call, so
these are not flagged there, nor inside `jax.eval_shape`.

## Example
```python
import jax
import numpy as np

@jax.jit
def add_noise(x):
    return x + np.random.normal(size=x.shape)  # the same noise on every call
```

## Use instead
```python
import jax

@jax.jit
def add_noise(x, key):
    return x + jax.random.normal(key, x.shape)
```

## Fix safety
No fix: the replacement needs a key argument threaded through the callers.

## Verify at runtime
Call the jitted function twice: the values are identical. `jaxlint probe compile FILE.py:FUNC --dump jaxpr.txt`
writes the jaxpr, where the host value appears as a literal constant and no
`random_bits` equation exists.
"""
    VALID = [
        _EXAMPLES_JAX303.valid(
            "valid_numpy_randomness_host_code_passed.py",
            note="NumPy randomness in host code, passed in",
            runs=True,
        ),
        _EXAMPLES_JAX303.valid(
            "valid_random_jax_random_here.py", note="`random` is `jax.random` here", runs=True
        ),
        _EXAMPLES_JAX303.valid(
            "valid_runs_host_every_call_through.py",
            note="runs on the host at every call, through a callback",
            runs=True,
        ),
        _EXAMPLES_JAX303.valid(
            "valid_jax_grad_alone_traces_every.py",
            note="`jax.grad` alone traces on every call",
            runs=True,
        ),
        _EXAMPLES_JAX303.valid(
            "valid_eval_shape_only_reads_shapes.py",
            note="`eval_shape` only reads shapes",
            runs=True,
        ),
        _EXAMPLES_JAX303.valid("valid_timing_host_code.py", note="timing in host code", runs=True),
        _EXAMPLES_JAX303.valid(
            "valid_generator_seeded_inside_function_deterministic.py",
            note="a generator seeded inside the function: a deterministic constant by design",
            runs=True,
        ),
        _EXAMPLES_JAX303.valid(
            "valid_seeding_side_effect_frozen_value.py",
            note="seeding: a side effect, not a frozen value",
        ),
        _EXAMPLES_JAX303.valid(
            "valid_vmap_alone_traces_every_call.py", note="`vmap` alone traces on every call"
        ),
        *_KEY_HYGIENE,
    ]
    INVALID = [
        _EXAMPLES_JAX303.invalid(
            "invalid_return_x_np_random_normal_size.py",
            line=8,
            column=16,
            message_contains=(
                "`np.random.normal(size=x.shape)` runs once, when `add_noise` is traced"
                " (jitted by `jax.jit` at line 6)"
            ),
        ),
        _EXAMPLES_JAX303.invalid(
            "invalid_fast_step_jax_jit_step.py", message_contains="`random.random()`"
        ),
        _EXAMPLES_JAX303.invalid(
            "invalid_return_x_time_time.py", message_contains="the time it reads"
        ),
        _EXAMPLES_JAX303.invalid(
            "invalid_x_x_np_random_normal.py",
            line=8,
            message_contains="the same on every iteration and call",
        ),
        _EXAMPLES_JAX303.invalid(
            "invalid_generator_created_outside_state_never.py",
            message_contains="`RNG.normal(size=x.shape)`",
            note="a generator created outside: its state never advances",
        ),
        _EXAMPLES_JAX303.invalid("invalid_return_x_os_urandom_4_uuid.py", count=2),
        _EXAMPLES_JAX303.invalid(
            "invalid_return_helper_x.py",
            message_contains="when `helper` is traced (called from traced `f`",
        ),
        _EXAMPLES_JAX303.invalid("invalid_return_model_x_np_random_rand.py"),
        _EXAMPLES_JAX303.invalid(
            "invalid_complete_program_assert_holds_both.py",
            note="a complete program: the assert holds, both calls give the same 'noise'",
        ),
    ]

    def __init__(self, ctx: FileContext) -> None:
        super().__init__(ctx)
        self._assigned: dict[int, cst.BaseExpression] | None = None

    def visit_Call(self, node: cst.Call) -> None:
        qn = self.model.call_name(node)
        found = _host_value(qn, node) if qn is not None else None
        if found is None:
            found = self._generator_method(node)
        if found is None:
            return
        info = compiled_function_of(self.ctx.trace, self.ctx.keys, node)
        if info is None:
            return
        what, advice = found
        loop_body = self.ctx.keys.loop_body_of(info.node) is not None
        self.report(
            node,
            call=_short(self.ctx.code(node), 48),
            fn=info.name,
            how=info.how(lambda n: _line(self, n)),
            what=what,
            repeat="iteration and call" if loop_body else "call",
            advice=advice,
        )

    def _generator_method(self, call: cst.Call) -> tuple[str, str] | None:
        """``rng.normal()`` on a NumPy/``random.Random`` generator made outside the
        traced function (its state never advances under tracing)."""
        func = call.func
        if not isinstance(func, cst.Attribute) or not isinstance(func.value, cst.Name):
            return None
        if func.attr.value in _GENERATOR_METHODS_KEEP:
            return None
        name = func.value
        found = self.model.lookup(name.value, self.model.scope_for(name))
        if found is None:
            return None
        scope, bindings = found
        if len(bindings) != 1 or bindings[0].kind != "assign":
            return None
        value = self._value_of(bindings[0].node)
        if not isinstance(value, cst.Call) or self.model.call_name(value) not in _GENERATORS:
            return None
        inside = self.ctx.trace.traced_function_of(call)
        if inside is not None and scope.node is inside.node:
            return None  # made in the traced function itself: seeded there or flagged there
        return (
            "the random numbers it draws (the generator's state never advances) are",
            "draw them with `jax.random` from a key passed in as an argument",
        )

    def _value_of(self, target: cst.CSTNode) -> cst.BaseExpression | None:
        if self._assigned is None:
            self._assigned = {}
            for node, entering in self.model.events:
                # ``type() is``: an ``isinstance`` on a libcst class goes through ABCMeta
                if entering and type(node) is cst.Assign:
                    for t in node.targets:
                        self._assigned[id(t.target)] = node.value
        return self._assigned.get(id(target))


# -- JAX304 ----------------------------------------------------------------------------------


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
        if repeats(node.iter, self.ctx.model) and not _sweep(node.iter):
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
        if any(repeats(c.iter, self.ctx.model) for c in comps) and not _sweep(comps[0].iter):
            body = node.elt if not isinstance(node, cst.DictComp) else node.value  # type: ignore[attr-defined]
            self._loops[-1].append((node, body))

    def _leave_comp(self, node: cst.BaseComprehension) -> None:
        if self._loops[-1] and self._loops[-1][-1][0] is node:
            self._loops[-1].pop()

    visit_ListComp = visit_SetComp = visit_GeneratorExp = visit_DictComp = _visit_comp
    leave_ListComp = leave_SetComp = leave_GeneratorExp = leave_DictComp = _leave_comp

    def _inside(self, node: cst.CSTNode, region: cst.CSTNode) -> bool:
        pos = self.ctx.positions
        a, b = pos[node], pos[region]
        return (b.start.line, b.start.column) <= (a.start.line, a.start.column) and (
            a.end.line,
            a.end.column,
        ) <= (b.end.line, b.end.column)

    def _repeating_loop(self, node: cst.CSTNode) -> cst.CSTNode | None:
        """The innermost loop of this function whose repeated part holds ``node``."""
        for loop, body in reversed(self._loops[-1]):
            if self._inside(node, body):
                return loop
        return None


def _sweep(iterable: cst.BaseExpression) -> bool:
    """A loop over a literal collection (``for lr in (0.1, 0.01):``): a parameter sweep,
    where the same seed on every run keeps the runs comparable."""
    return isinstance(iterable, (cst.Tuple, cst.List, cst.Set))


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


_EXAMPLES_JAX304 = Examples(Path(__file__).parent / "prng" / "constant_key_in_loop.py")


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
file).

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
setting keeps the runs comparable).

## Fix safety
No fix: the key has to come from outside the loop or the function, which changes
its callers.

## Verify at runtime
Print two iterations' samples: they are equal. Under jit,
`jaxlint probe compile FILE.py:FUNC --dump jaxpr.txt` shows the constant seed in a
`random_seed` equation (or a literal key) inside the compiled function.
"""
    VALID = [
        _EXAMPLES_JAX304.valid(
            "valid_made_once_before_loop_split.py",
            note="made once before the loop, split each iteration",
        ),
        _EXAMPLES_JAX304.valid(
            "valid_seed_varies_loop_variable.py", note="the seed varies with the loop variable"
        ),
        _EXAMPLES_JAX304.valid(
            "valid_fold_key_step_per_step.py", note="`fold_in(key, step)` per step"
        ),
        _EXAMPLES_JAX304.valid("valid_seed_argument.py", note="the seed is an argument"),
        _EXAMPLES_JAX304.valid(
            "valid_constant_key_host_code_outside.py",
            note="a constant key in host code, outside any loop",
        ),
        _EXAMPLES_JAX304.valid(
            "valid_only_passed_functions_another_module.py",
            note="only passed to functions of another module (Flax init folds in its own data)",
        ),
        _EXAMPLES_JAX304.valid(
            "valid_sweep_over_literal_collection_same.py",
            note="a sweep over a literal collection: the same noise for every setting, on purpose",
        ),
        _EXAMPLES_JAX304.valid("valid_loop_runs_once.py", note="a loop that runs once"),
        _EXAMPLES_JAX304.valid(
            "valid_eval_shape_runs_nothing.py", note="`eval_shape` runs nothing"
        ),
        _EXAMPLES_JAX304.valid(
            "valid_made_but_consumed_loop.py", note="made but not consumed in the loop"
        ),
        _EXAMPLES_JAX304.valid(
            "valid_key_argument_jitted_function.py",
            note="the key is an argument of the jitted function",
        ),
        *_KEY_HYGIENE,
    ]
    INVALID = [
        _EXAMPLES_JAX304.invalid(
            "invalid_x_x_jax_random_normal_jax.py",
            line=6,
            column=35,
            message_contains="makes the same key on every iteration of the loop at line 5",
        ),
        _EXAMPLES_JAX304.invalid("invalid_key_jax_random_prngkey_42.py", line=6),
        _EXAMPLES_JAX304.invalid(
            "invalid_return_x_jax_random_normal_key.py",
            message_contains="every call of `add_noise` (jitted by `jax.jit` at line 4)",
        ),
        _EXAMPLES_JAX304.invalid(
            "invalid_return_jr_normal_jr_key_0.py",
            message_contains="every iteration of the comprehension at line 5",
        ),
        _EXAMPLES_JAX304.invalid(
            "invalid_return_jax_lax_scan_body_x0.py",
            message_contains="every iteration of `body`, the body of `lax.scan` at line 9",
        ),
        _EXAMPLES_JAX304.invalid(
            "invalid_return_state.py", message_contains="`jax.random.PRNGKey(SEED)`"
        ),
        _EXAMPLES_JAX304.invalid(
            "invalid_consumed_through_function_file.py",
            note="consumed through a function of this file",
        ),
    ]

    def visit_Call(self, node: cst.Call) -> None:
        qn = self.model.call_name(node)
        if qn not in ("jax.random.key", LEGACY):
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
        call = _short(self.ctx.code(node), 48)
        loop = self._repeating_loop(node)
        if loop is not None:
            if not any(self._inside(u.arg, loop) for u in uses):
                return
            kind = "comprehension" if not isinstance(loop, (cst.For, cst.While)) else "loop"
            self.report(
                node,
                call=call,
                where=f"iteration of the {kind} at line {_line(self, loop)}",
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
        if body is not None:
            prim = self.ctx.code(body[1].func).split(".")[-1]
            where = f"iteration of `{info.name}`, the body of `lax.{prim}` at line {_line(self, body[1])}"
            what = "every iteration draws the same random numbers"
            advice = (
                "thread a key through the carry and split it, or use `jax.random.fold_in(key, i)`"
            )
        else:
            where = f"call of `{info.name}` ({info.how(lambda n: _line(self, n))})"
            what = "every call draws the same random numbers"
            advice = "pass the key in as an argument"
        self.report(node, call=call, where=where, what=what, advice=advice)


_EXAMPLES_JAX305 = Examples(Path(__file__).parent / "prng" / "global_prng_key.py")


# -- JAX305 ----------------------------------------------------------------------------------


class GlobalPrngKey(Rule):
    code = "JAX305"
    name = "global-prng-key"
    message = (
        "`{key}` is a module-level key consumed by `{by}` in `{fn}`: every call of `{fn}`"
        " draws the same random numbers (hidden RNG state); pass a key in as an argument"
    )
    fix_availability = "none"
    probe = "jaxlint probe compile FILE.py:FUNC --dump jaxpr.txt"
    docs = """\
## What it does
Flags a key made at module level (`KEY = jax.random.key(0)`, a `PRNGKey`, a key
split from one) and consumed inside a function (by a `jax.random` sampler,
`split`, or a function of the same file that consumes it), where the function
neither receives the key as an argument nor rebinds the global.

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
flagged, nor is a function that declares `global KEY` and rebinds it (stateful,
but it advances).

## Fix safety
No fix: the key has to become an argument, which changes every caller.

## Verify at runtime
Call the function twice: the results are identical. Under jit,
`jaxlint probe compile FILE.py:FUNC --dump jaxpr.txt` shows the key as a
constant of the jaxpr rather than an argument.
"""
    VALID = [
        _EXAMPLES_JAX305.valid(
            "valid_module_key_passed_once.py", note="the module key is passed in once"
        ),
        _EXAMPLES_JAX305.valid(
            "valid_global_rebound_state_advances.py",
            note="the global is rebound: the state advances",
        ),
        _EXAMPLES_JAX305.valid(
            "valid_fresh_key_per_step_fold.py", note="a fresh key per step with `fold_in`"
        ),
        _EXAMPLES_JAX305.valid(
            "valid_parameter_shadows_global.py", note="a parameter shadows the global"
        ),
        _EXAMPLES_JAX305.valid(
            "valid_reading_key_does_consume.py", note="reading a key does not consume it"
        ),
        _EXAMPLES_JAX305.valid(
            "valid_consumed_module_code_function.py",
            note="consumed in module code, not in a function",
        ),
        _EXAMPLES_JAX305.valid(
            "valid_module_level_seed_key_jax304.py",
            note="a module-level seed, not a key (JAX304 covers loops and jit)",
        ),
        _EXAMPLES_JAX305.valid(
            "valid_only_passed_function_another_module.py",
            note="only passed to a function of another module",
        ),
        *_KEY_HYGIENE,
    ]
    INVALID = [
        _EXAMPLES_JAX305.invalid(
            "invalid_return_jax_random_normal_key_shape.py",
            line=7,
            column=30,
            message_contains="`KEY` is a module-level key consumed by `jax.random.normal` in `init_weights`",
        ),
        _EXAMPLES_JAX305.invalid("invalid_return_jax_random_choice_rng_n.py"),
        _EXAMPLES_JAX305.invalid(
            "invalid_element_module_level_split.py", note="an element of a module-level split"
        ),
        _EXAMPLES_JAX305.invalid(
            "invalid_return_sample_key.py", message_contains="consumed by `sample` in `draw`"
        ),
        _EXAMPLES_JAX305.invalid("invalid_return_x_jax_random_normal_key.py"),
        _EXAMPLES_JAX305.invalid(
            "invalid_noise_lambda_shape_jax_random_uniform.py", message_contains="in `<lambda>`"
        ),
    ]

    def visit_Module(self, node: cst.Module) -> None:
        text = self.ctx.text
        if "random" not in text and "rng" not in text:
            return
        for use, val, fn in self.ctx.keys.global_uses:
            if use.kind == CALL:
                continue
            name = fn.name.value if isinstance(fn, cst.FunctionDef) else "<lambda>"
            self.report(use.arg, key=val.name, by=use.by, fn=name)
