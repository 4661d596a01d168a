import jax
import jax.numpy as jnp
from jax import lax

def body(carry, x):
    for _ in range(128):
        carry = carry * x
    return carry, None

lax.scan(body, 1.0, jnp.ones(3))
