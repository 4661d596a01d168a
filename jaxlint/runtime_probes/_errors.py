"""Describe an exception from the user's code: class, message, user line, predicting rule.

The class names checked here are JAX's public error classes (``jax.errors.*``,
verified on jax 0.12.0.1); they are matched by name and module so that this
module never imports JAX.
"""

from __future__ import annotations

import linecache
import os
import sys
import sysconfig
import traceback
from typing import Any

# A JAX error class -> the jaxlint rule that predicts it statically.
RULE_FOR_JAX_ERROR = {
    "TracerBoolConversionError": "JAX201",  # `if x > 0:` on a traced value
    "TracerArrayConversionError": "JAX101",  # np.asarray(tracer)
    "TracerIntegerConversionError": "JAX101",  # range(tracer), list[tracer]
    "NonConcreteBooleanIndexError": "JAX203",  # x[x > 0] under jit
    "KeyReuseError": "JAX301",  # a PRNG key consumed twice
}

# Second-line texts of ConcretizationTypeError that are about a shape or size.
_SHAPE_HINTS = (
    "jnp.arange",
    "size argument",
    "jnp.unique",
    "nonzero",
    "shape",
    "dimension",
)
# ... and those that are a host conversion (float(x), x.item(), ...).
_HOST_HINTS = (
    "the `float` function",
    "the `int` function",
    "the `complex` function",
    "the `bool` function",
    "item() method",
    "tolist() method",
)


def _is_jax_class(cls: type) -> bool:
    return cls.__module__.split(".")[0] in ("jax", "jaxlib")


def class_name(exc: BaseException) -> str:
    cls = type(exc)
    if cls.__module__ == "builtins":
        return cls.__qualname__
    return f"{cls.__module__}.{cls.__qualname__}"


def predicted_rule(exc: BaseException) -> str | None:
    """The jaxlint rule that predicts this exception, or None."""
    message = str(exc)
    detail = "\n".join(message.splitlines()[1:])
    for cls in type(exc).__mro__:
        if not _is_jax_class(cls):
            continue
        if cls.__name__ in RULE_FOR_JAX_ERROR:
            return RULE_FOR_JAX_ERROR[cls.__name__]
        if cls.__name__ == "ConcretizationTypeError":
            if any(h in detail for h in _HOST_HINTS):
                return "JAX101"
            if any(h in detail for h in _SHAPE_HINTS):
                return "JAX203"
            return None
    if isinstance(exc, TypeError) and message.startswith("Shapes must be 1D sequences of concrete"):
        return "JAX203"  # jnp.zeros(n) with a traced n
    if isinstance(exc, IndexError) and "slice indices must have static" in message:
        return "JAX203"  # x[:n] with a traced n
    if (
        isinstance(exc, ValueError)
        and message.startswith("The truth value of an array with more than one element")
        and _raised_in_jax(exc)
    ):
        return "JAX201"  # `if x > 0:` on a traced array of more than one element
    return None


def _package_dirs() -> tuple[str, ...]:
    dirs: list[str] = []
    for name in ("jax", "jaxlib", "numpy", "ml_dtypes", "scipy", "opt_einsum", "jaxlint"):
        module = sys.modules.get(name)  # a frame of a package means it was imported
        file = getattr(module, "__file__", None)
        if file:
            dirs.append(os.path.dirname(os.path.abspath(file)) + os.sep)
    return tuple(dirs)


def _jax_dirs() -> tuple[str, ...]:
    return tuple(
        d for d in _package_dirs() if os.path.basename(d.rstrip(os.sep)) in ("jax", "jaxlib")
    )


def _is_library_frame(filename: str, package_dirs: tuple[str, ...], stdlib: str) -> bool:
    if filename.startswith("<frozen") or filename.startswith("<string>"):
        return filename.startswith("<frozen")
    full = os.path.abspath(filename)
    if full.startswith(package_dirs):
        return True
    in_site = "site-packages" in full or "dist-packages" in full
    return bool(stdlib) and full.startswith(stdlib) and not in_site


def _raised_in_jax(exc: BaseException) -> bool:
    """Raised by a JAX frame: the last frame is JAX's, or JAX filtered its frames away."""
    frames = traceback.extract_tb(exc.__traceback__)
    if frames and os.path.abspath(frames[-1].filename).startswith(_jax_dirs()):
        return True
    notes = getattr(exc, "__notes__", None) or []
    return any("JAX has removed its internal frames" in str(n) for n in notes)


def user_frame(exc: BaseException) -> traceback.FrameSummary | None:
    """The innermost frame of the traceback that is the user's code, not a library's."""
    package_dirs = _package_dirs()
    stdlib = os.path.abspath(sysconfig.get_paths().get("stdlib", "")) + os.sep
    frames = traceback.extract_tb(exc.__traceback__)
    for frame in reversed(frames):
        if not _is_library_frame(frame.filename, package_dirs, stdlib):
            return frame
    return None


def _traced_function(message: str) -> dict[str, Any] | None:
    """Parse JAX's 'The error occurred while tracing the function f at file:line for jit.'"""
    marker = "The error occurred while tracing the function "
    start = message.find(marker)
    if start < 0:
        return None
    rest = message[start + len(marker) :].split(" for ", 1)[0]
    name, sep, where = rest.rpartition(" at ")
    if not sep:
        return None
    file, _, line = where.rpartition(":")
    return {"function": name, "file": file, "line": int(line) if line.isdigit() else None}


def describe_exception(exc: BaseException, phase: str | None = None) -> dict[str, Any]:
    """The JSON ``error`` object for an exception raised by the user's code."""
    message = str(exc)
    error: dict[str, Any] = {
        "class": class_name(exc),
        "message": message.splitlines()[0] if message.strip() else "",
    }
    if len(message.splitlines()) > 1:
        error["details"] = message[:4000]
    if phase:
        error["phase"] = phase
    frame = user_frame(exc)
    if frame is not None:
        error["file"] = frame.filename
        error["line"] = frame.lineno
        error["function"] = frame.name
        code = frame.line or linecache.getline(frame.filename, frame.lineno or 0).strip()
        if code:
            error["code"] = code
    traced = _traced_function(message)
    if traced is not None:
        error["traced_function"] = traced
    error["rule"] = predicted_rule(exc)
    return error
