import jax
import jax.numpy as jnp


def loss(w, x):
    err = x @ w
    if jnp.max(err) > 100.0:  # expect: JAX201
        err = err / 100.0
    return jnp.mean(err**2)


@jax.jit
def train_step(w, x):
    g = jax.grad(loss)(w, x)
    return w - 0.1 * g


train_step(jnp.ones(3), jnp.ones((4, 3)))
