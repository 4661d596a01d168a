import jax
import jax.numpy as jnp

with jax.enable_x64(True):
    x = jnp.ones(3).astype(jnp.float64)
    assert x.dtype == jnp.float64
