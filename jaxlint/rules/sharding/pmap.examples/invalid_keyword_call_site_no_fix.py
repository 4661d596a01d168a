import jax
import jax.numpy as jnp

def weighted(x, w):
    p_mul = jax.pmap(lambda x, w: x * w)
    return p_mul(x, w=w)

n = jax.device_count()
y = weighted(jnp.arange(n * 3.0).reshape(n, 3), jnp.ones((n, 3)))
