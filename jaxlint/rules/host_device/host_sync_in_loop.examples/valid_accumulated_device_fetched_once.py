import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def step(w, x):
    return w - 0.1 * x, jnp.sum(w)


w = jnp.ones(3)
losses = []
for i in range(50):
    w, loss = step(w, jnp.ones(3))
    losses.append(loss)
history = np.asarray(jnp.stack(losses))
