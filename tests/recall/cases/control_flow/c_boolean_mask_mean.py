import jax
import jax.numpy as jnp


@jax.jit
def positive_mean(scores):
    kept = scores[scores > 0]  # expect: JAX203
    return kept.mean()


positive_mean(jnp.array([1.0, -2.0, 3.0]))
