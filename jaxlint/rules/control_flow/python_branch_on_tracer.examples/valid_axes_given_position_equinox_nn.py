import jax
import jax.numpy as jnp

def pool(x, size):
    extra = x.shape[0] % size
    if extra != 0:
        x = x[extra:]
    return x.reshape(-1, size).mean(axis=1)

jax.vmap(pool, (0, None), 0)(jnp.ones((2, 5)), 2)
