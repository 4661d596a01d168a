import jax.numpy as jnp
x = jnp.zeros(3)

def reset():
    x[0] = 0.0

reset()
