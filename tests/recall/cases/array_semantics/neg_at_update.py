import jax
import jax.numpy as jnp


@jax.jit
def bump(x: jax.Array, i, v):
    return x.at[i].add(v)


print(bump(jnp.zeros(4), 1, 2.0))
