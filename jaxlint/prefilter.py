"""The prefilter: a file that never mentions JAX is not parsed (kept light: no libcst)."""

from __future__ import annotations

import functools
import re

PREFILTER_WORDS = ("jax", "flax", "equinox", "haiku", "optax")
"""A file whose text contains none of these cannot involve JAX and is not parsed."""

_PREFILTER_RE = re.compile("|".join(PREFILTER_WORDS))


@functools.lru_cache(maxsize=64)
def _pattern(extra: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile("|".join([*PREFILTER_WORDS, *(re.escape(word) for word in extra)]))


def mentions_jax(text: str, extra: tuple[str, ...] = ()) -> bool:
    """Whether ``text`` contains a JAX library's name or one of the ``extra`` words
    (the project's own traced decorators and wrappers, ``Settings.prefilter_words``)."""
    if not extra:
        return _PREFILTER_RE.search(text) is not None
    return _pattern(extra).search(text) is not None
