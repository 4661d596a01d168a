import jax
import jax.numpy as jnp

x = jnp.ones(3)
scale = 1.0
for i in range(3):
    scale = scale * 0.5

    def shrink(v):
        return v * scale

    x = jax.jit(shrink)(x)
