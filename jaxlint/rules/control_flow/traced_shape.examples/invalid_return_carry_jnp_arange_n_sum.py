import jax
import jax.numpy as jnp
from jax import lax

def body(carry, n):
    return carry + jnp.arange(n).sum(), None

lax.scan(body, 0, jnp.arange(3))
