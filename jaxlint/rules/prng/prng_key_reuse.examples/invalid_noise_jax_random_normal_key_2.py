import jax
from jax import random

jax.config.update("jax_debug_key_reuse", True)


key = jax.random.key(0)
k1, k2 = jax.random.split(key)
noise = jax.random.normal(key, (2,))
