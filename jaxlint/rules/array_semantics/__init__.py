"""JAX6xx: array semantics that differ from NumPy.

Rules: JAX601 in-place-update (`InPlaceUpdate`), JAX602 empty-not-zeros (`EmptyNotZeros`),
JAX603 float64-without-x64 (`Float64WithoutX64`), JAX604 discarded-index-update
(`DiscardedIndexUpdate`).
"""

from __future__ import annotations

from jaxlint.rules.array_semantics.discarded_index_update import DiscardedIndexUpdate
from jaxlint.rules.array_semantics.empty_not_zeros import EmptyNotZeros
from jaxlint.rules.array_semantics.float64_without_x64 import Float64WithoutX64
from jaxlint.rules.array_semantics.in_place_update import InPlaceUpdate

__all__ = ["DiscardedIndexUpdate", "EmptyNotZeros", "Float64WithoutX64", "InPlaceUpdate"]
