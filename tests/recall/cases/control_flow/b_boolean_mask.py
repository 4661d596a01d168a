import jax
import jax.numpy as jnp


@jax.jit
def positive_mean(x):
    pos = x[x > 0]  # expect: JAX203
    return pos.mean()


positive_mean(jnp.arange(-3.0, 3.0))
