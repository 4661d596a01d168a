import jax
import jax.numpy as jnp


@jax.jit
def outer(x):
    for _ in range(3):
        x = jax.jit(jnp.sin)(x)
    return x


print(outer(jnp.ones(2)))
