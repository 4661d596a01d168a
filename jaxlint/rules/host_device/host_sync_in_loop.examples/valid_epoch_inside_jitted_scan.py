import jax
import jax.numpy as jnp


@jax.jit
def train_epoch(w, xs):
    def body(w, x):
        w = w - 0.1 * x
        return w, jnp.sum(w**2)

    w, losses = jax.lax.scan(body, w, xs)
    return w, losses.mean()


w = jnp.ones(3)
xs = jnp.ones((100, 3))
for epoch in range(50):
    w, loss = train_epoch(w, xs)
    print(f"epoch {epoch}: {float(loss):.4f}")
