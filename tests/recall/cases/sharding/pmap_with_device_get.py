import jax
import jax.numpy as jnp


def evaluate(params, batches):
    p_eval = jax.pmap(lambda p, x: jnp.mean(x * p), in_axes=(None, 0))  # expect: JAX501
    return [jax.device_get(p_eval(params, b)) for b in batches]
