"""JAX101 host-conversion-of-tracer: calls that need a concrete Python or NumPy value
(``np.asarray``, ``float``, ``.item()``...) of a tracer in traced code.
"""

from __future__ import annotations

import libcst as cst

from jaxlint.analysis.host_rng import seeds_host_rng
from jaxlint.rules.base import Examples, Raises, Rule
from jaxlint.rules.host_device.helpers import (
    Shared,
    conversion,
)
from jaxlint.rules.host_device.host_conversion_of_tracer_fix import NumpyFix

EXAMPLES = Examples(__file__)

# Second-line texts of JAX's ConcretizationTypeError that name a host conversion.
HOST_CONVERSION_HINTS = (
    "the `float` function",
    "the `int` function",
    "the `complex` function",
    "the `bool` function",
    "item() method",
    "tolist() method",
)


# -- JAX101 ----------------------------------------------------------------------------------


VALID_EXAMPLES = [
    EXAMPLES.valid(
        "valid_linen_param_made_a_slice_bound.py",
        note="a Linen `__call__` parameter its code turns into a slice bound: a Python"
        " number at every call that runs (jax-models' `Mask.__call__`)",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_backend_string_decides_the_host_path.py",
        note='the jitted caller leaves `backend` at "jax", passed on by name:'
        ' `elif backend == "cpu":` never runs traced (normix\'s `_cpu_solve`)',
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_flag_every_traced_caller_passes.py",
        note="every traced call passes `for_jit=True`: the `if not for_jit:` branch runs"
        " only for host callers",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_optional_argument_given_by_the_traced_caller.py",
        note="the traced caller passes `grid`: `if grid is not None: return` takes the"
        " traced path, and the host path after it (and the helper only it calls) runs"
        " only for host callers",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_static_argname_given_through_kwargs.py",
        note="`static_argnames` names a keyword taken through `**hierarchy`: JAX"
        ' treats it as static, so `hierarchy["mem_limit"]` is a Python float',
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_equinox_init_optax_init_eager.py",
        note="an Equinox module's `__init__` and an optax `init_fn` usually run eagerly:"
        " not traced by contract",
    ),
    EXAMPLES.valid(
        "valid_early_return_on_tracer_guards_rest.py",
        note="`if has_tracer(x): return` first: the rest of the function runs only on"
        " concrete values (jax-hf's validation helper)",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_module_call_seeds_host_generator.py",
        note="a module's `__call__` that seeds a NumPy generator from its key samples on"
        " the host (xwm's mask samplers): it runs eagerly, so it is not traced by contract",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_dict_of_weights_and_python_settings.py",
        note="a dict of weights and Python settings: an entry read by its key is that"
        " entry's own value, here and in a function the dict is passed to (zoomy-jax)",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_module_call_declared_to_return_a_path.py",
        note="a module's `__call__` annotated to return a string (`-> tuple[Array, str]`)"
        " wraps host work: not traced by contract (cryojax-eo's OpenMM simulator)",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_module_call_returning_a_report.py",
        note="a module's `__call__` that returns a string (or a pandas table) is no "
        "model: it runs eagerly, so it is not traced by contract",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_host_conversions_after_inside_jitted.py",
        note="host conversions after, not inside, the jitted call",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_shapes_ranks_static_int_float.py",
        note="shapes and ranks are static: int/float/np.prod on them are fine",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_np_sum_np_mean_np.py",
        note="np.sum/np.mean/np.max/np.reshape call the array's own method on a tracer",
        runs=True,
    ),
    EXAMPLES.valid("valid_compile_time_eval_concrete.py", runs=True),
    EXAMPLES.valid(
        "valid_static_arguments_static_argnums_static.py",
        note="static arguments (static_argnums and static_argnames) are Python values",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_callbacks_run_host_concrete_numpy.py",
        note="callbacks run on the host with concrete NumPy arrays",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_under_grad_alone_primal_concrete.py",
        note="under grad alone the primal is concrete: int() works (float() would not)",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_result_unknown_function_only_maybe.py",
        note="the result of an unknown function is only maybe traced",
    ),
    EXAMPLES.valid(
        "valid_numpy_constants_traced_code_concrete.py",
        note="NumPy constants in traced code are concrete",
    ),
    EXAMPLES.valid(
        "valid_module_attribute_self_features_static.py",
        note="a module attribute (self.features) is static metadata, not a tracer",
    ),
    EXAMPLES.valid(
        "valid_parameter_default_keeps_python_value.py",
        note="a parameter with a default keeps its Python value when not passed",
    ),
    EXAMPLES.valid(
        "valid_runtime_check_tracers_guards_conversion.py",
        note="a runtime check for tracers guards the conversion",
    ),
    EXAMPLES.valid(
        "valid_try_except_typeerror_guards_conversion.py",
        note="`except TypeError` expects the tracer's conversion error: a runtime check",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_isinstance_host_type_branch_dead.py",
        note="`isinstance(x, np.ndarray)` / `(int, float)` is False for a tracer: the"
        " branch never runs under jit",
        runs=True,
    ),
    EXAMPLES.valid(
        "valid_isinstance_module_alias_host_type.py",
        note="the host type is resolved through the import (`numbers as nums`)",
        runs=True,
    ),
]


class HostConversionOfTracer(NumpyFix, Shared, Rule):
    code = "JAX101"
    name = "host-conversion-of-tracer"
    message = "`{call}` needs a concrete value, but {why}; {hint}"
    fix_availability = "sometimes"
    probe = "jaxlint probe compile FILE.py:FUNC"
    confirmed_by = (
        Raises("TracerArrayConversionError"),  # np.asarray(tracer)
        Raises("TracerIntegerConversionError"),  # range(tracer), list[tracer]
        # float(x), x.item(), ...: JAX's second line names the conversion
        Raises("ConcretizationTypeError", details_any=HOST_CONVERSION_HINTS),
    )
    docs = """\
## What it does
Flags, inside traced code, calls that need a concrete Python or NumPy value of a
value that the trace analysis knows is a tracer: `np.asarray(x)`, `np.array(x)` and
any other `numpy.*` function that converts its arguments, `float(x)`, `int(x)`,
`bool(x)`, `complex(x)`, `math.sqrt(x)` (any `math` function), `x.item()`,
`x.tolist()` and `jax.device_get(x)`.

Traced code includes what frameworks trace by contract (a Flax, Equinox or Haiku
module's `__call__`, a function given to `hk.transform`, an optax `update`): traced
whenever the user's training step is jitted, which the message says. Where such code
is traced only by that contract (no transform in sight, in this module or another) and
the conversion seeds a host generator (`np.random.default_rng(np.asarray(randint(key,
...)))`: a mask sampler that draws on the host before the jitted step), it is not
reported: a generator needs a concrete seed, so the code runs eagerly by design. Under
a `jit` in sight it is reported as everywhere else.

## Why is this bad
Under `jax.jit` (and `vmap`, `lax.scan` bodies, ...) a traced value is an abstract
placeholder with a shape and a dtype but no value yet, so JAX cannot hand it to
NumPy or Python: `np.asarray(x)` raises `TracerArrayConversionError`, `float(x)`,
`x.item()` and `x.tolist()` raise `ConcretizationTypeError`, and `bool(x)` raises
`TracerBoolConversionError`. Even where it would work, a conversion would force a
device-to-host copy in the middle of a compiled computation. `jax.device_get(x)` on a
tracer does not raise: it returns the tracer unchanged, so the code never gets the
host value it asked for.

NumPy functions that only read metadata (`np.shape`, `np.ndim`, `np.size`,
`np.result_type`, ...) or that call the array's own method (`np.sum(x)` is
`x.sum()`, also `np.mean`, `np.max`, `np.reshape`, `np.transpose`, ...) work on
tracers and are not flagged; the list was checked on jax 0.12 by calling every
NumPy function on a tracer. Their result is a tracer too, so the call around them
is: `np.sqrt(np.mean(x))` raises in `np.sqrt`. Values the analysis is not sure about (the result of
an unknown function, an attribute of a pytree) are not flagged either. Under
`jax.grad` alone (no `jit`, no `vmap`) the primal value is concrete, so `int(x)`,
`bool(x)` and `x.item()` work there and are flagged only under `jit`-like
transforms and `vmap`; `float`, `complex`, `tolist`, `math` and NumPy raise
under `grad` too. Code under an `if` that checks for tracers at runtime
(`if not isinstance(x, core.Tracer):`, `if not_jax_tracer(x):`,
`if jax.core.is_concrete(x):`) or for a host type (`if isinstance(x, np.ndarray):`,
`isinstance(x, (int, float))`, which is False for every tracer), the rest of a block
after such an `if` whose body returns, raises or continues (`if has_tracer(x): return`),
and the body of a
`try` whose `except TypeError` (or a tracer error class, or `Exception`) expects the
conversion to fail, is not flagged, nor is `print` there (JAX103). Nor is code a
helper runs only for its host callers: in a function traced because traced code of
the file calls it, a branch on a parameter that every such call gives the same literal
(`energy(x, for_jit=True)` from each jitted caller, or a literal default left as it
is) is decided, so `if not for_jit: return float(total)` never runs traced; one
traced call that leaves `for_jit` at `False` is enough to report it.

## Example
```python
import jax
import numpy as np


@jax.jit
def normalize(x):
    scale = float(x.max())
    return np.asarray(x) / scale
```

## Use instead
```python
import jax
import jax.numpy as jnp


@jax.jit
def normalize(x):
    return jnp.asarray(x) / x.max()
```
Convert results after the jitted call returns (`float(normalize(x)[0])`), where
they are concrete.

## Fix safety
Unsafe, offered for a NumPy function that has a `jax.numpy` twin of the same name
(`np.asarray` -> `jnp.asarray`, `np.linalg.norm` -> `jnp.linalg.norm`): the result
becomes a JAX array, dtypes follow JAX (float32 unless x64 is enabled) and the
NumPy-only keywords (`out=`, `where=`, `order=`, ...) have no equivalent, so no fix
is offered when they are used. Nested NumPy calls are converted together, never half:
the fix of `np.sqrt(np.mean(x))` also converts the `np.mean` of the tracer inside it,
and the fix of `np.mean(np.log1p(x))`'s inner call also converts the `np.mean` that
takes it (`jnp.mean(jnp.log1p(x))`); when one of them has no twin, no fix. Functions whose JAX twin needs a static size under
`jit` (`np.unique`, `np.nonzero`, one-argument `np.where`) get no fix, nor does a
conversion whose value seeds a NumPy generator (`np.random.default_rng(seed)`: a
generator cannot take a tracer, so `jnp.asarray` would only move the error). `float()`,
`int()`, `.item()` and the others have no mechanical replacement: the value must
stay an array or the conversion must move out of the traced function.

## Verify at runtime
`jaxlint probe compile FILE.py:FUNC` traces the function and reports the error JAX
raises (`jax.errors.TracerArrayConversionError`, `ConcretizationTypeError`) with
your file and line and `"rule": "JAX101"`.
"""
    VALID = VALID_EXAMPLES
    INVALID = [
        EXAMPLES.invalid(
            "invalid_backend_string_given_under_jit.py",
            line=7,
            message_contains="`x` is traced: parameter of `_cpu_solve`",
            note='the jitted caller passes `backend="cpu"`: the NumPy path runs traced',
            raises="TracerArrayConversionError",
        ),
        EXAMPLES.invalid(
            "invalid_linen_param_converted_not_a_size.py",
            line=8,
            message_contains="`scale` is traced: parameter of `Scale.__call__`",
            note="the same conversion of a Linen `__call__` parameter that reaches no"
            " shape or slice bound: an array given there raises",
            raises="ConcretizationTypeError",
        ),
        EXAMPLES.invalid(
            "invalid_traced_entry_of_a_settings_dict.py",
            line=9,
            message_contains='`p["w"]` is traced: computed from `x`',
            note="the traced entry of a dict that also holds a Python setting",
            raises="TracerArrayConversionError",
        ),
        EXAMPLES.invalid(
            "invalid_flag_one_traced_caller_leaves_off.py",
            line=8,
            raises="ConcretizationTypeError",
            note="one jitted caller leaves `for_jit` at its default, `False`",
        ),
        EXAMPLES.invalid(
            "invalid_kwargs_key_not_static.py",
            line=10,
            raises="ConcretizationTypeError",
            note="`pts` is not among the `static_argnames`: an array, traced",
        ),
        EXAMPLES.invalid(
            "invalid_optional_argument_given_as_none.py",
            line=12,
            raises="ConcretizationTypeError",
            note="the jitted caller gives `grid=None`: the host path is the traced one",
        ),
        EXAMPLES.invalid(
            "invalid_haiku_transformed_function_numpy.py",
            line=7,
            message_contains="given to `hk.transform` at line 11, traced whenever its `apply`"
            " runs under `jax.jit`",
            note="a function given to `hk.transform` runs inside the user's jitted `apply`",
        ),
        EXAMPLES.invalid(
            "invalid_equinox_module_call_item.py",
            line=10,
            message_contains="parameter of `Scale.__call__`, an Equinox module's `__call__`",
        ),
        EXAMPLES.invalid(
            "invalid_return_np_asarray_x_2_0.py",
            line=8,
            column=12,
            message_contains="`x` is traced: parameter of `normalize`, jitted by `jax.jit` at line 6",
            unsafe_fix=True,
            raises="TracerArrayConversionError",
        ),
        EXAMPLES.invalid(
            "invalid_jitted_function_seeds_host_generator.py",
            line=7,
            message_contains="jitted by `jax.jit` at line 5; a NumPy generator needs a concrete"
            " seed",
            raises="TracerArrayConversionError",
            note="a generator seeded from a key inside a function that is jitted in sight",
        ),
        EXAMPLES.invalid(
            "invalid_return_x_float_x_n.py",
            line=8,
            column=16,
            message_contains="`float(x)` needs a concrete value, but `x` is traced",
            raises="ConcretizationTypeError",
        ),
        EXAMPLES.invalid(
            "invalid_try_catches_valueerror_only.py",
            line=8,
            column=17,
            message_contains="`np.sqrt(n)` needs a concrete value, but `n` is traced",
            raises="TracerArrayConversionError",
            note="`except ValueError` does not catch the tracer's conversion error",
        ),
        EXAMPLES.invalid(
            "invalid_isinstance_guard_ends_before_conversion.py",
            line=9,
            column=16,
            message_contains="`float(s)` needs a concrete value, but `s` is traced",
            raises="ConcretizationTypeError",
            note="an `isinstance` host-type guard covers only its own branch",
        ),
        EXAMPLES.invalid(
            "invalid_nested_numpy_calls_on_tracer.py",
            line=8,
            message_contains="`np.sqrt(np.mean(err ** 2))` needs a concrete value",
            unsafe_fix=True,
            raises="TracerArrayConversionError",
            note="`np.mean` of a tracer is a tracer (it calls `.mean()`); the fix converts"
            " the nest together",
        ),
        EXAMPLES.invalid(
            "invalid_numpy_conversion_inside_reduction.py",
            line=7,
            column=20,
            unsafe_fix=True,
            raises="TracerArrayConversionError",
            note="the fix of the inner conversion converts the enclosing `np.mean` too",
        ),
        EXAMPLES.invalid(
            "invalid_return_v_item.py",
            line=6,
            message_contains="vmapped by `jax.vmap`",
            raises="ConcretizationTypeError",
        ),
        EXAMPLES.invalid(
            "invalid_grad_alone_numpy_still_cannot.py",
            unsafe_fix=True,
            raises="TracerArrayConversionError",
            note="grad alone: NumPy still cannot convert the tracer",
        ),
        EXAMPLES.invalid(
            "invalid_fori_loop_index_traced_even.py",
            line=9,
            column=26,
            message_contains="traced as a body of `lax.fori_loop`",
            raises="ConcretizationTypeError",
            note="the fori_loop index is traced even though the bounds are static",
        ),
        EXAMPLES.invalid("invalid_compile_time_eval_traced.py", raises="ConcretizationTypeError"),
        EXAMPLES.invalid("invalid_positive_jnp_float32_1_0.py", raises="TracerBoolConversionError"),
        EXAMPLES.invalid(
            "invalid_return_np_array_v_dtype_np.py",
            line=7,
            message_contains="called from traced `step`",
            unsafe_fix=True,
            raises="TracerArrayConversionError",
        ),
        EXAMPLES.invalid(
            "invalid_fast_jnp_float32_4_0.py",
            message_contains="use `jnp.sqrt`",
            raises="ConcretizationTypeError",
        ),
        EXAMPLES.invalid(
            "invalid_list_tracers_numpy_imported_under.py",
            count=1,
            unsafe_fix=True,
            raises="TracerArrayConversionError",
            note="a list of tracers, NumPy imported under another name",
        ),
        EXAMPLES.invalid(
            "invalid_step_jnp_ones_2.py",
            message_contains="return the array and call `.tolist()` outside",
            raises="ConcretizationTypeError",
        ),
        EXAMPLES.invalid(
            "invalid_return_jax_device_get_x.py", message_contains="returns the tracer unchanged"
        ),
        EXAMPLES.invalid(
            "invalid_jnp_unique_needs_size_under.py",
            unsafe_fix=True,
            note="jnp.unique needs size= under jit: no fix",
        ),
    ]

    # ``int``/``bool``/``.item()`` work under ``grad`` alone (the primal is concrete);
    # ``float``, ``complex``, ``.tolist()``, NumPy and ``math`` raise under any transform.
    _NEEDS_ABSTRACT = frozenset({"builtins.int", "builtins.bool", "item"})

    def __init__(self, ctx) -> None:  # type: ignore[no-untyped-def]
        super().__init__(ctx)
        self._numpy_parent: dict[int, cst.Call] = {}
        """id(first positional argument) -> the ``numpy.*`` call it is passed to."""

    def visit_Call(self, node: cst.Call) -> None:
        qn = self.model.call_name(node)
        if qn is not None and qn.startswith("numpy."):
            # ``np.mean(np.abs(x))``: the enclosing NumPy call of each first argument, so
            # that a fix converts the whole nest (``jnp.mean(jnp.abs(x))``)
            first = next((a.value for a in node.args if a.keyword is None and not a.star), None)
            if first is not None:
                self._numpy_parent[id(first)] = node
        conv = conversion(self.model, node)
        if conv is None:
            return
        kind, qn, operands = conv
        trace = self.ctx.trace
        fn = trace.traced_function_of(node)
        if fn is None or self._tracer_guards:
            return
        if fn.presumed() and seeds_host_rng(self.model, node, fn.node):
            return  # host sampling code: it runs eagerly, whatever the framework presumes
        for operand in operands:
            val = self._traced(operand)
            if val is None or (kind in ("builtin", "method") and val.container):
                continue
            if qn in self._NEEDS_ABSTRACT and not trace.is_abstract(val, node):
                continue
            self._report(node, kind, qn, operand, val)
            return
