import jax
import jax.numpy as jnp


@jax.jit
def clipped_update(w, g, lr):
    norm = jnp.linalg.norm(g)
    if norm > 0 and lr < 1:  # expect: JAX201
        return w - lr * g / norm
    return w


clipped_update(jnp.ones(3), jnp.ones(3), 0.1)
