import jax.numpy as jnp
from jax import lax


def step(carry, x):
    carry = dict(carry)
    carry["sum"] = carry["sum"] + x
    return carry, x


print(lax.scan(step, {"sum": jnp.zeros(())}, jnp.arange(3.0)))
