import jax
import jax.numpy as jnp

def pool(x, size):
    head = x.shape[0] % size * (x.shape[0] // size + 1)
    return x[:head].sum() + x[head:].reshape(-1, x.shape[0] // size).sum()

jax.vmap(pool, (0, None), 0)(jnp.ones((2, 5)), 2)
