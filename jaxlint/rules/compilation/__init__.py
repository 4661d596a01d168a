"""JAX4xx: recompilation and wasted compilation.

Rules: JAX401 jit-in-loop (`JitInLoop`), JAX402 jit-of-fresh-callable (`JitOfFreshCallable`),
JAX403 jit-method-self (`JitMethodSelf`), JAX404 unhashable-static-arg
(`UnhashableStaticArg`), JAX405 donated-buffer-reuse (`DonatedBufferReuse`), JAX406
jit-bound-method-state (`JitBoundMethodState`).

``jax.jit`` caches a compiled program on the identity of the function it wraps (and
on the static arguments, shapes and dtypes of a call). Code that builds a new
function to jit on every loop iteration or every call misses that cache and traces
and compiles again; code that rebuilds the wrapper around the same function hits
the cache but loses JAX's fast C++ dispatch path. Static arguments must be
hashable, ``self`` is not an array, and a donated argument's buffers are deleted
by the call. Each claim is checked on jax 0.12 (CPU): see the runtime-truth
examples and tests/test_compilation_runtime.py.
"""

from __future__ import annotations

from jaxlint.rules.compilation.donated_buffer_reuse import DonatedBufferReuse
from jaxlint.rules.compilation.jit_bound_method_state import JitBoundMethodState
from jaxlint.rules.compilation.jit_in_loop import JitInLoop
from jaxlint.rules.compilation.jit_method_self import JitMethodSelf
from jaxlint.rules.compilation.jit_of_fresh_callable import JitOfFreshCallable
from jaxlint.rules.compilation.unhashable_static_arg import UnhashableStaticArg

__all__ = [
    "DonatedBufferReuse",
    "JitBoundMethodState",
    "JitInLoop",
    "JitMethodSelf",
    "JitOfFreshCallable",
    "UnhashableStaticArg",
]
