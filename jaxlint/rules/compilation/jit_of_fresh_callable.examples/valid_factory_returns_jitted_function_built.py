import jax
import jax.numpy as jnp

def make_step(lr):
    return jax.jit(lambda w, g: w - lr * g)

step = make_step(0.1)
step(jnp.ones(3), jnp.ones(3))
