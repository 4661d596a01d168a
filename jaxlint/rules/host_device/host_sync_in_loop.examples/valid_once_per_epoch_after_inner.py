import jax
import jax.numpy as jnp


@jax.jit
def step(w, x):
    return w - 0.1 * x, jnp.sum(w)


w = jnp.ones(3)
for epoch in range(20):
    for i in range(100):
        w, loss = step(w, jnp.ones(3))
    print(f'epoch {epoch}: {float(loss):.4f}')
