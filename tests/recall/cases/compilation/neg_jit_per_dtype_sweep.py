import jax
import jax.numpy as jnp


def square(x):
    return x * x


for dtype in (jnp.float32, jnp.int32):
    f = jax.jit(square)
    print(f(jnp.ones(3, dtype=dtype)))
