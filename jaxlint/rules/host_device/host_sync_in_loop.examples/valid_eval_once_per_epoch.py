import jax
import jax.numpy as jnp


@jax.jit
def train_step(w, x):
    return w - 0.01 * x


@jax.jit
def eval_loss(w, x):
    return jnp.sum((w - x) ** 2)


w = jnp.ones(3)
val = jnp.zeros(3)
for epoch in range(10):
    for step in range(100):
        w = train_step(w, jnp.ones(3))
    val_loss = eval_loss(w, val)
    print(f"epoch {epoch}: val loss {float(val_loss):.4f}")
