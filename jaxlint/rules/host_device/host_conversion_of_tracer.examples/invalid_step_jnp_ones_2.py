import jax
import jax.numpy as jnp


def rows(x):
    return x.tolist()


step = jax.jit(rows)
step(jnp.ones(2))
