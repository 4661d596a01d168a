import jax
import jax.numpy as jnp


@jax.jit
def positive(x):
    return bool(x > 0)


positive(jnp.float32(1.0))
