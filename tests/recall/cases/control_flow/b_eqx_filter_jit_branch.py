import equinox as eqx
import jax.numpy as jnp


@eqx.filter_jit
def step(x: jnp.ndarray, training: bool):
    if training and x.sum() > 0:  # expect: JAX201
        x = x * 0.5
    return x
