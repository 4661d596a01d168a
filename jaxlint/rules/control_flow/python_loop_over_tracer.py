"""JAX202 python-loop-over-tracer: Python loops whose trip count is traced (`range(n)`
with a traced `n`, `while` on a traced condition)."""

from __future__ import annotations

import libcst as cst

from jaxlint.rules.base import Examples, Raises, Rule, short
from jaxlint.rules.control_flow.helpers import (
    BOOL_ERRORS,
    INT_ERRORS,
    PROBE,
    TracerQueries,
    static_hint,
    truth_leaves,
)

EXAMPLES = Examples(__file__)


class PythonLoopOverTracer(TracerQueries, Rule):
    code = "JAX202"
    name = "python-loop-over-tracer"
    guard_errors = INT_ERRORS | BOOL_ERRORS
    message = "{what}: {why}; {advice}"
    probe = PROBE
    # range(n) and while on a tracer; the rule is named when the failing line has its finding
    confirmed_by = (Raises("TracerIntegerConversionError"), Raises("TracerBoolConversionError"))
    docs = """\
## What it does
Flags Python loops whose trip count depends on a value that is definitely a
tracer inside `jit`-like code (and `vmap`, lax loop bodies, helpers called from
them): `range(n)` with a traced `n` (in a `for`, a comprehension or anywhere
else), and `while` loops whose condition is a traced array.

Traced code includes what frameworks trace by contract (a Flax, Equinox or Haiku
module's `__call__`, a function given to `hk.transform`, an optax `update`): traced
whenever the user's training step is jitted, which the message says.

Loops over `range(3)`, `range(x.shape[0])`, `range(len(xs))`, over Python lists
of layers and over static arguments are fine and not reported; so is iterating
over a traced array (`for row in x`), whose length is its static shape. A loop in
the body of a `try` whose `except` catches the tracer's error (`TypeError`,
`TracerIntegerConversionError`, ...) is a runtime test and not reported either.

## Why is this bad
Python runs the loop while JAX traces the function, so it needs the trip count
then. `range(n)` calls `n.__index__()`, which raises
`TracerIntegerConversionError` ("The __index__() method was called on traced
array with shape int32[]"); a `while` condition raises
`TracerBoolConversionError` (or `ValueError` for a condition with more than one
element).

## Example
```python
import jax

@jax.jit
def power(x, n):
    y = x
    for _ in range(n - 1):
        y = y * x
    return y
```

## Use instead
```python
import jax
from jax import lax

@jax.jit
def power(x, n):
    return lax.fori_loop(0, n - 1, lambda i, y: y * x, x)
```
`lax.fori_loop` with traced bounds and `lax.while_loop` loop on the device. If
the trip count is a configuration value, mark it static instead
(`jax.jit(power, static_argnames=("n",))`); each value then compiles once.

## Fix safety
No fix: the loop body has to become a function of the carried state.

## Verify at runtime
`jaxlint probe compile FILE.py:FUNC` traces the function and reports the
`TracerIntegerConversionError` or `TracerBoolConversionError` with your file and
line, naming JAX202.
"""
    VALID = [
        EXAMPLES.valid(
            "valid_literal_shape_derived_trip_counts.py",
            note="literal and shape-derived trip counts",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_static_trip_counts_number_name.py",
            note="static trip counts by number and by name",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_python_list_layers_iterating_traced.py",
            note="a Python list of layers, and iterating a traced array by its static shape",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_fixes_fori_loop_traced_bounds.py",
            note="the fixes: fori_loop with traced bounds and while_loop",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_host_code_after_jitted_call.py",
            note="host code after the jitted call",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_parameter_left_default_keeps_python.py",
            note="a parameter left at its default keeps its Python value",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_grad_alone_keeps_values_concrete.py",
            note="grad alone keeps values concrete",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_filter_jit_keeps_int_arguments.py", note="filter_jit keeps int arguments static"
        ),
        EXAMPLES.valid(
            "valid_module_attributes_static_metadata_pytree.py",
            note="module attributes are static metadata of the pytree",
        ),
        EXAMPLES.valid(
            "valid_iterating_dict_pytree_gives_static.py",
            note="iterating a dict pytree gives its static keys",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_shard_map_none_spec_passes_value.py",
            note="a `None` entry of shard_map's in_specs passes the value through unchanged:"
            " the Python int stays an int, eagerly and under an outer jit",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_helper_returns_static_sizes.py",
            note="a helper returning `x.shape[0]`, `x.size` or `len(x)` returns a Python"
            " int, also as one position of a returned tuple",
            runs=True,
        ),
    ]
    INVALID = [
        EXAMPLES.invalid(
            "invalid_shard_map_replicated_spec_traces_value.py",
            line=12,
            message_contains="shard_mapped by `jax.shard_map`",
            note="a `P()` entry of in_specs makes the Python int a replicated tracer",
            raises="TracerIntegerConversionError",
        ),
        EXAMPLES.invalid(
            "invalid_jit_over_vmap_axes_none_traces.py",
            line=6,
            message_contains="`n` is traced",
            note="in_axes=None leaves the value as it is, but the outer jit traces it",
            raises="TracerIntegerConversionError",
        ),
        EXAMPLES.invalid(
            "invalid_helper_tuple_array_position.py",
            line=12,
            message_contains="`total` is traced",
            note="the array position of a helper's returned tuple is still traced",
            raises="TracerIntegerConversionError",
        ),
        EXAMPLES.invalid(
            "invalid_range_n_1.py",
            line=6,
            column=14,
            message_contains=(
                "`n` is traced: parameter of `power`, jitted by `jax.jit` at line 3;"
                " loop with `lax.fori_loop"
            ),
            raises="TracerIntegerConversionError",
        ),
        EXAMPLES.invalid(
            "invalid_return_sum_x_i_i_range.py",
            line=5,
            message_contains="static_argnames=('n',)",
            raises="TracerIntegerConversionError",
        ),
        EXAMPLES.invalid(
            "invalid_while_x_max_1_0.py",
            line=6,
            column=11,
            message_contains="lax.while_loop",
            raises="TracerBoolConversionError",
        ),
        EXAMPLES.invalid(
            "invalid_fori_loop_index_traced.py",
            line=4,
            message_contains="traced as a body of `lax.fori_loop`",
            note="the fori_loop index is traced",
            raises="TracerIntegerConversionError",
        ),
        EXAMPLES.invalid(
            "invalid_out_x_range_k.py",
            line=5,
            message_contains="vmapped",
            raises="TracerIntegerConversionError",
        ),
        EXAMPLES.invalid(
            "invalid_helper_method_reached_through_self.py",
            line=7,
            message_contains="`n` is traced",
            note="a helper method reached through self from a jitted method",
            raises="TracerIntegerConversionError",
        ),
        EXAMPLES.invalid(
            "invalid_range_steps.py", line=6, message_contains="jitted by `flax.nnx.jit`"
        ),
        EXAMPLES.invalid(
            "invalid_return_x_i_i_range_0.py",
            line=7,
            message_contains="`n` is traced",
            raises="TracerIntegerConversionError",
        ),
        EXAMPLES.invalid(
            "invalid_functools_partial_jit_another_argument.py",
            line=7,
            message_contains="static_argnames=('n',)",
            note="functools.partial(jit, ...) with another argument static",
            raises="TracerIntegerConversionError",
        ),
    ]

    def visit_Call(self, node: cst.Call) -> None:
        if self.model.call_name(node) != "builtins.range":
            return
        for arg in node.args:
            val = self.abstract(arg.value)
            if val is None:
                continue
            value = short(self.ctx.code(arg.value).strip())
            self.report(
                node,
                what=f"`range()` needs a Python int, but `{value}` is a tracer",
                why=self.why(val),
                advice=(
                    "loop with `lax.fori_loop(lower, upper, body, init)`, whose bounds may be"
                    f" traced; or {static_hint(val)}"
                ),
            )
            return

    def visit_While(self, node: cst.While) -> None:
        for leaf in truth_leaves(node.test):
            val = self.truth_tested(leaf)
            if val is None:
                continue
            self.report(
                leaf,
                what=f"Python `while` on traced `{short(self.ctx.code(leaf))}`",
                why=self.why(val),
                advice="loop with `lax.while_loop(cond_fun, body_fun, init)`",
            )
            return
