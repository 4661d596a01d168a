import jax
import jax.numpy as jnp


@jax.jit
def bump(x: jax.Array, i, v):
    x[i] += v  # expect: JAX601
    return x


print(bump(jnp.zeros(4), 1, 2.0))
