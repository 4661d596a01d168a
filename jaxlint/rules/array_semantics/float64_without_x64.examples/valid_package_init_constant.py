"""A package's constants: imported by the application, after it has chosen x64."""

import jax.numpy as jnp

TINY = jnp.asarray(1e-300, dtype=jnp.float64)
