import jax
import jax.numpy as jnp


@jax.jit
def positive_mean(scores):
    mask = scores > 0
    return jnp.sum(jnp.where(mask, scores, 0.0)) / jnp.maximum(mask.sum(), 1)


positive_mean(jnp.array([1.0, -2.0, 3.0]))
