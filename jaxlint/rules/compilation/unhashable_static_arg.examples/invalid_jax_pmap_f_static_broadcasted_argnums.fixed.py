import jax
import jax.numpy as jnp

def f(x, n):
    return x * len(n)

jax.pmap(f, static_broadcasted_argnums=1)(jnp.ones((1, 3)), (1, 2))
