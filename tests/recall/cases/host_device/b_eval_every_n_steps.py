import jax
import jax.numpy as jnp


@jax.jit
def train_step(w, x):
    loss = jnp.mean((x @ w) ** 2)
    return w - 0.01 * x.T @ (x @ w), loss


w = jnp.ones(3)
x = jnp.ones((8, 3))
for step in range(1000):
    w, loss = train_step(w, x)
    if step % 100 == 0:
        print(f"step {step}: {float(loss):.4f}")
