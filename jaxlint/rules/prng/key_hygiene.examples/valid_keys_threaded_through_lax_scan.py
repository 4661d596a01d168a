import jax
import jax.numpy as jnp


def body(carry, x):
    key, total = carry
    key, sub = jax.random.split(key)
    return (key, total + x * jax.random.normal(sub)), total


(key, total), _ = jax.lax.scan(body, (jax.random.key(0), 0.0), jnp.arange(3.0))
