import jax
import jax.numpy as jnp


@jax.jit
def step(w, x):
    w = w - 0.1 * x
    return w, jnp.sum(w ** 2)


w = jnp.ones(3)
for i in range(1000):
    w, loss = step(w, jnp.ones(3))
    if i % 100 == 0:
        print(f'step {i}: {float(loss):.4f}')
