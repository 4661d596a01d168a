import jax
import jax.numpy as jnp

key = jax.random.key(0)
w = jnp.zeros(3)
for _ in range(100):
    key, sub = jax.random.split(key)
    w = w + 0.01 * jax.random.normal(sub, w.shape)
