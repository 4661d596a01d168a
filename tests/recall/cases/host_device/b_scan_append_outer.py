import jax
import jax.numpy as jnp

history = []


def body(carry, x):
    carry = carry * 0.9 + x
    history.append(carry)  # expect: JAX104
    return carry, carry


final, ys = jax.lax.scan(body, jnp.zeros(()), jnp.arange(5.0))
