import jax
import jax.numpy as jnp

@jax.jit
def step(ref, x):
    ref[...] += x
    ref[0] = 0.0
    return x

r = jax.new_ref(jnp.zeros(3))
step(r, jnp.ones(3))
r[...] = jnp.ones(3)
