import jax
import jax.numpy as jnp


@jax.jit
def train_step(w, x):
    w = w - 0.01 * x
    return w, jnp.sum(w**2)


@jax.jit
def eval_step(w, x):
    return jnp.sum((w - x) ** 2)


eval_batches = [jnp.full(3, float(i)) for i in range(20)]
w = jnp.ones(3)
for step in range(500):
    w, loss = train_step(w, jnp.ones(3))
    if step % 100 == 0 or step == 1:
        total = 0.0
        for batch in eval_batches:
            total += eval_step(w, batch).item()
        print(f"step {step}: eval loss {total / len(eval_batches):.4f}")
