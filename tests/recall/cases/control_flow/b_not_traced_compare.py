import jax
import jax.numpy as jnp


@jax.jit
def safe_log(x):
    if not jnp.all(x > 0):  # expect: JAX201
        x = jnp.clip(x, 1e-6)
    return jnp.log(x)


safe_log(jnp.ones(3))
