import jax
import jax.numpy as jnp


def walk(key, x):
    for _ in range(3):
        key, sub = jax.random.split(key)
        x = x + jax.random.normal(sub, x.shape)
    return x


walk(jax.random.key(0), jnp.zeros(3))
