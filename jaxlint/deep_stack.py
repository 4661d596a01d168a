"""Run a function with room for very deep recursion: a big thread stack and a high limit.

jaxlint's walks over a file (the semantic model, the tracing analysis, the rules'
own helpers, libcst's visitors) recurse once or a few times per level of an
expression. Python's default recursion limit (1,000 frames) stops them at a few
hundred levels, while CPython itself compiles expressions nested about 3,000 deep
(a 2,995-term ``+`` chain, unary minus, subscripts, calls, attribute chains; see
``tests/test_reliability.py``). A file that hits the limit is linted again by
:func:`call`: in a thread whose C stack is :data:`STACK_BYTES`, under a recursion
limit of :data:`RECURSION_LIMIT`. Both were measured: the deepest expressions
CPython compiles lint with a few times fewer frames than the limit, and each
frame needs far less C stack than its share. Only such files pay for the
second run; the limit is restored afterwards.

Python 3.12 also caps calls that go through C (about 1,500 deep, whatever the
recursion limit), and libcst's code generation (which positions and
``ctx.code`` use) makes one per level: ``CSTNode._codegen`` passes ``**kwargs``
on. Inside :func:`call` it is replaced by :func:`_codegen`, the same steps with a
plain call when there are no keyword arguments, so it does not pass through C.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import Any, TypeVar

import libcst as cst

T = TypeVar("T")

STACK_BYTES = 1 << 30
"""The deep thread's C stack (virtual memory: pages are only used as the stack grows)."""

RECURSION_LIMIT = 100_000
"""Python frames allowed in the deep thread (the measured need is below 40,000)."""

_state = threading.local()


def active() -> bool:
    """True inside :func:`call` (a second retry would not get more room)."""
    return getattr(_state, "deep", False)


def call(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``fn(*args, **kwargs)`` in a thread with a big stack and a high recursion limit."""
    box: dict[str, Any] = {}

    def target() -> None:
        _state.deep = True
        original = cst.CSTNode._codegen
        cst.CSTNode._codegen = _codegen  # type: ignore[method-assign]
        try:
            box["value"] = fn(*args, **kwargs)
        except BaseException as exc:  # handed to the caller's thread
            box["error"] = exc
        finally:
            cst.CSTNode._codegen = original  # type: ignore[method-assign]

    old_size = threading.stack_size()
    try:
        threading.stack_size(STACK_BYTES)
    except (ValueError, RuntimeError):
        pass  # this platform does not let the stack size be chosen: the limit still helps
    try:
        thread = threading.Thread(target=target, name="jaxlint-deep-stack", daemon=True)
    finally:
        threading.stack_size(old_size)
    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, RECURSION_LIMIT))
    try:
        thread.start()
        thread.join()
    finally:
        sys.setrecursionlimit(old_limit)
    if "error" in box:
        raise box["error"]
    return box["value"]


def _codegen(self: cst.CSTNode, state: Any, **kwargs: Any) -> None:
    """libcst's ``CSTNode._codegen``, step for step, without ``f(**{})`` when there are no
    keyword arguments (Python 3.12 runs ``f(**kwargs)`` through C, one C level per node)."""
    state.before_codegen(self)
    if kwargs:
        self._codegen_impl(state, **kwargs)
    else:
        self._codegen_impl(state)
    state.after_codegen(self)
