import jax
import jax.numpy as jnp
import numpy as onp


def noisy(x):
    return x + onp.random.normal()  # expect: JAX303


print(jax.vmap(noisy)(jnp.ones(3)))
