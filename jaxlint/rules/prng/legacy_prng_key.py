"""JAX302 legacy-prng-key: `jax.random.PRNGKey` calls, which make legacy raw uint32 keys."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from jaxlint.analysis.keys import LEGACY, KeyValue
from jaxlint.rules.base import Examples, Rule
from jaxlint.rules.prng.key_hygiene import KEY_HYGIENE
from jaxlint.rules.prng.legacy_prng_key_analysis import (
    _PICKLERS,
    _RAW_METHODS,
    _RESHAPES,
    _SHAPE_READERS,
    _TYPED_KEYS_SINCE,
    LegacyPrngKeyChecks,
    _int_literal,
    _last_element,
    _Loc,
    _Source,
    _Use,
)

if TYPE_CHECKING:
    from jaxlint.engine import FileContext


EXAMPLES = Examples(__file__)


class LegacyPrngKey(LegacyPrngKeyChecks, Rule):
    code = "JAX302"
    name = "legacy-prng-key"
    message = "`{callee}` makes a legacy raw uint32 key; use typed keys from `{replacement}`{note}"
    fix_availability = "sometimes"
    default_enabled = False  # a modernisation: raw keys still work (select JAX3 to enable)
    probe = "jaxlint probe compile FILE.py:FUNC"
    required_names = frozenset({"PRNGKey"})
    docs = """\
## What it does
Flags calls to `jax.random.PRNGKey` in every import spelling
(`jax.random.PRNGKey`, `jr.PRNGKey`, `random.PRNGKey` after `from jax import
random`, `from jax.random import PRNGKey [as K]`), and `PRNGKey` passed as a
function (`jax.vmap(jax.random.PRNGKey)(seeds)`).

When the key (or a key split or folded from it) is later used as raw `uint32`
data in the same file, the message names the first such use and no fix is
offered: indexing it (`key[0]`, `keys[:, 0]`, `keys[..., 0]`), reshaping it to a
literal last axis (`keys.reshape(4, 2)`, `keys.reshape(-1, 2)`,
`jnp.reshape(keys, (-1, 2))`), `.astype`/`.view`/`.tolist`/`.tobytes`, arithmetic
or bitwise operators, `np.asarray`/`np.array`/`np.save`/`np.savez` or another
NumPy function (also on a dict, list or tuple holding the key), `pickle.dump(s)`,
`key.dtype ==` comparisons, `key.shape` of a single key, `keys.shape == (n, 2)`
or `keys.shape[-1]`, or a `jnp`/`lax` function that computes on the bits. The
key is followed through the file: into the parameters of the functions it is
passed to, into `self.<attr>` and back out of functions that return it, and
through `jax.vmap(jax.random.split)(keys)`.

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
uses a key as its two `uint32` words breaks, loudly or silently. Checked on jax
0.12: `key[0]` and `keys[:, 1]` raise `IndexError`; `keys.reshape(4, 2)` raises
`TypeError`; `np.asarray(key)`, `np.save`/`np.savez` of a key and `key + 1` raise
`TypeError`; `key.tobytes()` raises `AttributeError`; `key.astype(...)` raises
`NotImplementedError`. Silently different: `keys.reshape(-1, 2)` pairs up keys
(`(n/2, 2)` keys instead of `n`), `keys[..., 0]` returns the first key instead
of the first word of each key, `key.dtype == jnp.uint32` and `key.shape == (2,)` become
`False`, `keys.shape[-1]` is the number of keys, and `pickle.dumps(key)` writes a
typed key where readers of saved data expect the `uint32` pair.

No fix is offered when this file shows such a use of the key: rewrite those uses
with `jax.random.key_data(key)` first, then the fix applies. Uses in other files
(the key returned to, stored for or passed to code you cannot see) are not
visible, hence unsafe.

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
        EXAMPLES.invalid(
            "invalid_fix_applies_key_data.py",
            line=11,
            unsafe_fix=True,
            note="keys used only as keys, and saved through `key_data`: the fix applies and runs",
        ),
        # no fix where the file uses the key as raw data: each of these runs as written, and
        # fails with ``PRNGKey`` replaced by ``key`` (tests/test_prng_runtime.py runs both)
        EXAMPLES.invalid(
            "invalid_reshape_trailing_pair.py",
            line=3,
            column=7,
            unsafe_fix=True,
            message_contains="no fix: `jax.random.split(key, 8).reshape(2, 4...` at line 4"
            " reshapes it to a last axis of `2`",
            note="typed: TypeError, cannot reshape (8,) into (2, 4, 2)",
        ),
        EXAMPLES.invalid(
            "invalid_reshape_minus_one_pair.py",
            unsafe_fix=True,
            message_contains="`per_step.reshape(-1, 2)` at line 6 reshapes it",
            note="vmapped splits flattened with `(-1, 2)`; typed: (6, 2) keys, then ValueError",
        ),
        EXAMPLES.invalid(
            "invalid_index_last_axis.py",
            unsafe_fix=True,
            message_contains="`keys[..., 0]` at line 6 indexes it",
            note="typed: `keys[..., 0]` silently returns the first key, then TypeError",
        ),
        EXAMPLES.invalid(
            "invalid_index_column.py",
            unsafe_fix=True,
            message_contains="`keys[:, 1]` at line 5 indexes it",
            note="typed: IndexError",
        ),
        EXAMPLES.invalid(
            "invalid_savez_state_dict.py",
            unsafe_fix=True,
            message_contains="(the key is in `state`) passes its bits to `np.savez`",
            note="a key in a dict saved with NumPy; typed: TypeError",
        ),
        EXAMPLES.invalid(
            "invalid_pickle.py",
            unsafe_fix=True,
            message_contains="`pickle.dumps(key)` at line 7 pickles it",
            note="the saved data changes type: a reader wanting uint32 gets a typed key",
        ),
        EXAMPLES.invalid(
            "invalid_tobytes.py",
            unsafe_fix=True,
            message_contains="`key.tobytes()` at line 6 reads its bits",
            note="typed: AttributeError",
        ),
        EXAMPLES.invalid(
            "invalid_dtype_check_in_function.py",
            line=10,
            unsafe_fix=True,
            message_contains="`rng.dtype != jnp.uint32` at line 6 (the key reaches it as `rng`)",
            note="a dtype check in a function the key is passed to; typed: the check fails",
        ),
        EXAMPLES.invalid(
            "invalid_keys_shape_check.py",
            unsafe_fix=True,
            message_contains="`keys.shape == (4, 2)` at line 5 compares its shape",
            note="typed: silently False (AssertionError here)",
        ),
        EXAMPLES.invalid(
            "invalid_passed_to_saver.py",
            unsafe_fix=True,
            message_contains="`np.save(buffer, k)` at line 8 (the key reaches it as `k`)",
            note="saved by a function of the file; typed: TypeError",
        ),
        EXAMPLES.invalid(
            "invalid_stored_on_self.py",
            unsafe_fix=True,
            message_contains="(the key reaches it as `self.rng`) passes its bits to `np.save`",
            note="kept on `self` and saved by another method; typed: TypeError",
        ),
        EXAMPLES.invalid(
            "invalid_returned_then_indexed.py",
            line=5,
            column=12,
            unsafe_fix=True,
            message_contains="`k[0]` at line 9 (the key reaches it as `k`) indexes it",
            note="returned by a function of the file, then indexed; typed: IndexError",
        ),
    ]

    def __init__(self, ctx: FileContext) -> None:
        super().__init__(ctx)
        self._makers: list[tuple[cst.BaseExpression, cst.Call | None]] = []
        """Each ``PRNGKey`` spelling flagged: ``(func, call)`` (``call`` None when passed)."""
        self._uses: list[_Use] = []
        """Raw-key uses the key analysis does not record, in source order."""
        self._flows: dict[_Loc, list[_Source]] = {}
        """A parameter, ``self.<attr>`` or a function's return value -> what flows into it
        in this file."""
        self._functions: list[cst.FunctionDef] = []

    # -- what makes a raw key ------------------------------------------------------------

    def visit_Call(self, node: cst.Call) -> None:
        qn = self.model.call_name(node)
        if qn == LEGACY:
            if self.ctx.target_jax >= _TYPED_KEYS_SINCE:
                self._makers.append((node.func, node))
            return
        func = node.func
        if type(func) is cst.Attribute:
            method = func.attr.value
            if method == "reshape" and qn is None:  # ``keys.reshape(...)``, not ``jnp.reshape``
                self._reshape(node, func.value, [a for a in node.args if a.keyword is None])
            elif method in _RAW_METHODS:
                self._use(func.value, node, "reads its bits", params_only=True)
        if qn is not None:
            if qn in _RESHAPES:
                positional = [a for a in node.args if a.keyword is None]
                shape = positional[1:2] or [
                    a for a in node.args if a.keyword and a.keyword.value in ("shape", "newshape")
                ]
                if positional:
                    self._reshape(node, positional[0].value, shape)
            elif qn in _PICKLERS or qn.startswith("numpy."):
                what = (
                    "pickles it (the pickle would hold a typed key, not the uint32 pair)"
                    if qn in _PICKLERS
                    else None
                )
                for arg in node.args:
                    self._serialised(arg.value, node, func, what, qn in _SHAPE_READERS)
        self._passes(node)

    def visit_Arg(self, node: cst.Arg) -> None:
        # ``jax.vmap(jax.random.PRNGKey)(seeds)``, ``map(PRNGKey, seeds)``
        value = node.value
        if not isinstance(value, (cst.Name, cst.Attribute)):
            return
        if self.model.qualified_name(value) != LEGACY:
            return
        if self.ctx.target_jax < _TYPED_KEYS_SINCE:
            return
        self._makers.append((value, None))

    # -- raw uses the key analysis leaves to this rule -----------------------------------

    def visit_Subscript(self, node: cst.Subscript) -> None:
        value = node.value
        if type(value) is cst.Attribute and value.attr.value == "shape":
            index = node.slice[0].slice if len(node.slice) == 1 else None
            if isinstance(index, cst.Index) and _int_literal(index.value) == -1:
                self._use(
                    value.value,
                    node,
                    "reads its last axis (2 for raw keys, the number of keys for typed keys)",
                    single=False,
                )
            return
        if len(node.slice) > 1:
            why = "indexes it (typed key arrays have no axis of 2)"
            self._use(value, node, why, params_only=True)
        else:
            self._use(
                value, node, "indexes it (a typed key is a scalar)", single=True, params_only=True
            )

    def visit_Comparison(self, node: cst.Comparison) -> None:
        operands = [node.left, *(c.comparator for c in node.comparisons)]
        for op in operands:
            if type(op) is not cst.Attribute:
                continue
            attr = op.attr.value
            if attr == "dtype":
                what = "compares its dtype (a typed key has a key dtype)"
                self._use(op.value, node, what, params_only=True)
            elif attr == "shape":
                if any(_int_literal(_last_element(o)) == 2 for o in operands if o is not op):
                    what = "compares its shape (typed keys have no trailing axis of 2)"
                    self._use(op.value, node, what)
                elif not any(type(o) is cst.Attribute for o in operands if o is not op):
                    what = "compares its shape (a typed key has shape `()`)"
                    self._use(op.value, node, what, single=True, params_only=True)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._functions.append(node)

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self._functions.pop()

    def visit_Return(self, node: cst.Return) -> None:
        if node.value is None or not self._functions:
            return
        source = self._source_of(node.value)
        if source is not None:
            loc = ("ret", id(self._functions[-1]), "")
            self._flows.setdefault(loc, []).append(source)

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            loc = self._attr_loc(target.target)
            source = self._source_of(node.value) if loc is not None else None
            if loc is not None and source is not None:
                self._flows.setdefault(loc, []).append(source)

    # -- the findings --------------------------------------------------------------------

    def leave_Module(self, node: cst.Module) -> None:
        if not self._makers:
            return
        reaching = self._reaching()
        first: dict[int, tuple[cst.CSTNode, str]] = {}
        for use in self._uses:
            src = use.source
            pairs = (
                {(r, src.array) for r in src.raw_roots}
                if isinstance(src, KeyValue)
                else reaching.get(src, set())
            )
            for root, array in pairs:
                if use.single is not None and use.single == array:
                    continue
                if root not in first:
                    first[root] = (use.node, use.what)
        for func, call in self._makers:
            raw: tuple[cst.CSTNode, str] | None = None
            if call is not None:
                found = [(u.node, u.what) for u in self.ctx.keys.raw_uses(call)]
                if id(call) in first:
                    found.append(first[id(call)])
                if found:
                    raw = min(found, key=self._position)
            self._flag(func, raw)
