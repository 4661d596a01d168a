import jax
import jax.numpy as jnp

KEY = jax.random.key(0)


@jax.jit
def dropout(x, rate):
    keep = jax.random.bernoulli(KEY, 1.0 - rate, x.shape)  # expect: JAX305
    return jnp.where(keep, x / (1.0 - rate), 0.0)


dropout(jnp.ones(3), 0.1)
