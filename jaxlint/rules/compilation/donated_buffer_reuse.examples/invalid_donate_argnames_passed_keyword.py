import jax
import jax.numpy as jnp

def step(params, grads):
    return params - grads

update = jax.jit(step, donate_argnames='params')

params = jnp.ones(3)
new = update(params=params, grads=jnp.ones(3))
delta = new - params
