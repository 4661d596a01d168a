import jax
import jax.numpy as jnp


def fit(x):
    calls = 0

    def loss(w):
        nonlocal calls
        calls += 1  # expect: JAX104
        return jnp.sum((x * w) ** 2) / calls

    step = jax.jit(jax.grad(loss))  # expect: JAX402
    return step(jnp.ones(3))


fit(jnp.ones(3))
