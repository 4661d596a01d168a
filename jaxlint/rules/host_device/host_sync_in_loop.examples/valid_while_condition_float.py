import jax
import jax.numpy as jnp

@jax.jit
def step(w):
    loss = jnp.sum(w ** 2)
    return w * 0.9, loss

w = jnp.ones(4)
w, loss = step(w)
while float(loss) > 1e-3:
    w, loss = step(w)
