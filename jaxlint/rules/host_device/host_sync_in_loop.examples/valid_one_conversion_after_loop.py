import jax
import jax.numpy as jnp


@jax.jit
def step(w, x):
    w = w - 0.1 * x
    return w, jnp.sum(w ** 2)


w = jnp.ones(3)
for i in range(100):
    w, loss = step(w, jnp.ones(3))
print(float(loss))
