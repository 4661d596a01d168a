"""JAX3xx: PRNG keys.

The rules ask :mod:`jaxlint.analysis.keys` (``self.ctx.keys``) which values are keys
and where each is consumed, and the trace analysis (``self.ctx.trace``) which code
is traced.
"""

from __future__ import annotations

import libcst as cst

from jaxlint.analysis.keys import Reuse
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


# -- JAX301 ----------------------------------------------------------------------------------


def _line(rule: Rule, node: cst.CSTNode) -> int:
    return rule.ctx.positions[node].start.line


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
comparisons do not; a function of the same file consumes what its body consumes.
A key passed to a function jaxlint cannot see counts as consumed only next to a
certain consumption: two calls such as `model.init(key, x)` and
`model.apply(..., rngs={"dropout": key})` may only derive keys with `fold_in`
(Flax does) and are not reported. One use in each arm of an `if` is fine, and so
is a use before a `return`, `break` or `raise`.

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
        Valid(
            _program(
                "def walk(key, x):\n"
                "    for _ in range(3):\n"
                "        key, sub = jax.random.split(key)\n"
                "        x = x + jax.random.normal(sub, x.shape)\n"
                "    return x\n\n\n"
                "walk(jax.random.key(0), jnp.zeros(3))\n",
                "import jax.numpy as jnp\n",
            ),
            note="`key, sub = split(key)` each iteration",
            runs=True,
        ),
        Valid(
            _program(
                "def draws(key, n):\n"
                "    keys = jax.random.split(key, n)\n"
                "    a = jax.random.normal(keys[0], (2,))\n"
                "    b = jax.random.uniform(keys[1], (2,))\n"
                "    c = [jax.random.normal(keys[i]) for i in range(2, n)]\n"
                "    return a, b, c\n\n\n"
                "draws(jax.random.key(0), 4)\n"
            ),
            note="`keys = split(key, n)` and a different `keys[i]` per use",
            runs=True,
        ),
        Valid(
            _program(
                "def noise(key, steps):\n"
                "    out = []\n"
                "    for step in range(steps):\n"
                "        out.append(jax.random.normal(jax.random.fold_in(key, step), (2,)))\n"
                "    return out\n\n\n"
                "noise(jax.random.key(0), 3)\n"
            ),
            note="`fold_in(key, step)` per step: fold_in does not consume the key",
            runs=True,
        ),
        Valid(
            _program(
                "def init_layer(key, n):\n"
                "    return jax.random.normal(key, (n, n))\n\n\n"
                "def init(key):\n"
                "    k1, k2 = jax.random.split(key)\n"
                "    return init_layer(k1, 3), init_layer(k2, 3)\n\n\n"
                "init(jax.random.key(0))\n"
            ),
            note="a key passed into one function and never used again",
            runs=True,
        ),
        Valid(
            _program(
                "def body(carry, x):\n"
                "    key, total = carry\n"
                "    key, sub = jax.random.split(key)\n"
                "    return (key, total + x * jax.random.normal(sub)), total\n\n\n"
                "def run(key, xs):\n"
                "    (key, total), _ = jax.lax.scan(body, (key, 0.0), xs)\n"
                "    return jax.random.normal(key), total\n\n\n"
                "run(jax.random.key(0), jnp.arange(3.0))\n",
                "import jax.numpy as jnp\n",
            ),
            note="a key threaded through the `lax.scan` carry, rebound from its result",
            runs=True,
        ),
        Valid(
            "import flax.linen as nn\nimport jax\n\n\n"
            "class Noisy(nn.Module):\n"
            "    @nn.compact\n"
            "    def __call__(self, x):\n"
            "        a = jax.random.normal(self.make_rng('noise'), x.shape)\n"
            "        b = jax.random.normal(self.make_rng('noise'), x.shape)\n"
            "        return x + a + b\n",
            note="Flax `self.make_rng` gives a fresh key on every call",
        ),
        Valid(
            "import jax\nfrom flax import nnx\n\n\n"
            "class Noisy(nnx.Module):\n"
            "    def __init__(self, rngs: nnx.Rngs):\n"
            "        self.w = jax.random.normal(rngs.params(), (3, 3))\n"
            "        self.b = jax.random.normal(rngs.params(), (3,))\n"
            "        self.c = jax.random.normal(rngs(), (3,))\n",
            note="`nnx.Rngs` streams give a fresh key on every call",
        ),
        Valid(
            _program(
                "def pick(key, flip):\n"
                "    if flip:\n"
                "        x = jax.random.normal(key, (2,))\n"
                "    else:\n"
                "        x = jax.random.uniform(key, (2,))\n"
                "    return x\n\n\n"
                "pick(jax.random.key(0), True)\n"
                "pick(jax.random.key(1), False)\n"
            ),
            note="one use in each arm of an `if`",
            runs=True,
        ),
        Valid(
            _program(
                "def pick(key, flip):\n"
                "    if flip:\n"
                "        return jax.random.normal(key, (2,))\n"
                "    return jax.random.uniform(key, (2,))\n\n\n"
                "pick(jax.random.key(0), True)\n"
            ),
            note="the first use returns",
            runs=True,
        ),
        Valid(
            _program(
                "def f(key):\n"
                "    bits = jax.random.key_data(key)\n"
                "    same = jax.random.clone(key) == key\n"
                "    return jax.random.normal(key, (2,)), bits, same\n\n\n"
                "f(jax.random.key(0))\n"
            ),
            note="`key_data`, `clone` and `==` do not consume",
            runs=True,
        ),
        Valid(
            _program(
                "def f(key, pred):\n"
                "    x = jax.lax.cond(\n"
                "        pred, lambda: jax.random.normal(key), lambda: jax.random.uniform(key)\n"
                "    )\n"
                "    return x\n\n\n"
                "f(jax.random.key(0), True)\n"
            ),
            note="`lax.cond` runs one branch: the key is consumed once",
            runs=True,
        ),
        Valid(
            _program(
                "def draws(key):\n"
                "    return [jax.random.normal(k, (2,)) for k in jax.random.split(key, 3)]\n\n\n"
                "draws(jax.random.key(0))\n"
            ),
            note="iterating over split keys: a fresh key per iteration",
            runs=True,
        ),
        Valid(
            "import numpy as np\n\n\n"
            "def jitter(rng, x):\n"
            "    a = rng.normal(size=x.shape)\n"
            "    b = rng.uniform(size=x.shape)\n"
            "    return x + a + b\n\n\n"
            "jitter(np.random.default_rng(0), np.zeros(3))\n",
            note="`rng` is a NumPy generator, not a JAX key (mentions jax: import)",
        ),
        Valid(
            "import jax\n\n\n"
            "def run(model, key, x):\n"
            "    params = model.init(key, x)\n"
            "    return model.apply(params, x, rngs={'dropout': key})\n",
            note="two functions jaxlint cannot see: they may only derive keys (Flax uses fold_in)",
        ),
        Valid(
            _program(
                "def first_positive(key, xs):\n"
                "    for x in xs:\n"
                "        if x > 0:\n"
                "            return x * jax.random.normal(key)\n"
                "    return 0.0\n\n\n"
                "first_positive(jax.random.key(0), [-1.0, 2.0, 3.0])\n"
            ),
            note="the loop returns after its only consumption",
            runs=True,
        ),
        Valid(
            _program(
                "def f(key):\n"
                "    assert jax.dtypes.issubdtype(key.dtype, jax.dtypes.prng_key)\n"
                "    k1, k2 = jax.random.split(key)\n"
                "    return jax.random.normal(k1), jax.random.normal(k2)\n\n\n"
                "f(jax.random.key(0))\n"
            ),
            note="reading `.dtype`/`.shape` does not consume",
            runs=True,
        ),
    ]
    INVALID = [
        Invalid(
            _program(
                "def sample(key):\n"
                "    x = jax.random.normal(key, (3,))\n"
                "    y = jax.random.uniform(key, (3,))\n"
                "    return x + y\n\n\n"
                "sample(jax.random.key(0))\n"
            ),
            line=8,
            column=28,
            message_contains="by `jax.random.normal` at line 7, then by `jax.random.uniform` at line 8",
            raises="KeyReuseError",
        ),
        Invalid(
            _program(
                "def noisy(key, x):\n"
                "    for _ in range(3):\n"
                "        x = x + jax.random.normal(key, x.shape)\n"
                "    return x\n\n\n"
                "noisy(jax.random.key(0), jnp.zeros(3))\n",
                "import jax.numpy as jnp\n",
            ),
            line=9,
            column=35,
            message_contains="at line 9 on every iteration of the loop at line 8",
            raises="KeyReuseError",
        ),
        Invalid(
            _program(
                "key = jax.random.key(0)\n"
                "k1, k2 = jax.random.split(key)\n"
                "noise = jax.random.normal(key, (2,))\n",
                "from jax import random\n",
            ),
            line=9,
            message_contains="`key` is consumed twice: by `jax.random.split` at line 8",
            raises="KeyReuseError",
        ),
        Invalid(
            _program(
                "def draws(key, shapes):\n"
                "    return [jr.normal(key, s) for s in shapes]\n\n\n"
                "draws(jr.key(1), [(2,), (3,)])\n",
                "import jax.random as jr\n",
            ),
            line=8,
            column=23,
            message_contains="every iteration of the comprehension at line 8",
            raises="KeyReuseError",
        ),
        Invalid(
            _program(
                "def total(key):\n"
                "    def body(i, acc):\n"
                "        return acc + jax.random.normal(key)\n\n"
                "    return lax.fori_loop(0, 5, body, 0.0)\n\n\n"
                "total(jax.random.key(0))\n",
                "from jax import lax\n",
            ),
            line=9,
            message_contains="captured by `body`, the body of `lax.fori_loop` at line 11",
            raises="KeyReuseError",
        ),
        Invalid(
            _program(
                "def walk(key, xs):\n"
                "    return jax.lax.scan(lambda c, x: (c + x * jax.random.normal(key), c), 0.0, xs)\n\n\n"
                "walk(jax.random.key(0), jnp.arange(3.0))\n",
                "import jax.numpy as jnp\n",
            ),
            message_contains="the body of `lax.scan`",
            raises="KeyReuseError",
        ),
        Invalid(
            _program(
                "def layer(key, x, training=True):\n"
                "    if training:\n"
                "        x = x * jax.random.bernoulli(key, 0.9, x.shape)\n"
                "    return x + jax.random.normal(key, x.shape)\n\n\n"
                "layer(jax.random.key(0), jnp.ones(3))\n",
                "import jax.numpy as jnp\n",
            ),
            line=10,
            message_contains="by `jax.random.bernoulli` at line 9",
            raises="KeyReuseError",
        ),
        Invalid(
            _program(
                "def init_layer(key, n):\n"
                "    return jax.random.normal(key, (n, n))\n\n\n"
                "def init(key):\n"
                "    w1 = init_layer(key, 3)\n"
                "    w2 = init_layer(key, 3)\n"
                "    return w1, w2\n\n\n"
                "init(jax.random.key(0))\n"
            ),
            line=12,
            message_contains="by `init_layer` at line 11, then by `init_layer` at line 12",
            raises="KeyReuseError",
        ),
        Invalid(
            _program(
                "@jax.jit\n"
                "def f(key):\n"
                "    keys = jax.random.split(key, 3)\n"
                "    return jax.random.normal(keys[0]) + jax.random.uniform(keys[0])\n\n\n"
                "f(jax.random.key(7))\n"
            ),
            message_contains="`keys[0]` is consumed twice",
            raises="KeyReuseError",
        ),
        Invalid(
            _program(
                "def walk(key, x):\n"
                "    while x.sum() < 10:\n"
                "        key, sub = jax.random.split(key)\n"
                "        x = x + jax.random.uniform(sub, x.shape)\n"
                "        x = x + jax.random.uniform(sub, x.shape)\n"
                "    return x\n\n\n"
                "walk(jax.random.key(0), jnp.zeros(2))\n",
                "import jax.numpy as jnp\n",
            ),
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
        if isinstance(arg, cst.Call):  # consumed by a function that closes over it
            return reuse.value.name
        return " ".join(self.ctx.code(arg).split())

    def _detail(self, reuse: Reuse) -> str:
        first, second = reuse.first, reuse.second
        where = _line(self, second.arg)
        if reuse.how == "again":
            return (
                f"is consumed twice: by `{first.by}` at line {_line(self, first.arg)}, then by"
                f" `{second.by}` at line {where}; both draw the same random bits: split it"
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
