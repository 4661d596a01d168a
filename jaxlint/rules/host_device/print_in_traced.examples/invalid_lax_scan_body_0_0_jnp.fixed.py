import jax.numpy as jnp
from jax import lax
import jax


def body(carry, x):
    jax.debug.print("carry: {}", carry)
    return carry + x, carry


lax.scan(body, 0.0, jnp.arange(3.0))
