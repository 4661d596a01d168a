import jax
import jax.numpy as jnp

layers = [jnp.ones((3, 3)), jnp.ones((3, 3))]

@jax.jit
def f(x):
    for w in layers:
        x = jnp.tanh(x @ w)
    for row in x.reshape(3, 1):
        x = x + row
    return x

f(jnp.ones(3))
