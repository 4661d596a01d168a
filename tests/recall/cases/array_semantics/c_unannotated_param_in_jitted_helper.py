import jax
import jax.numpy as jnp


def decay_tail(weights, rate):
    weights[-1] *= rate  # expect: JAX601
    return weights / weights.sum()


@jax.jit
def normalize(w):
    return decay_tail(w, 0.5)


normalize(jnp.ones(4))
