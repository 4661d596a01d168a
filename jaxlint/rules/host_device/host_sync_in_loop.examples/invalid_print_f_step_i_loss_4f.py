import jax
import jax.numpy as jnp


@jax.jit
def step(w):
    return w * 0.5, jnp.sum(w)


w = jnp.ones(3)
for i in range(1000):
    w, loss = step(w)
    print(f'step {i}: {loss:.4f}')
