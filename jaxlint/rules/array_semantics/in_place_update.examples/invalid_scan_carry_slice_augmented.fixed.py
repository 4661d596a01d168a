import jax.numpy as jnp
from jax import lax


def step(carry, x):
    carry = carry.at[0].add(x)
    return carry, carry[0]


print(lax.scan(step, jnp.zeros(2), jnp.arange(3.0)))
