import jax
import jax.numpy as jnp

def repeat(x, k):
    out = [x for _ in range(k)]
    return jnp.stack(out)

jax.vmap(repeat, in_axes=(None, 0))(jnp.ones(3), jnp.arange(2))
