"""JAX603 float64-without-x64: a float64 request from JAX in a module that never enables x64."""

from __future__ import annotations

import libcst as cst

from jaxlint.analysis.transforms import ARRAY_MODULES, STATIC_CALLS
from jaxlint.rules.array_semantics.helpers import ArrayEvidence
from jaxlint.rules.base import Examples, Rule

EXAMPLES = Examples(__file__)

_FLOAT64_NAMES = frozenset(
    {"jax.numpy.float64", "jax.numpy.double", "numpy.float64", "numpy.double", "numpy.float_"}
)
_FLOAT64_STRINGS = frozenset({"float64", "f8", "<f8", "=f8", "double"})
_DTYPE_CALLS = frozenset({"numpy.dtype", "jax.numpy.dtype"})
_X64_FLAGS = frozenset({"jax_enable_x64", "JAX_ENABLE_X64"})
_X64_CONTEXTS = frozenset({"jax.enable_x64", "jax.experimental.enable_x64"})
_CONFIG_UPDATES = frozenset({"jax.config.update", "jax.config.config.update"})
_FLAG_PARSERS = frozenset({"jax.config.parse_flags_with_absl", "jax.config.config_with_absl"})
_X64_ATTRIBUTES = frozenset({"jax_enable_x64", "x64_enabled"})
_CONVERT_METHODS = frozenset({"astype", "view"})


def _literal_false(expr: cst.BaseExpression) -> bool:
    if isinstance(expr, cst.Name):
        return expr.value == "False"
    if isinstance(expr, cst.Integer):
        return expr.value == "0"
    if isinstance(expr, cst.SimpleString):
        return str(expr.evaluated_value).lower() in ("0", "false", "")
    return False


class Float64WithoutX64(Rule):
    code = "JAX603"
    name = "float64-without-x64"
    message = (
        "{request}, but this module never enables x64: JAX warns and makes float32 instead;"
        " enable `jax_enable_x64` at startup or ask for float32"
    )
    fix_availability = "none"
    probe = "jaxlint probe compile FILE.py:FUNC"
    docs = """\
## What it does
Flags a request for float64 from JAX in a module that never enables 64-bit
mode: `jnp.float64(x)`, a float64 dtype (`jnp.float64`, `np.float64`,
`jnp.double`, `"float64"`, `"f8"`, `np.dtype("float64")`) passed to a
`jax.numpy`/`jax.lax`/`jax.random`/`jax.nn`/`jax.scipy` function
(`jnp.zeros(n, dtype=jnp.float64)`, `jnp.asarray(x, np.float64)`,
`lax.convert_element_type(x, jnp.float64)`), and `x.astype(jnp.float64)` or
`x.view(jnp.float64)` on a JAX array.

A module enables x64, and the rule stays silent in it, when it calls
`jax.config.update("jax_enable_x64", True)` (or with a value that is not a
literal false), uses `jax.enable_x64(...)` other than as a bare statement (`with`,
decorator, assigned), sets or reads the flag by name (`os.environ["JAX_ENABLE_X64"]`,
`jax.config.jax_enable_x64`, `jax.config.x64_enabled`, a `jax_enable_x64=` keyword),
updates a config option whose name is not a literal, or parses JAX flags from the
command line (`jax.config.parse_flags_with_absl()`). Reading the flag counts
because such code usually picks the dtype from it
(`jnp.float64 if jax.config.jax_enable_x64 else jnp.float32`).

Only JAX's own functions are checked: a library that passes the dtype on to
JAX (`nnx.Linear(2, 3, param_dtype=jnp.float64)`) truncates too, but is not
flagged.

It does not flag dtype introspection (`jnp.finfo(jnp.float64)`,
`jnp.issubdtype(x.dtype, jnp.float64)`, `x.dtype == jnp.float64`),
`jax.ShapeDtypeStruct(..., jnp.float64)` (which keeps float64), NumPy calls
(`np.zeros(3, np.float64)`), nor `dtype=float`, which JAX maps to its default
float type without a warning.

## Why is this bad
JAX is 32-bit by default. Without x64, a float64 request makes a float32 array
and emits a `UserWarning` that is easy to miss (shown once per call site, hidden
by many test runners and notebooks):

```text
UserWarning: Explicitly requested dtype float64 requested in zeros is not
available, and will be truncated to dtype float32. To enable more dtypes, set
the jax_enable_x64 configuration option or the JAX_ENABLE_X64 shell environment
variable.
```

Code that needs double precision (accumulations, ill-conditioned solves,
finite-difference checks) then silently computes in single precision.

## Example
```python
import jax.numpy as jnp

acc = jnp.zeros(3, dtype=jnp.float64)  # float32
```

## Use instead
```python
import jax

jax.config.update("jax_enable_x64", True)  # at startup, before any array is made

import jax.numpy as jnp

acc = jnp.zeros(3, dtype=jnp.float64)  # float64
```

Or, when float32 is what the program gets anyway, say so: `dtype=jnp.float32`.

`jax.enable_x64(True)` as a bare statement does nothing: it is a context
manager (`with jax.enable_x64(True): ...`).

## Fix safety
No fix. Enabling x64 changes the default dtype of the whole program (every
`jnp.arange`, every Python float becomes 64-bit, doubling memory and slowing
accelerators), so it is a decision for the program's entry point, not for this
line; replacing `float64` by `float32` would make the code match what it does
today but drop the precision the author asked for. The rule only sees the
module it checks: a project that enables x64 elsewhere (a `conftest.py`, the
`JAX_ENABLE_X64` environment variable, its `main`) can turn the rule off for
those files with `per-file-ignores`.

## Verify at runtime
`jaxlint probe compile FILE.py:FUNC` traces the function and reports its output
dtypes (`float32[...]` where float64 was asked for) and, under the stage that
emitted it, JAX's `Explicitly requested dtype float64 ... truncated to dtype
float32` warning (`stages.eval_shape.warnings` in the JSON; add `--format text`
to read it). `jaxlint probe env` shows `jax_enable_x64`.
"""
    VALID = [
        EXAMPLES.valid("valid_x64_enabled_module.py", runs=True, note="x64 enabled in the module"),
        EXAMPLES.valid(
            "valid_context_manager_used.py", runs=True, note="the context manager, used with `with`"
        ),
        EXAMPLES.valid(
            "valid_environment_variable_set_before_jax.py",
            note="the environment variable, set before JAX is imported",
        ),
        EXAMPLES.valid(
            "valid_x64_aware_code_reads_flag.py", runs=True, note="x64-aware code reads the flag"
        ),
        EXAMPLES.valid(
            "valid_numpy_keeps_float64_float32_float.py",
            runs=True,
            note="NumPy keeps float64; float32 and `float` are not float64 requests",
        ),
        EXAMPLES.valid(
            "valid_dtype_introspection_shapedtypestruct_make_array.py",
            runs=True,
            note="dtype introspection and ShapeDtypeStruct make no array",
        ),
        EXAMPLES.valid(
            "valid_leaves_may_numpy_arrays_which.py",
            note="the leaves may be NumPy arrays, which keep float64",
        ),
        EXAMPLES.valid(
            "valid_flags_command_line_may_enable.py",
            note="flags from the command line may enable x64",
        ),
        EXAMPLES.valid(
            "valid_config_updated_through_variables.py",
            runs=True,
            note="config updated through variables",
        ),
        EXAMPLES.valid("valid_suppressed.py", note="suppressed"),
    ]
    INVALID = [
        EXAMPLES.invalid(
            "invalid_acc_jnp_zeros_3_dtype_jnp.py",
            line=2,
            column=26,
            message_contains="`jnp.zeros` is asked for `jnp.float64`, but this module never enables x64",
        ),
        EXAMPLES.invalid(
            "invalid_x_jnp_asarray_np_linspace_0.py",
            message_contains="`jnp.asarray` is asked for `np.float64`",
        ),
        EXAMPLES.invalid(
            "invalid_return_x_astype_float64_mean.py",
            line=6,
            message_contains='`x.astype` is asked for `"float64"`',
        ),
        EXAMPLES.invalid(
            "invalid_bare_enable_x64_call_does.py",
            message_contains="`jnp.float64(...)` makes a float64 scalar",
            note="a bare enable_x64(...) call does nothing",
        ),
        EXAMPLES.invalid("invalid_x64_explicitly_disabled.py", note="x64 explicitly disabled"),
        EXAMPLES.invalid("invalid_z_jnp_ones_3_view_jnp.py", count=2),
        EXAMPLES.invalid(
            "invalid_grid_zeros_2_2_float64.py", message_contains="`zeros` is asked for `float64`"
        ),
    ]

    def __init__(self, ctx) -> None:  # type: ignore[no-untyped-def]
        super().__init__(ctx)
        self._x64: bool | None = None
        self.evidence = ArrayEvidence(self)

    def visit_Call(self, node: cst.Call) -> None:
        qualname = self.model.call_name(node)
        if qualname in ("jax.numpy.float64", "jax.numpy.double"):
            self._flag(node.func, f"`{self.ctx.code(node.func)}(...)` makes a float64 scalar")
            return
        if qualname is not None:
            if not qualname.startswith(ARRAY_MODULES) or qualname in STATIC_CALLS:
                return
            for arg in node.args:
                if self._is_float64(arg.value):
                    self._flag(arg.value, self._asked(node, arg.value))
            return
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value in _CONVERT_METHODS:
            dtype = next(
                (
                    a.value
                    for a in node.args
                    if (a.keyword is None and not a.star)
                    or (a.keyword is not None and a.keyword.value == "dtype")
                ),
                None,
            )
            if dtype is None or not self._is_float64(dtype):
                return
            val = self.ctx.trace.value(func.value)
            traced = val is not None and val.traced
            if traced or self.evidence.of(func.value) is not None:
                self._flag(dtype, self._asked(node, dtype))

    def _is_float64(self, expr: cst.BaseExpression) -> bool:
        if isinstance(expr, cst.SimpleString):
            return expr.evaluated_value in _FLOAT64_STRINGS
        if isinstance(expr, cst.Call):
            if self.model.call_name(expr) in _DTYPE_CALLS and len(expr.args) == 1:
                return self._is_float64(expr.args[0].value)
            return False
        return self.model.qualified_name(expr) in _FLOAT64_NAMES

    def _asked(self, call: cst.Call, dtype: cst.BaseExpression) -> str:
        return f"`{self.ctx.code(call.func)}` is asked for `{self.ctx.code(dtype)}`"

    def _flag(self, node: cst.BaseExpression, request: str) -> None:
        if self._enables_x64():
            return
        self.report(node, request=request)

    def _enables_x64(self) -> bool:
        """The module turns x64 on, may turn it on, or reads the flag (see the docs)."""
        if self._x64 is None:
            self._x64 = self._scan_x64()
        return self._x64

    def _scan_x64(self) -> bool:
        model = self.model
        statements: set[int] = set()  # calls that are a whole expression statement
        callees: set[int] = set()  # the functions of calls (checked with the call)
        disabling: set[int] = set()  # "jax_enable_x64" in config.update(..., False)
        for node, entering in model.events:
            if not entering:
                continue
            if isinstance(node, cst.Expr):
                statements.add(id(node.value))
            elif isinstance(node, cst.Call):
                qualname = model.call_name(node)
                positional = [a.value for a in node.args if a.keyword is None and not a.star]
                if qualname in _CONFIG_UPDATES:
                    if not positional or not isinstance(positional[0], cst.SimpleString):
                        return True  # an option chosen at runtime
                    if positional[0].evaluated_value in _X64_FLAGS:
                        if len(positional) > 1 and _literal_false(positional[1]):
                            disabling.add(id(positional[0]))
                        else:
                            return True
                elif qualname in _FLAG_PARSERS:
                    return True
                elif qualname in _X64_CONTEXTS:
                    off = positional and _literal_false(positional[0])
                    if id(node) not in statements and not off:
                        return True
                if any(a.keyword is not None and a.keyword.value in _X64_FLAGS for a in node.args):
                    return True
            elif isinstance(node, cst.SimpleString):
                if node.evaluated_value in _X64_FLAGS and id(node) not in disabling:
                    return True
            elif isinstance(node, cst.Attribute):
                if node.attr.value in _X64_ATTRIBUTES:
                    return True
                if model.qualified_name(node) in _X64_CONTEXTS and id(node) not in callees:
                    return True  # ``ctx = jax.enable_x64``: used some other way
            if isinstance(node, cst.Call):
                callees.add(id(node.func))
        return False
