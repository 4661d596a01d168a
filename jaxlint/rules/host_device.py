"""JAX1xx: host transfers and side effects in traced code.

The tables below were checked on jax 0.12.0.1 (CPU) by calling each NumPy function
on a tracer inside ``jax.jit``; the linter itself never imports JAX or NumPy.
"""

from __future__ import annotations

import ast
import weakref
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import libcst as cst

from jaxlint.analysis.names import Scope, SemanticModel
from jaxlint.analysis.tracing import TracedFunction, Val
from jaxlint.analysis.transforms import ARRAY_MODULES, STAGING, STATIC_ATTRIBUTES
from jaxlint.analysis.walk import children
from jaxlint.diagnostics import Applicability
from jaxlint.fixers.spelling import spell
from jaxlint.rules.base import Examples, FixOp, ReplaceNode, Rule

if TYPE_CHECKING:
    from jaxlint.engine import FileContext

# -- tables ---------------------------------------------------------------------------

# NumPy functions that accept a tracer without converting it: they read metadata
# (``np.shape``) or call the array's own method (``np.sum(x)`` is ``x.sum()``), so they
# work under ``jit``. Every other ``numpy.*`` call converts its array arguments with
# ``__array__``, which raises TracerArrayConversionError on a tracer.
NUMPY_ACCEPTS_TRACERS = frozenset(
    "numpy." + name
    for name in (
        # metadata
        "shape ndim size isscalar iterable result_type dtype can_cast issubdtype isdtype"
        " promote_types iscomplexobj isrealobj common_type finfo iinfo"
        # delegate to the array's method
        " all any amax amin max min argmax argmin argsort around round cumprod cumsum"
        " mean std var prod sum squeeze swapaxes transpose permute_dims moveaxis rollaxis"
        " flip real imag isreal split array_split unstack tril_indices_from"
        " triu_indices_from reshape repeat searchsorted"
    ).split()
)

# NumPy functions (relative to ``numpy``) with a ``jax.numpy`` function of the same
# name: ``hasattr(jax.numpy, name)`` on jax 0.12.0.1, restricted to functions that
# raised TracerArrayConversionError on a tracer. Left out: functions whose JAX twin
# needs a static ``size=`` under jit (``unique``, ``nonzero``...), takes a size that a
# tracer cannot give (``arange``, window functions) or formats text (``array_str``).
JNP_TWINS = frozenset(
    (
        "abs absolute acos acosh add allclose angle append arccos arccosh arcsin arcsinh"
        " arctan arctan2 arctanh argpartition asarray array asin asinh atan atan2 atanh"
        " atleast_1d atleast_2d atleast_3d average bitwise_and bitwise_count bitwise_invert"
        " bitwise_left_shift bitwise_not bitwise_or bitwise_right_shift bitwise_xor block"
        " bool_ broadcast_arrays broadcast_to cbrt ceil choose clip column_stack complex128"
        " complex64 concat concatenate conj conjugate convolve copy copysign corrcoef"
        " correlate cos cosh cov cross cumulative_prod cumulative_sum deg2rad degrees"
        " diag diagflat diagonal diff digitize divide divmod dot dstack ediff1d einsum"
        " empty_like equal exp exp2 expand_dims expm1 fabs fliplr flipud float16"
        " float32 float64 float_power floor floor_divide fmax fmin fmod frexp full"
        " full_like gcd gradient greater greater_equal heaviside hstack hypot i0 inner"
        " int16 int32 int64 int8 interp invert isclose iscomplex isfinite isin isinf"
        " isnan isneginf isposinf kron lcm ldexp left_shift less less_equal lexsort log"
        " log10 log1p log2 logaddexp logaddexp2 logical_and logical_not logical_or"
        " logical_xor matmul matrix_transpose matvec maximum median meshgrid minimum mod"
        " modf multiply nan_to_num nanargmax nanargmin nancumprod nancumsum nanmax"
        " nanmean nanmedian nanmin nanpercentile nanprod nanquantile nanstd nansum nanvar"
        " negative nextafter not_equal ones_like outer pad partition percentile"
        " polyval positive pow power ptp quantile rad2deg radians ravel reciprocal"
        " remainder resize right_shift rint roll rot90 select sign signbit sin sinc sinh"
        " sort sort_complex spacing sqrt square stack subtract take tan tanh tensordot"
        " tile trace trapezoid tril triu true_divide trunc uint16 uint32 uint64 uint8"
        " unwrap vander vdot vecdot vecmat vstack where zeros_like"
        " linalg.cholesky linalg.cond linalg.cross linalg.det linalg.diagonal linalg.eig"
        " linalg.eigh linalg.eigvals linalg.eigvalsh linalg.inv linalg.lstsq linalg.matmul"
        " linalg.matrix_norm linalg.matrix_power linalg.matrix_rank linalg.matrix_transpose"
        " linalg.multi_dot linalg.norm linalg.outer linalg.pinv linalg.qr linalg.slogdet"
        " linalg.solve linalg.svd linalg.svdvals linalg.tensordot linalg.tensorinv"
        " linalg.tensorsolve linalg.trace linalg.vecdot linalg.vector_norm"
        " fft.fft fft.fft2 fft.fftn fft.fftshift fft.hfft fft.ifft fft.ifft2 fft.ifftn"
        " fft.ifftshift fft.ihfft fft.irfft fft.irfft2 fft.irfftn fft.rfft fft.rfft2"
        " fft.rfftn"
    ).split()
)
# NumPy-only keywords: the JAX twin rejects them, so no fix is offered.
_NUMPY_ONLY_KEYWORDS = frozenset({"out", "like", "subok", "casting", "where", "order"})

# ``math`` functions with a ``jax.numpy`` twin of the same name (for the hint only:
# ``math.floor`` returns an int, ``jnp.floor`` an array, so no fix).
_MATH_TWINS = frozenset(
    "acos acosh asin asinh atan atan2 atanh cbrt ceil copysign cos cosh degrees exp exp2"
    " expm1 fabs floor fmod frexp hypot isclose isfinite isinf isnan ldexp log log10"
    " log1p log2 modf pow radians remainder sin sinh sqrt tan tanh trunc".split()
)

_BUILTIN_CONVERSIONS = frozenset(
    {"builtins.float", "builtins.int", "builtins.bool", "builtins.complex"}
)
_CLOCKS = frozenset(
    {
        "time.time",
        "time.perf_counter",
        "time.monotonic",
        "time.time_ns",
        "time.perf_counter_ns",
        "time.monotonic_ns",
        "timeit.default_timer",
    }
)
_LOG_METHODS = frozenset(
    {"debug", "info", "warning", "warn", "error", "exception", "critical", "fatal", "log"}
)
_LOGGING_MODULES = ("logging.", "absl.logging.")
_MUTATORS = frozenset(
    {"append", "extend", "insert", "add", "update", "setdefault", "appendleft", "extendleft"}
)
_CONTAINER_CALLS = frozenset(
    {
        "builtins.list",
        "builtins.dict",
        "builtins.set",
        "collections.defaultdict",
        "collections.OrderedDict",
        "collections.deque",
        "collections.Counter",
    }
)
# Classes whose methods legitimately assign ``self.x`` under a transform (Flax NNX
# propagates the new state; linen/Equinox/Haiku modules have their own rules).
_MODULE_BASES = (
    "flax.",
    "equinox.",
    "haiku.",
    "penzai.",
)
_JIT_LIKE = frozenset({"jax.jit", "jax.experimental.pjit.pjit", "jax.pmap"})


# -- helpers -----------------------------------------------------------------------------


def _short_code(ctx_code: str, func_code: str, limit: int = 48) -> str:
    text = " ".join(ctx_code.split())
    return text if len(text) <= limit else f"{func_code}(...)"


def _conversion(model, call: cst.Call) -> tuple[str, str, list[cst.BaseExpression]] | None:  # type: ignore[no-untyped-def]
    """A call that needs a host value: (kind, qualified name or method, operands)."""
    func = call.func
    if isinstance(func, cst.Attribute) and func.attr.value in ("item", "tolist"):
        if model.qualified_name(func) is None:  # a method, not ``mod.item``
            return "method", func.attr.value, [func.value]
        return None
    qn = model.call_name(call)
    if qn is None:
        return None
    values = [a.value for a in call.args]
    if qn in _BUILTIN_CONVERSIONS:
        positional = [a.value for a in call.args if a.keyword is None and not a.star]
        return ("builtin", qn, positional[:1]) if positional else None
    if qn.startswith("numpy.") and qn not in NUMPY_ACCEPTS_TRACERS:
        return "numpy", qn, values
    if qn.startswith("math.") and qn != "math.prod":
        return "math", qn, values
    if qn == "jax.device_get":
        return "device_get", qn, values
    return None


def _fstring_operands(expr: cst.BaseExpression) -> Iterator[cst.BaseExpression]:
    """What formatting ``expr`` turns into text: f-string fields, else ``expr``."""
    if isinstance(expr, cst.FormattedString):
        for part in expr.parts:
            if isinstance(part, cst.FormattedStringExpression):
                yield part.expression
    elif isinstance(expr, cst.ConcatenatedString):
        yield from _fstring_operands(expr.left)  # type: ignore[arg-type]
        yield from _fstring_operands(expr.right)  # type: ignore[arg-type]
    else:
        yield expr


def _host_sync_operands(model, call: cst.Call) -> list[cst.BaseExpression] | None:  # type: ignore[no-untyped-def]
    """Operands of a call that copies array values to the host (and so waits for them):
    the conversions of JAX101 plus ``print``, ``str``, ``repr`` and ``format``."""
    conv = _conversion(model, call)
    if conv is not None:
        return conv[2]
    qn = model.call_name(call)
    if qn in ("builtins.print", "builtins.str", "builtins.repr", "builtins.format"):
        out: list[cst.BaseExpression] = []
        for arg in call.args:
            if arg.keyword is None:
                out.extend(_fstring_operands(arg.value))
        return out
    return None


_SCOPES = frozenset({cst.FunctionDef, cst.Lambda, cst.ClassDef})
"""Checked with ``type(node) in _SCOPES``: concrete libcst classes have no subclasses, and
``isinstance`` on them goes through ABCMeta, which costs more than the walk itself."""
_COMPOUND: dict[type, bool] = {}
"""Per node class: a compound statement (``issubclass`` once per class)."""


def _is_compound(cls: type) -> bool:
    found = _COMPOUND.get(cls)
    if found is None:
        found = _COMPOUND[cls] = issubclass(cls, cst.BaseCompoundStatement)
    return found


def _preorder(node: cst.CSTNode, keep: Callable[[cst.CSTNode], bool]) -> Iterator[cst.CSTNode]:
    """Pre-order walk from ``node`` into the children ``keep`` accepts: an explicit stack
    (children pushed in reverse) rather than nested generators, which cost a frame per
    level for every node yielded."""
    stack = [node]
    while stack:
        node = stack.pop()
        yield node
        kept = [child for child in children(node) if keep(child)]
        kept.reverse()
        stack.extend(kept)


def _walk(
    node: cst.CSTNode,
    *,
    into_blocks: bool = True,
    prune: Callable[[cst.CSTNode], bool] | None = None,
) -> Iterator[cst.CSTNode]:
    """Pre-order walk that does not enter nested functions, lambdas or classes (nor,
    with ``into_blocks=False``, compound statements, nor nodes ``prune`` rejects)."""
    if type(node) in _SCOPES:
        return
    yield from _preorder(
        node,
        lambda child: (
            type(child) not in _SCOPES
            and (into_blocks or not _is_compound(type(child)))
            and (prune is None or not prune(child))
        ),
    )


def _walk_all(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """Pre-order walk into lambdas too (not into nested ``def``s or classes)."""
    yield from _preorder(
        node, lambda child: type(child) is not cst.FunctionDef and type(child) is not cst.ClassDef
    )


def _assigned_names(target: cst.BaseExpression) -> list[str] | None:
    """``a`` / ``a, b`` / ``(a, *b)``: the names; ``None`` for other targets."""
    if isinstance(target, cst.Name):
        return [target.value]
    if isinstance(target, (cst.Tuple, cst.List)):
        out: list[str] = []
        for el in target.elements:
            inner = el.value
            got = _assigned_names(inner.value if isinstance(inner, cst.StarredElement) else inner)
            if got is None:
                return None
            out.extend(got)
        return out
    return None


def _py_str(text: str) -> str:
    """A Python string literal for ``text``, double-quoted when possible."""
    r = repr(text)
    if r.startswith("'") and '"' not in text:
        r = '"' + r[1:-1].replace("\\'", "'") + '"'
    return r


def _tests_tracer(test: cst.BaseExpression) -> bool:
    """A name or attribute in ``test`` says ``tracer`` or ``concrete``."""
    for inner in _walk(test):
        name = (
            inner.value
            if type(inner) is cst.Name
            else inner.attr.value
            if type(inner) is cst.Attribute
            else ""
        )
        if "tracer" in name.lower() or "concrete" in name.lower():
            return True
    return False


_TRACER_GUARDS: weakref.WeakKeyDictionary[SemanticModel, dict[int, bool]] = (
    weakref.WeakKeyDictionary()
)
"""Per module, ``id(if node)`` -> ``_tests_tracer(its test)``, for all the rules."""


class _Shared:
    """Shared bits of the rules below (a mixin, so that the registry does not see it):
    the enclosing function of the node being visited, traced values, assignments."""

    ctx: FileContext
    model: SemanticModel

    def __init__(self, ctx: FileContext) -> None:
        super().__init__(ctx)  # type: ignore[call-arg]
        self._functions: list[cst.FunctionDef | cst.Lambda] = []
        self._assigned: dict[int, cst.BaseExpression] | None = None
        self._tracer_guards: list[cst.If] = []

    def visit_If(self, node: cst.If) -> None:
        # ``if not_jax_tracer(x):`` / ``if isinstance(x, core.Tracer):``: the code
        # checks at runtime whether it holds a tracer; either branch may be concrete
        guards = _TRACER_GUARDS.get(self.model)
        if guards is None:
            guards = _TRACER_GUARDS[self.model] = {}
        found = guards.get(id(node))
        if found is None:  # the first of the rules sharing this mixin to ask
            found = guards[id(node)] = _tests_tracer(node.test)
        if found:
            self._tracer_guards.append(node)

    def leave_If(self, node: cst.If) -> None:
        if self._tracer_guards and self._tracer_guards[-1] is node:
            self._tracer_guards.pop()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._functions.append(node)

    def leave_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._functions.pop()

    def visit_Lambda(self, node: cst.Lambda) -> None:
        self._functions.append(node)

    def leave_Lambda(self, node: cst.Lambda) -> None:
        self._functions.pop()

    @property
    def _within(self) -> cst.FunctionDef | cst.Lambda | None:
        return self._functions[-1] if self._functions else None

    def _value_of_binding(self, name_node: cst.CSTNode) -> cst.BaseExpression | None:
        """The value assigned by ``name = value`` where ``name_node`` is the target."""
        if self._assigned is None:
            self._assigned = {}
            for node, entering in self.model.events:
                if entering and isinstance(node, cst.Assign):
                    for t in node.targets:
                        if isinstance(t.target, cst.Name):
                            self._assigned[id(t.target)] = node.value
                elif (
                    entering
                    and isinstance(node, cst.AnnAssign)
                    and isinstance(node.target, cst.Name)
                    and node.value is not None
                ):
                    self._assigned[id(node.target)] = node.value
        return self._assigned.get(id(name_node))

    def _traced(self, expr: cst.BaseExpression) -> Val | None:
        val = self.ctx.trace.value(expr)
        return val if val is not None and val.traced else None

    def _traced_inside(self, expr: cst.BaseExpression) -> Val | None:
        """A definitely traced value that ``expr`` is, holds or formats into text
        (``x``, ``(x, y)``, ``f"{x}"``, ``str(x)``, ``"%s" % x``), if any. Static
        metadata of a tracer (``x.shape``) is not traced."""
        val = self._traced(expr)
        if val is not None:
            return val
        parts: list[cst.BaseExpression] = []
        if isinstance(expr, cst.FormattedString):
            parts = [
                p.expression for p in expr.parts if isinstance(p, cst.FormattedStringExpression)
            ]
        elif isinstance(expr, cst.ConcatenatedString):
            parts = [expr.left, expr.right]  # type: ignore[list-item]
        elif isinstance(expr, cst.BinaryOperation):
            parts = [expr.left, expr.right]
        elif isinstance(expr, (cst.Tuple, cst.List, cst.Set)):
            parts = [el.value for el in expr.elements]
        elif isinstance(expr, cst.Dict):
            parts = [el.value for el in expr.elements]
        elif isinstance(expr, cst.Call):
            func = expr.func
            qn = self.model.call_name(expr)
            if qn in ("builtins.str", "builtins.repr", "builtins.format") or (
                isinstance(func, cst.Attribute)
                and func.attr.value in ("format", "join")
                and isinstance(func.value, (cst.SimpleString, cst.ConcatenatedString))
            ):
                parts = [a.value for a in expr.args]
        for part in parts:
            got = self._traced_inside(part)
            if got is not None:
                return got
        return None


_EXAMPLES_JAX101 = Examples(Path(__file__).parent / "host_device" / "host_conversion_of_tracer.py")


# -- JAX101 ----------------------------------------------------------------------------------


class HostConversionOfTracer(_Shared, Rule):
    code = "JAX101"
    name = "host-conversion-of-tracer"
    message = "`{call}` needs a concrete value, but {why}; {hint}"
    fix_availability = "sometimes"
    probe = "jaxlint probe compile FILE.py:FUNC"
    docs = """\
## What it does
Flags, inside traced code, calls that need a concrete Python or NumPy value of a
value that the trace analysis knows is a tracer: `np.asarray(x)`, `np.array(x)` and
any other `numpy.*` function that converts its arguments, `float(x)`, `int(x)`,
`bool(x)`, `complex(x)`, `math.sqrt(x)` (any `math` function), `x.item()`,
`x.tolist()` and `jax.device_get(x)`.

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
NumPy function on a tracer. Values the analysis is not sure about (the result of
an unknown function, an attribute of a pytree) are not flagged either. Under
`jax.grad` alone (no `jit`, no `vmap`) the primal value is concrete, so `int(x)`,
`bool(x)` and `x.item()` work there and are flagged only under `jit`-like
transforms and `vmap`; `float`, `complex`, `tolist`, `math` and NumPy raise
under `grad` too. Code under an `if` that checks for tracers at runtime
(`if not isinstance(x, core.Tracer):`, `if not_jax_tracer(x):`,
`if jax.core.is_concrete(x):`) is not flagged, nor is `print` there (JAX103).

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
is offered when they are used. Functions whose JAX twin needs a static size under
`jit` (`np.unique`, `np.nonzero`, one-argument `np.where`) get no fix. `float()`,
`int()`, `.item()` and the others have no mechanical replacement: the value must
stay an array or the conversion must move out of the traced function.

## Verify at runtime
`jaxlint probe compile FILE.py:FUNC` traces the function and reports the error JAX
raises (`jax.errors.TracerArrayConversionError`, `ConcretizationTypeError`) with
your file and line and `"rule": "JAX101"`.
"""
    VALID = [
        _EXAMPLES_JAX101.valid(
            "valid_host_conversions_after_inside_jitted.py",
            note="host conversions after, not inside, the jitted call",
            runs=True,
        ),
        _EXAMPLES_JAX101.valid(
            "valid_shapes_ranks_static_int_float.py",
            note="shapes and ranks are static: int/float/np.prod on them are fine",
            runs=True,
        ),
        _EXAMPLES_JAX101.valid(
            "valid_np_sum_np_mean_np.py",
            note="np.sum/np.mean/np.max/np.reshape call the array's own method on a tracer",
            runs=True,
        ),
        _EXAMPLES_JAX101.valid(
            "valid_static_arguments_static_argnums_static.py",
            note="static arguments (static_argnums and static_argnames) are Python values",
            runs=True,
        ),
        _EXAMPLES_JAX101.valid(
            "valid_callbacks_run_host_concrete_numpy.py",
            note="callbacks run on the host with concrete NumPy arrays",
            runs=True,
        ),
        _EXAMPLES_JAX101.valid(
            "valid_under_grad_alone_primal_concrete.py",
            note="under grad alone the primal is concrete: int() works (float() would not)",
            runs=True,
        ),
        _EXAMPLES_JAX101.valid(
            "valid_result_unknown_function_only_maybe.py",
            note="the result of an unknown function is only maybe traced",
        ),
        _EXAMPLES_JAX101.valid(
            "valid_numpy_constants_traced_code_concrete.py",
            note="NumPy constants in traced code are concrete",
        ),
        _EXAMPLES_JAX101.valid(
            "valid_module_attribute_self_features_static.py",
            note="a module attribute (self.features) is static metadata, not a tracer",
        ),
        _EXAMPLES_JAX101.valid(
            "valid_parameter_default_keeps_python_value.py",
            note="a parameter with a default keeps its Python value when not passed",
        ),
        _EXAMPLES_JAX101.valid(
            "valid_runtime_check_tracers_guards_conversion.py",
            note="a runtime check for tracers guards the conversion",
        ),
    ]
    INVALID = [
        _EXAMPLES_JAX101.invalid(
            "invalid_return_np_asarray_x_2_0.py",
            line=8,
            column=12,
            message_contains="`x` is traced: parameter of `normalize`, jitted by `jax.jit` at line 6",
            unsafe_fix=True,
            raises="TracerArrayConversionError",
        ),
        _EXAMPLES_JAX101.invalid(
            "invalid_return_x_float_x_n.py",
            line=8,
            column=16,
            message_contains="`float(x)` needs a concrete value, but `x` is traced",
            raises="ConcretizationTypeError",
        ),
        _EXAMPLES_JAX101.invalid(
            "invalid_return_v_item.py",
            line=6,
            message_contains="vmapped by `jax.vmap`",
            raises="ConcretizationTypeError",
        ),
        _EXAMPLES_JAX101.invalid(
            "invalid_grad_alone_numpy_still_cannot.py",
            unsafe_fix=True,
            raises="TracerArrayConversionError",
            note="grad alone: NumPy still cannot convert the tracer",
        ),
        _EXAMPLES_JAX101.invalid(
            "invalid_fori_loop_index_traced_even.py",
            line=9,
            column=26,
            message_contains="traced as a body of `lax.fori_loop`",
            raises="ConcretizationTypeError",
            note="the fori_loop index is traced even though the bounds are static",
        ),
        _EXAMPLES_JAX101.invalid(
            "invalid_positive_jnp_float32_1_0.py", raises="TracerBoolConversionError"
        ),
        _EXAMPLES_JAX101.invalid(
            "invalid_return_np_array_v_dtype_np.py",
            line=7,
            message_contains="called from traced `step`",
            unsafe_fix=True,
            raises="TracerArrayConversionError",
        ),
        _EXAMPLES_JAX101.invalid(
            "invalid_fast_jnp_float32_4_0.py",
            message_contains="use `jnp.sqrt`",
            raises="ConcretizationTypeError",
        ),
        _EXAMPLES_JAX101.invalid(
            "invalid_list_tracers_numpy_imported_under.py",
            count=1,
            unsafe_fix=True,
            raises="TracerArrayConversionError",
            note="a list of tracers, NumPy imported under another name",
        ),
        _EXAMPLES_JAX101.invalid(
            "invalid_step_jnp_ones_2.py",
            message_contains="return the array and call `.tolist()` outside",
            raises="ConcretizationTypeError",
        ),
        _EXAMPLES_JAX101.invalid(
            "invalid_return_jax_device_get_x.py", message_contains="returns the tracer unchanged"
        ),
        _EXAMPLES_JAX101.invalid(
            "invalid_jnp_unique_needs_size_under.py",
            unsafe_fix=True,
            note="jnp.unique needs size= under jit: no fix",
        ),
    ]

    # ``int``/``bool``/``.item()`` work under ``grad`` alone (the primal is concrete);
    # ``float``, ``complex``, ``.tolist()``, NumPy and ``math`` raise under any transform.
    _NEEDS_ABSTRACT = frozenset({"builtins.int", "builtins.bool", "item"})

    def visit_Call(self, node: cst.Call) -> None:
        conv = _conversion(self.model, node)
        if conv is None:
            return
        kind, qn, operands = conv
        trace = self.ctx.trace
        if trace.traced_function_of(node) is None or self._tracer_guards:
            return
        for operand in operands:
            val = self._traced(operand)
            if val is None or (kind in ("builtin", "method") and val.container):
                continue
            if qn in self._NEEDS_ABSTRACT and not trace.is_abstract(val, node):
                continue
            self._report(node, kind, qn, operand, val)
            return

    def _report(
        self, node: cst.Call, kind: str, qn: str, operand: cst.BaseExpression, val: Val
    ) -> None:
        code = self.ctx.code
        call = _short_code(code(node), code(node.func))
        arg = " ".join(code(operand).split())
        fix = None
        fix_message = None
        if kind == "numpy":
            rel = qn[len("numpy.") :]
            twin = "jax.numpy." + rel
            spelled = None
            positional = [a for a in node.args if a.keyword is None]
            keywords = {a.keyword.value for a in node.args if a.keyword is not None}
            if (
                rel in JNP_TWINS
                and not keywords & _NUMPY_ONLY_KEYWORDS
                and not (rel == "where" and len(positional) < 3)
            ):
                spelled = spell(self.model, twin, node.func)
            shown = spelled[0] if spelled else twin.replace("jax.numpy.", "jnp.")
            if rel in JNP_TWINS:
                hint = f"use `{shown}`, which stays on device"
            else:
                hint = "use a `jax.numpy` function, or call NumPy outside the traced function"
            if spelled is not None:
                text, ops = spelled

                def fix() -> list[FixOp]:
                    return [ReplaceNode(node.func, text), *ops]

                fix_message = f"Replace with `{shown}`"
        elif kind == "builtin":
            short = qn.split(".")[-1]
            if short == "bool":
                hint = "branch with `jnp.where` or `lax.cond` instead"
            elif short == "int":
                hint = (
                    f"use `{arg}` as an array (index a `jnp` array with it, or"
                    f" `{arg}.astype(jnp.int32)`), or call `int()` outside the traced function"
                )
            else:
                hint = (
                    f"use `{arg}.astype(...)` to change the dtype, or return the array"
                    f" and call `{short}()` outside the traced function"
                )
        elif kind == "method":
            hint = f"return the array and call `.{qn}()` outside the traced function"
        elif kind == "math":
            name = qn.split(".")[-1]
            hint = f"use `jnp.{name}`" if name in _MATH_TWINS else "use a `jax.numpy` function"
        else:  # device_get
            hint = "under tracing it returns the tracer unchanged; fetch results outside"
        self.report(
            node,
            call=call,
            why=self.ctx.trace.why(val),
            hint=hint,
            fix=fix,
            applicability=Applicability.UNSAFE if fix is not None else None,
            fix_message=fix_message,
        )


_EXAMPLES_JAX102 = Examples(Path(__file__).parent / "host_device" / "host_sync_in_loop.py")


# -- JAX102 ----------------------------------------------------------------------------------


class HostSyncInLoop(_Shared, Rule):
    code = "JAX102"
    name = "host-sync-in-loop"
    message = (
        "`{conversion}` waits for `{callee}` and copies its result to the host on every"
        " iteration: one blocking device sync per step; keep results on device"
        " (accumulate them in an array) and fetch every N steps"
    )
    fix_availability = "none"
    probe = "jaxlint probe bench FILE.py:FUNC --jit"
    docs = """\
## What it does
Flags, in host code (outside any traced function), a Python `for` or `while` loop
that calls a jitted function and, on every iteration, converts that call's result
to a host value: `.item()`, `.tolist()`, `float()`/`int()`/`bool()`/`complex()`,
`np.asarray`/`np.array` (any converting NumPy function), `jax.device_get`,
`str()`/`repr()`/`format()`, an f-string field, or `print` of the array. A jitted
function is one the module shows as such: `@jax.jit` (also `pjit`, `pmap`,
`nnx.jit`, `eqx.filter_jit`, `partial(jax.jit, ...)`), `step = jax.jit(f)`,
`self.step = jax.jit(...)` or `jax.jit(f)(x)`.

## Why is this bad
JAX dispatches work asynchronously: the jitted call returns at once and the device
keeps computing while Python prepares the next step. Converting the result to a
host value blocks until the device has finished and copies it back, so every
iteration waits for the device and the device waits for Python: one blocking sync
per step, which can dominate a training loop with small steps.

The rule stays silent where the sync is rare or needed once: a conversion after
the loop, under an `if` inside the loop (`if step % 100 == 0: print(float(loss))`),
in an outer loop around the training loop (once per epoch), on a value computed
before the loop, on static metadata (`out.shape`), inside assertions (`assert`,
`np.testing.assert_*`, `chex.assert_*`, `self.assertEqual`), which need the value
every step, in loops over a literal list or a literal `range` of at most 10 steps,
and when the callee is not known to be jitted (an unknown outermost decorator, a
method of an object).

## Example
```python
for step, batch in enumerate(batches):
    state, loss = train_step(state, batch)  # @jax.jit
    history.append(float(loss))
```

## Use instead
```python
losses = []
for step, batch in enumerate(batches):
    state, loss = train_step(state, batch)
    losses.append(loss)  # stays on device, no sync
    if step % 100 == 0:
        history.extend(jax.device_get(losses))
        losses = []
```

## Fix safety
No fix: where to fetch, and how often, is a design choice.

## Verify at runtime
`jaxlint probe bench FILE.py:FUNC --jit` times one call of the step with its output
synchronised; compare it with the wall time of your loop divided by the number of
steps to see how much the per-step sync costs.
"""
    VALID = [
        _EXAMPLES_JAX102.valid(
            "valid_one_conversion_after_loop.py", note="one conversion after the loop", runs=True
        ),
        _EXAMPLES_JAX102.valid(
            "valid_logging_every_n_steps_under.py",
            note="logging every N steps under an if",
            runs=True,
        ),
        _EXAMPLES_JAX102.valid(
            "valid_accumulated_device_fetched_once.py",
            note="accumulated on device, fetched once",
            runs=True,
        ),
        _EXAMPLES_JAX102.valid(
            "valid_once_per_epoch_after_inner.py",
            note="once per epoch, after the inner training loop",
            runs=True,
        ),
        _EXAMPLES_JAX102.valid(
            "valid_loop_over_literal_list_few.py",
            note="a loop over a literal list of a few settings",
            runs=True,
        ),
        _EXAMPLES_JAX102.valid(
            "valid_metadata_result_value_computed_before.py",
            note="metadata of the result, and a value computed before the loop",
            runs=True,
        ),
        _EXAMPLES_JAX102.valid(
            "valid_callee_known_jitted.py", note="the callee is not known to be jitted"
        ),
        _EXAMPLES_JAX102.valid(
            "valid_loop_inside_traced_code_host.py",
            note="a loop inside traced code is not a host loop",
        ),
        _EXAMPLES_JAX102.valid(
            "valid_waiting_without_copying_host_user.py",
            note="waiting without copying to the host is the user's explicit choice",
            runs=True,
        ),
        _EXAMPLES_JAX102.valid(
            "valid_test_checks_every_step_value.py",
            note="a test checks every step: the value is needed on the host",
            runs=True,
        ),
        _EXAMPLES_JAX102.valid(
            "valid_unknown_outermost_decorator_decides_what.py",
            note="an unknown outermost decorator decides what the call returns",
        ),
    ]
    INVALID = [
        _EXAMPLES_JAX102.invalid(
            "invalid_history_append_loss_item.py",
            line=15,
            column=24,
            message_contains="`loss.item()` waits for `train_step`",
        ),
        _EXAMPLES_JAX102.invalid(
            "invalid_total_float_params_loss.py", message_contains="waits for `step`"
        ),
        _EXAMPLES_JAX102.invalid(
            "invalid_print_f_step_i_loss_4f.py",
            line=13,
            message_contains="`print(f'step {i}: {loss:.4f}')`",
        ),
        _EXAMPLES_JAX102.invalid("invalid_preds_append_np_asarray_out.py"),
        _EXAMPLES_JAX102.invalid("invalid_while_loop_pmap.py", note="a while loop, pmap"),
        _EXAMPLES_JAX102.invalid(
            "invalid_inside_block_through_array_method.py",
            note="inside a with block, through an array method",
        ),
        _EXAMPLES_JAX102.invalid(
            "invalid_return_state.py", message_contains="waits for `self.step`"
        ),
        _EXAMPLES_JAX102.invalid(
            "invalid_direct_jitted_call_converted_same.py",
            note="a direct jitted call converted in the same statement",
        ),
    ]

    _SMALL_TRIP_COUNT = 10

    def visit_For(self, node: cst.For) -> None:
        if self._small_literal_loop(node.iter):
            return
        self._check_loop(node)

    def visit_While(self, node: cst.While) -> None:
        self._check_loop(node)

    def _small_literal_loop(self, it: cst.BaseExpression) -> bool:
        if isinstance(it, (cst.List, cst.Tuple, cst.Set, cst.Dict)):
            return True
        if isinstance(it, cst.Call) and self.model.call_name(it) == "builtins.range":
            ints = [a.value for a in it.args]
            if ints and all(isinstance(v, cst.Integer) for v in ints):
                vals = [int(v.evaluated_value) for v in ints]  # type: ignore[attr-defined]
                count = len(range(*vals))
                return count <= self._SMALL_TRIP_COUNT
        return False

    def _own(self, loop: cst.For | cst.While) -> list[cst.CSTNode]:
        """Statements that run once per iteration of ``loop`` itself (not of an inner
        loop), with ``unconditional`` marking those not under an ``if``."""
        out: list[cst.CSTNode] = []

        def add(block: Sequence[cst.BaseStatement]) -> None:
            for stmt in block:
                if isinstance(stmt, (cst.For, cst.While, cst.FunctionDef, cst.ClassDef)):
                    continue
                if isinstance(stmt, cst.SimpleStatementLine):
                    out.append(stmt)
                elif isinstance(stmt, cst.If):
                    out.append(stmt.test)
                    add(stmt.body.body)  # type: ignore[arg-type]
                    orelse = stmt.orelse
                    while orelse is not None:
                        if isinstance(orelse, cst.If):
                            out.append(orelse.test)
                            add(orelse.body.body)  # type: ignore[arg-type]
                            orelse = orelse.orelse
                        else:
                            add(orelse.body.body)  # type: ignore[arg-type]
                            orelse = None
                elif isinstance(stmt, (cst.With, cst.Try, cst.TryStar)):
                    if isinstance(stmt, cst.With):
                        out.extend(item.item for item in stmt.items)
                    add(stmt.body.body)  # type: ignore[arg-type]
                    for handler in getattr(stmt, "handlers", ()):
                        add(handler.body.body)
                    finalbody = getattr(stmt, "finalbody", None)
                    if finalbody is not None:
                        add(finalbody.body.body)

        add(loop.body.body)  # type: ignore[arg-type]
        return out

    def _check_loop(self, loop: cst.For | cst.While) -> None:
        trace = self.ctx.trace
        if trace.traced_function_of(loop) is not None:
            return
        own = self._own(loop)
        jitted: dict[int, str] = {}
        for stmt in own:
            for node in _walk(stmt, into_blocks=False):
                if isinstance(node, cst.Call):
                    t = trace.transformed_callee(node, self._within)
                    if t is not None and (
                        t.qualname in STAGING
                        or t.qualname in trace.extra_decorators
                        or t.qualname in trace.extra_wrappers
                    ):
                        jitted[id(node)] = " ".join(self.ctx.code(node.func).split())
        if not jitted:
            return
        produced: dict[str, str] = {}
        for _ in range(2):
            for stmt in own:
                for node in _walk(stmt, into_blocks=False):
                    if isinstance(node, (cst.Assign, cst.AugAssign, cst.AnnAssign)):
                        value = node.value
                        if value is None:
                            continue
                        source = self._device(value, produced, jitted)
                        if source is None:
                            continue
                        targets = (
                            [t.target for t in node.targets]
                            if isinstance(node, cst.Assign)
                            else [node.target]
                        )
                        for target in targets:
                            for name in _assigned_names(target) or []:
                                produced.setdefault(name, source)
        for stmt in self._unconditional(loop):
            for node in _walk(stmt, into_blocks=False, prune=self._is_assertion):
                if not isinstance(node, cst.Call):
                    continue
                operands = _host_sync_operands(self.model, node)
                if not operands:
                    continue
                for operand in operands:
                    source = self._device(operand, produced, jitted)
                    if source is not None:
                        self.report(
                            node,
                            conversion=_short_code(self.ctx.code(node), self.ctx.code(node.func)),
                            callee=source,
                        )
                        return  # one finding per loop

    def _is_assertion(self, node: cst.CSTNode) -> bool:
        """Checking a value on every step needs it on the host: ``assert``,
        ``np.testing.assert_*``, ``chex.assert_*``, ``self.assertEqual(...)``."""
        if isinstance(node, cst.Assert):
            return True
        if not isinstance(node, cst.Call):
            return False
        qn = self.model.call_name(node)
        if qn is not None and qn.startswith(("numpy.testing.", "chex.", "pytest.")):
            return True
        func = node.func
        name = func.attr.value if isinstance(func, cst.Attribute) else getattr(func, "value", "")
        return isinstance(name, str) and name.startswith(("assert", "fail"))

    def _unconditional(self, loop: cst.For | cst.While) -> list[cst.CSTNode]:
        out: list[cst.CSTNode] = []

        def add(block: Sequence[cst.BaseStatement]) -> None:
            for stmt in block:
                if isinstance(stmt, cst.SimpleStatementLine):
                    out.append(stmt)
                elif isinstance(stmt, cst.With):
                    out.extend(item.item for item in stmt.items)
                    add(stmt.body.body)  # type: ignore[arg-type]
                elif isinstance(stmt, (cst.Try, cst.TryStar)):
                    add(stmt.body.body)  # type: ignore[arg-type]

        add(loop.body.body)  # type: ignore[arg-type]
        return out

    def _device(
        self, expr: cst.BaseExpression, produced: dict[str, str], jitted: dict[int, str]
    ) -> str | None:
        """The jitted callee whose fresh result ``expr`` holds (this iteration), if any."""
        if isinstance(expr, cst.Name):
            return produced.get(expr.value)
        if isinstance(expr, cst.Attribute):
            if expr.attr.value in STATIC_ATTRIBUTES:
                return None
            return self._device(expr.value, produced, jitted)
        if isinstance(expr, cst.Subscript):
            return self._device(expr.value, produced, jitted)
        if isinstance(expr, cst.Call):
            if id(expr) in jitted:
                return jitted[id(expr)]
            if _host_sync_operands(self.model, expr) is not None:
                return None  # already on the host
            func = expr.func
            qn = self.model.call_name(expr)
            if qn is not None:
                if qn.startswith(ARRAY_MODULES):
                    for arg in expr.args:
                        got = self._device(arg.value, produced, jitted)
                        if got is not None:
                            return got
                return None
            if isinstance(func, cst.Attribute):  # an array method: ``loss.mean()``
                return self._device(func.value, produced, jitted)
            return None
        if isinstance(expr, cst.BinaryOperation):
            return self._device(expr.left, produced, jitted) or self._device(
                expr.right, produced, jitted
            )
        if isinstance(expr, cst.UnaryOperation):
            return self._device(expr.expression, produced, jitted)
        if isinstance(expr, cst.Comparison):
            parts = [expr.left, *(c.comparator for c in expr.comparisons)]
            for part in parts:
                got = self._device(part, produced, jitted)
                if got is not None:
                    return got
            return None
        if isinstance(expr, (cst.Tuple, cst.List)):
            for el in expr.elements:
                got = self._device(el.value, produced, jitted)
                if got is not None:
                    return got
        return None


_EXAMPLES_JAX103 = Examples(Path(__file__).parent / "host_device" / "print_in_traced.py")


# -- JAX103 ----------------------------------------------------------------------------------


class PrintInTraced(_Shared, Rule):
    code = "JAX103"
    name = "print-in-traced"
    message = (
        "`print` in traced `{fn}` prints a tracer, not the value, and only when JAX"
        " traces it: {why}; use `jax.debug.print`"
    )
    fix_availability = "sometimes"
    probe = "jaxlint probe recompile FILE.py:FUNC"
    docs = """\
## What it does
Flags `print(...)` in traced code when it prints a value that is definitely a
tracer, directly or formatted into text (`print(x)`, `print("loss", loss)`,
`print(f"{x:.3f}")`, `print("x=" + str(x))`), under `jax.jit`-like transforms,
`vmap` and lax bodies.

## Why is this bad
`print` is ordinary Python: under `jax.jit` it runs once, while JAX traces the
function, and prints the tracer (`JitTracer<float32[3]>`), not the values; the
compiled function then runs on every call without printing anything. Under `vmap`
it prints a batch tracer on each call. A format spec such as `f"{x:.3f}"` even
raises `TypeError` on a tracer. `jax.debug.print` is staged into the computation
and prints the runtime values on every call.

A `print` of static values only (`print(x.shape)`, `print(x.dtype)`,
`print("compiling")`) is **not** flagged: it runs at trace time, which is usually
what such a print is for (seeing shapes when a function compiles). A `print` under
`jax.grad` alone is not flagged either: the function runs on every call there, and
the tracer shows its concrete primal.

## Example
```python
@jax.jit
def step(w, x):
    loss = jnp.mean((x @ w) ** 2)
    print("loss", loss)
    print(f"w[0]={w[0]:.3f}")
    return loss
```

## Use instead
```python
@jax.jit
def step(w, x):
    loss = jnp.mean((x @ w) ** 2)
    jax.debug.print("loss {}", loss)
    jax.debug.print("w[0]={:.3f}", w[0])
    return loss
```

## Fix safety
Unsafe: the output moves from trace time to run time (printed on every call, and
asynchronously, possibly out of order with other output unless `ordered=True`),
and static values passed as arguments are printed by JAX (`x.shape` shows as a
tuple of arrays). The fix builds a `str.format` string: each positional argument
becomes a `{}` field, joined by spaces as `print` does; string literals are
inlined with their braces escaped; f-string fields keep their conversion and format
spec (`f"{x!r:>8}"` -> `"{!r:>8}"`). Because `jax.debug.print` (JAX 0.12) formats
only when the text before its first field has no braces, such text is passed as an
argument instead (`print("{a}", x)` -> `jax.debug.print("{} {}", "{a}", x)`). No fix
is offered with `sep=`, `end=`, `file=`, `flush=`, `*args`, bytes, nested format
specs (`{x:{w}}`), `{x=}` fields, or text built from a tracer before printing
(`print("x=" + str(x))`, `print("%s" % x)`).

## Verify at runtime
`jaxlint probe recompile FILE.py:FUNC` calls the jitted function once per case
(`--format text` for a readable report): a `print` appears only with the call that
compiled, `jax.debug.print` with every call. tests/test_host_device_runtime.py
checks this on JAX 0.12.
"""
    VALID = [
        _EXAMPLES_JAX103.valid(
            "valid_static_values_print_once_trace.py",
            note="static values print once at trace time, on purpose",
            runs=True,
        ),
        _EXAMPLES_JAX103.valid(
            "valid_printing_after_jitted_call_returned.py",
            note="printing after the jitted call returned",
            runs=True,
        ),
        _EXAMPLES_JAX103.valid(
            "valid_static_arguments_python_values.py",
            note="static arguments are Python values",
            runs=True,
        ),
        _EXAMPLES_JAX103.valid(
            "valid_jax_debug_print_print_inside.py",
            note="jax.debug.print, and print inside a host callback",
            runs=True,
        ),
        _EXAMPLES_JAX103.valid(
            "valid_grad_alone_runs_function_every.py",
            note="grad alone runs the function every call and the primal is concrete",
            runs=True,
        ),
        _EXAMPLES_JAX103.valid(
            "valid_maybe_traced_unknown_function_s.py",
            note="maybe traced: an unknown function's result",
        ),
        _EXAMPLES_JAX103.valid(
            "valid_host_code_array_concrete.py", note="host code: the array is concrete"
        ),
        _EXAMPLES_JAX103.valid(
            "valid_pytree_structure_types_static.py", note="pytree structure and types are static"
        ),
        _EXAMPLES_JAX103.valid(
            "valid_local_function_named_print.py", note="a local function named print"
        ),
    ]
    INVALID = [
        _EXAMPLES_JAX103.invalid(
            "invalid_print_loss_loss.py",
            line=8,
            column=5,
            message_contains="`loss` is traced",
            unsafe_fix=True,
        ),
        _EXAMPLES_JAX103.invalid(
            "invalid_format_spec_tracer_raises_fixed.py",
            unsafe_fix=True,
            raises="TypeError",
            note="a format spec on a tracer raises; the fixed program prints on every call",
        ),
        _EXAMPLES_JAX103.invalid(
            "invalid_literal_braces_escaped_after_first.py",
            unsafe_fix=True,
            note="literal braces: escaped after the first field, an argument before it",
        ),
        _EXAMPLES_JAX103.invalid(
            "invalid_end_has_jax_debug_print.py",
            unsafe_fix=True,
            note="end= has no jax.debug.print equivalent: no fix",
        ),
        _EXAMPLES_JAX103.invalid("invalid_return_x.py", unsafe_fix=True),
        _EXAMPLES_JAX103.invalid(
            "invalid_lax_scan_body_0_0_jnp.py",
            message_contains="traced as a body of `lax.scan`",
            unsafe_fix=True,
        ),
        _EXAMPLES_JAX103.invalid(
            "invalid_vmap_text_built_tracer_fix.py",
            unsafe_fix=True,
            note="vmap; text built from a tracer: no fix",
        ),
        _EXAMPLES_JAX103.invalid("invalid_formatting_tracer.py", note="%-formatting of a tracer"),
    ]

    def visit_Call(self, node: cst.Call) -> None:
        if self.model.call_name(node) != "builtins.print":
            return
        trace = self.ctx.trace
        owner = trace.traced_function_of(node)
        if owner is None or self._tracer_guards:
            return
        traced: Val | None = None
        for arg in node.args:
            if arg.keyword is not None:
                continue
            for operand in _fstring_operands(arg.value):
                val = self._traced_inside(operand)
                if val is not None and trace.is_abstract(val, node):
                    traced = val
                    break
            if traced is not None:
                break
        if traced is None:
            return
        plan = self._debug_print(node)
        fix = None
        if plan is not None:
            spelled = spell(self.model, "jax.debug.print", node.func)
            if spelled is not None:
                text, ops = spelled
                new = f"{text}({', '.join(plan)})"

                def fix() -> list[FixOp]:
                    return [ReplaceNode(node, new), *ops]

        self.report(
            node,
            fn=owner.name,
            why=trace.why(traced),
            fix=fix,
            applicability=Applicability.UNSAFE if fix is not None else None,
            fix_message="Replace with `jax.debug.print`",
        )

    def _debug_print(self, call: cst.Call) -> list[str] | None:
        """The arguments of the equivalent ``jax.debug.print``: the format string, then
        the values. ``None`` when ``print`` uses ``sep``/``end``/``file``/``flush``,
        ``*args``, bytes, or text built from a tracer before printing."""
        pieces: list[tuple[str, str]] = []  # ("lit", text) or ("field", spec, source)
        values: list[str | None] = []
        for i, arg in enumerate(call.args):
            if arg.keyword is not None or arg.star:
                return None
            if i:
                pieces.append(("lit", " "))
                values.append(None)
            v = arg.value
            if isinstance(v, cst.SimpleString):
                text = v.evaluated_value
                if not isinstance(text, str):
                    return None
                pieces.append(("lit", text))
                values.append(None)
            elif isinstance(v, cst.FormattedString):
                got = self._fstring(v)
                if got is None:
                    return None
                for piece, value in got:
                    pieces.append(piece)
                    values.append(value)
            elif isinstance(v, cst.ConcatenatedString):
                return None
            else:
                if self._traced(v) is None and self._traced_inside(v) is not None:
                    return None  # ``str(x)``, ``"%s" % x``: text made from a tracer
                pieces.append(("field", ""))
                values.append(" ".join(self.ctx.code(v).split()))
        # jax.debug.print (0.12) formats only when the text before the first field has
        # no ``{{``/``}}``; such text goes in as an argument instead.
        first_field = next((i for i, p in enumerate(pieces) if p[0] == "field"), len(pieces))
        fmt: list[str] = []
        args: list[str] = []
        for i, ((kind, payload), value) in enumerate(zip(pieces, values, strict=True)):
            if kind == "lit":
                if i < first_field and ("{" in payload or "}" in payload):
                    fmt.append("{}")
                    args.append(_py_str(payload))
                else:
                    fmt.append(payload.replace("{", "{{").replace("}", "}}"))
            else:
                fmt.append("{" + payload + "}")
                assert value is not None
                args.append(value)
        return [_py_str("".join(fmt)), *args]

    def _fstring(self, fs: cst.FormattedString) -> list[tuple[tuple[str, str], str | None]] | None:
        prefix = fs.prefix.lower()
        if "b" in prefix:
            return None
        plain_prefix = prefix.replace("f", "")
        quote = fs.end
        out: list[tuple[tuple[str, str], str | None]] = []
        for part in fs.parts:
            if isinstance(part, cst.FormattedStringText):
                if "\\N{" in part.value:
                    return None
                text = []
                for chunk in _split_braces(part.value):
                    if chunk in ("{{", "}}"):
                        text.append(chunk[0])
                        continue
                    try:
                        value = ast.literal_eval(f"{plain_prefix}{quote}{chunk}{quote}")
                    except (SyntaxError, ValueError):
                        return None
                    if not isinstance(value, str):
                        return None
                    text.append(value)
                out.append((("lit", "".join(text)), None))
            elif isinstance(part, cst.FormattedStringExpression):
                if part.equal is not None:
                    return None
                spec = ""
                if part.conversion:
                    spec += "!" + part.conversion
                if part.format_spec:
                    if not all(isinstance(p, cst.FormattedStringText) for p in part.format_spec):
                        return None  # a nested field: ``{x:{width}}``
                    spec += ":" + "".join(p.value for p in part.format_spec)  # type: ignore[union-attr]
                expr = part.expression
                if self._traced(expr) is None and self._traced_inside(expr) is not None:
                    return None
                out.append((("field", spec), " ".join(self.ctx.code(expr).split())))
            else:
                return None
        return out


def _split_braces(text: str) -> list[str]:
    out: list[str] = []
    i = 0
    start = 0
    while i < len(text):
        if text[i : i + 2] in ("{{", "}}"):
            if i > start:
                out.append(text[start:i])
            out.append(text[i : i + 2])
            i += 2
            start = i
        else:
            i += 1
    if start < len(text):
        out.append(text[start:])
    return out


_EXAMPLES_JAX104 = Examples(Path(__file__).parent / "host_device" / "side_effect_in_traced.py")


# -- JAX104 ----------------------------------------------------------------------------------


class SideEffectInTraced(_Shared, Rule):
    code = "JAX104"
    name = "side-effect-in-traced"
    message = "{what} runs once, when JAX traces `{fn}` ({how}), not on every call{extra}; {hint}"
    fix_availability = "none"
    probe = "jaxlint probe recompile FILE.py:FUNC"
    docs = """\
## What it does
Flags side effects in code traced by a `jit`-like transform (`jax.jit`, `pjit`,
`pmap`, `nnx.jit`, `eqx.filter_jit`, and lax bodies such as `lax.scan`'s):

- `open(...)`;
- a logging call (`logging.info`, `logger.warning` for a `logging.getLogger`
  logger, `absl.logging`) that logs a traced value;
- assigning a `global` or `nonlocal` name a traced value, or one that the function
  also reads (`step += 1` then `lr = base / step`);
- storing a traced value into a list, dict or set defined outside every traced
  function (`cache.append(x)`, `results[k] = x`, `seen.add(x)`);
- `self.attr = ...` in a method jitted with `jax.jit`/`pjit`/`pmap`, in a plain
  class.

## Why is this bad
JAX runs the Python body once, to trace it, and then reuses the compiled
computation for every call with the same shapes: these statements run once, at
trace time, not on every call (and again whenever the function recompiles). A
logged value is a tracer, not a number. A tracer stored outside the function
outlives its trace: using it later raises `UnexpectedTracerError`. A counter
incremented in a jitted method counts compilations, not calls, and a `self`
attribute assigned there holds a tracer. A global the function reads after
updating it is baked into the compiled code with the value it had at trace time.

To stay precise, the rule does not flag: logging of static values at trace time
(`logging.info("compiling for %s", x.shape)` is a common, deliberate pattern);
write-only `global`/`nonlocal` counters (`n += 1`) and appending static values
(shapes, names) to an outside list, which count or record traces on purpose (tests
do this to check how often a function compiles); containers local to the traced
function; `self.x = ...` in
`__init__`, `setup` or `__post_init__`, and in any class deriving from a
framework module (Flax linen and NNX modules, whose state updates `nnx.jit`
propagates, Equinox, Haiku) or from a class the module cannot see; functions
traced only by `grad` or `vmap`, which run their Python body on every call.

## Example
```python
steps = 0
history = []


@jax.jit
def step(w, x):
    global steps
    steps += 1
    lr = 0.1 / steps
    loss = jnp.sum((w - x) ** 2)
    history.append(loss)
    logger.info("loss %s", loss)
    return w - lr * x
```

## Use instead
```python
@jax.jit
def step(w, x, steps):
    lr = 0.1 / steps
    loss = jnp.sum((w - x) ** 2)
    jax.debug.print("loss {}", loss)
    return w - lr * x, loss


for x in batches:
    steps += 1
    w, loss = step(w, x, steps)
    history.append(loss)
```

## Fix safety
No fix: the value has to be returned from the traced function (or the effect moved
into `jax.debug.callback`), which changes the function's interface.

## Verify at runtime
`jaxlint probe recompile FILE.py:FUNC` calls the function once per case and shows
which calls compiled (`--format text` for a readable report): the side effect
happens with those calls only. tests/test_host_device_runtime.py checks this on JAX 0.12: a `global`
counter in a jitted function counts one after three calls, a global read after the
update keeps its trace-time value, and a tracer appended to an outside list raises
`UnexpectedTracerError` when used.
"""
    VALID = [
        _EXAMPLES_JAX104.valid("valid_self_x_init.py", note="self.x = ... in __init__", runs=True),
        _EXAMPLES_JAX104.valid(
            "valid_nnx_modules_nnx_jit_propagates.py",
            note="NNX modules: nnx.jit propagates state updates",
        ),
        _EXAMPLES_JAX104.valid(
            "valid_linen_modules_assign_submodules_setup.py",
            note="linen modules assign submodules in setup",
        ),
        _EXAMPLES_JAX104.valid(
            "valid_trace_time_logging_static_values.py",
            note="trace-time logging of static values; logging in host code",
            runs=True,
        ),
        _EXAMPLES_JAX104.valid(
            "valid_containers_local_traced_function.py",
            note="containers local to the traced function",
            runs=True,
        ),
        _EXAMPLES_JAX104.valid(
            "valid_recording_static_values_per_trace.py",
            note="recording static values per trace is deliberate",
            runs=True,
        ),
        _EXAMPLES_JAX104.valid(
            "valid_file_i_o_host_callback.py",
            note="file I/O in a host callback and in host code",
            runs=True,
        ),
        _EXAMPLES_JAX104.valid(
            "valid_grad_alone_runs_python_body.py",
            note="grad alone runs the Python body on every call",
            runs=True,
        ),
        _EXAMPLES_JAX104.valid(
            "valid_base_class_elsewhere_may_framework.py",
            note="a base class from elsewhere may be a framework module",
        ),
        _EXAMPLES_JAX104.valid(
            "valid_global_assignment_host_code.py", note="global assignment in host code"
        ),
        _EXAMPLES_JAX104.valid(
            "valid_write_only_counter_counts_traces.py",
            note="a write-only counter counts traces, as tests do on purpose",
            runs=True,
        ),
    ]
    INVALID = [
        _EXAMPLES_JAX104.invalid(
            "invalid_open_log_txt_fh.py",
            line=6,
            column=10,
            message_contains="`open('log.txt', 'a')` runs once, when JAX traces `f` (jitted by `jax.jit` at line 4)",
        ),
        _EXAMPLES_JAX104.invalid(
            "invalid_logger_info_loss_s_loss.py", line=11, message_contains="it logs a tracer"
        ),
        _EXAMPLES_JAX104.invalid(
            "invalid_step_1.py",
            line=10,
            column=5,
            message_contains="assigning global `step` runs once, when JAX traces `update`"
            " (jitted by `jax.jit` at line 7), not on every call, and `update` uses the value",
        ),
        _EXAMPLES_JAX104.invalid(
            "invalid_tracer_stored_closure_variable.py",
            message_contains="assigning nonlocal `last`",
            note="a tracer stored in a closure variable",
        ),
        _EXAMPLES_JAX104.invalid(
            "invalid_leaked_append_x_2.py",
            line=9,
            message_contains="the stored tracer escapes the trace",
            raises="UnexpectedTracerError",
        ),
        _EXAMPLES_JAX104.invalid(
            "invalid_return_lax_scan_body_0_0.py", message_contains="storing into `seen`"
        ),
        _EXAMPLES_JAX104.invalid(
            "invalid_assert_m_calls_1.py",
            count=2,
            message_contains="`self.calls = ...` in jitted method `apply`",
        ),
        _EXAMPLES_JAX104.invalid(
            "invalid_f_string_formats_tracer.py", note="an f-string formats the tracer"
        ),
    ]

    def __init__(self, ctx) -> None:  # type: ignore[no-untyped-def]
        super().__init__(ctx)
        self._classes: list[cst.ClassDef] = []

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self._classes.append(node)

    def leave_ClassDef(self, node: cst.ClassDef) -> None:
        self._classes.pop()

    def _owner(self, node: cst.CSTNode) -> TracedFunction | None:
        owner = self.ctx.trace.traced_function_of(node)
        return owner if owner is not None and owner.staging else None

    def _emit(
        self, node: cst.CSTNode, owner: TracedFunction, what: str, hint: str, extra: str = ""
    ) -> None:
        self.report(
            node,
            what=what,
            fn=owner.name,
            how=owner.how(self.ctx.trace.line_of),
            extra=extra,
            hint=hint,
        )

    # calls: open, logging, container mutators ---------------------------------------------

    def visit_Call(self, node: cst.Call) -> None:
        qn = self.model.call_name(node)
        func = node.func
        if qn is None and not isinstance(func, cst.Attribute):
            return
        owner = self._owner(node)
        if owner is None:
            return
        code = self.ctx.code
        shown = _short_code(code(node), code(func), limit=40)
        if qn in ("builtins.open", "io.open", "pathlib.Path.open"):
            self._emit(
                node,
                owner,
                f"`{shown}`",
                "do file I/O outside the traced function, or in `jax.debug.callback`",
            )
            return
        if self._is_logging(node, qn):
            for arg in node.args:
                if self._traced_inside(arg.value) is not None:
                    self._emit(
                        node,
                        owner,
                        f"`{shown}`",
                        "it logs a tracer, not the value; use `jax.debug.print` or log"
                        " outside the traced function",
                    )
                    return
            return
        if (
            isinstance(func, cst.Attribute)
            and func.attr.value in _MUTATORS
            and isinstance(func.value, cst.Name)
        ):
            outside = self._outside_container(func.value, owner)
            if outside is None:
                return
            for arg in node.args:
                if self._traced_inside(arg.value) is not None:
                    self._emit(
                        node,
                        owner,
                        f"`{shown}` on `{func.value.value}` (defined outside `{owner.name}`)",
                        "return the values instead",
                        extra=", and the stored tracer escapes the trace",
                    )
                    return

    def _is_logging(self, node: cst.Call, qn: str | None) -> bool:
        if qn is not None:
            return qn.startswith(_LOGGING_MODULES) and qn.rsplit(".", 1)[-1] in _LOG_METHODS
        func = node.func
        if not (
            isinstance(func, cst.Attribute)
            and func.attr.value in _LOG_METHODS
            and isinstance(func.value, cst.Name)
        ):
            return False
        found = self.model.lookup(func.value.value, self.model.scope_for(func.value))
        if found is None:
            return False
        for binding in found[1]:
            value = self._value_of_binding(binding.node) if binding.kind == "assign" else None
            if not isinstance(value, cst.Call):
                return False
            vq = self.model.call_name(value)
            if vq not in ("logging.getLogger", "absl.logging.get_absl_logger"):
                return False
        return True

    def _outside_container(self, name: cst.Name, owner: TracedFunction) -> Scope | None:
        """The scope defining ``name`` as a list/dict/set, when it is outside every
        traced function (module level or a host function)."""
        found = self.model.lookup(name.value, self.model.scope_for(name))
        if found is None:
            return None
        scope, bindings = found
        trace = self.ctx.trace
        s: Scope | None = scope
        while s is not None:
            if s.kind in ("function", "lambda") and trace.info(s.node) is not None:
                return None
            if s.kind == "class":
                return None
            s = s.parent
        for binding in bindings:
            if binding.kind != "assign":
                return None
            value = self._value_of_binding(binding.node)
            if value is None:
                return None
            if isinstance(
                value, (cst.List, cst.Dict, cst.Set, cst.ListComp, cst.DictComp, cst.SetComp)
            ):
                continue
            if isinstance(value, cst.Call) and self.model.call_name(value) in _CONTAINER_CALLS:
                continue
            return None
        return scope

    # assignments: global/nonlocal names, outside containers, self attributes ----------------

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            self._assignment(node, target.target, node.value)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._assignment(node, node.target, node.value)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if node.value is not None:
            self._assignment(node, node.target, node.value)

    def _assignment(
        self, stmt: cst.CSTNode, target: cst.BaseExpression, value: cst.BaseExpression
    ) -> None:
        owner = self._owner(stmt)
        if owner is None:
            return
        fn = owner.node
        if isinstance(target, (cst.Tuple, cst.List)):
            for el in target.elements:
                self._assignment(stmt, el.value, value)
            return
        if isinstance(target, cst.StarredElement):
            target = target.value
        if isinstance(target, cst.Name):
            scope = self.model.scope_of_node.get(id(fn))
            if scope is None:
                return
            if target.value in scope.global_names or target.value in scope.nonlocal_names:
                kind = "global" if target.value in scope.global_names else "nonlocal"
                if self._traced_inside(value) is not None:
                    self._emit(
                        target,
                        owner,
                        f"assigning {kind} `{target.value}`",
                        "return the value from the traced function instead",
                        extra=", and the stored tracer escapes the trace",
                    )
                elif self._read_elsewhere(fn, target):
                    self._emit(
                        target,
                        owner,
                        f"assigning {kind} `{target.value}`",
                        "pass the value as an argument (or return it) instead",
                        extra=f", and `{owner.name}` uses the value it had then",
                    )
            return
        if isinstance(target, cst.Subscript) and isinstance(target.value, cst.Name):
            if self._outside_container(target.value, owner) is None:
                return
            if self._traced_inside(value) is None:
                return
            self._emit(
                target,
                owner,
                f"storing into `{target.value.value}` (defined outside `{owner.name}`)",
                "return the values instead",
                extra=", and the stored tracer escapes the trace",
            )
            return
        if isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name):
            self._self_attribute(target, owner)

    def _read_elsewhere(self, fn: cst.FunctionDef | cst.Lambda, target: cst.Name) -> bool:
        """``fn`` reads the global/nonlocal ``target`` outside its own assignments
        (``lr = base / step``); a write-only counter (``n += 1``) only counts traces."""
        stores: set[int] = set()
        loads: list[cst.Name] = []
        for node in _walk(fn.body):
            if isinstance(node, cst.Assign):
                names = [
                    n for t in node.targets for n in _walk(t.target) if isinstance(n, cst.Name)
                ]
                stores.update(id(n) for n in names)
                if any(n.value == target.value for n in names):
                    # ``n = n + 1`` updates the counter like ``n += 1``
                    stores.update(id(n) for n in _walk(node.value) if isinstance(n, cst.Name))
            elif isinstance(node, (cst.AugAssign, cst.AnnAssign)):
                if isinstance(node.target, cst.Name):
                    stores.add(id(node.target))
            elif isinstance(node, (cst.Global, cst.Nonlocal)):
                stores.update(id(item.name) for item in node.names)
            elif isinstance(node, cst.Name) and node.value == target.value:
                loads.append(node)
        return any(id(n) not in stores for n in loads)

    def _self_attribute(self, target: cst.Attribute, owner: TracedFunction) -> None:
        fn = owner.node
        if not isinstance(fn, cst.FunctionDef) or not self._classes:
            return
        cls = self._classes[-1]
        if not any(stmt is fn for stmt in cls.body.body):
            return
        params = [*fn.params.posonly_params, *fn.params.params]
        if not params or params[0].name.value != target.value.value:  # type: ignore[attr-defined]
            return
        if not owner.transforms & _JIT_LIKE:
            return
        if fn.name.value in ("__init__", "__post_init__", "setup"):
            return
        if not self._plain_class(cls, set()):
            return
        self._emit(
            target,
            owner,
            f"`{self.ctx.code(target)} = ...` in jitted method `{fn.name.value}`",
            "return the new state from the method instead",
        )

    def _plain_class(self, cls: cst.ClassDef, seen: set[int]) -> bool:
        """No bases, or only ``object`` and plain classes of this module: no framework
        (Flax, Equinox, Haiku) gives ``self.x = ...`` a meaning under a transform."""
        if id(cls) in seen:
            return False
        seen.add(id(cls))
        if cls.keywords:
            return False
        for base in cls.bases:
            value = base.value
            qn = self.model.qualified_name(value)
            if qn == "builtins.object":
                continue
            if qn is not None and qn.startswith(_MODULE_BASES):
                return False
            if not isinstance(value, cst.Name):
                return False
            found = self.model.lookup(value.value, self.model.scope_for(value))
            if found is None:
                return False
            bindings = found[1]
            if len(bindings) != 1 or not isinstance(bindings[0].node, cst.ClassDef):
                return False
            if not self._plain_class(bindings[0].node, seen):
                return False
        return True


_EXAMPLES_JAX105 = Examples(Path(__file__).parent / "host_device" / "unsynchronized_timing.py")


# -- JAX105 ----------------------------------------------------------------------------------


class UnsynchronizedTiming(_Shared, Rule):
    code = "JAX105"
    name = "unsynchronized-timing"
    message = (
        "`{clock}` reads the clock while `{work}` may still be running: JAX dispatches"
        " asynchronously; call `jax.block_until_ready` on the result before reading the"
        " clock"
    )
    fix_availability = "sometimes"
    probe = "jaxlint probe bench FILE.py:FUNC --jit"
    docs = """\
## What it does
Flags, in host code, a pair of clock reads (`time.time()`, `time.perf_counter()`,
`time.monotonic()`, their `_ns` variants, `timeit.default_timer()`) in the same
block around a call of a jitted function or a JAX operation, when nothing between
them waits for the result: no `.block_until_ready()`, no
`jax.block_until_ready(...)`, no `jax.device_get`, and no host conversion of a JAX
array (`float(x)`, `x.item()`, `np.asarray(x)`, `print(x)`). The finding is on the
second clock read. The first read must be an assignment (`start = time.time()`),
and the second must be a statement of the same block (a read nested in a later
loop or branch logs the time since start).

Anything that may wait counts as synchronisation, to stay precise:
`block_until_ready` called or passed as a function
(`jax.tree_util.tree_map(lambda x: x.block_until_ready(), metrics)`), a log call,
`assert`, `if` or `while` on a JAX array. Making arrays from Python values
(`jnp.array(0.0)`, `jax.random.key(0)`) is not counted as timed work, nor is a
jitted function that returns nothing or only returns its arguments (a
dispatch-overhead benchmark).

## Why is this bad
JAX dispatches asynchronously: a jitted call (or `jnp` operation) returns as soon as
the work is queued, long before the device has finished. The second clock read
then measures dispatch time, often microseconds, and the real cost shows up
wherever the program next waits for a result. Benchmarks and profiling logs built
this way are wrong, sometimes by orders of magnitude.

## Example
```python
start = time.perf_counter()
out = step(params, batch)
elapsed = time.perf_counter() - start
```

## Use instead
```python
start = time.perf_counter()
out = step(params, batch)
jax.block_until_ready(out)
elapsed = time.perf_counter() - start
```
Time a warmed-up call (the first call also compiles), or use
`jaxlint probe bench FILE.py:FUNC --jit`.

## Fix safety
Unsafe: inserts `jax.block_until_ready(<results>)` on its own line before the
second clock read (indented like it, with the file's newline), blocking on every
name bound to a device result since the last synchronisation
(`jax.block_until_ready((state, loss))` for several), or wraps a bare call
statement (`f(x)` -> `jax.block_until_ready(f(x))`); `import jax` is added when
the module lacks it. The timing now includes the device work, which is the
point, but the program also waits there. When a result is bound inside a loop,
the name is used after the loop (it is unbound if the loop never ran). No fix when
the second clock read follows another statement on its line (`a = 1; t1 = ...`),
or when results are not bound to plain names.

## Verify at runtime
`jaxlint probe bench FILE.py:FUNC --jit` times the function with its outputs
synchronised inside the timer (and the first, compiling call reported apart);
compare with your measurement.
"""
    VALID = [
        _EXAMPLES_JAX105.valid(
            "valid_blocked_method.py", note="blocked with the method", runs=True
        ),
        _EXAMPLES_JAX105.valid(
            "valid_jax_block_until_ready_also.py",
            note="jax.block_until_ready, also after a loop",
            runs=True,
        ),
        _EXAMPLES_JAX105.valid(
            "valid_host_conversion_waits_result.py",
            note="a host conversion waits for the result",
            runs=True,
        ),
        _EXAMPLES_JAX105.valid(
            "valid_blocked_same_statement.py", note="blocked in the same statement", runs=True
        ),
        _EXAMPLES_JAX105.valid(
            "valid_jax_work_between_clock_reads.py", note="no JAX work between the clock reads"
        ),
        _EXAMPLES_JAX105.valid(
            "valid_device_work_happens_before_timer.py",
            note="the device work happens before the timer starts",
            runs=True,
        ),
        _EXAMPLES_JAX105.valid(
            "valid_clock_reads_traced_code_different.py",
            note="clock reads in traced code are a different problem (they run at trace time)",
        ),
        _EXAMPLES_JAX105.valid(
            "valid_timed_call_known_jax.py", note="the timed call is not known to be JAX"
        ),
        _EXAMPLES_JAX105.valid(
            "valid_arrays_made_python_values_jitted.py",
            note="arrays made from Python values, and a jitted function returning None",
            runs=True,
        ),
        _EXAMPLES_JAX105.valid(
            "valid_jitted_function_only_returns_arguments.py",
            note="a jitted function that only returns its arguments: a dispatch-overhead benchmark",
            runs=True,
        ),
        _EXAMPLES_JAX105.valid(
            "valid_blocking_through_tree_map_lambda.py",
            note="blocking through a tree_map lambda; logging and asserting on the array;"
            " a clock read nested in a later loop",
            runs=True,
        ),
    ]
    INVALID = [
        _EXAMPLES_JAX105.invalid(
            "invalid_t1_time_perf_counter.py",
            line=14,
            column=6,
            message_contains="`time.perf_counter()` reads the clock while `f(x)` may still be running",
            unsafe_fix=True,
        ),
        _EXAMPLES_JAX105.invalid(
            "invalid_print_step_took_time_time_start.py", line=11, column=28, unsafe_fix=True
        ),
        _EXAMPLES_JAX105.invalid(
            "invalid_loop_jnp_ops_import_jax.py",
            unsafe_fix=True,
            note="a loop of jnp ops; import jax added",
        ),
        _EXAMPLES_JAX105.invalid(
            "invalid_bare_call_statement_gets_wrapped.py",
            unsafe_fix=True,
            note="a bare call statement gets wrapped",
        ),
        _EXAMPLES_JAX105.invalid("invalid_crlf_kept.py", unsafe_fix=True, note="CRLF kept"),
        _EXAMPLES_JAX105.invalid(
            "invalid_only_work_after_last_sync.py",
            unsafe_fix=True,
            message_contains="`f(y)`",
            note="only the work after the last sync (float(y)) is pending",
        ),
        _EXAMPLES_JAX105.invalid(
            "invalid_self_attribute_bound_jax_jit.py",
            unsafe_fix=True,
            note="a self attribute bound to jax.jit; the result inside a with block",
        ),
    ]

    def visit_Module(self, node: cst.Module) -> None:
        self._block(node.body)

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        self._block(node.body)

    def _units(self, body: Sequence[cst.CSTNode]) -> list[tuple[cst.CSTNode, bool]]:
        """Small statements and compound statements in order; the flag tells a small
        statement that starts its line (where a new line can go before it)."""
        out: list[tuple[cst.CSTNode, bool]] = []
        for stmt in body:
            if isinstance(stmt, cst.SimpleStatementLine):
                for i, small in enumerate(stmt.body):
                    out.append((small, i == 0))
            else:
                out.append((stmt, False))
        return out

    def _clock_call(self, unit: cst.CSTNode) -> cst.Call | None:
        for node in _walk(unit):
            if isinstance(node, cst.Call) and self.model.call_name(node) in _CLOCKS:
                return node
        return None

    def _starts_timer(self, unit: cst.CSTNode) -> bool:
        return (
            isinstance(unit, cst.Assign)
            and len(unit.targets) == 1
            and isinstance(unit.targets[0].target, cst.Name)
            and isinstance(unit.value, cst.Call)
            and self.model.call_name(unit.value) in _CLOCKS
        )

    def _block(self, body: Sequence[cst.CSTNode]) -> None:
        units = self._units(body)
        starts = [i for i, (unit, _) in enumerate(units[:-2]) if self._starts_timer(unit)]
        if not starts:
            return
        if self.ctx.trace.traced_function_of(units[0][0]) is not None:
            return
        for i in starts:
            for j in range(i + 1, len(units)):
                clock = self._clock_call(units[j][0])
                if clock is None:
                    continue
                if not isinstance(units[j][0], cst.BaseCompoundStatement):
                    # a clock read nested in a later loop or branch is a log of the
                    # time since start, not the end of this measurement
                    self._check_pair(units[i + 1 : j], units[j], clock)
                break

    def _device_calls(self, unit: cst.CSTNode) -> list[cst.BaseExpression]:
        """Device work the unit dispatches: calls of jitted (or vmapped...) functions,
        and JAX operations on JAX arrays (``jnp.dot(a, b)``, ``a @ b``). Making an
        array from Python values (``jnp.array(0.0)``, ``jax.random.key(0)``) is not
        counted: it is cheap and usually not what is being timed."""
        trace = self.ctx.trace
        out: list[cst.BaseExpression] = []
        for node in _walk(unit):
            if isinstance(node, cst.Call):
                val = trace.value(node)
                if val is None or not val.array:
                    continue
                qn = self.model.call_name(node)
                if qn is not None and qn.startswith(ARRAY_MODULES):
                    if not any(self._is_array(a.value) for a in node.args):
                        continue
                elif self._passes_through(node):
                    continue
                out.append(node)
            elif isinstance(node, cst.BinaryOperation):
                if self._is_array(node.left) or self._is_array(node.right):
                    out.append(node)
        return out

    def _passes_through(self, call: cst.Call) -> bool:
        """``call`` calls a function of this module whose body only returns some of its
        parameters (``return graphdef, state``): nothing runs on the device, and timing
        it measures the dispatch overhead on purpose."""
        if not isinstance(call.func, cst.Name):
            return False
        found = self.model.lookup(call.func.value, self.model.scope_for(call.func))
        if found is None or len(found[1]) != 1:
            return False
        fn = found[1][0].node
        if not isinstance(fn, cst.FunctionDef) or not isinstance(fn.body, cst.IndentedBlock):
            return False
        params = {p.name.value for p in (*fn.params.posonly_params, *fn.params.params)}
        for stmt in fn.body.body:
            if not isinstance(stmt, cst.SimpleStatementLine):
                return False
            for small in stmt.body:
                if isinstance(small, cst.Pass):
                    continue
                if isinstance(small, cst.Expr) and isinstance(small.value, cst.SimpleString):
                    continue  # docstring
                if isinstance(small, cst.Return):
                    value = small.value
                    items = value.elements if isinstance(value, cst.Tuple) else [value]
                    if all(
                        isinstance(getattr(el, "value", el), cst.Name)
                        and getattr(el, "value", el).value in params  # type: ignore[union-attr]
                        for el in items
                    ):
                        continue
                return False
        return True

    def _is_array(self, expr: cst.BaseExpression) -> bool:
        val = self.ctx.trace.value(expr)
        return val is not None and val.array and not val.container

    def _syncs(self, unit: cst.CSTNode) -> bool:
        """The unit may wait for device work (generous, to stay precise):
        ``block_until_ready`` or ``jax.device_get``, called or passed as a function
        (``tree_map(lambda x: x.block_until_ready(), out)``), or a host conversion,
        log call, ``assert`` or ``if``/``while`` test on a JAX array."""
        if isinstance(unit, (cst.FunctionDef, cst.ClassDef)):
            return False
        trace = self.ctx.trace

        def is_array_in(expr: cst.CSTNode) -> bool:
            for inner in _walk(expr):
                val = trace.value(inner)
                if val is not None and val.array:
                    return True
            return False

        for node in _walk_all(unit):
            if isinstance(node, cst.Attribute) and node.attr.value == "block_until_ready":
                return True
            if isinstance(node, (cst.Name, cst.Attribute)):
                if self.model.qualified_name(node) in ("jax.block_until_ready", "jax.device_get"):
                    return True
            if isinstance(node, (cst.Assert, cst.If, cst.While)) and is_array_in(node.test):
                return True
            if not isinstance(node, cst.Call):
                continue
            operands = _host_sync_operands(self.model, node)
            func = node.func
            if operands is None and (
                isinstance(func, cst.Attribute) and func.attr.value in _LOG_METHODS
            ):
                operands = [a.value for a in node.args]
            if any(is_array_in(op) for op in operands or ()):
                return True
        return False

    def _check_pair(
        self,
        between: list[tuple[cst.CSTNode, bool]],
        end: tuple[cst.CSTNode, bool],
        clock: cst.Call,
    ) -> None:
        last_sync = -1
        for k, (unit, _) in enumerate(between):
            if self._syncs(unit):
                last_sync = k
        pending = [(unit, self._device_calls(unit)) for unit, _ in between[last_sync + 1 :]]
        pending = [(unit, calls) for unit, calls in pending if calls]
        if not pending:
            return
        work = pending[-1][1][0]
        code = self.ctx.code
        fix_plan = self._fix_plan(pending, end)
        fix = None
        if fix_plan is not None:
            spelled = spell(self.model, "jax.block_until_ready", clock.func)
            if spelled is not None:
                fn_text, ops = spelled
                fix = self._make_fix(fix_plan, end, fn_text, ops)
        self.report(
            clock,
            clock=code(clock),
            work=_short_code(code(work), code(work.func) if isinstance(work, cst.Call) else "..."),
            fix=fix,
            applicability=Applicability.UNSAFE if fix is not None else None,
            fix_message="Insert `jax.block_until_ready(...)` before the clock read",
        )

    def _fix_plan(
        self, pending: list[tuple[cst.CSTNode, list[cst.Call]]], end: tuple[cst.CSTNode, bool]
    ) -> tuple[list[str], list[cst.Call]] | None:
        """Names to block on before the end clock, and bare calls to wrap."""
        if not end[1]:
            return None
        names: list[str] = []
        wrap: list[cst.Call] = []
        for unit, _calls in pending:
            got = self._result_names(unit)
            if got is None:
                if (
                    isinstance(unit, cst.Expr)
                    and isinstance(unit.value, cst.Call)
                    and any(c is unit.value for c in _calls)
                ):
                    wrap.append(unit.value)
                    continue
                return None
            for name in got:
                if name not in names:
                    names.append(name)
        if not names and not wrap:
            return None
        return names, wrap

    def _result_names(self, unit: cst.CSTNode) -> list[str] | None:
        """Names a unit binds to device results: ``out = f(x)``, ``a, b = f(x)``, and
        the same inside a ``for``/``while``/``with`` body."""
        if isinstance(unit, (cst.Assign, cst.AugAssign, cst.AnnAssign)):
            targets = (
                [t.target for t in unit.targets] if isinstance(unit, cst.Assign) else [unit.target]
            )
            names: list[str] = []
            for target in targets:
                got = _assigned_names(target)
                if got is None:
                    return None
                names.extend(got)
            return names
        if isinstance(unit, (cst.For, cst.While, cst.With)):
            names = []
            for inner, _ in self._units(unit.body.body):  # type: ignore[arg-type]
                if not self._device_calls(inner):
                    continue
                got = self._result_names(inner)
                if got is None:
                    return None
                names.extend(n for n in got if n not in names)
            return names or None
        return None

    def _make_fix(
        self,
        plan: tuple[list[str], list[cst.Call]],
        end: tuple[cst.CSTNode, bool],
        fn_text: str,
        ops: list[FixOp],
    ):  # type: ignore[no-untyped-def]
        names, wrap = plan
        unit = end[0]
        ctx = self.ctx

        def fix() -> list[FixOp]:
            out: list[FixOp] = list(ops)
            for call in wrap:
                out.append(ReplaceNode(call, f"{fn_text}({ctx.code(call)})"))
            if names:
                arg = names[0] if len(names) == 1 else "(" + ", ".join(names) + ")"
                newline = ctx.module.default_newline
                indent = ctx.line_indent(unit)
                # the statement as written, without a trailing ``;`` (outside its range)
                bare = unit.with_changes(semicolon=cst.MaybeSentinel.DEFAULT)  # type: ignore[attr-defined]
                original = ctx.module.code_for_node(bare)
                out.append(ReplaceNode(unit, f"{fn_text}({arg}){newline}{indent}{original}"))
            return out

        return fix
