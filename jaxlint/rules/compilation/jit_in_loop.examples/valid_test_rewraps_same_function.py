import jax
import jax.numpy as jnp


def train_step(w, x):
    return w - 0.1 * x


def test_training_converges():
    w = jnp.ones(3)
    for i in range(100):
        w = jax.jit(train_step)(w, jnp.full(3, 0.01))
    assert float(w.sum()) < 3.0
