"""JAX3xx: PRNG keys."""

from __future__ import annotations

import libcst as cst

from jaxlint.diagnostics import Applicability
from jaxlint.fixers.spelling import spell
from jaxlint.rules.base import FixOp, Invalid, ReplaceNode, Rule, Valid

_TYPED_KEYS_SINCE = (0, 4, 16)


class LegacyPrngKey(Rule):
    code = "JAX302"
    name = "legacy-prng-key"
    message = "`{callee}` makes a legacy raw uint32 key; use typed keys from `{replacement}`"
    fix_availability = "always"
    default_enabled = False  # a modernisation: raw keys still work (select JAX3 to enable)
    probe = "jaxlint probe compile FILE.py:FUNC"
    docs = """\
## What it does
Flags calls to `jax.random.PRNGKey` in every import spelling
(`jax.random.PRNGKey`, `jr.PRNGKey`, `from jax.random import PRNGKey`).

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
saves it with NumPy, or splits and expects shape `(n, 2)` breaks. Use
`jax.random.key_data(key)` where the raw bits are really needed.

## Verify at runtime
`jaxlint probe compile FILE.py:FUNC` prints the argument and output dtypes:
a raw key shows as `uint32[2]`, a typed key as `key<fry>[]`.
"""
    VALID = [
        Valid("import jax\nkey = jax.random.key(0)\n"),
        Valid("import jax.random as jr\nk1, k2 = jr.split(jr.key(1))\n"),
        Valid(
            "import jax\nkey = jax.random.PRNGKey(0)\n",
            target_jax="0.4.10",
            note="typed keys do not exist yet",
        ),
        Valid("from mylib import PRNGKey\nkey = PRNGKey(0)  # uses jax elsewhere\n"),
        Valid("import jax\ndef f(PRNGKey):\n    return PRNGKey(0)\n"),
        Valid("import jax\nkey = jax.random.wrap_key_data(raw)\n"),
        Valid("import jax\nname = 'jax.random.PRNGKey(0)'\n"),
        Valid("import jax\nkey = jax.random.PRNGKey(0)  # noqa: JAX3\n"),
    ]
    INVALID = [
        Invalid(
            "import jax\nkey = jax.random.PRNGKey(0)\n",
            line=2,
            column=7,
            unsafe_fix=True,
            expected_fix="import jax\nkey = jax.random.key(0)\n",
            message_contains="`jax.random.PRNGKey`",
        ),
        Invalid(
            "from jax import random as jr\nkey = jr.PRNGKey(seed)\n",
            unsafe_fix=True,
            expected_fix="from jax import random as jr\nkey = jr.key(seed)\n",
        ),
        Invalid(
            '"""Doc."""\nfrom jax.random import PRNGKey\n\nkey = PRNGKey(42)\n',
            unsafe_fix=True,
            expected_fix=(
                '"""Doc."""\nfrom jax.random import PRNGKey\nimport jax\n\nkey = jax.random.key(42)\n'
            ),
        ),
        Invalid(
            "import jax as j\nkey = j.random.PRNGKey(0, impl='rbg')\n",
            unsafe_fix=True,
            expected_fix="import jax as j\nkey = j.random.key(0, impl='rbg')\n",
        ),
        Invalid(
            "import jax\n\ndef init(seed):\n    return jax.random.PRNGKey(seed)\n",
            line=4,
            column=12,
        ),
        Invalid(
            "import jax.random\nkeys = [jax.random.PRNGKey(i) for i in range(3)]\n",
            count=1,
        ),
    ]

    def visit_Call(self, node: cst.Call) -> None:
        if self.model.call_name(node) != "jax.random.PRNGKey":
            return
        if self.ctx.target_jax < _TYPED_KEYS_SINCE:
            return
        spelled = spell(self.model, "jax.random.key", node.func)
        shown = spelled[0] if spelled else "jax.random.key"

        def fix() -> list[FixOp]:
            assert spelled is not None
            text, ops = spelled
            return [ReplaceNode(node.func, text), *ops]

        self.report(
            node.func,
            callee=self.ctx.code(node.func),
            replacement=shown,
            fix=fix if spelled is not None else None,
            applicability=Applicability.UNSAFE if spelled is not None else None,
            fix_message=f"Replace with `{shown}` (typed key)",
        )
