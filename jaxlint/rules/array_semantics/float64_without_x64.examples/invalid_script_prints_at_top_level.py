import jax
import jax.numpy as jnp


@jax.jit
def loss(w, x):
    return jnp.mean((x @ w - 1.0) ** 2)


w = jnp.zeros(3, dtype=jnp.float64)
x = jnp.ones((4, 3))
for step in range(3):
    w = w - 0.1 * jax.grad(loss)(w, x)
    print(step, loss(w, x))
