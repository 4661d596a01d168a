import jax
import jax.numpy as jnp

@jax.jit
def f(x):
    n = jnp.argmax(x)
    return [x[i] for i in range(0, n, 1)]

f(jnp.arange(4.0))
