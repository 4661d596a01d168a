"""JAX101's fix and report: a NumPy call on a tracer becomes its ``jax.numpy`` twin, with
the NumPy calls nested in it or around it, and the message's hint says what to use
instead (a mixin of ``HostConversionOfTracer``, which holds ``model``, ``ctx``,
``_traced`` and ``_numpy_parent``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import libcst as cst

from jaxlint.analysis.host_rng import seeds_host_rng
from jaxlint.analysis.transforms import NUMPY_ARRAY_METHODS
from jaxlint.diagnostics import Applicability
from jaxlint.fixers.spelling import spell
from jaxlint.rules.base import FixOp, ReplaceNode
from jaxlint.rules.host_device.helpers import NUMPY_ACCEPTS_TRACERS, short_code, walk

if TYPE_CHECKING:
    from jaxlint.analysis.names import SemanticModel
    from jaxlint.analysis.tracing import Val

# The tables below were checked on jax 0.12.0.1 (CPU) by calling each NumPy function
# on a tracer inside ``jax.jit``.

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
_NUMPY_ONLY_KEYWORDS = frozenset({"out", "like", "subok", "casting", "where", "order", "newshape"})


# ``math`` functions with a ``jax.numpy`` twin of the same name (for the hint only:
# ``math.floor`` returns an int, ``jnp.floor`` an array, so no fix).
_MATH_TWINS = frozenset(
    "acos acosh asin asinh atan atan2 atanh cbrt ceil copysign cos cosh degrees exp exp2"
    " expm1 fabs floor fmod frexp hypot isclose isfinite isinf isnan ldexp log log10"
    " log1p log2 modf pow radians remainder sin sinh sqrt tan tanh trunc".split()
)


class NumpyFix:
    model: SemanticModel
    _numpy_parent: dict[int, cst.Call]
    _traced: Any
    """``Shared._traced``: the value of an expression when it is surely a tracer."""
    ctx: Any
    report: Any

    def _twin(self, call: cst.Call, rel: str) -> tuple[str, list[FixOp]] | None:
        """The ``jax.numpy`` spelling of ``numpy.<rel>`` at ``call`` and its imports, when
        the twin takes the same arguments."""
        positional = [a for a in call.args if a.keyword is None]
        keywords = {a.keyword.value for a in call.args if a.keyword is not None}
        if (
            (rel not in JNP_TWINS and "numpy." + rel not in NUMPY_ARRAY_METHODS)
            or keywords & _NUMPY_ONLY_KEYWORDS
            or (rel == "where" and len(positional) < 3)
        ):
            return None
        return spell(self.model, "jax.numpy." + rel, call.func)

    def _nest_fix(self, node: cst.Call, ops: list[FixOp]) -> list[FixOp]:
        """``ops`` plus the conversion of the NumPy calls nested in ``node``'s arguments
        that take a tracer (``np.sqrt(np.mean(x))``: ``np.mean`` of a tracer works, but
        ``jnp.sqrt(np.mean(x))`` would be half converted) and of the NumPy calls that
        take ``node`` as their first argument, out to the first that is not one. No fix
        when one of them cannot be spelled."""
        nested: list[cst.Call] = []
        for inner in walk(node):
            if inner is node or not isinstance(inner, cst.Call):
                continue
            qn = self.model.call_name(inner)
            if qn is None or not qn.startswith("numpy."):
                continue
            positional = [a.value for a in inner.args if a.keyword is None and not a.star]
            if qn in NUMPY_ARRAY_METHODS:
                first = self._traced(positional[0]) if positional else None
                if first is not None and not first.container:
                    nested.append(inner)
            elif qn not in NUMPY_ACCEPTS_TRACERS and any(
                self._traced(a.value) is not None for a in inner.args
            ):
                nested.append(inner)
        current: cst.CSTNode = node
        while id(current) in self._numpy_parent:
            current = self._numpy_parent[id(current)]
            nested.append(current)  # type: ignore[arg-type]
        for call in nested:
            qn = self.model.call_name(call) or ""
            spelled = self._twin(call, qn[len("numpy.") :])
            if spelled is None:
                return []
            text, more = spelled
            ops.append(ReplaceNode(call.func, text))
            ops.extend(op for op in more if op not in ops)
        return ops

    def _report(
        self, node: cst.Call, kind: str, qn: str, operand: cst.BaseExpression, val: Val
    ) -> None:
        code = self.ctx.code
        call = short_code(code(node), code(node.func))
        arg = " ".join(code(operand).split())
        fix = None
        fix_message = None
        if kind == "numpy":
            rel = qn[len("numpy.") :]
            twin = "jax.numpy." + rel
            spelled = self._twin(node, rel)
            shown = spelled[0] if spelled else twin.replace("jax.numpy.", "jnp.")
            if rel in JNP_TWINS:
                hint = f"use `{shown}`, which stays on device"
            else:
                hint = "use a `jax.numpy` function, or call NumPy outside the traced function"
            fn = self.ctx.trace.traced_function_of(node)
            if seeds_host_rng(self.model, node, fn.node if fn is not None else None):
                # a generator needs a concrete seed: ``jnp.asarray`` would hand it a tracer
                spelled = None
                hint = (
                    "a NumPy generator needs a concrete seed: draw with `jax.random` from the"
                    " key instead, or make the generator outside the traced function"
                )
            if spelled is not None:
                text, ops = spelled

                def fix() -> list[FixOp]:
                    return self._nest_fix(node, [ReplaceNode(node.func, text), *ops])

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
