import jax.numpy as jnp
from jax import lax


def step(carry, x):
    carry = dict(carry)
    carry["total"] = carry["total"] + x
    return carry, x


print(lax.scan(step, {"total": jnp.zeros(())}, jnp.arange(3.0)))
