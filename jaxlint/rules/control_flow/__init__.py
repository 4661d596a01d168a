"""JAX2xx: Python control flow on traced values.

Python decides ``if``, ``while``, ``range(n)`` and array shapes while JAX traces the
function, so it needs concrete values there. Inside ``jit`` (and ``vmap``, lax loop
bodies, ``checkpoint``...) the arguments are abstract tracers: asking for their
truth value, their integer value or a shape made of them raises. The rules here
fire only on values the trace analysis says are *definitely* traced by such a
transform (``TraceAnalysis.is_abstract``); under ``grad`` alone values stay
concrete and Python control flow works.

Rules, one module each: JAX201 ``python_branch_on_tracer``, JAX202
``python_loop_over_tracer``, JAX203 ``traced_shape``, JAX204 ``large_unrolled_loop``;
their shared queries are in ``helpers``.
"""

from __future__ import annotations

from jaxlint.rules.control_flow.large_unrolled_loop import LargeUnrolledLoop
from jaxlint.rules.control_flow.python_branch_on_tracer import PythonBranchOnTracer
from jaxlint.rules.control_flow.python_loop_over_tracer import PythonLoopOverTracer
from jaxlint.rules.control_flow.traced_shape import TracedShape

__all__ = ["LargeUnrolledLoop", "PythonBranchOnTracer", "PythonLoopOverTracer", "TracedShape"]
