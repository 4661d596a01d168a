"""The prefilter: a file that never mentions JAX is not parsed (kept light: no libcst)."""

from __future__ import annotations

import re

PREFILTER_WORDS = ("jax", "flax", "equinox", "haiku", "optax")
"""A file whose text contains none of these cannot involve JAX and is not parsed."""

_PREFILTER_RE = re.compile("|".join(PREFILTER_WORDS))


def mentions_jax(text: str) -> bool:
    return _PREFILTER_RE.search(text) is not None
