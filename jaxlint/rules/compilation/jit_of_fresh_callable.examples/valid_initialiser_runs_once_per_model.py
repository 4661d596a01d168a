import jax
import jax.numpy as jnp

def initialized(key, shape):
    @jax.jit
    def init(k):
        return jax.random.normal(k, shape)

    return init(key)

initialized(jax.random.key(0), (3,))
