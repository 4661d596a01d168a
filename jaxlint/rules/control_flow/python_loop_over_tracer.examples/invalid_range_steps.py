from flax import nnx
import jax.numpy as jnp

@nnx.jit
def rollout(model, x, steps):
    for _ in range(steps):
        x = model(x)
    return x
