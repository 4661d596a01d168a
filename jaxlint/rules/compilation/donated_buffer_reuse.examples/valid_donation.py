import jax
import jax.numpy as jnp

@jax.jit
def update(w):
    return w * 2

w = jnp.ones(3)
out = update(w)
print(w.sum())
