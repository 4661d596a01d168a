import jax
import jax.numpy as jnp

x = jnp.ones(3)
for dtype in (jnp.float32, jnp.int32):
    y = jax.jit(lambda v: v.astype(dtype))(x)
