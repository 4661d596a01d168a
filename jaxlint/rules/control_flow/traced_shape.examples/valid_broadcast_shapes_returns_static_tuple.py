import jax
import jax.numpy as jnp
from jax import lax

@jax.jit
def f(p, n):
    shape = lax.broadcast_shapes(jnp.shape(p), jnp.shape(n))
    return jnp.reshape(jnp.broadcast_to(p, shape), -1) + jnp.zeros(shape).ravel()

f(jnp.ones((2, 1)), jnp.ones(3))
