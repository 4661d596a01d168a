import jax
import jax.numpy as jnp


@jax.jit
def normalize(x):
    n = float(x.shape[0])
    return x / n


print(normalize(jnp.ones(4)))
