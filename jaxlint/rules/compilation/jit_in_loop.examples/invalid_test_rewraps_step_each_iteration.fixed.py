import jax
import jax.numpy as jnp


def train_step(w, x):
    return w - 0.1 * x


def test_training_converges():
    w = jnp.ones(3)
    train_step_jit = jax.jit(train_step)
    for i in range(100):
        w = train_step_jit(w, jnp.full(3, 0.01))
    assert float(w.sum()) < 3.0
