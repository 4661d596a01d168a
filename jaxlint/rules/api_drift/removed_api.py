"""JAX702 removed-api: uses of JAX APIs that the target JAX has removed (the removed
entries of ``jaxlint/data/api_drift.toml``)."""

from __future__ import annotations

from jaxlint.rules.api_drift.helpers import ARRAY_METHOD_RECEIVERS
from jaxlint.rules.api_drift.helpers_checks import DriftChecks
from jaxlint.rules.api_drift.table import TABLE_NOTE, spelled_names, table_markdown
from jaxlint.rules.base import Examples, Rule

EXAMPLES = Examples(__file__)


class RemovedApi(DriftChecks, Rule):
    code = "JAX702"
    required_names = spelled_names()
    name = "removed-api"
    message = "`{used}` was {status}; {advice}"
    fix_availability = "sometimes"
    probe = "jaxlint probe env"
    _STATUS = "removed"
    docs = (
        """\
## What it does
Flags JAX APIs that the target JAX version (`target-jax`, by default the installed
JAX) no longer has: the top-level `jax.tree_*` aliases, `host_callback`,
`jax.random.KeyArray`, removed `jax.numpy` aliases (`round_`, `product`, `alltrue`,
`in1d`, `trapz`, `NINF`, ...), `jax.lib.xla_bridge`, `jax.linear_util`, `jax.core`
internals that moved to `jax.extend.core`, array methods (`x.device()`,
`x.device_buffer`), removed keyword arguments (`jnp.clip(a_min=)`,
`jnp.reshape(newshape=)`, `pure_callback(vectorized=)`), extra positional
arguments (`jnp.array(x, dtype, copy)`), removed config options, and more (the
full table is below). Attribute uses are reported at each use; a name imported
with `from ... import ...` (or `import ... as ...`) is reported once, at its
import, and its fix rewrites the import together with its uses. An assignment to
the name (`jax.random.KeyArray = jax.Array`, a shim that puts it back for an older
library) reads nothing and is not reported.

It also flags names that no JAX release ever had but that are easy to write by
analogy: `jax.tree.tree_map` and the other `jax.tree_util` names spelled under
`jax.tree` (which drops their `tree_` prefix: `jax.tree.map`). Each raises
`AttributeError` on every JAX; the release diff (`scripts/jax_api_history.py`) shows
no release had it. Their fix is unsafe: it turns code that always raised into code
that runs, which a `try`/`except AttributeError` around it may not expect.

Code under a version test is judged by the test's value on the target JAX, where
jaxlint can read it: comparisons of `jax.__version__` (as a string, as Python
compares it), `jax.__version_info__`, `packaging.version.parse(jax.__version__)`
or a module-level `jax_version = tuple(int(x) for x in jax.__version__.split("."))`
with a literal, `hasattr(jax..., "name")` for a name the table lists as removed,
and `not`/`and`/`or` of these. A lower-bound guard such as
`if jax_version >= (0, 3, 1):` is true on current JAX, so its body is checked and
only its `else` is skipped; a test jaxlint cannot read (`try`/`except
AttributeError`, `hasattr` of another name) still skips every branch. The `else` of
`if hasattr(obj, "name"):` (feature detection on any object) is taken as the fallback
for an older JAX and skipped, its body checked; so is the right side of
`hasattr(jax, "name") and ...`. After an `if` without `else` whose body returns
(or raises) and whose test is true on the target JAX (`if jax_version >= (0, 4, 36):
return ...`, or a feature test `if hasattr(obj, "name"): return ...`, also on a JAX name the
table does not list as removed: `if hasattr(jax, "enable_x64"): return ...`), the
rest of the block is the older JAX's path and is skipped too.

## Why is this bad
The code fails on the target JAX: `AttributeError: module 'jax' has no attribute
'tree_map'`, `ImportError: cannot import name 'xla_bridge' from 'jax.lib'`,
`TypeError: clip() got an unexpected keyword argument 'a_min'`. A removed keyword
can also fail far from its cause: since JAX 0.6.0 `pure_callback(...,
vectorized=True)` passes `vectorized` on to the callback, which then fails inside
the compiled program.

## Example
```python
import jax
import jax.numpy as jnp
from jax.lib import xla_bridge

params = jax.tree_map(lambda p: p * 2, params)
y = jnp.clip(x, a_min=0.0)
backend = xla_bridge.get_backend()
```

## Use instead
```python
import jax
import jax.extend
import jax.numpy as jnp

params = jax.tree.map(lambda p: p * 2, params)
y = jnp.clip(x, min=0.0)
backend = jax.extend.backend.get_backend()
```

## Fix safety
Per entry, as the table says. Renames to the same function or class, import path
moves and keyword renames are safe; so are the rewrites that JAX's changelog gives
as equivalent (`jnp.msort(a)` -> `jnp.sort(a, axis=0)`, `jnp.in1d(a, b)` ->
`jnp.isin(a, b).ravel()`, without the `.ravel()` where `a` is visibly one-dimensional
such as `jnp.arange(n)`, `x.device_buffer` -> `x.addressable_data(0)`,
`jax.lax.tie_in(a, b)` -> `b`). Unsafe: replacements that differ in a corner
(`x.device()` -> `x.device`, `jax.random.KeyArray` -> `jax.Array`,
`jax.linear_util` -> `jax.extend.linear_util`) and deleting a
`jax.config.update` of a removed option. `host_callback.id_tap(tap, x)` as a
statement of its own and `host_callback.call(f, x, result_shape=s)` become
`jax.experimental.io_callback(tap, None, x, (), ordered=True)` and
`io_callback(f, s, x, ordered=True)`: what JAX 0.4.34's `host_callback` ran itself
(its default `JAX_HOST_CALLBACK_LEGACY=False`), checked on the installed JAX
(the tap gets `x` and empty transforms `()`, in program order, also under `jit`
when the value is unused; `call` returns `f`'s result). Unsafe: under `vmap` or
`grad` the new code raises `ValueError` where the pre-0.4.34 `id_tap` batched and
differentiated (passing the transforms to the tap), the callbacks now get
`jax.Array`s, and a Python scalar `result_shape` fails. No fix for `id_tap`
whose value is used or with `result=`/`tap_with_device=` (the device has no
equivalent), for `id_print` (its output format) and where the replacement takes
other arguments (`sph_harm`, `build_tree`): the message says what to use. A fix that needs `import jax` (or `import jax.extend`, which `import jax`
does not load) adds it once. `jax.ops.index_update(x, jax.ops.index[i], v)` (and
`index_add`, `index_mul`, `index_min`, `index_max`) becomes `x.at[i].set(v)`:
`jax.ops.index[i]` was the index `i` itself; only where `x` is known to be one JAX
array (as for array methods, below): the old functions also took a NumPy array or a
list, which has no `.at`. A call rebuilt from a template is not fixed where a comment
inside it would be lost.

"""
        + ARRAY_METHOD_RECEIVERS
        + """
## Verify at runtime
`jaxlint probe env` prints the installed JAX version; on a JAX at or past the
removal version the flagged line raises as soon as it runs.

## The removed symbols in the table
"""
        + TABLE_NOTE
        + "\n"
        + table_markdown("removed")
        + "\n"
    )
    VALID = [
        EXAMPLES.valid("valid_out_jax_tree_map_f_tree.py"),
        EXAMPLES.valid(
            "valid_shim_assigns_removed_name.py",
            note="a compatibility shim puts the removed name back for an old library: nothing"
            " reads the removed API, and rewriting the target would assign to `jax.Array`",
            runs=True,
        ),
        EXAMPLES.valid("valid_leaves_jax_tree_util_tree_leaves.py"),
        EXAMPLES.valid("valid_out_tree_map_f_t.py"),
        EXAMPLES.valid("valid_out_jax_tree_map_f_t.py", target_jax="0.5.0"),
        EXAMPLES.valid("valid_out_optax_tree_map_f_t.py"),
        EXAMPLES.valid("valid_parameter_shadows_module.py", note="parameter shadows the module"),
        EXAMPLES.valid(
            "valid_version_compat_import_two_bindings.py",
            note="version-compat import: two bindings, ambiguous",
        ),
        EXAMPLES.valid("valid_fn_getattr_jax_tree_map_none.py"),
        EXAMPLES.valid(
            "valid_jax_tree_names_and_a_tree_object.py",
            note="`jax.tree.map`, `jax.tree_util.tree_map`, and a `tree_map` method of an object"
            " named `tree`: not the never-existed `jax.tree.tree_map`",
            runs=True,
        ),
        EXAMPLES.valid("valid_y_jnp_clip_jnp_arange_5.py", runs=True),
        EXAMPLES.valid("valid_numpy_still_has_min.py", note="NumPy still has a_min"),
        EXAMPLES.valid("valid_property_current.py", runs=True, note="the property is current"),
        EXAMPLES.valid("valid_jax_array.py", note="not a JAX array"),
        EXAMPLES.valid("valid_b_jax_extend_backend_get_backend.py", runs=True),
        EXAMPLES.valid("valid_config_update_jax_enable_x64_false.py"),
        EXAMPLES.valid("valid_jax_config_update_jax_enable_x64.py", runs=True),
        EXAMPLES.valid("valid_x_jnp_array_1_0_2.py", runs=True),
        EXAMPLES.valid("valid_y_permutation_key_x_independent_true.py"),
        EXAMPLES.valid("valid_low_np_ninf_if_hasattr_np.py"),
        EXAMPLES.valid(
            "valid_version_compatibility_branch_equinox_old.py",
            note="version-compatibility branch (equinox): the old spelling never runs here",
        ),
        EXAMPLES.valid(
            "valid_version_flag_module_constant.py",
            note="the version test held in a module constant: the old spelling runs only"
            " on the older JAX",
        ),
        EXAMPLES.valid(
            "valid_fallback_older_jax_except_attributeerror.py",
            note="fallback for older JAX in `except AttributeError`",
        ),
        EXAMPLES.valid("valid_tree_map_jax_tree_map.py", runs=True),
        EXAMPLES.valid("valid_tree_map_jax_tree_map_if.py"),
        EXAMPLES.valid(
            "valid_upper_bound_version_guard_false.py",
            runs=True,
            note="an upper-bound version guard, false on the target JAX: its body never runs",
        ),
        EXAMPLES.valid(
            "valid_feature_test_fallback_branch.py",
            note="the `else` of `hasattr(obj, name)` is the fallback for a JAX without the"
            " feature: it never runs on the target JAX (equinox `_ad.py`)",
        ),
        EXAMPLES.valid(
            "valid_hasattr_and_short_circuits.py",
            runs=True,
            note="`hasattr(jax, 'pxla') and ...` is false on the target JAX, so the right"
            " side never runs (chex `asserts.py`)",
        ),
        EXAMPLES.valid(
            "valid_version_string_compared_as_string.py",
            runs=True,
            note="`jax.__version__ > '0.4.10'` compares strings, as Python does: false on 0.12",
        ),
        EXAMPLES.valid(
            "valid_early_return_version_guard.py",
            runs=True,
            note="after `if jax_version >= (0, 4, 26): return ...` (true on the target JAX),"
            " the rest of the block never runs (kfac-jax `parallel.py`)",
        ),
        EXAMPLES.valid(
            "valid_early_return_hasattr_jax.py",
            runs=True,
            note="after `if hasattr(jax, 'enable_x64'): return ...` (feature detection of a"
            " name not gone), the rest of the block is the older JAX's path (qenvs' tests)",
        ),
        EXAMPLES.valid(
            "valid_nnx_state_split_traced_pytree.py",
            note="`state.split(nnx.Param, ...)` on a `flax.nnx.State` (a traced pytree, not a"
            " JAX array): its own method, neither reported nor rewritten to `jnp.split`",
        ),
        EXAMPLES.valid(
            "valid_traced_parameter_unknown_type.py",
            note="a traced parameter of unknown type may be any pytree: not known to be an array",
        ),
    ]
    INVALID = [
        EXAMPLES.invalid(
            "invalid_jax_tree_tree_map_never_existed.py",
            line=5,
            raises="AttributeError",
            message_contains="`jax.tree.tree_map` was never part of JAX: no release has it",
            unsafe_fix=True,
            note="a `jax.tree_util` name written under `jax.tree`, which no release had",
        ),
        EXAMPLES.invalid(
            "invalid_array_method_known_array.py",
            count=3,
            line=7,
            raises="AttributeError",
            note="array methods on values known to be one JAX array (annotated `jax.Array`,"
            " made by `jnp`/`jax.random`): the safe rewrites apply",
        ),
        EXAMPLES.invalid(
            "invalid_early_return_guard_not_taken.py",
            count=1,
            line=9,
            raises="AttributeError",
            note="the early return is under a test false on the target JAX: the rest runs",
        ),
        EXAMPLES.invalid(
            "invalid_lower_bound_version_guard_true.py",
            line=6,
            raises="AttributeError",
            note="a lower-bound version guard is true on the target JAX: its body runs",
        ),
        EXAMPLES.invalid(
            "invalid_hasattr_removed_name_else_branch.py",
            count=1,
            line=10,
            note="`hasattr(jax, 'tree_leaves')` is false on the target JAX (the table says"
            " removed): the `else` branch is the one that runs",
        ),
        EXAMPLES.invalid(
            "invalid_out_jax_tree_map_lambda_x.py",
            line=2,
            column=7,
            message_contains="removed in JAX 0.6.0",
            raises="AttributeError",
        ),
        EXAMPLES.invalid("invalid_jax_import_tree_map.py", count=1, line=1, raises="ImportError"),
        EXAMPLES.invalid("invalid_jax_import_jit_tree_leaves_tl.py", count=2, raises="ImportError"),
        EXAMPLES.invalid("invalid_return_j_tree_leaves_t_j.py", count=2),
        EXAMPLES.invalid("invalid_pass.py"),
        EXAMPLES.invalid(
            "invalid_removed_import_in_function_body.py",
            line=5,
            note="the import's line goes, indentation and all, where the block keeps"
            " another statement (no `pass` left behind)",
        ),
        EXAMPLES.invalid("invalid_mapper_jax_tree_transpose.py"),
        EXAMPLES.invalid("invalid_return_tree_unflatten_td_t.py"),
        EXAMPLES.invalid(
            "invalid_removed_module_imported_name_import.py",
            count=1,
            line=2,
            raises="ImportError",
            note="a removed module imported by name: the import and every use rewritten",
        ),
        EXAMPLES.invalid("invalid_y_jnp_full_2_jnp_ninf.py", count=2, raises="AttributeError"),
        EXAMPLES.invalid(
            "invalid_in1d_of_visibly_flat_input.py",
            count=2,
            raises="AttributeError",
            note="`.ravel()` only where the input is not visibly one-dimensional",
        ),
        EXAMPLES.invalid(
            "invalid_parenthesized_where_precedence_needs.py",
            note="parenthesized where precedence needs it",
        ),
        EXAMPLES.invalid(
            "invalid_y_jnp_clip_jnp_arange_5.py", count=2, column=31, raises="TypeError"
        ),
        EXAMPLES.invalid(
            "invalid_import_jax_does_load_jax.py",
            line=3,
            raises="AttributeError",
            note="`import jax` does not load jax.extend: the fix imports it",
        ),
        EXAMPLES.invalid("invalid_assert_x_device_buffer_none.py", raises="AttributeError"),
        EXAMPLES.invalid(
            "invalid_device_buffer_device_method.py",
            raises="AttributeError",
            note="the old buffer's device() is the new array's device property",
        ),
        EXAMPLES.invalid("invalid_d_x_device.py", unsafe_fix=True, raises="TypeError"),
        EXAMPLES.invalid(
            "invalid_jax_config_update_jax_enable_memories.py",
            unsafe_fix=True,
            raises="AttributeError",
        ),
        EXAMPLES.invalid("invalid_y_jax_random_shuffle_jax_random.py", raises="AttributeError"),
        EXAMPLES.invalid(
            "invalid_index_update_of_ops_index.py",
            count=4,
            line=6,
            message_contains="use `x.at[1:3, ...].set(1.0)`",
            raises="AttributeError",
            note="`jax.ops.index[i]` was the index `i`: the fix writes `x.at[i]`, and the"
            " call's fix takes the `jax.ops.index` inside it along",
        ),
        EXAMPLES.invalid(
            "invalid_index_update_of_parameter.py",
            line=8,
            column=12,
            message_contains="use `x.at[idx].set(y)`",
            raises="AttributeError",
            note="`w` may be a NumPy array or a list, which has no `.at`: no rewrite",
        ),
        EXAMPLES.invalid("invalid_x_jnp_array_1_0_2.py", column=40, raises="TypeError"),
        EXAMPLES.invalid(
            "invalid_hasattr_something_else_than_jax.py",
            note="`hasattr` on something else than JAX is no version guard",
        ),
        EXAMPLES.invalid(
            "invalid_host_callback_tap_and_call.py",
            count=1,
            unsafe_fix=True,
            raises="ImportError",
            note="`id_tap(tap, x)` as a statement and `call(f, x, result_shape=...)`: what"
            " JAX 0.4.34's host_callback ran, `io_callback(..., ordered=True)` (unsafe)",
        ),
        EXAMPLES.invalid(
            "invalid_host_callback_value_used_or_device.py",
            count=1,
            message_contains="`tap_with_device`/`call_with_device` have no equivalent",
            note="no fix: `tap_with_device=True`, and an `id_tap` whose value is used",
        ),
        EXAMPLES.invalid(
            "invalid_mechanical_fix_callback_apis_differ.py",
            count=1,
            message_contains="`jax.debug.print` (id_print)",
            note="no mechanical fix: the callback APIs differ",
        ),
    ]
