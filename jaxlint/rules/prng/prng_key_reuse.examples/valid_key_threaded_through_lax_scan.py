import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)


def body(carry, x):
    key, total = carry
    key, sub = jax.random.split(key)
    return (key, total + x * jax.random.normal(sub)), total


def run(key, xs):
    (key, total), _ = jax.lax.scan(body, (key, 0.0), xs)
    return jax.random.normal(key), total


run(jax.random.key(0), jnp.arange(3.0))
