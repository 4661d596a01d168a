import jax.numpy as jnp
x = jnp.zeros(3, jnp.float64)  # noqa: JAX603
