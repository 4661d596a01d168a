import jax
key = jax.random.PRNGKey(0)  # noqa: JAX3
