from jax.numpy import isin
import jax.numpy as jnp

ok = isin(1, jnp.arange(3))
