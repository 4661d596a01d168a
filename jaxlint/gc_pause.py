"""Python's cyclic garbage collector paused while one file is linted.

A libcst parse allocates tens of thousands of objects per file, and the
analysis adds as many again; each allocation burst triggers the collector,
which keeps re-scanning the file's tree while it is still in use (and, in its
older generations, everything else alive). None of that can be garbage until
the file is done: the tree has no cycles of its own, and the few cycles the
rules make (a rule, its file context, its findings) die with the file. So the
collector is switched off for the file and the young generations are collected
once afterwards: about 8% of a cold run on flax, with the same peak memory.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Pause automatic collection in the block; collect the young generations after it.

    Nested use, or a caller that turned the collector off itself, changes nothing.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.collect(1)
