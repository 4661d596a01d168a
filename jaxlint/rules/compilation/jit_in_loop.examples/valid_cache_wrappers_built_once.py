import jax
import jax.numpy as jnp

def f(x, n):
    return x * n

jitted = {n: jax.jit(f, static_argnums=1) for n in (1, 2)}
for n in (1, 2):
    jitted[n](jnp.ones(3), n)
