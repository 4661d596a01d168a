import jax
import jax.numpy as jnp

KEY = jax.random.key(0)


@jax.jit
def dropout(x):
    mask = jax.random.bernoulli(KEY, 0.5, x.shape)  # expect: JAX305
    return jnp.where(mask, x, 0.0)
