import jax
import jax.numpy as jnp


@jax.jit
def train_step(w, x):
    w = w - 0.01 * x
    return w, jnp.sum(w**2)


w = jnp.ones(3)
for step in range(1000):
    w, loss = train_step(w, jnp.ones(3))
    if step % 100 == 0:
        continue
    print(f"step {step}: loss {float(loss):.4f}")
