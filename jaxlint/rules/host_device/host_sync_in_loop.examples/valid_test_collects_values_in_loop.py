import jax
import jax.numpy as jnp


@jax.jit
def step(w):
    w = 0.9 * w
    return w, jnp.sum(w**2)


def _loss_curve(num_steps):
    w = jnp.ones(3)
    losses = []
    for _ in range(num_steps):
        w, loss = step(w)
        losses.append(float(loss))
    return losses


def test_loss_decreases():
    losses = _loss_curve(50)
    assert losses[-1] < losses[0]


if __name__ == "__main__":
    test_loss_decreases()
