"""JAX302 legacy-prng-key: `jax.random.PRNGKey` calls, which make legacy raw uint32 keys."""

from __future__ import annotations

import libcst as cst

from jaxlint.analysis.keys import LEGACY, RawUse
from jaxlint.diagnostics import Applicability
from jaxlint.fixers.spelling import spell
from jaxlint.rules.base import Examples, FixOp, ReplaceNode, Rule
from jaxlint.rules.prng.helpers import line, short
from jaxlint.rules.prng.key_hygiene import KEY_HYGIENE

EXAMPLES = Examples(__file__)


_TYPED_KEYS_SINCE = (0, 4, 16)


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
        EXAMPLES.valid("valid_key_jax_random_key_0.py"),
        EXAMPLES.valid("valid_k1_k2_jr_split_jr_key.py"),
        EXAMPLES.valid(
            "valid_typed_keys_do_exist_yet.py",
            target_jax="0.4.10",
            note="typed keys do not exist yet",
        ),
        EXAMPLES.valid("valid_key_prngkey_0_uses_jax_elsewhere.py"),
        EXAMPLES.valid("valid_return_prngkey_0.py"),
        EXAMPLES.valid("valid_key_jax_random_wrap_key_data.py"),
        EXAMPLES.valid("valid_name_jax_random_prngkey_0.py"),
        EXAMPLES.valid("valid_key_jax_random_prngkey_0_noqa.py"),
        EXAMPLES.valid("valid_local_alias.py", note="a local alias"),
        EXAMPLES.valid(
            "valid_used_type_annotation_called.py", note="used as a type annotation, not called"
        ),
        *KEY_HYGIENE,
    ]
    INVALID = [
        EXAMPLES.invalid(
            "invalid_key_jax_random_prngkey_0.py",
            line=2,
            column=7,
            unsafe_fix=True,
            message_contains="`jax.random.PRNGKey`",
        ),
        EXAMPLES.invalid("invalid_key_jr_prngkey_seed.py", unsafe_fix=True),
        EXAMPLES.invalid("invalid_key_prngkey_42.py", unsafe_fix=True),
        EXAMPLES.invalid("invalid_key_j_random_prngkey_0_impl.py", unsafe_fix=True),
        EXAMPLES.invalid("invalid_return_jax_random_prngkey_seed.py", line=4, column=12),
        EXAMPLES.invalid("invalid_keys_jax_random_prngkey_i_i.py", count=1),
        EXAMPLES.invalid("invalid_key_k_0.py", unsafe_fix=True),
        EXAMPLES.invalid("invalid_key_random_prngkey_0.py", unsafe_fix=True),
        EXAMPLES.invalid(
            "invalid_keys_jax_vmap_jax_random_prngkey.py", line=4, column=17, unsafe_fix=True
        ),
        EXAMPLES.invalid(
            "invalid_fix_would_break_key_1.py",
            line=5,
            unsafe_fix=True,
            message_contains="no fix: `key[1]` at line 6 indexes it (a typed key is a scalar)",
            note="the fix would break `key[1]` (IndexError on a typed key)",
        ),
        EXAMPLES.invalid(
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
                f"; no fix: `{short(self.ctx.code(raw.node))}` at line {line(self, raw.node)}"
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
