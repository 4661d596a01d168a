"""JAX203 traced-shape: a traced value where JAX needs a static shape or size (shape
arguments, slice bounds, value-sized results, boolean masks)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import libcst as cst

from jaxlint.analysis.static_uses import SIZE_ARGS
from jaxlint.analysis.tracing import Level
from jaxlint.rules.base import Examples, Raises, Rule, short
from jaxlint.rules.control_flow.helpers import PROBE, TracerQueries, static_hint

if TYPE_CHECKING:
    from jaxlint.analysis.names import SemanticModel
    from jaxlint.engine import FileContext

EXAMPLES = Examples(__file__)

# Second-line texts of JAX's ConcretizationTypeError that are about a shape or a size.
SHAPE_HINTS = (
    "jnp.arange",
    "size argument",
    "jnp.unique",
    "nonzero",
    "shape",
    "dimension",
    "split argument",
)

# qualified name -> (positions, keywords) of the arguments that are shapes or sizes
# functions whose output size depends on the values of their argument, unless ``size=``
_VALUE_SIZED: dict[str, str] = {
    "jax.numpy.nonzero": "a",
    "jax.numpy.argwhere": "a",
    "jax.numpy.flatnonzero": "a",
    "jax.numpy.unique": "ar",
    "jax.numpy.unique_values": "x",
    "jax.numpy.unique_counts": "x",
    "jax.numpy.unique_inverse": "x",
    "jax.numpy.unique_all": "x",
}
_BOOL_FUNCS = frozenset(
    f"jax.numpy.{n}"
    for n in (
        "isnan",
        "isinf",
        "isfinite",
        "isposinf",
        "isneginf",
        "isclose",
        "signbit",
        "logical_and",
        "logical_or",
        "logical_not",
        "logical_xor",
        "equal",
        "not_equal",
        "greater",
        "greater_equal",
        "less",
        "less_equal",
    )
)
_ORDER_OPS = (cst.LessThan, cst.LessThanEqual, cst.GreaterThan, cst.GreaterThanEqual)
_EQ_OPS = (cst.Equal, cst.NotEqual)


class TracedShape(TracerQueries, Rule):
    code = "JAX203"
    name = "traced-shape"
    message = "{what}: {why}; {advice}"
    probe = PROBE
    confirmed_by = (
        Raises("NonConcreteBooleanIndexError"),  # x[x > 0] under jit
        Raises("ConcretizationTypeError", details_any=SHAPE_HINTS),
        Raises("TypeError", message_startswith="Shapes must be 1D sequences of concrete"),
        Raises("IndexError", message_contains="slice indices must have static"),  # x[:n]
    )
    docs = """\
## What it does
Flags a value that is definitely a tracer inside `jit`-like code (and `vmap`,
lax loop bodies, helpers called from them) where JAX needs a static shape or
size:

* the shape or size arguments of `jnp.zeros`/`ones`/`empty`/`full` (and their
  `_like` `shape=`), `jnp.eye`/`identity`/`tri`, `jnp.arange`,
  `jnp.linspace`'s `num`, `jnp.reshape`/`x.reshape`, `jnp.broadcast_to`,
  the indices or sections of `jnp.split`/`array_split`/`hsplit`/`vsplit`/`dsplit`,
  `lax.full`/`iota`/`reshape`/`broadcast`/`broadcast_in_dim`, the slice sizes of
  `lax.dynamic_slice`/`dynamic_slice_in_dim` (the start may be traced), and the
  `shape` of `jax.random` samplers;
* slice bounds: `x[:n]`, `x[n:]`, `x[::n]`, `x.at[:n]`;
* `jnp.nonzero`/`argwhere`/`flatnonzero`/`unique*` and one-argument
  `jnp.where(cond)` without `size=`;
* boolean-mask indexing `x[x > 0]`, `x[mask]`, `x.at[mask]`.

Shapes from `x.shape`, `len()`, static arguments and literals are fine.

Traced code includes what frameworks trace by contract (a Flax, Equinox or Haiku
module's `__call__`, a function given to `hk.transform`, an optax `update`): traced
whenever the user's training step is jitted, which the message says. A parameter
of such a function that the function itself gives as a shape or size
(`jnp.zeros((n, 1))`, `shape=[n, 1]`, `x.reshape(n, -1)`, `range(n)`, NumPy's
`np.zeros((n,))`) is taken for a Python value: a tracer there raises, so every call
that runs passes one (the jitted caller marks it static).

## Why is this bad
JAX compiles for fixed shapes: every array's shape must be known while tracing.
A traced size raises when the function is traced: `TypeError` ("Shapes must be
1D sequences of concrete values of integer type") for shape arguments,
`ConcretizationTypeError` for `jnp.arange`, `linspace`'s `num`, `nonzero`,
`unique` and one-argument `where`, `IndexError` ("Array slice indices must have
static start/stop/step") for slices of arrays (`TracerIntegerConversionError` for
Python lists), and `NonConcreteBooleanIndexError` for a traced boolean mask.

## Example
```python
import jax
import jax.numpy as jnp

@jax.jit
def positive_mean(x):
    return x[x > 0].mean()
```

## Use instead
```python
import jax
import jax.numpy as jnp

@jax.jit
def positive_mean(x):
    mask = x > 0
    return jnp.where(mask, x, 0).sum() / mask.sum()
```
Keep shapes static: mask instead of filtering, pass `size=` (and `fill_value=`)
to `jnp.nonzero`/`unique`, slice with `lax.dynamic_slice(x, (start,), (size,))`
(static `size`, traced `start`), or mark the size argument static
(`static_argnames=("n",)`), compiling once per value.

## Fix safety
No fix: the replacement depends on what the code should do with the variable
size (pad, mask, or recompile per size).

## Verify at runtime
`jaxlint probe compile FILE.py:FUNC` traces the function and reports the error
with your file and line, naming JAX203.
"""
    VALID = [
        EXAMPLES.valid(
            "valid_enumerate_index_is_python_int.py",
            note="the index of `enumerate` over a list is a Python int",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_mask_in_loss_under_grad_alone.py",
            note="under `grad` alone the mask is concrete",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_zip_static_sizes_with_keys.py",
            note="`zip(SIZES, keys)`: the sizes come from a static list",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_sizes_shapes_linspace_traced_stop.py",
            note="sizes from shapes; linspace with a traced stop is fine",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_static_sizes_name_number.py",
            note="static sizes by name and by number",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_integer_indexing_dynamic_slice_three.py",
            note="integer indexing, dynamic_slice, three-argument where, size=",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_static_numpy_mask_masks_nonzero.py",
            note="a static NumPy mask; masks and nonzero in host code",
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
            "valid_slicing_python_list_static_bound.py",
            note="slicing a Python list with a static bound",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_axes_given_position_equinox_nn.py",
            note="in_axes given by position (equinox/nn/_pool.py): `size` is not mapped",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_broadcast_shapes_returns_static_tuple.py",
            note="broadcast_shapes returns a static tuple (numpyro/distributions/util.py)",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_lax_psum_1_axis_axis.py",
            note="`lax.psum(1, axis)` is the axis size, a Python int even under jit",
            runs=True,
        ),
        EXAMPLES.valid(
            "valid_flax_static_helper_and_constant_hyperparameter.py",
            note="a `@staticmethod` called through `self` is given the module's field, and"
            " `Head.__call__`'s `features` only a constant by this file's calls: both are"
            " Python values under `jax.jit(model.apply)`",
        ),
        EXAMPLES.valid(
            "valid_flax_parameter_given_as_shape.py",
            note="`num_quantiles` is a shape in the module's `__call__`: every call that runs"
            " gives a Python int (a tracer there raises), so the parameter is static, and"
            " so are the `if` and the `range` on it (dopamine's quantile network)",
        ),
    ]
    INVALID = [
        EXAMPLES.invalid(
            "invalid_split_indices_made_by_cumsum.py",
            line=7,
            message_contains="`jnp.split` needs a static shape or size",
            raises="ConcretizationTypeError",
        ),
        EXAMPLES.invalid(
            "invalid_flax_decode_slice_sizes_array.py",
            line=20,
            column=73,
            message_contains="made by `jnp.array` inside `AddPositionEmbs.__call__`, a Flax",
            note="`jnp.array` slice sizes in a Flax `__call__` (flax lm1b before 05bd1855)",
        ),
        EXAMPLES.invalid(
            "invalid_mask_in_loss_under_jit_of_grad.py",
            line=6,
            message_contains="jitted by `jax.jit` at line 8",
            raises="NonConcreteBooleanIndexError",
            note="`jax.jit(jax.grad(loss))`: the outer jit traces `loss`",
        ),
        EXAMPLES.invalid(
            "invalid_dynamic_slice_traced_size.py",
            line=7,
            message_contains="`lax.dynamic_slice` needs a static shape or size",
            raises="TypeError",
            note="the start of `dynamic_slice` may be traced, its size may not",
        ),
        EXAMPLES.invalid(
            "invalid_return_jnp_zeros_n_2.py",
            line=6,
            column=23,
            message_contains=(
                "`n` is traced: parameter of `make`, jitted by `jax.jit` at line 4;"
                " mark it static with static_argnames=('n',)"
            ),
            raises="TypeError",
        ),
        EXAMPLES.invalid(
            "invalid_return_x_n.py",
            line=5,
            column=15,
            message_contains="lax.dynamic_slice",
            raises="IndexError",
        ),
        EXAMPLES.invalid(
            "invalid_return_x_x_0_mean.py",
            line=6,
            column=14,
            message_contains="boolean mask",
            raises="NonConcreteBooleanIndexError",
        ),
        EXAMPLES.invalid(
            "invalid_return_x_mask_set_0_0.py",
            line=7,
            message_contains="vmapped by `jax.vmap`",
            raises="NonConcreteBooleanIndexError",
        ),
        EXAMPLES.invalid(
            "invalid_idx_jnp_nonzero_x.py",
            line=6,
            count=3,
            message_contains="pass `size=`",
            raises="ConcretizationTypeError",
        ),
        EXAMPLES.invalid(
            "invalid_return_carry_jnp_arange_n_sum.py",
            line=6,
            message_contains="traced as a body of `lax.scan`",
            raises="ConcretizationTypeError",
        ),
        EXAMPLES.invalid(
            "invalid_method_reached_through_self_self.py",
            line=6,
            message_contains="`rows` is traced",
            note="a method reached through self; self itself is never definitely traced",
        ),
        EXAMPLES.invalid("invalid_return_x_jax_random_normal_key.py", line=7, raises="TypeError"),
        EXAMPLES.invalid(
            "invalid_return_jnp_concatenate_model_x_jnp.py",
            line=6,
            message_contains="jitted by `flax.nnx.jit`",
        ),
        EXAMPLES.invalid(
            "invalid_jax_numpy_import_zeros.py",
            line=6,
            column=18,
            message_contains="`zeros` needs a static shape",
            note="`from jax.numpy import zeros`",
            raises="TypeError",
        ),
    ]

    def __init__(self, ctx: FileContext) -> None:
        super().__init__(ctx)
        self._assigned: dict[int, cst.BaseExpression] = {}

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            if type(target.target) is cst.Name:
                self._assigned[id(target.target)] = node.value

    # calls ------------------------------------------------------------------------------

    def visit_Call(self, node: cst.Call) -> None:
        qn = self.model.call_name(node)
        if qn is None:
            self._method(node)
            return
        if qn in SIZE_ARGS:
            positions, keywords = SIZE_ARGS[qn]
            for arg in _args(node, positions, keywords):
                if self._size(node, arg, self.ctx.code(node.func)):
                    return
        elif qn in _VALUE_SIZED or (qn == "jax.numpy.where" and _one_arg_where(node)):
            keyword = _VALUE_SIZED.get(qn, "condition")
            if any(a.keyword is not None and a.keyword.value == "size" for a in node.args):
                return
            for arg in _args(node, (0,), (keyword,)):
                self._value_sized(node, arg, self.ctx.code(node.func))

    def _method(self, node: cst.Call) -> None:
        func = node.func
        if type(func) is not cst.Attribute:
            return
        base = self.ctx.trace.value(func.value)
        if base is None or not (base.array or base.traced) or base.container:
            return
        if func.attr.value == "reshape":
            shape = [a.value for a in node.args if a.keyword is None or a.keyword.value == "shape"]
            for arg in shape:
                if self._size(node, arg, "reshape"):
                    return
        elif func.attr.value == "nonzero" and not node.args:
            self._value_sized(node, func.value, "nonzero")

    def _size(self, call: cst.Call, arg: cst.BaseExpression, callee: str) -> bool:
        parts = list(arg.elements) if isinstance(arg, (cst.Tuple, cst.List)) else []
        culprit = arg
        val = None
        for el in parts:
            val = self.abstract(el.value)
            if val is not None:
                culprit = el.value
                break
        else:
            val = self.abstract(arg)
        if val is None:
            return False
        self.report(
            culprit,
            what=(
                f"`{callee}` needs a static shape or size, but"
                f" `{short(self.ctx.code(culprit).strip())}` is a tracer"
            ),
            why=self.why(val),
            advice=f"{static_hint(val)}, or use a fixed size",
        )
        return True

    def _value_sized(self, call: cst.Call, arg: cst.BaseExpression, callee: str) -> None:
        val = self.abstract(arg)
        if val is None:
            return
        self.report(
            call,
            what=(
                f"`{callee}` returns an array whose size depends on the values of traced"
                f" `{short(self.ctx.code(arg).strip())}`"
            ),
            why=self.why(val),
            advice="pass `size=` (and `fill_value=`) for a fixed-size result",
        )

    # indexing ---------------------------------------------------------------------------

    def visit_Subscript(self, node: cst.Subscript) -> None:
        base = self.ctx.trace.value(node.value)
        if base is None:
            return
        for element in node.slice:
            sl = element.slice
            if type(sl) is cst.Slice:
                if not (base.array or base.level > Level.STATIC or base.container):
                    continue
                for bound in (sl.lower, sl.upper, sl.step):
                    if bound is None:
                        continue
                    val = self.abstract(bound)
                    if val is not None:
                        self.report(
                            bound,
                            what=(
                                "a slice bound must be static, but"
                                f" `{short(self.ctx.code(bound).strip())}` is a tracer"
                            ),
                            why=self.why(val),
                            advice=(
                                (
                                    "update a static-size window at a traced start with"
                                    " `lax.dynamic_update_slice(x, update, (start,))`"
                                    if isinstance(node.value, cst.Attribute)
                                    and node.value.attr.value == "at"
                                    else "slice a static size at a traced start with"
                                    " `lax.dynamic_slice(x, (start,), (size,))`"
                                )
                                + f"; or {static_hint(val)}"
                            ),
                        )
                        return
            elif isinstance(sl, cst.Index) and (base.array or base.traced) and not base.container:
                if not _boolean(self.model, self._assigned, sl.value):
                    continue
                val = self.abstract(sl.value)
                if val is not None:
                    self.report(
                        sl.value,
                        what=(
                            "indexing with a traced boolean mask"
                            f" `{short(self.ctx.code(sl.value).strip())}` gives a"
                            " value-dependent shape"
                        ),
                        why=self.why(val),
                        advice=(
                            "keep the shape with `jnp.where(mask, x, 0)` (and reduce),"
                            " or `jnp.nonzero(mask, size=n)`"
                        ),
                    )
                    return


def _args(
    call: cst.Call, positions: tuple[int, ...], keywords: tuple[str, ...]
) -> Iterator[cst.BaseExpression]:
    positional = [a for a in call.args if a.keyword is None and not a.star]
    for i, arg in enumerate(positional):
        if i in positions:
            yield arg.value
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value in keywords:
            yield arg.value


def _one_arg_where(call: cst.Call) -> bool:
    positional = [a for a in call.args if a.keyword is None and not a.star]
    keywords = {a.keyword.value for a in call.args if a.keyword is not None}
    return (
        len(positional) + len(keywords & {"condition"}) == 1
        and not keywords & {"x", "y"}
        and not any(a.star for a in call.args)
    )


def _boolean(
    model: SemanticModel,
    assigned: dict[int, cst.BaseExpression],
    expr: cst.BaseExpression,
    depth: int = 0,
) -> bool:
    """``expr`` is syntactically a boolean array: a comparison, ``~``/``&``/``|`` of
    those, ``jnp.isnan``-like calls, or a name assigned once from one."""
    if depth > 3:
        return False
    if isinstance(expr, cst.Comparison):
        return all(isinstance(c.operator, _ORDER_OPS + _EQ_OPS) for c in expr.comparisons)
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.BitInvert):
        return _boolean(model, assigned, expr.expression, depth + 1)
    if isinstance(expr, cst.BinaryOperation) and isinstance(
        expr.operator, (cst.BitAnd, cst.BitOr, cst.BitXor)
    ):
        return _boolean(model, assigned, expr.left, depth + 1) or _boolean(
            model, assigned, expr.right, depth + 1
        )
    if isinstance(expr, cst.Call):
        return model.call_name(expr) in _BOOL_FUNCS
    if isinstance(expr, cst.Name):
        found = model.lookup(expr.value, model.scope_for(expr))
        if found is None:
            return False
        values = [assigned.get(id(b.node)) for b in found[1]]
        return bool(values) and all(
            v is not None and _boolean(model, assigned, v, depth + 1) for v in values
        )
    return False
