import jax
import jax.numpy as jnp


@jax.jit
def pad(x):
    if x.shape[0] < 8:
        return jnp.pad(x, (0, 8 - x.shape[0]))
    return x


print(pad(jnp.ones(3)))
