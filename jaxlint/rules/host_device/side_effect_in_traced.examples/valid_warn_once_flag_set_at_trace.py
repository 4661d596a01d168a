import warnings

import jax
import jax.numpy as jnp

_WARNED = False


def _warn_if_large(n):
    """A one-time warning: under `jit` it runs when the function is first traced."""
    global _WARNED
    if _WARNED or n <= 1_000:
        return
    _WARNED = True
    warnings.warn(f"{n} rows: this may need a lot of memory", stacklevel=2)


@jax.jit
def total(x):
    _warn_if_large(x.shape[0])
    return jnp.sum(x)


total(jnp.ones(2_000))
total(jnp.ones(3_000))
