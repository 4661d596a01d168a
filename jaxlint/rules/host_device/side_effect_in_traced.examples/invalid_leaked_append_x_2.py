import jax
import jax.numpy as jnp

leaked = []


@jax.jit
def f(x):
    leaked.append(x * 2)
    return x + 1


f(jnp.ones(2))
jnp.sum(leaked[0])
