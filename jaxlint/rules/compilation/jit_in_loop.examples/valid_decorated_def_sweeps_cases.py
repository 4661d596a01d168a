import jax
import jax.numpy as jnp

for dtype in (jnp.float32, jnp.int32):
    @jax.jit
    def make(n):
        return jnp.ones(3, dtype=dtype) * n

    print(make(2))
