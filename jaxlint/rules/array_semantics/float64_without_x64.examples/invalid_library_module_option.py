import jax.numpy as jnp


def as_double(x):
    return jnp.asarray(x, dtype=jnp.float64)


LOG_2PI = jnp.log(2 * jnp.pi * as_double(1.0))
