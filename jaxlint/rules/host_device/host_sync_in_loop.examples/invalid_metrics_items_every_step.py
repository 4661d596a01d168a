import jax
import jax.numpy as jnp


@jax.jit
def train_step(w, x):
    w = w - 0.01 * x
    return w, {"loss": jnp.sum(w**2), "norm": jnp.linalg.norm(w)}


history = {"loss": [], "norm": []}
w = jnp.ones(3)
for step in range(1000):
    w, metrics = train_step(w, jnp.ones(3))
    for name, value in metrics.items():
        history[name].append(float(value))
