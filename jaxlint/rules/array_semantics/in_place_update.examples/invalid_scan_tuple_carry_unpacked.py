import jax.numpy as jnp
from jax import lax


def body(carry, x):
    total, hist = carry
    hist[0] *= 0.9
    return (total + x, hist), total


print(lax.scan(body, (0.0, jnp.ones(3)), jnp.arange(4.0)))
