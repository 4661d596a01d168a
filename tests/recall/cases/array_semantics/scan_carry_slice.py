import jax
import jax.numpy as jnp
from jax import lax


def step(carry, x):
    carry[0] += x  # expect: JAX601
    return carry, carry[0]


def cumulative(xs):
    return lax.scan(step, jnp.zeros(2), xs)


print(cumulative(jnp.arange(3.0)))
