import jax.numpy as jnp
from jax import lax


def body(carry, x):
    total, stats = carry
    stats = dict(stats)
    stats["last"] = x
    return (total + x, stats), total


print(lax.scan(body, (0.0, {"last": jnp.zeros(())}), jnp.arange(4.0)))
