"""Where JAX needs a Python value: the shape and size arguments of array makers
(``jnp.zeros(n)``, ``jax.random.uniform(key, shape=(n, 1))``, ``x.reshape(n, -1)``) and
``range(n)``. JAX203 reports a tracer given there; the trace analysis reads the same
table the other way: a parameter of a function traced by contract that the function
itself gives there must be a Python value at every call that runs (a tracer there
raises), so it is static (``ImplicitQuantileNetwork.__call__(self, x, num_quantiles,
rng)`` with ``jnp.tile(x, [num_quantiles, 1])``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from jaxlint.analysis.walk import descendants

if TYPE_CHECKING:
    from jaxlint.analysis.names import SemanticModel

SIZE_ARGS: dict[str, tuple[tuple[int, ...], tuple[str, ...]]] = {
    "jax.numpy.zeros": ((0,), ("shape",)),
    "jax.numpy.ones": ((0,), ("shape",)),
    "jax.numpy.empty": ((0,), ("shape",)),
    "jax.numpy.full": ((0,), ("shape",)),
    "jax.numpy.zeros_like": ((2,), ("shape",)),
    "jax.numpy.ones_like": ((2,), ("shape",)),
    "jax.numpy.empty_like": ((2,), ("shape",)),
    "jax.numpy.full_like": ((3,), ("shape",)),
    "jax.numpy.eye": ((0, 1), ("N", "M")),
    "jax.numpy.identity": ((0,), ("n",)),
    "jax.numpy.tri": ((0, 1), ("N", "M")),
    "jax.numpy.arange": ((0, 1, 2), ("start", "stop", "step")),
    "jax.numpy.linspace": ((2,), ("num",)),
    "jax.numpy.logspace": ((2,), ("num",)),
    "jax.numpy.geomspace": ((2,), ("num",)),
    "jax.numpy.reshape": ((1,), ("shape", "newshape")),
    "jax.numpy.broadcast_to": ((1,), ("shape",)),
    "jax.numpy.split": ((1,), ("indices_or_sections",)),
    "jax.numpy.array_split": ((1,), ("indices_or_sections",)),
    "jax.numpy.hsplit": ((1,), ("indices_or_sections",)),
    "jax.numpy.vsplit": ((1,), ("indices_or_sections",)),
    "jax.numpy.dsplit": ((1,), ("indices_or_sections",)),
    "jax.lax.full": ((0,), ("shape",)),
    "jax.lax.iota": ((1,), ("size",)),
    "jax.lax.reshape": ((1,), ("new_sizes",)),
    "jax.lax.broadcast": ((1,), ("sizes",)),
    "jax.lax.broadcast_in_dim": ((1,), ("shape",)),
    "jax.lax.dynamic_slice": ((2,), ("slice_sizes",)),
    "jax.lax.dynamic_slice_in_dim": ((2,), ("slice_size",)),
    "jax.random.normal": ((1,), ("shape",)),
    "jax.random.uniform": ((1,), ("shape",)),
    "jax.random.randint": ((1,), ("shape",)),
    "jax.random.bernoulli": ((2,), ("shape",)),
    "jax.random.truncated_normal": ((3,), ("shape",)),
    "jax.random.gumbel": ((1,), ("shape",)),
    "jax.random.exponential": ((1,), ("shape",)),
    "jax.random.laplace": ((1,), ("shape",)),
    "jax.random.logistic": ((1,), ("shape",)),
    "jax.random.cauchy": ((1,), ("shape",)),
    "jax.random.rademacher": ((1,), ("shape",)),
    "jax.random.bits": ((1,), ("shape",)),
    "jax.random.categorical": ((3,), ("shape",)),
    "jax.random.choice": ((2,), ("shape",)),
}
"""Qualified name -> (positions, keywords) of its shape or size arguments."""

_RANGE = "builtins.range"

NUMPY_SIZE_ARGS: dict[str, tuple[tuple[int, ...], tuple[str, ...]]] = {
    "numpy.zeros": ((0,), ("shape",)),
    "numpy.ones": ((0,), ("shape",)),
    "numpy.empty": ((0,), ("shape",)),
    "numpy.full": ((0,), ("shape",)),
    "numpy.eye": ((0, 1), ("N", "M")),
    "numpy.arange": ((0, 1, 2), ("start", "stop", "step")),
    "numpy.reshape": ((1,), ("shape", "newshape")),
}
"""NumPy's makers need Python ints for a shape as JAX's do (a tracer raises
``TracerIntegerConversionError``); JAX101 reports NumPy on tracers, so these are read
only for :func:`size_params`."""


def size_params(
    model: SemanticModel, fn: cst.FunctionDef | cst.Lambda, params: set[str]
) -> set[str]:
    """The names of ``params`` that ``fn``'s code gives as a shape or size, or as a
    slice bound (``x[:, :n]``: a tracer there raises too): the argument itself, an
    element of a tuple or list display given there, or of such a display bound once to a
    local name (``quantiles_shape = [num_quantiles, 1]``), or a name in a Python number
    bound once to one (``keep_len = int(length * (1 - mask_ratio))``, then
    ``ids[:, :keep_len]``: jax-models' ``Mask.__call__``, fresh-2026-12y). Calls of
    nested functions count too: they run with the same value."""
    if not params:
        return set()
    found: set[str] = set()
    call_cls, slice_cls = cst.Call, cst.Slice
    for node in model.body_nodes(fn):
        kind = type(node)
        if kind is call_cls:
            args = _size_args(model, node)  # type: ignore[arg-type]
        elif kind is slice_cls:
            args = [b for b in (node.lower, node.upper, node.step) if b is not None]  # type: ignore[attr-defined]
        else:
            continue
        for arg in args:
            for name in _named(model, arg):
                if name in params:
                    found.add(name)
    return found


def _size_args(model: SemanticModel, call: cst.Call) -> list[cst.BaseExpression]:
    func = call.func
    if type(func) is cst.Attribute and func.attr.value == "reshape":
        return [a.value for a in call.args if a.keyword is None or a.keyword.value == "shape"]
    qn = model.call_name(call)
    if qn == _RANGE:
        return [a.value for a in call.args if a.keyword is None and not a.star]
    spec = (SIZE_ARGS.get(qn) or NUMPY_SIZE_ARGS.get(qn)) if qn is not None else None
    if spec is None:
        return []
    positions, keywords = spec
    out: list[cst.BaseExpression] = []
    i = 0
    for arg in call.args:
        if arg.star:
            break
        if arg.keyword is None:
            if i in positions:
                out.append(arg.value)
            i += 1
        elif arg.keyword.value in keywords:
            out.append(arg.value)
    return out


def _named(model: SemanticModel, expr: cst.BaseExpression, depth: int = 0) -> list[str]:
    kind = type(expr)
    if kind is cst.Name:
        names = [expr.value]  # type: ignore[attr-defined]
        if depth == 0:
            value = model.bound_once(expr)  # type: ignore[arg-type]
            if value is not None and type(value) in (cst.Tuple, cst.List):
                names += _named(model, value, depth + 1)
            elif value is not None and _python_number(model, value):
                names += [n.value for n in descendants(value) if type(n) is cst.Name]
        return names
    if kind is cst.Tuple or kind is cst.List:
        out: list[str] = []
        for el in expr.elements:  # type: ignore[attr-defined]
            if type(el.value) is cst.Name:
                out.append(el.value.value)
        return out
    return []


_NUMBER_CALLS = frozenset({"builtins.int", "builtins.round", "math.floor", "math.ceil"})


def _python_number(model: SemanticModel, expr: cst.BaseExpression) -> bool:
    """``int(...)``, ``round(...)``, ``math.floor(...)``/``ceil(...)``: a Python number
    made of what it is given (a tracer given there raises)."""
    return type(expr) is cst.Call and model.call_name(expr) in _NUMBER_CALLS  # type: ignore[arg-type]
