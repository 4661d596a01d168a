import jax
import jax.numpy as jnp


def loss(w, x):
    return jnp.sum((w - x) ** 2)


def test_training_converges():
    w = jnp.ones(3)
    x = jnp.full(3, 0.5)
    for i in range(100):
        w = jax.jit(lambda w: w - 0.1 * jax.grad(loss)(w, x))(w)
    assert float(loss(w, x)) < 1e-3
