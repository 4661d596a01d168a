import jax
import jax.numpy as jnp


@jax.jit
def scale(x, s):
    if isinstance(s, (int, float)):
        print("a Python scalar")
    return x * float(s)


scale(jnp.ones(2), jnp.float32(2.0))
