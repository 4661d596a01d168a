from flax import nnx
import jax.numpy as jnp

@nnx.jit
def step(model, x):
    y = model(x)
    if jnp.isnan(y).any():
        y = jnp.zeros_like(y)
    return y
