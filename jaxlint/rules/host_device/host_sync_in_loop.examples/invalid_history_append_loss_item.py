import jax
import jax.numpy as jnp


@jax.jit
def train_step(w, x):
    w = w - 0.1 * x
    return w, jnp.sum(w ** 2)


def train(w, batches):
    history = []
    for batch in batches:
        w, loss = train_step(w, batch)
        history.append(loss.item())
    return w, history


if __name__ == "__main__":
    w, history = train(jnp.ones(3), [jnp.full(3, 0.1)] * 20)
