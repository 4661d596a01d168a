import jax
import jax.numpy as jnp

@jax.vmap
def f(x):
    return jnp.where(x > 0, x, -x)

g = jax.vmap(lambda x, k: x if k > 0 else -x, in_axes=(0, None))
f(jnp.ones(3))
g(jnp.ones(3), 1.0)
