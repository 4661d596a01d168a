"""JAX3xx: PRNG keys.

The rules ask :mod:`jaxlint.analysis.keys` (``self.ctx.keys``) which values are keys
and where each is consumed, and the trace analysis (``self.ctx.trace``) which code
is traced. One module per rule:

- JAX301 prng-key-reuse (:mod:`.prng_key_reuse`)
- JAX302 legacy-prng-key (:mod:`.legacy_prng_key`)
- JAX303 host-rng-in-traced (:mod:`.host_rng_in_traced`)
- JAX304 constant-key-in-loop (:mod:`.constant_key_in_loop`)
- JAX305 global-prng-key (:mod:`.global_prng_key`)
- JAX306 prng-key-reuse-contract (:mod:`.prng_key_reuse_contract`)

Shared: :mod:`.helpers` (text and position helpers) and :mod:`.key_hygiene` (VALID
examples of correct key handling that several rules share).
"""

from __future__ import annotations

from jaxlint.rules.prng.constant_key_in_loop import ConstantKeyInLoop
from jaxlint.rules.prng.global_prng_key import GlobalPrngKey
from jaxlint.rules.prng.host_rng_in_traced import HostRngInTraced
from jaxlint.rules.prng.legacy_prng_key import LegacyPrngKey
from jaxlint.rules.prng.prng_key_reuse import PrngKeyReuse
from jaxlint.rules.prng.prng_key_reuse_contract import PrngKeyReuseContract

__all__ = [
    "ConstantKeyInLoop",
    "GlobalPrngKey",
    "HostRngInTraced",
    "LegacyPrngKey",
    "PrngKeyReuse",
    "PrngKeyReuseContract",
]
