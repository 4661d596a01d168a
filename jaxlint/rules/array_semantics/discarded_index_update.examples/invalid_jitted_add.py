import jax
import jax.numpy as jnp


@jax.jit
def bump(counts, i):
    counts.at[i].add(1)
    return counts


result = bump(jnp.zeros(3), 1)
