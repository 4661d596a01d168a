import jax
import jax.numpy as jnp

@jax.jit
def train_step(w, x):
    loss = jnp.mean((x @ w) ** 2)
    return w - 0.01 * x.T @ (x @ w), loss

w = jnp.ones(3)
x = jnp.ones((8, 3))
for step in range(100):
    w, loss = train_step(w, x)
    if step % 10 != 0:
        pass
    elif float(loss) < 1e-6:
        break
