import jax.numpy as jnp
from flax import nnx


@nnx.jit
def gated(model, x):
    y = model(x)
    if y.sum() > 0:  # expect: JAX201
        y = y * 2
    return y
