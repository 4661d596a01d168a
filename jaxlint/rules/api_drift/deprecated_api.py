"""JAX701 deprecated-api: uses of JAX APIs that the target JAX deprecates but still
has (the deprecated entries of ``jaxlint/data/api_drift.toml``)."""

from __future__ import annotations

from jaxlint.rules.api_drift.helpers import ARRAY_METHOD_RECEIVERS
from jaxlint.rules.api_drift.helpers_checks import DriftChecks
from jaxlint.rules.api_drift.table import TABLE_NOTE, spelled_names, table_markdown
from jaxlint.rules.base import Examples, Rule

EXAMPLES = Examples(__file__)


class DeprecatedApi(DriftChecks, Rule):
    code = "JAX701"
    required_names = spelled_names()
    name = "deprecated-api"
    message = "`{used}` is {status}; {advice}"
    fix_availability = "sometimes"
    probe = "jaxlint probe env"
    _STATUS = "deprecated"
    docs = (
        """\
## What it does
Flags JAX APIs that the target JAX version (`target-jax`, by default the installed
JAX) deprecates but still provides: the top-level `jax.host_id`/`jax.host_count`/
`jax.host_ids` aliases, `jax.scipy.special.lpmn`, `jax.lax.psend`/`precv`, keyword
aliases such as `jnp.linalg.matrix_rank(tol=)` and `jax.jit(device=)`, and, for an
older `target-jax`, every symbol of JAX702's table in the releases between its
deprecation and its removal (`jax.tree_map` on JAX 0.4.26-0.5.x, ...).
Attribute uses are reported at each use; a name imported with
`from ... import ...` is reported once, at its import.

## Why is this bad
A deprecated API warns today (`DeprecationWarning`, or a `UserWarning` for the
`host_*` aliases) and raises `AttributeError`, `ImportError` or `TypeError` in a
later release: JAX removes deprecated symbols after about three months.

## Example
```python
import jax

if jax.host_id() == 0:
    print("main process")
```

## Use instead
```python
import jax

if jax.process_index() == 0:
    print("main process")
```

## Fix safety
Per entry, as the table says: renames to the same function (`host_id` ->
`process_index`, `tol=` -> `rtol=`, `jax.tree_map` -> `jax.tree.map`) are safe;
replacements that differ in a corner (`jax.random.KeyArray` -> `jax.Array` outside
annotations) are unsafe; entries without a mechanical replacement have no fix and
the message says what to do. An import is rewritten to import the replacement
under the old local name, so the rest of the file is untouched.

"""
        + ARRAY_METHOD_RECEIVERS
        + """
## Verify at runtime
`jaxlint probe env` prints the installed JAX version; run the flagged line with
`python -W error::DeprecationWarning` to see JAX's own warning.

## The deprecated symbols in the table
"""
        + TABLE_NOTE
        + "\n"
        + table_markdown("deprecated")
        + "\n"
    )
    VALID = [
        EXAMPLES.valid("valid_out_jax_tree_map_f_tree.py", target_jax="0.5.0"),
        EXAMPLES.valid("valid_out_jax_tree_map_f_t.py", target_jax="0.4.20"),
        EXAMPLES.valid("valid_removed_jax702_s_finding.py", note="removed: JAX702's finding"),
        EXAMPLES.valid("valid_idx_jax_process_index.py", runs=True),
        EXAMPLES.valid("valid_out_optax_tree_map_f_t.py"),
        EXAMPLES.valid("valid_parameter_shadows_module.py", note="parameter shadows the module"),
        EXAMPLES.valid(
            "valid_version_compat_import_two_bindings.py",
            target_jax="0.5.0",
            note="version-compat import: two bindings, ambiguous",
        ),
        EXAMPLES.valid("valid_fn_getattr_jax_host_id_none.py"),
        EXAMPLES.valid("valid_r_jnp_linalg_matrix_rank_jnp.py", runs=True),
        EXAMPLES.valid("valid_r_jnp_linalg_matrix_rank_jnp_2.py"),
        EXAMPLES.valid("valid_f_jax_jit_lambda_x_x.py"),
    ]
    INVALID = [
        EXAMPLES.invalid(
            "invalid_if_jax_host_id_0.py",
            line=2,
            column=4,
            message_contains="deprecated since JAX 0.2.13",
        ),
        EXAMPLES.invalid(
            "invalid_out_jax_tree_map_f_t.py",
            target_jax="0.5.0",
            message_contains="deprecated since JAX 0.4.26",
        ),
        EXAMPLES.invalid("invalid_jax_import_tree_map.py", target_jax="0.5.0", count=1, line=1),
        EXAMPLES.invalid("invalid_jax_import_jit_host_count_nproc.py", count=2),
        EXAMPLES.invalid(
            "invalid_r_jnp_linalg_matrix_rank_jnp.py", column=40, message_contains="use `rtol=`"
        ),
        EXAMPLES.invalid(
            "invalid_vals_jss_lpmn_values_2_2.py", message_contains="JAX plans no replacement"
        ),
        EXAMPLES.invalid(
            "invalid_f_jax_jit_g_backend_cpu.py", message_contains="`jax.device_put` the inputs"
        ),
        EXAMPLES.invalid(
            "invalid_module_fine_0_4_33.py",
            target_jax="0.4.33",
            count=1,
            line=2,
            note="the module is fine in 0.4.33, its function is deprecated: reported at the use",
        ),
        EXAMPLES.invalid(
            "invalid_deprecated_module_imported_name_import.py",
            target_jax="0.8.1",
            count=1,
            line=1,
            message_contains="deprecated since JAX 0.8.0 and removed in JAX 0.9.0",
            note="a deprecated module imported by name: the import and its uses rewritten together",
        ),
    ]
