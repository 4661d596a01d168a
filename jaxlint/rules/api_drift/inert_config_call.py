"""JAX703 inert-config-call: a JAX config context manager called as a bare statement
(``jax.enable_x64(True)``), which builds the context manager and changes nothing."""

from __future__ import annotations

import libcst as cst

from jaxlint.diagnostics import Applicability
from jaxlint.fixers.spelling import spell
from jaxlint.rules.base import Examples, FixOp, ReplaceNode, Rule

EXAMPLES = Examples(__file__)

_CONFIG_CONTEXTS: dict[str, tuple[str, str, bool]] = {
    # qualified name: (config option, name of the value parameter, the option is a bool)
    "jax.enable_x64": ("jax_enable_x64", "new_val", True),
    "jax.log_compiles": ("jax_log_compiles", "new_val", True),
    "jax.explain_cache_misses": ("jax_explain_cache_misses", "new_val", True),
    "jax.disable_jit": ("jax_disable_jit", "disable", True),
    "jax.debug_nans": ("jax_debug_nans", "new_val", True),
    "jax.debug_infs": ("jax_debug_infs", "new_val", True),
    "jax.debug_key_reuse": ("jax_debug_key_reuse", "new_val", True),
    "jax.check_tracer_leaks": ("jax_check_tracer_leaks", "new_val", True),
    "jax.enable_checks": ("jax_enable_checks", "new_val", True),
    "jax.no_tracing": ("jax_no_tracing", "new_val", True),
    "jax.no_execution": ("jax_no_execution", "new_val", True),
    "jax.thread_guard": ("jax_thread_guard", "new_val", True),
    "jax.softmax_custom_jvp": ("jax_softmax_custom_jvp", "new_val", True),
    "jax.enable_custom_prng": ("jax_enable_custom_prng", "new_val", True),
    "jax.threefry_partitionable": ("jax_threefry_partitionable", "new_val", True),
    "jax.allow_f16_reductions": ("jax_allow_f16_reductions", "new_val", True),
    "jax.default_matmul_precision": ("jax_default_matmul_precision", "new_val", False),
    "jax.numpy_rank_promotion": ("jax_numpy_rank_promotion", "new_val", False),
    "jax.numpy_dtype_promotion": ("jax_numpy_dtype_promotion", "new_val", False),
    "jax.legacy_prng_key": ("jax_legacy_prng_key", "new_val", False),
    "jax.default_prng_impl": ("jax_default_prng_impl", "new_val", False),
    "jax.default_device": ("jax_default_device", "new_val", False),
    "jax.transfer_guard": ("jax_transfer_guard", "new_val", False),
    "jax.transfer_guard_host_to_device": ("jax_transfer_guard_host_to_device", "new_val", False),
    "jax.transfer_guard_device_to_host": ("jax_transfer_guard_device_to_host", "new_val", False),
    "jax.transfer_guard_device_to_device": (
        "jax_transfer_guard_device_to_device",
        "new_val",
        False,
    ),
}
"""JAX's config context managers: called outside ``with`` they build a context
manager and drop it, changing nothing (each checked on the installed JAX by
tests/test_api_drift_table.py). ``jax.set_mesh`` is not one: it also sets the
mesh when called as a statement."""


class InertConfigCall(Rule):
    code = "JAX703"
    name = "inert-config-call"
    message = (
        "`{call}` builds a context manager and drops it: `{option}` stays unchanged;"
        " use `with {call}:` or `jax.config.update({option_repr}, ...)`"
    )
    fix_availability = "sometimes"
    probe = "jaxlint probe env"
    docs = """\
## What it does
Flags a JAX config context manager called as a bare statement:
`jax.enable_x64(True)`, `jax.log_compiles(True)`, `jax.disable_jit(True)`,
`jax.debug_nans(True)`, `jax.default_matmul_precision("highest")`,
`jax.numpy_rank_promotion("raise")`, `jax.transfer_guard("disallow")`, and the
other options JAX exposes this way.

## Why is this bad
These functions return a context manager; the option changes only inside a
`with` block. Called as a statement, the context manager is built and thrown
away: `jax.config.values["jax_enable_x64"]` stays `False` after
`jax.enable_x64(True)`, with no warning, so the program silently runs in 32-bit,
without NaN checks or with jit still on. (`jax.set_mesh(mesh)` is different: it
also works as a global setter, and is not flagged.)

## Example
```python
import jax

jax.enable_x64(True)
jax.debug_nans(True)
```

## Use instead
```python
import jax

jax.config.update("jax_enable_x64", True)
jax.config.update("jax_debug_nans", True)
```
or, for a scoped change, `with jax.enable_x64(True): ...`.

## Fix safety
Unsafe: `jax.config.update` changes the option for the rest of the program, which
is what a bare call looks meant to do but is not what it did. The fix is offered
when the value is given (`jax.enable_x64(True)`, `new_val=`) or, for on/off
options, when the call has no argument (which means `True`).

## Verify at runtime
`jaxlint probe env` prints the config options the program starts with; print
`jax.config.values["jax_enable_x64"]` right after the bare call to see that it did
not change.
"""
    VALID = [
        EXAMPLES.valid("valid_pass.py", runs=True),
        EXAMPLES.valid("valid_jax_config_update_jax_enable_x64.py", runs=True),
        EXAMPLES.valid("valid_pass_2.py", runs=True),
        EXAMPLES.valid(
            "valid_set_mesh_acts_global_setter.py",
            runs=True,
            note="set_mesh acts as a global setter when not used in `with`",
        ),
        EXAMPLES.valid("valid_stack_enter_context_jax_log_compiles.py", runs=True),
        EXAMPLES.valid("valid_decorator_statement.py", note="a decorator, not a statement"),
        EXAMPLES.valid("valid_jax_s.py", note="not JAX's"),
        EXAMPLES.valid("valid_flag_jax_config_jax_enable_x64.py"),
        EXAMPLES.valid("valid_call.py", note="no call"),
    ]
    INVALID = [
        EXAMPLES.invalid(
            "invalid_jax_enable_x64_true.py",
            line=2,
            column=1,
            unsafe_fix=True,
            message_contains="`jax_enable_x64` stays unchanged",
        ),
        EXAMPLES.invalid("invalid_jax_log_compiles_true.py", count=2, unsafe_fix=True),
        EXAMPLES.invalid("invalid_default_matmul_precision_highest.py", unsafe_fix=True),
        EXAMPLES.invalid("invalid_jax_numpy_rank_promotion_new_val.py", unsafe_fix=True),
        EXAMPLES.invalid("invalid_jax_debug_nans_true_catch_nans.py", unsafe_fix=True),
        EXAMPLES.invalid(
            "invalid_value_error_time_so_fix.py",
            note="no value: an error at `with` time, so no fix",
        ),
    ]

    def visit_Expr(self, node: cst.Expr) -> None:
        call = node.value
        if type(call) is not cst.Call:
            return
        qualname = self.model.call_name(call)
        entry = _CONFIG_CONTEXTS.get(qualname or "")
        if entry is None:
            return
        option, param, is_bool = entry
        value: str | None = None
        args = list(call.args)
        if not args:
            value = "True" if is_bool else None
        elif len(args) == 1 and not args[0].star:
            arg = args[0]
            if arg.keyword is None or arg.keyword.value == param:
                value = self.ctx.code(arg.value)
        spelled = spell(self.model, "jax.config.update", call) if value is not None else None

        def fix() -> list[FixOp]:
            assert spelled is not None and value is not None
            text, ops = spelled
            return [ReplaceNode(call, f"{text}({option!r}, {value})"), *ops]

        self.report(
            call,
            call=self.ctx.code(call),
            option=option,
            option_repr=repr(option),
            fix=fix if spelled is not None else None,
            applicability=Applicability.UNSAFE if spelled is not None else None,
            fix_message=f"Replace with `jax.config.update({option!r}, {value})`",
        )
